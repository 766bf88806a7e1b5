"""Safe reading of the index expressions a learner types in the Workbench (`x[0, 1:3]`, `x[x > 0]`).

The text is never handed to eval or exec: we walk Python's own `ast` and accept only a whitelist
of node kinds (integers, slices, `...`, None, lists of integers, boolean masks built from
comparisons on named tensors). Everything else becomes an `IndexSyntaxError` whose message is one
sentence naming the offending piece (the text itself is read in index_syntax). Bounds are not
checked here: torch reports those when the caller indexes, and its message is the one worth
showing.

Masks are computed on the meta device when the index is parsed — shapes and dtypes, no data, so
`x[(a + b) * (a - b) > 0]` on [25000, 1] and [1, 25000] tensors costs nothing while an action is
prepared on the GUI thread — and the bytes of every tensor they make are counted while it lives.
The caller checks that peak against the memory budget, and computes the real key (`key()`) where
its other heavy work runs.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Mapping
from dataclasses import dataclass

import torch

from tensorviz.core.tensors.index_syntax import (
    MAX_INDEX_LENGTH,
    PLACEHOLDER,
    IndexSyntaxError,
    bracket_contents,
    not_allowed,
    refuse_deep_nesting,
    sentence,
    shorten,
)
from tensorviz.core.tensors.memory_budget import to_meta
from tensorviz.core.translation import _

__all__ = ["MAX_INDEX_LENGTH", "IndexSyntaxError", "ParsedIndex", "parse_index"]


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


@dataclass(frozen=True)
class ParsedIndex:
    """A checked index. Its masks (`x[(a + b) * (a - b) > 0]`) have been computed only on the
    meta device, where they cost nothing: `meta_key` sizes the result and `mask_bytes` says what
    computing them for real will take; `key()` computes them (off the GUI thread when big)."""

    text: str  # normalised bracket contents, e.g. "0, 1:3, ..., None"
    makes_copy: bool  # advanced indexing (mask, integer list, bool scalar) copies; basic is a view
    meta_key: object  # the key with every tensor on the meta device: shapes, no data
    mask_bytes: int  # peak memory of the tensors its masks make (0 when it has none)
    _reading: tuple  # (source, target name, tensors, nodes, is_tuple) to compute the key from

    def key(self) -> object:
        """What to pass to tensor[...], its masks computed now on the real tensors. Raises
        IndexSyntaxError when torch refuses the arithmetic on real values (`x // 0`)."""
        source, target_name, tensors, nodes, is_tuple = self._reading
        reader = _IndexReader(source, target_name, tensors)
        parts = [reader.item(node) for node in nodes]
        return tuple(parts) if is_tuple else parts[0]


def parse_index(text: str, target_name: str, tensors: Mapping[str, torch.Tensor]) -> ParsedIndex:
    """Read `x[...]`, `[...]` or the bare bracket contents into a key for `tensors[target_name]`.
    Nothing is computed on real data here: masks are evaluated on meta tensors."""
    if len(text) > MAX_INDEX_LENGTH:
        raise IndexSyntaxError(
            _("The index is too long ({count} characters; at most {limit}).").format(
                count=len(text), limit=MAX_INDEX_LENGTH
            )
        )
    index_node, source = bracket_contents(text.strip(), target_name)
    refuse_deep_nesting(index_node, text.strip())
    sizing = _IndexReader(source, target_name, tensors, on_meta=True)
    is_tuple = isinstance(index_node, ast.Tuple)
    nodes = tuple(index_node.elts if is_tuple else [index_node])
    parts = [sizing.item(node) for node in nodes]
    # torch's rule: bool scalars, sequences and tensors make it advanced indexing, which copies.
    makes_copy = any(isinstance(part, bool | list | torch.Tensor) for part in parts)
    wrapped = ast.unparse(ast.Subscript(value=ast.Name(id=PLACEHOLDER), slice=index_node))
    return ParsedIndex(
        text=wrapped[len(PLACEHOLDER) + 1 : -1],
        makes_copy=makes_copy,
        meta_key=tuple(parts) if is_tuple else parts[0],
        mask_bytes=sizing.peak_bytes,
        _reading=(source, target_name, tensors, nodes, is_tuple),
    )


class _IndexReader:
    """Turns whitelisted index nodes into the values torch expects; refuses everything else.

    With `on_meta`, named tensors are read as meta tensors (no data), and the bytes of every
    tensor the masks make are counted while it lives: `peak_bytes` is the most alive at once."""

    def __init__(
        self,
        source: str,
        target_name: str,
        tensors: Mapping[str, torch.Tensor],
        on_meta: bool = False,
    ):
        self._source = source
        self._target_name = target_name
        self._tensors = tensors
        self._on_meta = on_meta
        self._meta: dict[str, torch.Tensor] = {}
        self._alive: dict[int, int] = {}  # id of a tensor the masks made → its bytes
        self.peak_bytes = 0

    def _made(self, value):
        """Count a tensor an operation of the index just made, while it lives."""
        if isinstance(value, torch.Tensor) and id(value) not in self._alive:
            self._alive[id(value)] = value.numel() * value.element_size()
            self.peak_bytes = max(self.peak_bytes, sum(self._alive.values()))
        return value

    def _released(self, *values) -> None:
        """Operands used up: Python frees them once the operation that read them returns."""
        for value in values:
            self._alive.pop(id(value), None)

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
                _("'{piece}' is a tuple inside the index: use a list, like [0, 2].").format(
                    piece=self._piece(node)
                )
            )
        if isinstance(node, ast.Compare | ast.BinOp | ast.BoolOp | ast.Name) or (
            isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert | ast.Not)
        ):
            return self._mask(node)
        return self._integer(node)

    def _piece(self, node: ast.AST) -> str:
        return shorten(ast.get_source_segment(self._source, node) or ast.unparse(node))

    def _refuse(self, node: ast.AST) -> IndexSyntaxError:
        return not_allowed(self._piece(node), self._target_name)

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
                    _("{piece} is text; indices must be integers, slices, ... or None.").format(
                        piece=self._piece(node)
                    )
                )
        raise self._refuse(node)

    def _integer(self, node: ast.expr) -> int:
        value = self._number(node)
        if not isinstance(value, int):
            raise IndexSyntaxError(
                _("Indices must be integers (or slices, ..., None), got {piece}.").format(
                    piece=self._piece(node)
                )
            )
        return value

    def _slice(self, node: ast.Slice) -> slice:
        start, stop, step = (
            None if part is None else self._integer(part)
            for part in (node.lower, node.upper, node.step)
        )
        if step == 0:
            raise IndexSyntaxError(
                _("The slice step cannot be zero in '{piece}'.").format(piece=self._piece(node))
            )
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
                _("'{piece}' mixes True/False with integers: use one kind per list.").format(
                    piece=self._piece(node)
                )
            )
        if not any(isinstance(entry, ast.List) for entry in node.elts):
            return values
        try:
            return self._made(torch.tensor(values, dtype=torch.bool if all_bools else torch.long))
        except (ValueError, TypeError, RuntimeError, OverflowError) as error:
            raise IndexSyntaxError(
                _("'{piece}' cannot become one index tensor: {reason}.").format(
                    piece=self._piece(node), reason=error
                )
            ) from None

    def _mask(self, node: ast.expr) -> torch.Tensor:
        try:
            with torch.no_grad():
                return self._boolean(node)
        except IndexSyntaxError:
            raise
        except (RuntimeError, TypeError, ValueError, ArithmeticError) as error:
            # torch refuses some arithmetic (int ** -1, // 0); that is the learner's index at fault.
            reason = sentence(str(error) or type(error).__name__)
            raise IndexSyntaxError(
                _("'{piece}' could not be computed: {reason}").format(
                    piece=self._piece(node), reason=reason
                )
            ) from None

    def _boolean(self, node: ast.expr) -> torch.Tensor:
        """A bool tensor from comparisons joined by &, | and ~."""
        if isinstance(node, ast.Compare):
            return self._comparison(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd | ast.BitOr):
            left, right = self._boolean(node.left), self._boolean(node.right)
            both = self._made(left & right if isinstance(node.op, ast.BitAnd) else left | right)
            self._released(left, right)
            return both
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
            operand = self._boolean(node.operand)
            inverted = self._made(~operand)
            self._released(operand)
            return inverted
        if isinstance(node, ast.BoolOp) or (
            isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
        ):
            raise IndexSyntaxError(
                _(
                    "'{piece}' uses and/or/not, which cannot combine masks: use &, | and ~ with "
                    "parentheses, like ({name} > 0) & ({name} < 5)."
                ).format(piece=self._piece(node), name=self._target_name)
            )
        if isinstance(node, ast.Name):
            tensor = self._tensor(node)
            if tensor.dtype == torch.bool:
                return tensor
            raise IndexSyntaxError(
                _("'{name}' alone is not a mask: compare it, like {name} > 0.").format(name=node.id)
            )
        raise self._refuse(node)

    def _comparison(self, node: ast.Compare) -> torch.Tensor:
        operands = [node.left, *node.comparators]
        values = [self._value(operand) for operand in operands]
        if not any(isinstance(value, torch.Tensor) for value in values):
            raise IndexSyntaxError(
                _("'{piece}' compares only numbers: compare a tensor, like {name} > 0.").format(
                    piece=self._piece(node), name=self._target_name
                )
            )
        mask: torch.Tensor | None = None
        # A chain `0 < x < 5` means (0 < x) & (x < 5), as in Python.
        for op, left, right in zip(node.ops, values[:-1], values[1:], strict=True):
            compare = _COMPARISONS.get(type(op))
            if compare is None:
                raise self._refuse(node)
            step = self._made(torch.as_tensor(compare(left, right)))
            if mask is not None:
                combined = self._made(mask & step)
                self._released(mask, step)
                step = combined
            mask = step
        assert mask is not None
        self._released(*values)  # the operands live until the whole chain is compared
        return mask

    def _value(self, node: ast.expr) -> torch.Tensor | int | float:
        """One side of a comparison: a named tensor, a number, or arithmetic on them."""
        if isinstance(node, ast.Name):
            return self._tensor(node)
        if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
            left, right = self._value(node.left), self._value(node.right)
            if isinstance(node.op, ast.Pow) and _power_too_large(left, right):
                raise IndexSyntaxError(
                    _("'{piece}' is too large a number.").format(piece=self._piece(node))
                )
            result = self._made(_ARITHMETIC[type(node.op)](left, right))
            self._released(left, right)
            return result
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            value = self._value(node.operand)
            if isinstance(node.op, ast.UAdd):
                return value
            negated = self._made(-value)
            self._released(value)
            return negated
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd | ast.BitOr):
            # `x > 2 & x < 10` parses as `x > (2 & x) < 10`, a classic precedence trap.
            raise IndexSyntaxError(
                _(
                    "'{piece}' mixes & or | into a comparison: put each comparison in "
                    "parentheses, like ({name} > 2) & ({name} < 10)."
                ).format(piece=self._piece(node), name=self._target_name)
            )
        return self._number(node)

    def _tensor(self, node: ast.Name) -> torch.Tensor:
        tensor = self._tensors.get(node.id)
        if not isinstance(tensor, torch.Tensor):
            raise IndexSyntaxError(
                _(
                    "'{name}' is not a tensor in the Workbench, so it cannot be used in an index."
                ).format(name=node.id)
            )
        if self._on_meta:
            if node.id not in self._meta:
                self._meta[node.id] = to_meta(tensor)
            return self._meta[node.id]
        return tensor


def _power_too_large(base: object, exponent: object) -> bool:
    """Whether `base ** exponent` on two Python ints makes a huge number (tensors are bounded)."""
    if not (isinstance(base, int) and isinstance(exponent, int)) or abs(base) <= 1:
        return False  # floats overflow to inf or raise OverflowError; |base| <= 1 stays small
    return exponent * abs(base).bit_length() > _MAX_CONSTANT_POWER_BITS
