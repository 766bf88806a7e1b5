"""The locals of functions defined in the script, kept when they return or raise, so the tensors
a learner's `demo()` made are captured too (`demo.images`).

How: before the script runs, every `def` in it gets its body wrapped in `try: ... finally:
__tensorviz_frames__["demo"] = sys._getframe()` (the AST is rewritten, line numbers untouched,
so tracebacks and the failing line read as the user wrote them). The dict is the run's
FunctionLocals, put in its namespace; the last call of each function wins. A call costs one
C call and a dict store (~0.3 µs here); no tracing is installed.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from types import FrameType

from tensorviz.core.script.source import SCRIPT_FILENAME, bound_names

FRAMES_NAME = "__tensorviz_frames__"  # the run's FunctionLocals.last_frames
GETFRAME_NAME = "__tensorviz_getframe__"  # sys._getframe: a C call, no Python frame of ours
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


@dataclass
class FunctionLocals:
    """What the functions of one run left: qualname → the frame of its last call (a finished
    frame keeps its locals; reading them waits until the run is over)."""

    last_frames: dict[str, FrameType] = field(default_factory=dict)

    def own_locals(self, order=()) -> dict[str, dict]:
        """qualname → its own locals (a closure's variables belong to the function around it),
        functions listed in `order` (the source's) first."""
        ranked = {name: i for i, name in enumerate(order)}
        names = sorted(self.last_frames, key=lambda n: ranked.get(n, len(ranked)))
        scopes = {}
        for name in names:
            frame = self.last_frames[name]
            free = frame.f_code.co_freevars
            scopes[name] = {k: v for k, v in frame.f_locals.items() if k not in free}
        return scopes


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
        frames = ast.Name(FRAMES_NAME, ast.Load())
        key = ast.Subscript(frames, ast.Constant(qualname), ast.Store())
        getframe = ast.Call(ast.Name(GETFRAME_NAME, ast.Load()), [], [])
        keep = ast.Assign([key], getframe)  # __tensorviz_frames__["demo"] = sys._getframe()
        wrapped = ast.Try(body=rest, handlers=[], orelse=[], finalbody=[keep])
        end = node.body[-1]
        for part in (keep, key, frames, key.slice, getframe, getframe.func, wrapped):
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


def compile_with_locals_hook(source: str, filename: str = SCRIPT_FILENAME):
    """The script compiled with every function's locals kept (see the module docstring)."""
    tree = _WrapFunctionBodies().visit(ast.parse(source, filename))
    ast.fix_missing_locations(tree)
    return compile(tree, filename, "exec")


def hook_namespace(record: FunctionLocals) -> dict:
    """What the run's namespace needs for the rewritten functions to keep their frames (a
    function kept from an earlier run still writes into that run's dict: harmless)."""
    return {FRAMES_NAME: record.last_frames, GETFRAME_NAME: sys._getframe}


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
