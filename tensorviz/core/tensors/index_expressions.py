"""Safe reading of the index expressions a learner types in the Workbench (`x[0, 1:3]`, `x[x > 0]`).

The text is never handed to eval or exec: we walk Python's own `ast` and accept only a whitelist
of node kinds (integers, slices, `...`, None, lists of integers, boolean masks built from
comparisons on named tensors). Everything else becomes an `IndexSyntaxError` whose message is one
sentence naming the offending piece. Bounds are not checked here: torch reports those when the
caller indexes, and its message is the one worth showing.
"""

from __future__ import annotations

import ast
import operator
import warnings
from collections.abc import Mapping
from dataclasses import dataclass

import torch

MAX_INDEX_LENGTH = 500
# Deep nesting only comes from pasted junk; the limit keeps our recursive walk far from Python's.
_MAX_NESTING = 40
_PLACEHOLDER = "_"

_COMPARISONS = {
    ast.Gt: operator.gt,
    ast.Lt: operator.lt,
    ast.GtE: operator.ge,
    ast.LtE: operator.le,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}
_ARITHMETIC = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Mod: operator.mod,
    ast.FloorDiv: operator.floordiv,
    ast.Pow: operator.pow,
}
# Python integers are unbounded, so `9 ** 9 ** 9` between two constants could run for hours.
_MAX_CONSTANT_POWER_BITS = 256


class IndexSyntaxError(ValueError):
    """One clear sentence for the learner, e.g. "'foo(1)' is not allowed in an index: use ..."."""


@dataclass(frozen=True)
class ParsedIndex:
    key: object  # what to pass to tensor[...]
    text: str  # normalised bracket contents, e.g. "0, 1:3, ..., None"
    makes_copy: bool  # advanced indexing (mask, integer list, bool scalar) copies; basic is a view


def parse_index(text: str, target_name: str, tensors: Mapping[str, torch.Tensor]) -> ParsedIndex:
    """Read `x[...]`, `[...]` or the bare bracket contents into a key for `tensors[target_name]`."""
    if len(text) > MAX_INDEX_LENGTH:
        raise IndexSyntaxError(
            f"The index is too long ({len(text)} characters; at most {MAX_INDEX_LENGTH})."
        )
    index_node, source = _bracket_contents(text.strip(), target_name)
    _refuse_deep_nesting(index_node, text.strip())
    reader = _IndexReader(source, target_name, tensors)
    is_tuple = isinstance(index_node, ast.Tuple)
    parts = [reader.item(node) for node in (index_node.elts if is_tuple else [index_node])]
    # torch's rule: bool scalars, sequences and tensors make it advanced indexing, which copies.
    makes_copy = any(isinstance(part, bool | list | torch.Tensor) for part in parts)
    wrapped = ast.unparse(ast.Subscript(value=ast.Name(id=_PLACEHOLDER), slice=index_node))
    return ParsedIndex(
        key=tuple(parts) if is_tuple else parts[0],
        text=wrapped[len(_PLACEHOLDER) + 1 : -1],
        makes_copy=makes_copy,
    )


def _parse_expression(source: str) -> ast.expr | str:
    """The parsed expression, or the parser's reason for refusing it."""
    try:
        # Odd input such as "1if" makes the parser warn on stderr; the learner sees our message.
        with warnings.catch_warnings(action="ignore", category=SyntaxWarning):
            return ast.parse(source, mode="eval").body
    except SyntaxError as error:
        return error.msg
    except (ValueError, RecursionError, MemoryError, OverflowError) as error:
        # Null bytes, lone surrogates and absurd nesting surface as these, not SyntaxError.
        return str(error) or type(error).__name__


def _bracket_contents(text: str, target_name: str) -> tuple[ast.expr, str]:
    """The index node and the source its positions refer to."""
    if not text:
        raise IndexSyntaxError(f"The index is empty: type something like {target_name}[0].")
    whole = _parse_expression(text)
    if isinstance(whole, ast.Subscript):
        indexed = whole.value
        if isinstance(indexed, ast.Name):
            if indexed.id != target_name:
                raise IndexSyntaxError(
                    f"'{_shorten(text)}' indexes '{indexed.id}', but this index is for "
                    f"'{target_name}': write {target_name}[...]."
                )
            return whole.slice, text
        if isinstance(indexed, ast.Subscript):
            raise IndexSyntaxError(
                f"'{_shorten(text)}' indexes twice: put every index in one pair of brackets, "
                f"like {target_name}[0, 1]."
            )
        raise _not_allowed(ast.get_source_segment(text, indexed) or text, target_name)
    # Bare contents, read as Python reads what is between x[ and ]: "[0, 1]" is the list [0, 1]
    # (x[[0, 1]], advanced indexing), as in torch. Only when that is not valid ("[:, 0]") are
    # outer brackets taken for the subscript's own. Re-wrapping in a subscript lets the parser
    # accept slices; the result counts only when the whole source is one subscript of the
    # placeholder, which rules out brackets that close early ("0], [1" is not one pair).
    stripped = [text[1:-1]] if text.startswith("[") and text.endswith("]") else []
    reason = "invalid syntax"
    for contents in [text, *stripped]:
        source = f"{_PLACEHOLDER}[{contents}]"
        parsed = _parse_expression(source)
        if isinstance(parsed, str):
            reason = parsed
        elif isinstance(parsed, ast.Subscript) and isinstance(parsed.value, ast.Name):
            return parsed.slice, source
        else:
            reason = "the brackets do not pair up"
    raise IndexSyntaxError(f"'{_shorten(text)}' is not a valid index: {_sentence(reason)}")


def _refuse_deep_nesting(root: ast.expr, text: str) -> None:
    pending = [(root, 1)]
    while pending:
        node, depth = pending.pop()
        if depth > _MAX_NESTING:
            raise IndexSyntaxError(f"'{_shorten(text)}' is nested too deeply to be an index.")
        pending.extend((child, depth + 1) for child in ast.iter_child_nodes(node))


def _sentence(reason: str) -> str:
    """First line of a reason from Python or torch, ending like a sentence."""
    line = reason.strip().splitlines()[0] if reason.strip() else "unknown reason"
    return line if line.endswith((".", "?", "!")) else line + "."


def _shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _not_allowed(piece: str, target_name: str) -> IndexSyntaxError:
    return IndexSyntaxError(
        f"'{_shorten(piece)}' is not allowed in an index: use integers, slices (a:b:c), ..., "
        f"None, lists of integers or a comparison like {target_name} > 0."
    )


class _IndexReader:
    """Turns whitelisted index nodes into the values torch expects; refuses everything else."""

    def __init__(self, source: str, target_name: str, tensors: Mapping[str, torch.Tensor]):
        self._source = source
        self._target_name = target_name
        self._tensors = tensors

    def item(self, node: ast.expr) -> object:
        """One comma-separated entry of the index."""
        if isinstance(node, ast.Slice):
            return self._slice(node)
        if isinstance(node, ast.Constant) and (
            node.value is None or node.value is Ellipsis or isinstance(node.value, bool)
        ):
            return node.value
        if isinstance(node, ast.List):
            return self._sequence(node)
        if isinstance(node, ast.Tuple):
            raise IndexSyntaxError(
                f"'{self._piece(node)}' is a tuple inside the index: use a list, like [0, 2]."
            )
        if isinstance(node, ast.Compare | ast.BinOp | ast.BoolOp | ast.Name) or (
            isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert | ast.Not)
        ):
            return self._mask(node)
        return self._integer(node)

    def _piece(self, node: ast.AST) -> str:
        return _shorten(ast.get_source_segment(self._source, node) or ast.unparse(node))

    def _refuse(self, node: ast.AST) -> IndexSyntaxError:
        return _not_allowed(self._piece(node), self._target_name)

    def _number(self, node: ast.expr) -> int | float:
        """An int or float literal, possibly behind unary minus or plus."""
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            if not isinstance(node.operand, ast.Constant | ast.UnaryOp):
                raise self._refuse(node)
            value = self._number(node.operand)
            return -value if isinstance(node.op, ast.USub) else value
        if isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, int | float) and not isinstance(value, bool):
                return value
            if isinstance(value, str | bytes):
                raise IndexSyntaxError(
                    f"{self._piece(node)} is text; indices must be integers, slices, ... or None."
                )
        raise self._refuse(node)

    def _integer(self, node: ast.expr) -> int:
        value = self._number(node)
        if not isinstance(value, int):
            raise IndexSyntaxError(
                f"Indices must be integers (or slices, ..., None), got {self._piece(node)}."
            )
        return value

    def _slice(self, node: ast.Slice) -> slice:
        start, stop, step = (
            None if part is None else self._integer(part)
            for part in (node.lower, node.upper, node.step)
        )
        if step == 0:
            raise IndexSyntaxError(f"The slice step cannot be zero in '{self._piece(node)}'.")
        return slice(start, stop, step)

    def _sequence(self, node: ast.List) -> list | torch.Tensor:
        """A flat list stays a list; a nested one becomes one tensor (torch's announced meaning)."""
        leaves: list[object] = []

        def read(entry: ast.expr) -> object:
            if isinstance(entry, ast.List):
                return [read(inner) for inner in entry.elts]
            if isinstance(entry, ast.Constant) and isinstance(entry.value, bool):
                leaves.append(entry.value)
                return entry.value
            leaves.append(value := self._integer(entry))
            return value

        values = [read(entry) for entry in node.elts]
        all_bools = bool(leaves) and all(isinstance(leaf, bool) for leaf in leaves)
        if not all_bools and any(isinstance(leaf, bool) for leaf in leaves):
            raise IndexSyntaxError(
                f"'{self._piece(node)}' mixes True/False with integers: use one kind per list."
            )
        if not any(isinstance(entry, ast.List) for entry in node.elts):
            return values
        try:
            return torch.tensor(values, dtype=torch.bool if all_bools else torch.long)
        except (ValueError, TypeError, RuntimeError, OverflowError) as error:
            raise IndexSyntaxError(
                f"'{self._piece(node)}' cannot become one index tensor: {error}."
            ) from None

    def _mask(self, node: ast.expr) -> torch.Tensor:
        try:
            with torch.no_grad():
                return self._boolean(node)
        except IndexSyntaxError:
            raise
        except (RuntimeError, TypeError, ValueError, ArithmeticError) as error:
            # torch refuses some arithmetic (int ** -1, // 0); that is the learner's index at fault.
            reason = _sentence(str(error) or type(error).__name__)
            raise IndexSyntaxError(
                f"'{self._piece(node)}' could not be computed: {reason}"
            ) from None

    def _boolean(self, node: ast.expr) -> torch.Tensor:
        """A bool tensor from comparisons joined by &, | and ~."""
        if isinstance(node, ast.Compare):
            return self._comparison(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd | ast.BitOr):
            left, right = self._boolean(node.left), self._boolean(node.right)
            return left & right if isinstance(node.op, ast.BitAnd) else left | right
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
            return ~self._boolean(node.operand)
        if isinstance(node, ast.BoolOp) or (
            isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
        ):
            raise IndexSyntaxError(
                f"'{self._piece(node)}' uses and/or/not, which cannot combine masks: "
                f"use &, | and ~ with parentheses, like ({self._target_name} > 0) & "
                f"({self._target_name} < 5)."
            )
        if isinstance(node, ast.Name):
            tensor = self._tensor(node)
            if tensor.dtype == torch.bool:
                return tensor
            raise IndexSyntaxError(
                f"'{node.id}' alone is not a mask: compare it, like {node.id} > 0."
            )
        raise self._refuse(node)

    def _comparison(self, node: ast.Compare) -> torch.Tensor:
        operands = [node.left, *node.comparators]
        values = [self._value(operand) for operand in operands]
        if not any(isinstance(value, torch.Tensor) for value in values):
            raise IndexSyntaxError(
                f"'{self._piece(node)}' compares only numbers: compare a tensor, "
                f"like {self._target_name} > 0."
            )
        mask: torch.Tensor | None = None
        # A chain `0 < x < 5` means (0 < x) & (x < 5), as in Python.
        for op, left, right in zip(node.ops, values[:-1], values[1:], strict=True):
            compare = _COMPARISONS.get(type(op))
            if compare is None:
                raise self._refuse(node)
            step = torch.as_tensor(compare(left, right))
            mask = step if mask is None else mask & step
        assert mask is not None
        return mask

    def _value(self, node: ast.expr) -> torch.Tensor | int | float:
        """One side of a comparison: a named tensor, a number, or arithmetic on them."""
        if isinstance(node, ast.Name):
            return self._tensor(node)
        if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
            left, right = self._value(node.left), self._value(node.right)
            if isinstance(node.op, ast.Pow) and _power_too_large(left, right):
                raise IndexSyntaxError(f"'{self._piece(node)}' is too large a number.")
            return _ARITHMETIC[type(node.op)](left, right)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            value = self._value(node.operand)
            return -value if isinstance(node.op, ast.USub) else value
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd | ast.BitOr):
            # `x > 2 & x < 10` parses as `x > (2 & x) < 10`, a classic precedence trap.
            raise IndexSyntaxError(
                f"'{self._piece(node)}' mixes & or | into a comparison: put each comparison in "
                f"parentheses, like ({self._target_name} > 2) & ({self._target_name} < 10)."
            )
        return self._number(node)

    def _tensor(self, node: ast.Name) -> torch.Tensor:
        tensor = self._tensors.get(node.id)
        if not isinstance(tensor, torch.Tensor):
            raise IndexSyntaxError(
                f"'{node.id}' is not a tensor in the Workbench, so it cannot be used in an index."
            )
        return tensor


def _power_too_large(base: object, exponent: object) -> bool:
    """Whether `base ** exponent` on two Python ints makes a huge number (tensors are bounded)."""
    if not (isinstance(base, int) and isinstance(exponent, int)) or abs(base) <= 1:
        return False  # floats overflow to inf or raise OverflowError; |base| <= 1 stays small
    return exponent * abs(base).bit_length() > _MAX_CONSTANT_POWER_BITS
