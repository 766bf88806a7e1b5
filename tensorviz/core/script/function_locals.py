"""The locals of functions defined in the script, kept when they return or raise, so the tensors
a learner's `demo()` made are captured too (`demo.images`).

How: before the script runs, every `def` in it gets its body wrapped in `try: ... finally:
__tensorviz_locals__("demo")` (the AST is rewritten, line numbers untouched, so tracebacks and
the failing line read as the user wrote them). The hook keeps the function frame's locals dict
for the run recording in the calling thread; the last call of each function wins. A plain
function call on the hot path costs one extra call (~1 µs); no tracing is installed.
"""

from __future__ import annotations

import ast
import sys
import threading
from dataclasses import dataclass, field

from tensorviz.core.script.source import SCRIPT_FILENAME, bound_names

HOOK_NAME = "__tensorviz_locals__"
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


@dataclass
class FunctionLocals:
    """What the functions of one run left: qualname → its last call's locals."""

    last_locals: dict[str, dict] = field(default_factory=dict)
    free_names: dict[str, tuple[str, ...]] = field(default_factory=dict)  # closure variables
    calls: dict[str, int] = field(default_factory=dict)

    def own_locals(self, order=()) -> dict[str, dict]:
        """qualname → its own locals (a closure's variables belong to the function around it),
        functions listed in `order` (the source's) first."""
        ranked = {name: i for i, name in enumerate(order)}
        names = sorted(self.last_locals, key=lambda n: ranked.get(n, len(ranked)))
        return {
            name: {
                k: v
                for k, v in list(self.last_locals[name].items())
                if k not in self.free_names.get(name, ())
            }
            for name in names
        }


_RECORDING = threading.local()  # .locals: the FunctionLocals of the run in this thread


def _keep_locals(qualname: str) -> None:
    """The hook the rewritten functions call from their `finally`."""
    record = getattr(_RECORDING, "locals", None)
    if record is None:  # a function of an earlier run, called from somewhere else
        return
    frame = sys._getframe(1)
    record.last_locals[qualname] = frame.f_locals  # a dict that outlives the frame
    record.free_names[qualname] = frame.f_code.co_freevars
    record.calls[qualname] = record.calls.get(qualname, 0) + 1


class recording_function_locals:  # noqa: N801 — used as a context manager, like a function
    """`with recording_function_locals(record):` around the script's exec, in its thread."""

    def __init__(self, record: FunctionLocals) -> None:
        self.record = record

    def __enter__(self) -> FunctionLocals:
        self._previous = getattr(_RECORDING, "locals", None)
        _RECORDING.locals = self.record
        return self.record

    def __exit__(self, *_exc) -> None:
        _RECORDING.locals = self._previous


class _WrapFunctionBodies(ast.NodeTransformer):
    def __init__(self) -> None:
        self.scopes: list[str] = []

    def _function(self, node):
        qualname = ".".join([*self.scopes, node.name])
        self.scopes.append(node.name)
        self.generic_visit(node)
        self.scopes.pop()
        body = node.body
        docstring = body[:1] if _is_docstring(body[0]) else []
        rest = body[len(docstring) :] or [ast.Pass()]
        call = ast.Expr(ast.Call(ast.Name(HOOK_NAME, ast.Load()), [ast.Constant(qualname)], []))
        wrapped = ast.Try(body=rest, handlers=[], orelse=[], finalbody=[call])
        end = node.body[-1]
        for part in (call, call.value, call.value.func, *call.value.args, wrapped):
            ast.copy_location(part, end)
            part.end_lineno, part.end_col_offset = end.end_lineno, end.end_col_offset
        node.body = [*docstring, wrapped]
        return node

    visit_FunctionDef = _function  # noqa: N815 — the names ast.NodeTransformer calls
    visit_AsyncFunctionDef = _function  # noqa: N815

    def visit_ClassDef(self, node):
        self.scopes.append(node.name)
        self.generic_visit(node)
        self.scopes.pop()
        return node


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def has_functions(tree: ast.Module) -> bool:
    return any(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) for n in ast.walk(tree))


def compile_with_locals_hook(source: str):
    """The script compiled with every function's locals kept (see the module docstring)."""
    tree = _WrapFunctionBodies().visit(ast.parse(source, SCRIPT_FILENAME))
    ast.fix_missing_locations(tree)
    return compile(tree, SCRIPT_FILENAME, "exec")


def hook_namespace() -> dict:
    """What the namespace needs for the rewritten functions to find their hook."""
    return {HOOK_NAME: _keep_locals}


def function_binding_lines(tree: ast.Module) -> dict[str, dict[str, int]]:
    """qualname → {local name → the last line of the function that binds it}; parameters are
    bound on the `def` line. Nested functions and classes have their own entries."""
    lines: dict[str, dict[str, int]] = {}

    def visit(node: ast.AST, scopes: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                qualname = ".".join([*scopes, child.name])
                own = lines.setdefault(qualname, {})
                arguments = child.args
                every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
                every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
                for argument in every:
                    own[argument.arg] = child.lineno
                for statement in _own_statements(child):
                    for name in bound_names(statement):
                        own[name] = max(own.get(name, 0), statement.lineno)
                visit(child, [*scopes, child.name])
            elif isinstance(child, ast.ClassDef):
                visit(child, [*scopes, child.name])
            else:
                visit(child, scopes)

    visit(tree, [])
    return lines


def _own_statements(function: ast.AST):
    """The nodes of a function's own scope (not of functions, classes or lambdas inside)."""
    pending = list(ast.iter_child_nodes(function))
    while pending:
        node = pending.pop()
        yield node
        if isinstance(node, _SCOPES):
            continue
        pending.extend(ast.iter_child_nodes(node))
