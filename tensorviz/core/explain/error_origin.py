"""Who raised an error — torch, NumPy, pandas, another library, Python itself or the user's own
`raise` — decided by the code that raised it, never by words in its message.

1. The exception's type, when a library defines it (NumPy's _UFuncOutputCastingError, torch's
   OutOfMemoryError): that library.
2. The innermost frame of the traceback, where it was raised, when it is a library's code (an
   installed package or the standard library): that library (pandas/core/arrays/string_.py →
   pandas, torch/nn/functional.py → torch).
3. The innermost frame is the user's own code (a script, a notebook cell, a module of theirs):
   - its instruction is `raise` (or `assert`): the user's own error;
   - else code written in C raised it while that instruction ran (a torch kernel, a NumPy ufunc,
     Python's int()): the operation at the instruction's source position — the smallest call,
     operator, subscript or attribute around it — says whose: the library of the function
     called (torch.matmul, np.add), else of the operands (a Tensor, an ndarray); a Python
     builtin (float(t), len(t)) hands over to its argument's library. Only names, attributes of
     modules and constants are looked up: nothing is evaluated that could run code.
4. The app's own frames (tensorviz) run torch operations for the user: as before, no verdict.

No verdict (None): the caller explains the error as it always has (torch's rules).
"""

from __future__ import annotations

import ast
import builtins
import dis
import functools
import linecache
import os
import site
import sys
import sysconfig
import types
from dataclasses import dataclass
from pathlib import Path

TORCH, NUMPY, PANDAS = "torch", "numpy", "pandas"
PYTHON = "python"  # Python itself: a builtin, the standard library, the interpreter
USER = "user"  # the user's own `raise`
_RAISING = {"RAISE_VARARGS", "RERAISE"}
_OURS = str(Path(__file__).resolve().parents[2])  # the tensorviz package
_NOTHING = object()


@dataclass(frozen=True)
class ErrorOrigin:
    library: str  # TORCH, NUMPY, PANDAS, another package's name, PYTHON or USER
    operation: ast.AST | None = None  # the user's operation that failed (case 3), if found
    source: str = ""  # the text of the file it is in
    receiver: object = None  # what a failing method was called on (`df` of df.mean()), if named


@functools.cache
def _library_folders() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    folders = {paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib") if key in paths}
    try:
        folders.update(site.getsitepackages())
        folders.add(site.getusersitepackages())
    except AttributeError:  # (a virtualenv's old site.py)
        pass
    return tuple(sorted({os.path.realpath(f) + os.sep for f in folders}))


@functools.lru_cache(maxsize=512)
def code_owner(filename: str) -> str:
    """ "ours", "library" or "user" for a code filename."""
    if filename.startswith("<frozen"):
        return "library"  # importlib and friends
    if filename.startswith("<"):
        return "user"  # <script>, <stdin>, <ipython-input-3-…>
    real = os.path.realpath(filename)
    if real.startswith(_OURS + os.sep):
        return "ours"
    return "library" if real.startswith(_library_folders()) else "user"


def library_of_module(name: str | None) -> str:
    top = (name or "").split(".")[0]
    if top in ("", "builtins") or top in sys.stdlib_module_names:
        return PYTHON
    return top


def _library_of_value(value) -> str | None:
    """The library an object belongs to: a module's own, a bound method's object's (t.numpy is
    the tensor's), a function's or class's module, else its type's module; None for the user's
    own objects and for nothing known."""
    if value is _NOTHING or value is None:
        return None
    if isinstance(value, types.ModuleType):
        return library_of_module(value.__name__)
    bound_to = getattr(value, "__self__", None) if callable(value) else None
    if bound_to is not None and not isinstance(bound_to, types.ModuleType | type):
        return _library_of_value(bound_to)
    if isinstance(value, type | types.BuiltinFunctionType | types.FunctionType | types.MethodType):
        module = getattr(value, "__module__", None)
    else:
        module = type(value).__module__
    top = library_of_module(module)
    return None if top == "__main__" else top


def error_origin(error: BaseException) -> ErrorOrigin | None:
    """Whose error this is (see the module's docstring); None when that cannot be told."""
    try:
        return _origin(error)
    except Exception:  # noqa: BLE001 — telling whose it is must never break explaining it
        return None


def _origin(error: BaseException) -> ErrorOrigin | None:
    tb, user_tb = error.__traceback__, None  # the innermost entry, and the user's innermost
    while tb is not None:
        if code_owner(tb.tb_frame.f_code.co_filename) == "user":
            user_tb = tb
        if tb.tb_next is None:
            break
        tb = tb.tb_next
    library = _library_that_raised(error, tb)
    if library is None:
        return None
    if user_tb is None:
        return ErrorOrigin(library)
    return _with_operation(library, error, user_tb)


def _library_that_raised(error: BaseException, tb) -> str | None:
    own_type = library_of_module(type(error).__module__)
    if own_type not in (PYTHON, "__main__") and _type_is_a_librarys(type(error)):
        return own_type
    if tb is None:
        return None
    frame = tb.tb_frame
    where = code_owner(frame.f_code.co_filename)
    if where == "ours":
        return None
    if where == "library":
        return library_of_module(frame.f_globals.get("__name__"))
    if dis.opname[frame.f_code.co_code[tb.tb_lasti]] in _RAISING:
        return USER
    if isinstance(error, AttributeError) and getattr(error, "obj", _NOTHING) is not _NOTHING:
        return _library_of_value(error.obj) or PYTHON  # the object it was looked up on
    frame_source = _source_of(frame)
    node = _operation_at(frame_source, _positions(tb)) if frame_source else None
    return _library_of_operation(node, _Scope(frame)) if node is not None else None


def _type_is_a_librarys(kind: type) -> bool:
    module = sys.modules.get(kind.__module__)
    file = getattr(module, "__file__", None)
    return file is None or code_owner(file) != "user"


def _source_of(frame) -> str:
    return "".join(linecache.getlines(frame.f_code.co_filename, frame.f_globals))


def _with_operation(library: str, error: BaseException, tb) -> ErrorOrigin:
    """The verdict, with the user's operation that failed (the innermost line of theirs)."""
    frame = tb.tb_frame
    source = _source_of(frame)
    node = _operation_at(source, _positions(tb)) if source else None
    receiver = None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        value = _Scope(frame).value(node.func.value)
        receiver = None if value is _NOTHING else value
    return ErrorOrigin(library, node, source, receiver)


def _positions(tb):
    try:
        positions = list(tb.tb_frame.f_code.co_positions())[tb.tb_lasti // 2]
    except (AttributeError, IndexError):
        return None
    return None if any(value is None for value in positions) else positions


@functools.lru_cache(maxsize=32)
def _parsed(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError):
        return None


_OPERATIONS = (ast.Call, ast.BinOp, ast.AugAssign, ast.Subscript, ast.Compare, ast.Attribute)


def _operation_at(source: str, positions) -> ast.AST | None:
    """The smallest operation of the source around the instruction's span."""
    tree = _parsed(source)
    if tree is None or positions is None:
        return None
    line, end_line, column, end_column = positions
    best, best_size = None, None
    for node in ast.walk(tree):
        if not isinstance(node, _OPERATIONS) or not hasattr(node, "end_lineno"):
            continue
        start, end = (node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset)
        if start <= (line, column) and (end_line, end_column) <= end:
            size = (end[0] - start[0], end[1] - start[1])
            if best_size is None or size < best_size:
                best, best_size = node, size
    return best


class _Scope:
    """Names as the frame sees them; attributes only of modules (nothing that runs code)."""

    def __init__(self, frame) -> None:
        self.frame = frame

    def value(self, node: ast.AST):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            for names in (self.frame.f_locals, self.frame.f_globals, vars(builtins)):
                if node.id in names:
                    return names[node.id]
            return _NOTHING
        if isinstance(node, ast.Attribute):
            base = self.value(node.value)
            if isinstance(base, types.ModuleType):
                return getattr(base, node.attr, _NOTHING)
        return _NOTHING


def _first_library(libraries) -> str | None:
    """torch when any operand is torch's; else the first library named; else Python."""
    found = [library for library in libraries if library]
    if TORCH in found:
        return TORCH
    return next((library for library in found if library != PYTHON), found[0] if found else None)


def _library_of_node(node: ast.AST, scope: _Scope) -> str | None:
    """The library of what an expression gives: a value it names, else (an operation written
    inside the failing one: `a > 0` in bool(a > 0)) the library of that operation."""
    value = scope.value(node)
    if value is not _NOTHING:
        return _library_of_value(value)
    if isinstance(node, _OPERATIONS):
        return _library_of_operation(node, scope)
    return None


def _library_of_operation(node: ast.AST, scope: _Scope) -> str | None:
    if isinstance(node, ast.Call):
        function = node.func
        if isinstance(function, ast.Attribute):
            receiver = _library_of_node(function.value, scope)
            if receiver is not None:
                return receiver
        called = _library_of_value(scope.value(function))
        if called not in (None, PYTHON):
            return called
        # a builtin (bool(t > 0), float(t)) hands over to its arguments' own methods: theirs
        # decide, and arguments not known leave it undecided
        return _first_library(_library_of_node(a, scope) for a in node.args)
    if isinstance(node, ast.BinOp):
        operands = [node.left, node.right]
    elif isinstance(node, ast.AugAssign):
        operands = [node.target, node.value]
    elif isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
    elif isinstance(node, ast.Subscript):
        operands = [node.value, node.slice]
    else:  # an attribute looked up
        operands = [node.value]
    return _first_library(_library_of_node(operand, scope) for operand in operands)
