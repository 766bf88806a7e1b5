"""How two tensors' values differ: bitwise identical or not, and for changed values max |Δ|,
mean |Δ|, ‖Δ‖/‖A‖, cosine similarity, changed elements, NaN/Inf that appeared.

Values are compared element by element in row-major order, in chunks of CHUNK_ELEMENTS, in
float64 (complex128 for complex): it holds every value of the narrower float dtypes and of int32
exactly, so two different dtypes are compared without rounding, and the sums stay accurate where
a float32 dot of ten million elements would not. A chunk's few buffers are all the memory this
needs beyond the two tensors; `should_stop` is asked between chunks.

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
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

import torch

from tensorviz.core.translation import _

CHUNK_ELEMENTS = 1 << 15  # 256 KB of float64: the passes over a chunk stay in the CPU's cache


class ComparisonCancelledError(Exception):
    """should_stop() said so between two chunks or two tensors."""


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
    with _one_thread():
        return _compare(a, b, atol, rtol, should_stop)


@contextmanager
def _one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def _compare(a, b, atol: float, rtol: float, should_stop) -> TensorComparison:
    notes = []
    if a.shape != b.shape:
        if a.numel() != b.numel():
            return TensorComparison(None, None, (_shape_note(a, b, False),))
        notes.append(_shape_note(a, b, True))
    flat_a, flat_b = _flat(a), _flat(b)
    if a.dtype == b.dtype:
        bitwise = torch.equal(_as_words(flat_a), _as_words(flat_b))
    else:
        bitwise = None
        notes.append(_dtype_note(a.dtype, b.dtype))
    if bitwise:
        change = _unchanged(flat_a, should_stop)
    else:
        change = _value_change(flat_a, flat_b, atol, rtol, should_stop)
        if bitwise is False and change.changed == 0:
            notes.append(_("The bytes differ but every value is equal (signed zeros or NaN bits)."))
    return TensorComparison(bitwise, change, tuple(notes))


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


def _shape_note(a: torch.Tensor, b: torch.Tensor, compared: bool) -> str:
    shapes = {
        "a": list(a.shape),
        "b": list(b.shape),
        "n_a": f"{a.numel():,}",
        "n_b": f"{b.numel():,}",
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


def _kind(a: torch.Tensor, b: torch.Tensor) -> str:
    if a.is_complex() or b.is_complex():
        return "complex"
    if a.is_floating_point() or b.is_floating_point():
        return "float"
    if a.dtype == b.dtype == torch.bool:
        return "bool"
    return "int"


class _Totals:
    def __init__(self) -> None:
        self.changed = self.outside = self.finite = 0
        self.max_abs: float | None = None
        self.sum_abs = self.sq_delta = self.sq_a = self.sq_b = self.ab = 0.0
        self.nan_a = self.nan_b = self.inf_a = self.inf_b = 0
        self.nan_appeared = self.inf_appeared = 0

    def add_finite(self, ca, cb, d, top: float | None = None) -> None:
        """Δ statistics of elements finite on both sides (d = |cb - ca|)."""
        if not d.numel():
            return
        self.finite += d.numel()
        top = float(d.max()) if top is None else top
        self.max_abs = top if self.max_abs is None else max(self.max_abs, top)
        self.sum_abs += float(d.sum())
        # four dot products: measured here 35-65 µs a chunk, one (3 × n) @ (n × 3) 90-130 µs
        self.sq_delta += float(torch.dot(d, d))
        self.sq_a += _square_sum(ca)
        self.sq_b += _square_sum(cb)
        if not (ca.is_complex() or cb.is_complex()):
            self.ab += float(torch.dot(ca, cb))

    def result(self, elements: int, kind: str) -> ValueChange:
        numeric = kind != "bool"
        return ValueChange(
            elements, self.changed, self.outside, self.finite,
            self.max_abs if numeric else None, self.sum_abs, self.sq_delta, self.sq_a,
            self.sq_b, self.ab if kind in ("float", "int") else None, self.nan_a, self.nan_b,
            self.inf_a, self.inf_b, self.nan_appeared, self.inf_appeared,
        )  # fmt: skip


def _square_sum(x: torch.Tensor) -> float:
    return float(torch.vdot(x, x).real) if x.is_complex() else float(torch.dot(x, x))


def _chunks(n: int, should_stop: Callable[[], bool]):
    for start in range(0, n, CHUNK_ELEMENTS):
        if should_stop():
            raise ComparisonCancelledError
        yield start, min(n, start + CHUNK_ELEMENTS)


def _value_change(flat_a, flat_b, atol: float, rtol: float, should_stop) -> ValueChange:
    kind = _kind(flat_a, flat_b)
    n = flat_a.numel()
    size = min(n, CHUNK_ELEMENTS)
    tolerant = atol > 0 or rtol > 0
    wide = torch.complex128 if kind == "complex" else torch.float64
    buffer_a, buffer_b = (torch.empty(size, dtype=wide) for _unused in range(2))
    buffer_d = torch.empty(size, dtype=torch.float64)
    buffer_bound = torch.empty(size if tolerant else 0, dtype=torch.float64)
    totals = _Totals()
    for start, stop in _chunks(n, should_stop):
        k = stop - start
        ca, cb, d = buffer_a[:k], buffer_b[:k], buffer_d[:k]
        ca.copy_(flat_a[start:stop])
        cb.copy_(flat_b[start:stop])
        if kind == "complex":
            torch.abs(cb - ca, out=d)
        else:
            torch.sub(cb, ca, out=d).abs_()
        top = float(d.max())
        if not math.isfinite(top):  # NaN or Inf on some side in this chunk
            _add_non_finite(totals, ca, cb, atol, rtol, tolerant)
            continue
        totals.add_finite(ca, cb, d, top)
        if kind in ("int", "bool"):  # exact, where float64 would round ints past 2**53
            changed = int(
                torch.count_nonzero(_as_int(flat_a[start:stop]) != _as_int(flat_b[start:stop]))
            )
        else:
            changed = int(torch.count_nonzero(d))
        totals.changed += changed
        if tolerant:
            bound = torch.abs(ca, out=buffer_bound[:k]).mul_(rtol).add_(atol)
            totals.outside += int(torch.count_nonzero(d > bound))
        else:
            totals.outside += changed
    return totals.result(n, kind)


def _as_int(x: torch.Tensor) -> torch.Tensor:
    return x.to(torch.int64)


def _add_non_finite(totals: _Totals, ca, cb, atol, rtol, tolerant: bool) -> None:
    nan_a, nan_b = torch.isnan(ca), torch.isnan(cb)
    inf_a, inf_b = torch.isinf(ca), torch.isinf(cb)
    totals.nan_a += int(nan_a.sum())
    totals.nan_b += int(nan_b.sum())
    totals.inf_a += int(inf_a.sum())
    totals.inf_b += int(inf_b.sum())
    totals.nan_appeared += int((nan_b & ~nan_a).sum())
    totals.inf_appeared += int((inf_b & ~inf_a).sum())
    equal = (ca == cb) | (nan_a & nan_b)
    changed = ca.numel() - int(equal.sum())
    totals.changed += changed
    if tolerant:
        close = torch.isclose(cb, ca, rtol=rtol, atol=atol, equal_nan=True)
        totals.outside += ca.numel() - int(close.sum())
    else:
        totals.outside += changed
    finite = torch.isfinite(ca) & torch.isfinite(cb)
    fa, fb = ca[finite], cb[finite]
    totals.add_finite(fa, fb, (fb - fa).abs())


def _unchanged(flat: torch.Tensor, should_stop) -> ValueChange:
    """The figures of a tensor compared with its own bytes: nothing changed; its norm is still
    counted so that a layer's ‖Δ‖/‖A‖ has the right denominator."""
    kind = _kind(flat, flat)
    wide = torch.complex128 if kind == "complex" else torch.float64
    totals = _Totals()
    buffer = torch.empty(min(flat.numel(), CHUNK_ELEMENTS), dtype=wide)
    for start, stop in _chunks(flat.numel(), should_stop):
        chunk = buffer[: stop - start]
        chunk.copy_(flat[start:stop])
        square = _square_sum(chunk)
        if math.isfinite(square):
            totals.finite += stop - start
            totals.sq_a += square
        else:
            finite = chunk[torch.isfinite(chunk)]
            totals.finite += finite.numel()
            totals.sq_a += _square_sum(finite)
            nans, infs = int(torch.isnan(chunk).sum()), int(torch.isinf(chunk).sum())
            totals.nan_a += nans
            totals.inf_a += infs
            totals.nan_b += nans
            totals.inf_b += infs
    totals.sq_b = totals.ab = totals.sq_a
    totals.max_abs = 0.0 if totals.finite else None
    return totals.result(flat.numel(), kind)
