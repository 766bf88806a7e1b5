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
from tensorviz.core.diff.key_matching import (
    KeyMatch,
    match_by_bytes,
    match_by_name,
    wrapper_difference,
)
from tensorviz.core.diff.sides import ComparedSide, TensorEntry
from tensorviz.core.diff.storage_sharing import SharingChange, sharing_changes, tied_matches
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
    # "name" | "prefix" | "bytes" | "picked" | "tied"; None: one side only
    matched_by: str | None = None
    status: str = "not_compared"
    bitwise_equal: bool | None = None
    values: ValueChange | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def renamed(self) -> bool:
        return self.a is not None and self.b is not None and self.a.key != self.b.key

    @property
    def counts_as_rename(self) -> bool:
        """A key that changed: not a pick of two entries, not a tied weight saved once."""
        return self.renamed and self.matched_by not in ("picked", "tied")

    @property
    def wrappers(self) -> tuple[list[str], list[str]] | None:
        """The torch wrappers (module., _orig_mod.) that alone tell the two keys apart."""
        if not self.counts_as_rename or self.matched_by != "prefix":
            return None
        return wrapper_difference(self.a.key, self.b.key)

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
    # a folder's JSON files and file metadata one side alone has: (side "A"/"B", name, values)
    beside_one_side: list[tuple[str, str, int]] = field(default_factory=list)
    strict_keys: bool = False  # keys that differ by torch's wrappers alone make it differ
    cancelled: bool = False
    error: str | None = None  # one sentence: a file changed under us; the rows so far stay

    def count(self, status: str) -> int:
        return sum(p.status == status for p in self.pairs)

    @property
    def renames(self) -> int:
        return sum(p.counts_as_rename for p in self.pairs)

    def key_changed(self, pair: TensorPair) -> bool:
        """The pair's keys differ in a way that counts: any rename, but torch's wrappers
        (module., _orig_mod.) only with strict_keys."""
        if not pair.counts_as_rename:
            return False
        return self.strict_keys or pair.wrappers is None

    def wrapper_prefixes(self) -> tuple[list[str], list[str]]:
        """The wrappers A's and B's keys alone have, over every pair told apart by them."""
        only_a: dict[str, None] = {}
        only_b: dict[str, None] = {}
        for pair in self.pairs:
            if (wrappers := pair.wrappers) is not None:
                only_a.update(dict.fromkeys(wrappers[0]))
                only_b.update(dict.fromkeys(wrappers[1]))
        return list(only_a), list(only_b)

    @property
    def equal_except_prefixes(self) -> bool:
        """Equal, and some keys differ by torch's wrappers alone (a compiled or DDP model's)."""
        return self.equal and any(p.wrappers is not None for p in self.pairs)

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
            and all(self.within_tolerance(p) and not self.key_changed(p) for p in self.pairs)
        )


Progress = Callable[[int, int, str], None]  # done, total, what is being read


def compare_sides(
    side_a: ComparedSide,
    side_b: ComparedSide,
    atol: float = 0.0,
    rtol: float = 0.0,
    progress: Progress | None = None,
    should_stop: Callable[[], bool] = never,
    strict_keys: bool = False,
) -> Comparison:
    """Everything that differs between two sides, B against A."""
    result = Comparison(side_a, side_b, atol, rtol, strict_keys=strict_keys)
    report = progress or (lambda _done, _total, _what: None)
    result.values, result.values_compared, result.beside_one_side = _value_differences(
        side_a, side_b
    )
    if side_a.single and side_b.single:  # two picked entries: paired whatever their names
        (key_a,), (key_b,) = side_a.tensors, side_b.tensors
        matches, only_a, only_b = [KeyMatch(key_a, key_b, "picked")], [], []
    else:
        plan = match_by_name(side_a.tensors, side_b.tensors)
        matches, only_a, only_b = plan.matches, plan.only_a, plan.only_b
        tied = tied_matches(side_a, side_b, matches, only_a, only_b)
        matches += tied
        only_a = [k for k in only_a if k not in {m.key_a for m in tied}]
        only_b = [k for k in only_b if k not in {m.key_b for m in tied}]
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
    """Plain values that differ, how many were compared, and the files beside a checkpoint
    (a folder's config.json, a file's metadata) that one side alone has: those are not
    compared, as a safetensors file's metadata is not compared with a .bin that has none."""
    beside = ({v.beside for v in side_a.values.values()},
              {v.beside for v in side_b.values.values()})  # fmt: skip
    one_side = []
    for name, side, other in (("A", side_a, beside[1]), ("B", side_b, beside[0])):
        for file in dict.fromkeys(v.beside for v in side.values.values()):
            if file and file not in other:
                count = sum(v.beside == file for v in side.values.values())
                one_side.append((name, file, count))
    left_out = {file for _side, file, _count in one_side}
    values_a = {k: v for k, v in side_a.values.items() if v.beside not in left_out}
    values_b = {k: v for k, v in side_b.values.items() if v.beside not in left_out}
    plan = match_by_name(values_a, values_b)
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
    return differences, len(plan.matches), one_side


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

    def digest(side: ComparedSide, key: str) -> bytes | None:
        """The entry's bytes hashed; None when every element has the same bytes (a constant)."""
        if should_stop():
            raise ComparisonCancelledError
        report(done[0], total, _("looking for renamed tensors: {key}").format(key=key))
        entry = side.tensors[key]
        hashed = hashlib.sha256()  # SHA-NI: twice blake2b's speed here
        first, constant = None, True
        streamed = _blocks(entry, buffer)
        whole = streamed is None
        blocks = [_read(entry, buffer).contiguous().reshape(-1)] if whole else streamed[2]
        for block in blocks:
            elements = block.reshape(-1, 1).view(torch.uint8)  # one row of bytes per element
            first = elements[:1].clone() if first is None else first
            constant = constant and bool((elements == first).all())
            hashed.update(elements.numpy())
        if whole:
            blocks = block = elements = None  # the copy freed before the next is read
            give_back_freed_memory()
        done[0] += 1
        return None if constant else hashed.digest()

    return match_by_bytes(sig_a, sig_b, lambda k: digest(side_a, k), lambda k: digest(side_b, k))


def _rows(side_a, side_b, matches: list[KeyMatch]) -> list[TensorPair]:
    """One row per match and per key on one side only: A's order, then what only B has (and
    B's tied keys that A saves once)."""
    by_a = {m.key_a: m for m in matches if m.how != "tied"}
    tied_b = {m.key_b: m for m in matches if m.how == "tied" and m.key_a in by_a}
    by_a |= {m.key_a: m for m in matches if m.how == "tied" and m.key_b not in tied_b}
    matched_b = {m.key_b for m in matches}
    rows = []
    for key_a, entry in side_a.tensors.items():
        if key_a in by_a:
            match = by_a[key_a]
            key = key_a if match.how == "tied" else match.key
            rows.append(TensorPair(key, entry, side_b.tensors[match.key_b], match.how))
        else:
            rows.append(TensorPair(key_a, entry, None, status="only_a"))
    for key_b, entry in side_b.tensors.items():
        if key_b in tied_b:
            rows.append(TensorPair(key_b, side_a.tensors[tied_b[key_b].key_a], entry, "tied"))
        elif key_b not in matched_b:
            rows.append(TensorPair(key_b, None, entry, status="only_b"))
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
