"""How two tensors' values differ: bitwise identical or not, and for changed values max |Δ|,
mean |Δ|, ‖Δ‖/‖A‖, cosine similarity, changed elements, NaN/Inf that appeared.

Values are compared element by element in row-major order, in chunks of CHUNK_ELEMENTS, in
float64 (complex128 for complex): it holds every value of the narrower float dtypes and of int32
exactly, so two different dtypes are compared without rounding, and the sums stay accurate where
a float32 dot of ten million elements would not. A chunk's few buffers are all the memory this
needs beyond the values it is handed; `should_stop` is asked between chunks.

The values come as pairs of blocks (`compare_blocks`): runs of elements of the same length from
each side, for a tensor in memory its slices, for a tensor in a file what value_blocks.py reads —
so two files are compared with a few blocks in memory, not two whole tensors. A block whose
bytes are the same on both sides is only counted for its norm.

The chunk loop runs on one thread: a pass over a cached megabyte gains little from a second
thread, and when the cores are busy (a training run beside the comparison) every OpenMP barrier
waits for a time slice — measured here, a 1 MB copy took 25× longer on two threads than on one.
torch's thread count is per calling thread with OpenMP, and is put back afterwards.

Statistics of |Δ| cover the elements that are finite on both sides; NaN and Inf are counted apart
(a NaN that appears must not turn every figure into NaN). An element is changed when its values
differ, NaN at the same place on both sides counting as equal.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from dataclasses import dataclass

import torch

from tensorviz.core.diff.chunk_statistics import (
    ChunkBuffers,
    ComparisonCancelledError,
    DifferenceTotals,
    add_changed,
    add_unchanged,
)
from tensorviz.core.translation import _

__all__ = ["BLOCK_CHUNKS", "CHUNK_ELEMENTS", "ComparisonCancelledError", "TensorComparison",
           "ValueChange", "block_elements", "compare_blocks", "compare_tensors"]  # fmt: skip

CHUNK_ELEMENTS = 1 << 15  # 256 KB of float64: the passes over a chunk stay in the CPU's cache
BLOCK_CHUNKS = 8  # a block read from a file: 1 MB of float32, few reads, still in the cache


def block_elements() -> int:
    """The elements of one block (a whole number of chunks, so chunks never straddle blocks)."""
    return BLOCK_CHUNKS * CHUNK_ELEMENTS


@dataclass(frozen=True)
class ValueChange:
    elements: int
    changed: int  # elements whose values differ (NaN beside NaN counts as equal)
    outside_tolerance: int  # elements with |b - a| > atol + rtol·|a| (torch.isclose(b, a))
    finite: int  # elements finite on both sides: what the |Δ| figures cover
    max_abs: float | None
    sum_abs: float
    sum_sq_delta: float  # Σ Δ², Σ a², Σ b², Σ a·b over the finite elements (layer totals add up)
    sum_sq_a: float
    sum_sq_b: float
    sum_ab: float | None  # None for complex and bool: no cosine
    nan_a: int = 0
    nan_b: int = 0
    inf_a: int = 0
    inf_b: int = 0
    nan_appeared: int = 0  # NaN in B where A had none
    inf_appeared: int = 0

    @property
    def changed_fraction(self) -> float:
        return self.changed / self.elements if self.elements else 0.0

    @property
    def mean_abs(self) -> float | None:
        return self.sum_abs / self.finite if self.finite and self.max_abs is not None else None

    @property
    def relative(self) -> float | None:
        """‖Δ‖ / ‖A‖; infinite when A is all zeros and B is not."""
        if self.max_abs is None:
            return None
        if self.sum_sq_a > 0:
            return math.sqrt(self.sum_sq_delta) / math.sqrt(self.sum_sq_a)
        return 0.0 if self.sum_sq_delta == 0 else math.inf

    @property
    def cosine(self) -> float | None:
        if self.sum_ab is None or self.sum_sq_a <= 0 or self.sum_sq_b <= 0:
            return None
        return self.sum_ab / math.sqrt(self.sum_sq_a * self.sum_sq_b)


@dataclass(frozen=True)
class TensorComparison:
    bitwise_equal: bool | None  # the same bytes in row-major order; None: dtypes differ
    values: ValueChange | None  # None: element counts differ, nothing to compare
    notes: tuple[str, ...] = ()


def never() -> bool:
    return False


def compare_tensors(
    a: torch.Tensor,
    b: torch.Tensor,
    atol: float = 0.0,
    rtol: float = 0.0,
    should_stop: Callable[[], bool] = never,
) -> TensorComparison:
    """The difference of two dense CPU tensors, B against A (A is the reference)."""
    flat_a, flat_b = _flat(a), _flat(b)
    size = block_elements()

    def blocks(flat):
        return (flat[i : i + size] for i in range(0, flat.numel(), size))

    return compare_blocks(
        (a.shape, a.dtype, blocks(flat_a)), (b.shape, b.dtype, blocks(flat_b)), atol, rtol,
        should_stop,
    )  # fmt: skip


Side = tuple  # (shape, dtype, blocks): blocks are 1-D runs of block_elements() in row-major order


def compare_blocks(
    side_a: Side, side_b: Side, atol: float = 0.0, rtol: float = 0.0,
    should_stop: Callable[[], bool] = never,
) -> TensorComparison:  # fmt: skip
    """The difference of two sides given as (shape, dtype, blocks), B against A. The blocks of
    both sides have the same lengths (block_elements(), the last one shorter); an iterator of
    blocks that has a close() is closed when the comparison ends, finished or not."""
    try:
        with _one_thread():
            return _compare(side_a, side_b, atol, rtol, should_stop)
    finally:
        for _shape, _dtype, blocks in (side_a, side_b):
            if hasattr(blocks, "close"):
                blocks.close()


@contextmanager
def _one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def _compare(side_a: Side, side_b: Side, atol: float, rtol: float, should_stop):
    (shape_a, dtype_a, blocks_a), (shape_b, dtype_b, blocks_b) = side_a, side_b
    notes = []
    elements = math.prod(shape_a)
    if tuple(shape_a) != tuple(shape_b):
        if elements != math.prod(shape_b):
            return TensorComparison(None, None, (_shape_note(shape_a, shape_b, False),))
        notes.append(_shape_note(shape_a, shape_b, True))
    same_dtype = dtype_a == dtype_b
    if not same_dtype:
        notes.append(_dtype_note(dtype_a, dtype_b))
    kind = _kind(dtype_a, dtype_b)
    tolerant = atol > 0 or rtol > 0
    buffers = ChunkBuffers(min(elements, CHUNK_ELEMENTS), kind, tolerant)
    totals, bitwise = DifferenceTotals(), same_dtype
    for block_a, block_b in _pairs(blocks_a, blocks_b):
        if same_dtype and torch.equal(_as_words(block_a), _as_words(block_b)):
            add_unchanged(totals, block_a, buffers, should_stop)
        else:
            bitwise = False
            add_changed(totals, block_a, block_b, buffers, atol, rtol, should_stop)
    change = _result(totals, elements, kind)
    if same_dtype and not bitwise and change.changed == 0:
        notes.append(_("The bytes differ but every value is equal (signed zeros or NaN bits)."))
    return TensorComparison(bitwise if same_dtype else None, change, tuple(notes))


def _pairs(blocks_a: Iterable, blocks_b: Iterable):
    for block_a, block_b in zip(blocks_a, blocks_b, strict=True):
        if block_a.numel() != block_b.numel():
            raise ValueError("blocks of different lengths")
        yield block_a, block_b


def _result(totals: DifferenceTotals, elements: int, kind: str) -> ValueChange:
    numeric = kind != "bool"
    return ValueChange(
        elements, totals.changed, totals.outside, totals.finite,
        totals.max_abs if numeric else None, totals.sum_abs, totals.sq_delta, totals.sq_a,
        totals.sq_b, totals.ab if kind in ("float", "int") else None, totals.nan_a, totals.nan_b,
        totals.inf_a, totals.inf_b, totals.nan_appeared, totals.inf_appeared,
    )  # fmt: skip


def _flat(tensor: torch.Tensor) -> torch.Tensor:
    """Row-major elements, a view where the layout allows (a copy for a transposed view)."""
    return tensor.detach().resolve_conj().resolve_neg().reshape(-1)


def _as_words(flat: torch.Tensor) -> torch.Tensor:
    """The bytes as the widest integers they divide into: torch.equal compares int64 words
    seven times faster than bytes, and integers make NaN equal to the same NaN."""
    raw = flat.view(torch.uint8)
    for dtype, size in ((torch.int64, 8), (torch.int32, 4), (torch.int16, 2)):
        if raw.numel() % size == 0 and raw.data_ptr() % size == 0:
            return raw.view(dtype)
    return raw


def _shape_note(a: tuple, b: tuple, compared: bool) -> str:
    shapes = {
        "a": list(a),
        "b": list(b),
        "n_a": f"{math.prod(a):,}",
        "n_b": f"{math.prod(b):,}",
    }
    if compared:
        return _("shape {a} → {b}: the same {n_a} elements, compared in row-major order.").format(
            **shapes
        )
    return _("shape {a} → {b}: {n_a} vs {n_b} elements, values not compared.").format(**shapes)


def _dtype_note(a: torch.dtype, b: torch.dtype) -> str:
    name_a, name_b = str(a).removeprefix("torch."), str(b).removeprefix("torch.")
    wide = "complex128" if a.is_complex or b.is_complex else "float64"
    try:
        common = str(torch.promote_types(a, b)).removeprefix("torch.")
    except RuntimeError:  # float8 kinds have no promotion
        return _("dtype {a} → {b}: values compared as {wide}, which holds both.").format(
            a=name_a, b=name_b, wide=wide
        )
    return _(
        "dtype {a} → {b}: their common dtype is {common}; values compared as {wide}, which "
        "holds both."
    ).format(a=name_a, b=name_b, common=common, wide=wide)


def _kind(a: torch.dtype, b: torch.dtype) -> str:
    if a.is_complex or b.is_complex:
        return "complex"
    if a.is_floating_point or b.is_floating_point:
        return "float"
    if a == b == torch.bool:
        return "bool"
    return "int"
