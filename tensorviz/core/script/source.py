"""Reading a script before and after it runs: compiling, where each name is bound, and the part
of a traceback that is the user's own code.

Scripts are compiled with the script's path when it has a file (as python does,
script_setup.py), else with the filename SCRIPT_FILENAME, so frames of the user's code are told
apart from torch's and ours.
"""

from __future__ import annotations

import ast
import functools
import linecache
import traceback
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, TracebackType

import torch

from tensorviz.core.translation import _, ngettext

SCRIPT_FILENAME = "<script>"
_CORE_DIR = Path(__file__).resolve().parent
_TORCH_DIR = Path(torch.__file__).resolve().parent


@dataclass(frozen=True)
class ScriptSyntaxError:
    line: int
    column: int  # 1-based; 0 when unknown
    message: str
    text: str  # the offending source line

    def report(self) -> str:
        caret = " " * max(self.column - 1, 0) + "^"
        shown = f"\n    {self.text}\n    {caret}" if self.text else ""
        if self.line:  # Python's own message stays as Python wrote it
            said = _("SyntaxError in line {line}: {message}")
        else:
            said = _("SyntaxError in the script: {message}")
        return said.format(line=self.line, message=self.message) + shown


def compile_script(
    source: str, filename: str = SCRIPT_FILENAME
) -> tuple[CodeType | None, ast.Module | None, ScriptSyntaxError]:
    """(code, tree, None) or (None, None, the syntax error): nothing runs when it does not parse.
    `filename`: what the code's frames say (the script's path when it has a file)."""
    try:
        tree = ast.parse(source, filename)
        return compile(tree, filename, "exec"), tree, None
    except (SyntaxError, ValueError) as error:  # ValueError: a null byte in the text
        line = getattr(error, "lineno", None) or 0
        lines = source.splitlines()
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        message = getattr(error, "msg", None) or str(error)
        column = getattr(error, "offset", None) or 0
        stripped = text.lstrip()
        column = max(column - (len(text) - len(stripped)), 0) if column else 0
        return None, None, ScriptSyntaxError(line, column, message, stripped.rstrip())


def _target_names(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List):
        return [n for element in target.elts for n in _target_names(element)]
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    return []  # x[0] = ..., x.attr = ...: not a binding


def binding_lines(tree: ast.Module) -> dict[str, int]:
    """The last line of the source that binds each top-level name (assignment, for/with target,
    walrus, def/class, import, `global` rebinding inside a function). A name bound in several
    places gets the last of them in the source, which is not always the last one that ran."""
    declared_global: dict[int, set[str]] = {}  # node id → names its function declares global
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            names = {n for g in ast.walk(function) if isinstance(g, ast.Global) for n in g.names}
            if names:
                for child in ast.walk(function):
                    declared_global.setdefault(id(child), set()).update(names)
    top_level = _module_scope_ids(tree)
    lines: dict[str, int] = {}
    for node in ast.walk(tree):
        names = bound_names(node)
        if not names:
            continue
        if id(node) not in top_level:
            names = [n for n in names if n in declared_global.get(id(node), ())]
        for name in names:
            lines[name] = max(lines.get(name, 0), node.lineno)
    return lines


def bound_names(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Assign):
        return [n for target in node.targets for n in _target_names(target)]
    if isinstance(node, ast.AugAssign) or (isinstance(node, ast.AnnAssign) and node.value):
        return _target_names(node.target)
    if isinstance(node, ast.For | ast.AsyncFor | ast.NamedExpr):
        return _target_names(node.target)
    if isinstance(node, ast.With | ast.AsyncWith):
        return [
            n
            for item in node.items
            if item.optional_vars
            for n in _target_names(item.optional_vars)
        ]
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Import | ast.ImportFrom):
        return [(a.asname or a.name).split(".")[0] for a in node.names if a.name != "*"]
    return []


def _module_scope_ids(tree: ast.Module) -> set[int]:
    """Ids of the nodes in the module's own scope: not inside a function, lambda, class or
    comprehension (a def or class node itself binds a top-level name; its body does not)."""
    ids: set[int] = set()
    scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)

    def visit(node: ast.AST) -> None:
        ids.add(id(node))
        for child in ast.iter_child_nodes(node):
            if isinstance(child, scopes):
                ids.add(id(child))
                continue
            if isinstance(child, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
                _visit_walrus_only(child)
                continue
            visit(child)

    def _visit_walrus_only(node: ast.AST) -> None:  # a walrus in a comprehension binds outside
        for child in ast.walk(node):
            if isinstance(child, ast.NamedExpr):
                ids.add(id(child))

    visit(tree)
    return ids


@dataclass(frozen=True)
class TrimmedTraceback:
    text: str  # "Traceback (most recent call last): ..." from the user's first frame on
    line: int  # the line of the script that failed (the innermost frame of the script); 0 if none


def trim_traceback(
    error: BaseException, source: str, filename: str = SCRIPT_FILENAME
) -> TrimmedTraceback:
    """The traceback from the first frame of the user's script on: our runner's frames are
    noise. Script frames show their source line (exec'd code has no file to read it from).
    Repeated frames are folded as Python folds them ("[Previous line repeated 996 more
    times]"), walking the traceback without building a record per frame: a recursion a million
    calls deep stays cheap. Below the script's last line, frames that are all torch's own
    internals fold into one line."""
    lines = source.splitlines()
    last_script, torch_tail = _script_end(error.__traceback__, filename)
    parts = ["Traceback (most recent call last):\n"]
    failing = 0
    last, count = None, 0
    frames = _user_frames(error.__traceback__, filename)
    for position, (file, lineno, name) in enumerate(frames):
        if torch_tail and position > last_script:
            break
        if file == filename:
            failing = lineno or failing
        if (file, lineno, name) != last:
            parts.extend(_repeated(count))
            last, count = (file, lineno, name), 0
        count += 1
        if count > _RECURSIVE_CUTOFF:
            continue
        parts.append(f'  File "{file}", line {lineno}, in {name}\n')
        if file == filename and lineno and lineno <= len(lines):
            text = lines[lineno - 1].strip()
        else:
            text = linecache.getline(file, lineno or 0).strip()
        if text:
            parts.append(f"    {text}\n")
    parts.extend(_repeated(count))
    if torch_tail:
        hidden = ngettext(
            "(torch's own {count} frame below, hidden)",
            "(torch's own {count} frames below, hidden)",
            torch_tail,
        )
        parts.append(f"  {hidden.format(count=torch_tail)}\n")
    parts.extend(traceback.format_exception_only(type(error), error))
    return TrimmedTraceback("".join(parts), failing)


def _script_end(tb: TracebackType | None, filename: str) -> tuple[int, int]:
    """(position of the script's last frame among the user frames, how many frames follow it
    when every one of them is torch's own; else 0)."""
    last_script, after, all_torch = -1, 0, True
    for position, (file, _line, _name) in enumerate(_user_frames(tb, filename)):
        if file == filename:
            last_script, after, all_torch = position, 0, True
        else:
            after += 1
            all_torch = all_torch and _in_torch(file)
    return last_script, (after if last_script >= 0 and after and all_torch else 0)


# Python shows a repeated frame this often before folding the rest into one line
# (traceback._RECURSIVE_CUTOFF; its wording is reproduced in _repeated).
_RECURSIVE_CUTOFF = 3


def _repeated(count: int) -> list[str]:
    extra = count - _RECURSIVE_CUTOFF
    if extra <= 0:
        return []
    return [f"  [Previous line repeated {extra} more time{'s' if extra > 1 else ''}]\n"]


def _user_frames(tb: TracebackType | None, filename: str):
    """(filename, line, function) of each frame from the script's first one on, ours left out;
    every frame when the script has none (the error came from before it ran)."""
    start = tb
    while start is not None and start.tb_frame.f_code.co_filename != filename:
        start = start.tb_next
    tb = start if start is not None else tb
    while tb is not None:
        code = tb.tb_frame.f_code
        if not _ours(code.co_filename):
            yield code.co_filename, tb.tb_lineno, code.co_name
        tb = tb.tb_next


@functools.lru_cache(maxsize=256)  # asked once per frame: a deep recursion asks a million times
def _in_torch(filename: str) -> bool:
    return Path(filename).resolve().is_relative_to(_TORCH_DIR)


@functools.lru_cache(maxsize=256)
def _ours(filename: str) -> bool:
    """The runner's own frames (e.g. the stop check around every torch call) are noise."""
    return Path(filename).parent == _CORE_DIR


def current_script_line(frame, filename: str = SCRIPT_FILENAME) -> int:
    """The line of the innermost script frame on a stack (0: not in the script)."""
    while frame is not None:
        if frame.f_code.co_filename == filename:
            return frame.f_lineno or 0
        frame = frame.f_back
    return 0
