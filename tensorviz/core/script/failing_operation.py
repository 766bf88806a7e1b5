"""Which operation of a script line failed, and on which operands — so the explanation names
the shapes torch really saw (`K.T` is [8, 5, 2]), not only the variables on the line.

Python 3.11 records the source span of the instruction that raised; the smallest operation of
the line's syntax tree around that span (a binary operator, a call, an item assignment) is the
one that failed. Its operands are evaluated again only when that cannot change anything: names,
view attributes (.T, .mT), basic indexing with literal indices, and view methods with literal
arguments — views share memory, copy nothing, and write nothing.
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass, field

import torch

from tensorviz.core.explain.errors import ExplainedError, explain_error
from tensorviz.core.script.source import SCRIPT_FILENAME

_OPERATORS = {
    ast.MatMult: "@",
    ast.Add: "add",
    ast.Sub: "sub",
    ast.Mult: "mul",
    ast.Div: "div",
    ast.Pow: "pow",
    ast.FloorDiv: "floor_divide",
    ast.Mod: "remainder",
}
VIEW_ATTRIBUTES = {"T", "mT", "H", "mH", "data", "real", "imag"}
VIEW_METHODS = {
    "transpose", "permute", "t", "view", "unsqueeze", "squeeze", "expand", "narrow", "select",
    "detach", "movedim", "swapaxes", "swapdims", "unflatten", "diagonal",
}  # fmt: skip
_SHAPE_METHODS = {"view", "reshape", "expand"}  # their literal arguments are the "shape" param


@dataclass(frozen=True)
class FailingOperation:
    op: str | None
    operands: dict[str, torch.Tensor]  # as written in the script → the tensor torch got
    params: dict = field(default_factory=dict)


def explain_script_error(
    error: BaseException, source: str, filename: str = SCRIPT_FILENAME
) -> ExplainedError:
    """The explanation of a script's error with the operands of the operation that failed (or,
    when that cannot be told, the tensors named on the failing line)."""
    found = innermost_script_traceback(error, filename)
    if found is None:
        return explain_error(error)
    operation = failing_operation(found, source)
    if operation is None or not operation.operands:
        tensors = tensors_on_line(found.tb_frame, source, filename)
        return explain_error(error, None, list(tensors.values()), None, list(tensors))
    written = tuple(operation.operands)
    params = {**operation.params, "input_exprs": written}
    return explain_error(error, operation.op, list(operation.operands.values()), params, written)


def innermost_script_traceback(error: BaseException, filename: str = SCRIPT_FILENAME):
    """The traceback entry of the last script line the error passed through, or None."""
    tb, found = error.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            found = tb
        tb = tb.tb_next
    return found


def failing_operation(tb, source: str) -> FailingOperation | None:
    span = _instruction_span(tb)
    if span is None:
        return None
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    node = _smallest_operation(tree, span)
    if node is None:
        return None
    scope = {**tb.tb_frame.f_globals, **tb.tb_frame.f_locals}
    with warnings.catch_warnings():  # `.T` on 3-D warns again; the script already said so
        warnings.simplefilter("ignore")
        return _describe(node, source, scope)


def _instruction_span(tb) -> tuple[int, int, int, int] | None:
    try:
        positions = list(tb.tb_frame.f_code.co_positions())[tb.tb_lasti // 2]
    except (AttributeError, IndexError):
        return None
    if any(value is None for value in positions):
        return None
    return positions  # (line, end line, column, end column)


def _start_end(node: ast.AST) -> tuple[tuple[int, int], tuple[int, int]]:
    return (node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset)


def _smallest_operation(tree: ast.AST, span) -> ast.AST | None:
    line, end_line, column, end_column = span
    best, best_size = None, None
    for node in ast.walk(tree):
        if not _is_operation(node):
            continue
        (first, first_col), (last, last_col) = _start_end(node)
        if (first, first_col) <= (line, column) and (end_line, end_column) <= (last, last_col):
            size = (last - first, last_col - first_col)
            if best_size is None or size < best_size:
                best, best_size = node, size
    return best


def _is_operation(node: ast.AST) -> bool:
    if isinstance(node, ast.BinOp | ast.Call | ast.AugAssign):
        return True
    return isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store)


def _describe(node: ast.AST, source: str, scope: dict) -> FailingOperation:
    if isinstance(node, ast.BinOp):
        return _operation(_OPERATORS.get(type(node.op)), [node.left, node.right], source, scope)
    if isinstance(node, ast.AugAssign):
        name = _OPERATORS.get(type(node.op))
        return _operation(name and f"{name}_", [node.target, node.value], source, scope)
    if isinstance(node, ast.Subscript):  # x[i] = v: torch writes into the view x[i]
        return _operation("__setitem__", [node], source, scope)
    function = node.func
    arguments = [a for arg in node.args for a in (arg.elts if _is_sequence(arg) else [arg])]
    if not isinstance(function, ast.Attribute):
        return _operation(None, arguments, source, scope)
    receiver = safe_value(function.value, scope)
    operands = arguments if not isinstance(receiver, torch.Tensor) else [function.value, *arguments]
    operation = _operation(function.attr, operands, source, scope)
    if function.attr in _SHAPE_METHODS and isinstance(receiver, torch.Tensor):
        sizes = [_literal(arg) for arg in node.args]
        if sizes and all(isinstance(size, int) for size in sizes):
            operation.params["shape"] = tuple(sizes)
    return operation


def _is_sequence(node: ast.AST) -> bool:
    return isinstance(node, ast.List | ast.Tuple)


def _operation(op, nodes, source: str, scope: dict) -> FailingOperation:
    operands = {}
    for node in nodes:
        value = safe_value(node, scope)
        text = ast.get_source_segment(source, node) or ""
        if isinstance(value, torch.Tensor) and text and text not in operands:
            operands[text] = value
    return FailingOperation(op, operands)


def _literal(node: ast.AST):
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return _UNSAFE


_UNSAFE = object()


def _index_key(node: ast.AST):
    """The key of basic indexing (ints, slices of ints, ..., None, tuples of them), whose result
    is a view; _UNSAFE for anything else (tensors, lists and masks copy)."""
    if isinstance(node, ast.Tuple):
        keys = tuple(_index_key(element) for element in node.elts)
        return _UNSAFE if any(key is _UNSAFE for key in keys) else keys
    if isinstance(node, ast.Slice):
        parts = [None if p is None else _literal(p) for p in (node.lower, node.upper, node.step)]
        return slice(*parts) if all(p is None or _is_int_literal(p) for p in parts) else _UNSAFE
    value = _literal(node)
    return value if value is None or value is Ellipsis or _is_int_literal(value) else _UNSAFE


def safe_value(node: ast.AST, scope: dict):
    """The value of `node` when computing it again has no effect (see the module's docstring),
    else _UNSAFE."""
    try:
        if isinstance(node, ast.Name):
            return scope.get(node.id, _UNSAFE)
        if isinstance(node, ast.Attribute) and node.attr in VIEW_ATTRIBUTES:
            base = safe_value(node.value, scope)
            return getattr(base, node.attr) if isinstance(base, torch.Tensor) else _UNSAFE
        if isinstance(node, ast.Subscript):
            base, key = safe_value(node.value, scope), _index_key(node.slice)
            return base[key] if isinstance(base, torch.Tensor) and key is not _UNSAFE else _UNSAFE
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in VIEW_METHODS and not node.keywords:
                base = safe_value(node.func.value, scope)
                arguments = [_literal(arg) for arg in node.args]
                if isinstance(base, torch.Tensor) and all(_is_int_literal(a) for a in arguments):
                    return getattr(base, node.func.attr)(*arguments)
    except Exception:  # noqa: BLE001 — a failing re-evaluation only means "not known"
        return _UNSAFE
    return _UNSAFE


def _is_int_literal(value) -> bool:
    if isinstance(value, tuple):
        return all(_is_int_literal(v) for v in value)
    return isinstance(value, int) and not isinstance(value, bool)


def tensors_on_line(frame, source: str, filename: str = SCRIPT_FILENAME) -> dict[str, torch.Tensor]:
    """The tensors named on the frame's line, in the order they appear (`y = w @ x` → w, x), so
    an explanation can name their shapes."""
    lines = source.splitlines()
    line = frame.f_lineno or 0
    text = lines[line - 1] if frame.f_code.co_filename == filename and line else ""
    scope = {**frame.f_globals, **frame.f_locals}
    tensors = {}
    for name in re.findall(r"[A-Za-z_]\w*", text.split("#")[0]):
        value = scope.get(name)
        if isinstance(value, torch.Tensor) and name not in tensors:
            tensors[name] = value
    return tensors
