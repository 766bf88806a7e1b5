"""Two sides compared: keys matched (names, prefixes, identical bytes), then every pair's values
read, compared and dropped before the next pair. Progress is reported and cancel is honoured
between tensors and between chunks; a cancelled comparison keeps what it had found so far.

A tensor that lies in its file as one row-major run of bytes (nearly every saved parameter) is
streamed in blocks of about a megabyte (value_blocks.py), both sides side by side, so memory
holds two blocks whatever the tensors' size; any other (a saved transposed view, a DCP tensor,
a tensor not in a file) is read whole, and memory holds that pair. Each side reads into one
ReadBuffer of its own, reused from pair to pair: no read pays for fresh memory's page faults.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

import torch

from tensorviz.core.diff.freed_memory import give_back_freed_memory
from tensorviz.core.diff.key_matching import KeyMatch, match_by_bytes, match_by_name
from tensorviz.core.diff.sides import ComparedSide, TensorEntry
from tensorviz.core.diff.storage_sharing import SharingChange, sharing_changes
from tensorviz.core.diff.tensor_difference import (
    ComparisonCancelledError,
    TensorComparison,
    ValueChange,
    block_elements,
    compare_blocks,
    compare_tensors,
    never,
)
from tensorviz.core.files.inspection import FileChangedError, ReadBuffer, TensorInfo
from tensorviz.core.translation import _

# What a row is; "changed" covers values, shape, dtype and layout.
STATUSES = ("changed", "unchanged", "only_a", "only_b", "not_compared")


@dataclass
class TensorPair:
    key: str  # the name the row is shown and grouped under
    a: TensorEntry | None
    b: TensorEntry | None
    matched_by: str | None = None  # "name" | "prefix" | "bytes" | "picked"; None: one side only
    status: str = "not_compared"
    bitwise_equal: bool | None = None
    values: ValueChange | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def renamed(self) -> bool:
        return self.a is not None and self.b is not None and self.a.key != self.b.key

    @property
    def relative_change(self) -> float | None:
        return None if self.values is None else self.values.relative

    def facts_changed(self) -> list[str]:
        """Shape, dtype and layout differences, in words."""
        if self.a is None or self.b is None:
            return []
        ia, ib = self.a.info, self.b.info
        changes = []
        for fact, old, new in (
            (_("shape {old} → {new}"), ia.shape, ib.shape),
            (_("dtype {old} → {new}"), ia.dtype, ib.dtype),
            (_("layout {old} → {new}"), ia.layout, ib.layout),
        ):
            if old != new:
                changes.append(fact.format(old=_listed(old), new=_listed(new)))
        return changes


def _listed(value):
    return list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True)
class ValueDifference:
    key: str
    a: str | None  # the value's text; None: only on the other side
    b: str | None
    file_key_a: str | None
    file_key_b: str | None


@dataclass
class Comparison:
    side_a: ComparedSide = field(repr=False)
    side_b: ComparedSide = field(repr=False)
    atol: float = 0.0
    rtol: float = 0.0
    pairs: list[TensorPair] = field(default_factory=list)  # A's order, then B's own keys
    values: list[ValueDifference] = field(default_factory=list)  # only values that differ
    values_compared: int = 0
    sharing: list[SharingChange] = field(default_factory=list)
    cancelled: bool = False
    error: str | None = None  # one sentence: a file changed under us; the rows so far stay

    def count(self, status: str) -> int:
        return sum(p.status == status for p in self.pairs)

    @property
    def renames(self) -> int:
        return sum(p.renamed and p.matched_by != "picked" for p in self.pairs)

    def within_tolerance(self, pair: TensorPair) -> bool:
        if pair.status == "unchanged":
            return True
        if pair.status != "changed" or pair.values is None or pair.facts_changed():
            return False
        return pair.values.outside_tolerance == 0

    @property
    def equal(self) -> bool:
        """Equal within tolerance: the same keys, shapes, dtypes, sharing and plain values, and
        values within atol + rtol·|a| (bitwise when both are 0)."""
        return (
            not self.cancelled
            and self.error is None
            and not self.values
            and not self.sharing
            and all(self.within_tolerance(p) and not _renamed(p) for p in self.pairs)
        )


def _renamed(pair: TensorPair) -> bool:
    return pair.renamed and pair.matched_by != "picked"


Progress = Callable[[int, int, str], None]  # done, total, what is being read


def compare_sides(
    side_a: ComparedSide,
    side_b: ComparedSide,
    atol: float = 0.0,
    rtol: float = 0.0,
    progress: Progress | None = None,
    should_stop: Callable[[], bool] = never,
) -> Comparison:
    """Everything that differs between two sides, B against A."""
    result = Comparison(side_a, side_b, atol, rtol)
    report = progress or (lambda _done, _total, _what: None)
    result.values, result.values_compared = _value_differences(side_a, side_b)
    if side_a.single and side_b.single:  # two picked entries: paired whatever their names
        (key_a,), (key_b,) = side_a.tensors, side_b.tensors
        matches, only_a, only_b = [KeyMatch(key_a, key_b, "picked")], [], []
    else:
        plan = match_by_name(side_a.tensors, side_b.tensors)
        matches, only_a, only_b = plan.matches, plan.only_a, plan.only_b
    buffers = (ReadBuffer(), ReadBuffer())
    try:
        found = _bytes_matches(side_a, side_b, only_a, only_b, buffers[0], report, should_stop)
    except ComparisonCancelledError:
        found = []
        result.cancelled = True
    except FileChangedError as changed:
        found = []
        result.error = str(changed)
    matches += found
    result.pairs = _rows(side_a, side_b, matches)
    result.sharing = sharing_changes(side_a, side_b, matches)
    if result.cancelled or result.error:
        return result
    _compare_pairs(result, buffers, report, should_stop)
    return result


def _value_differences(side_a: ComparedSide, side_b: ComparedSide):
    plan = match_by_name(side_a.values, side_b.values)
    differences = []
    for match in plan.matches:
        va, vb = side_a.values[match.key_a], side_b.values[match.key_b]
        if not va.same_as(vb):
            differences.append(ValueDifference(match.key, va.text, vb.text, va.file_key,
                                               vb.file_key))  # fmt: skip
    for key in plan.only_a:
        differences.append(ValueDifference(key, side_a.values[key].text, None,
                                           side_a.values[key].file_key, None))  # fmt: skip
    for key in plan.only_b:
        differences.append(ValueDifference(key, None, side_b.values[key].text, None,
                                           side_b.values[key].file_key))  # fmt: skip
    return differences, len(plan.matches)


def _signature(info: TensorInfo):
    return (info.shape, info.dtype) if info.plain else None


def _bytes_matches(side_a, side_b, only_a, only_b, buffer, report, should_stop) -> list[KeyMatch]:
    """Leftover keys whose shape, dtype and bytes are the same: renames. Each candidate is read
    once, hashed and freed."""
    sig_a = {k: s for k in only_a if (s := _signature(side_a.tensors[k].info)) is not None}
    sig_b = {k: s for k in only_b if (s := _signature(side_b.tensors[k].info)) is not None}
    if not sig_a or not sig_b:
        return []
    total = sum(s in set(sig_b.values()) for s in sig_a.values()) + sum(
        s in set(sig_a.values()) for s in sig_b.values()
    )
    done = [0]

    def digest(side: ComparedSide, key: str) -> bytes:
        if should_stop():
            raise ComparisonCancelledError
        report(done[0], total, _("looking for renamed tensors: {key}").format(key=key))
        entry = side.tensors[key]
        hashed = hashlib.sha256()  # SHA-NI: twice blake2b's speed here
        streamed = _blocks(entry, buffer)
        if streamed is not None:
            for block in streamed[2]:
                hashed.update(block.view(torch.uint8).numpy())
        else:
            tensor = _read(entry, buffer)
            hashed.update(tensor.contiguous().reshape(-1).view(torch.uint8).numpy())
            del tensor
            give_back_freed_memory()
        done[0] += 1
        return hashed.digest()

    return match_by_bytes(sig_a, sig_b, lambda k: digest(side_a, k), lambda k: digest(side_b, k))


def _rows(side_a, side_b, matches: list[KeyMatch]) -> list[TensorPair]:
    """One row per match and per key on one side only: A's order, then what only B has."""
    by_a = {m.key_a: m for m in matches}
    matched_b = {m.key_b for m in matches}
    rows = []
    for key_a, entry in side_a.tensors.items():
        if key_a in by_a:
            match = by_a[key_a]
            rows.append(TensorPair(match.key, entry, side_b.tensors[match.key_b], match.how))
        else:
            rows.append(TensorPair(key_a, entry, None, status="only_a"))
    rows += [TensorPair(k, None, e, status="only_b") for k, e in side_b.tensors.items()
             if k not in matched_b]  # fmt: skip
    return rows


def _read(entry: TensorEntry, buffer: ReadBuffer):
    return entry.read() if entry.read_into is None else entry.read_into(buffer)


def _blocks(entry: TensorEntry, buffer: ReadBuffer) -> tuple | None:
    """(shape, dtype, blocks) of an entry that streams from its file, else None."""
    return None if entry.blocks is None else entry.blocks(block_elements(), buffer)


def _compare_pairs(result: Comparison, buffers, report: Progress, should_stop) -> None:
    todo = [p for p in result.pairs if p.a is not None and p.b is not None]
    for done, pair in enumerate(todo):
        if should_stop():
            result.cancelled = True
            return
        report(done, len(todo), pair.key)
        try:
            _compare_pair(pair, buffers, result.atol, result.rtol, should_stop)
        except ComparisonCancelledError:
            result.cancelled = True
            return
        except FileChangedError as changed:
            result.error = str(changed)
            return
    report(len(todo), len(todo), "")


def _compare_pair(pair: TensorPair, buffers, atol: float, rtol: float, should_stop) -> None:
    ia, ib = pair.a.info, pair.b.info
    if not (ia.plain and ib.plain):
        _compare_without_values(pair)
        return
    streamed = _blocks(pair.a, buffers[0]), _blocks(pair.b, buffers[1])
    if None not in streamed:
        _take_outcome(pair, compare_blocks, *streamed, atol, rtol, should_stop)
        return
    for side in streamed:
        if side is not None:
            side[2].close()
    a = _read(pair.a, buffers[0])
    if should_stop():
        raise ComparisonCancelledError
    b = _read(pair.b, buffers[1])
    try:
        _take_outcome(pair, compare_tensors, a, b, atol, rtol, should_stop)
    finally:
        del a, b  # dropped before the next pair is read
        give_back_freed_memory()


def _take_outcome(pair: TensorPair, compare: Callable[..., TensorComparison], *args) -> None:
    try:
        outcome = compare(*args)
    except (RuntimeError, TypeError) as error:  # a dtype torch cannot convert, say
        why = (str(error).splitlines() or [type(error).__name__])[0]  # torch's words, verbatim
        pair.notes.append(_("Values could not be compared: {error}").format(error=why))
        pair.status = "changed" if pair.facts_changed() else "not_compared"
        return
    _take(pair, outcome)


def _take(pair: TensorPair, outcome: TensorComparison) -> None:
    pair.bitwise_equal, pair.values = outcome.bitwise_equal, outcome.values
    pair.notes += outcome.notes
    values_equal = outcome.values is not None and outcome.values.changed == 0
    pair.status = "unchanged" if values_equal and not pair.facts_changed() else "changed"


def _compare_without_values(pair: TensorPair) -> None:
    """Meta, sparse, quantized entries: what their facts tell."""
    ia, ib = pair.a.info, pair.b.info
    if pair.facts_changed() or ia.nnz != ib.nnz:
        pair.status = "changed"
    elif ia.device == ib.device == "meta":
        pair.status = "unchanged"
        pair.notes.append(_("No data on either side (meta tensors): shape and dtype are the same."))
        return
    else:
        pair.status = "not_compared"
    problem = ia.problem if not ia.plain else ib.problem
    pair.notes.append(_("Values not compared: {problem}.").format(problem=problem))
