"""The sums behind a pair's figures, gathered chunk by chunk in float64 (complex128 for complex):
Σ|Δ|, max |Δ|, Σ Δ², Σ a², Σ b², Σ a·b, changed elements, NaN and Inf on each side.

Each chunk is copied into small buffers that live as long as one pair (`ChunkBuffers`), so a
comparison needs a few hundred kilobytes beyond the values it is handed. `should_stop` is asked
before every chunk. See tensor_difference.py for why float64 and why one thread.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch


class ComparisonCancelledError(Exception):
    """should_stop() said so between two chunks or two tensors."""


class ChunkBuffers:
    """The float64 (or complex128) copies of one chunk of each side, |Δ| and the tolerance
    bound: allocated once per pair, reused by every chunk."""

    def __init__(self, size: int, kind: str, tolerant: bool) -> None:
        wide = torch.complex128 if kind == "complex" else torch.float64
        self.size, self.kind = size, kind
        self.a, self.b = (torch.empty(size, dtype=wide) for _unused in range(2))
        self.delta = torch.empty(size, dtype=torch.float64)
        self.bound = torch.empty(size if tolerant else 0, dtype=torch.float64)


class DifferenceTotals:
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
        self.sq_a += square_sum(ca)
        self.sq_b += square_sum(cb)
        if not (ca.is_complex() or cb.is_complex()):
            self.ab += float(torch.dot(ca, cb))


def square_sum(x: torch.Tensor) -> float:
    return float(torch.vdot(x, x).real) if x.is_complex() else float(torch.dot(x, x))


def _chunks(n: int, size: int, should_stop: Callable[[], bool]):
    for start in range(0, n, size):
        if should_stop():
            raise ComparisonCancelledError
        yield start, min(n, start + size)


def add_changed(
    totals: DifferenceTotals, flat_a, flat_b, buffers: ChunkBuffers, atol: float, rtol: float,
    should_stop: Callable[[], bool],
) -> None:  # fmt: skip
    """Every figure of two runs of elements of equal length whose values may differ."""
    kind, tolerant = buffers.kind, buffers.bound.numel() > 0
    for start, stop in _chunks(flat_a.numel(), buffers.size, should_stop):
        k = stop - start
        ca, cb, d = buffers.a[:k], buffers.b[:k], buffers.delta[:k]
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
            bound = torch.abs(ca, out=buffers.bound[:k]).mul_(rtol).add_(atol)
            totals.outside += int(torch.count_nonzero(d > bound))
        else:
            totals.outside += changed


def _as_int(x: torch.Tensor) -> torch.Tensor:
    return x.to(torch.int64)


def _add_non_finite(totals: DifferenceTotals, ca, cb, atol, rtol, tolerant: bool) -> None:
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


def add_unchanged(
    totals: DifferenceTotals, flat, buffers: ChunkBuffers, should_stop: Callable[[], bool]
) -> None:
    """The figures of a run of elements whose bytes are the same on both sides: nothing changed;
    its norm is still counted so that a layer's ‖Δ‖/‖A‖ has the right denominator."""
    finite_before = totals.finite
    for start, stop in _chunks(flat.numel(), buffers.size, should_stop):
        chunk = buffers.a[: stop - start]
        chunk.copy_(flat[start:stop])
        square = square_sum(chunk)
        if math.isfinite(square):
            finite = stop - start
        else:
            kept = chunk[torch.isfinite(chunk)]
            finite, square = kept.numel(), square_sum(kept)
            nans, infs = int(torch.isnan(chunk).sum()), int(torch.isinf(chunk).sum())
            totals.nan_a += nans
            totals.inf_a += infs
            totals.nan_b += nans
            totals.inf_b += infs
        totals.finite += finite
        totals.sq_a += square
        totals.sq_b += square
        totals.ab += square
    if totals.finite > finite_before and totals.max_abs is None:
        totals.max_abs = 0.0
