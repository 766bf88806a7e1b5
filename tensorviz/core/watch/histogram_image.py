"""A tensor's histograms over time as one image (values × recorded steps).

Each histogram record has its own range [low, high] (the tensor's values at that step), so the
image re-bins every record's counts onto one value grid spanning all of them; each column is
then a distribution (fractions summing to 1), which keeps early and late steps comparable.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tensorviz.core.watch.run_reader import HistogramRecord

GRID_BINS = 64


@dataclass
class HistogramImage:
    steps: np.ndarray  # the recorded steps, one column each
    fractions: np.ndarray  # len(steps) × GRID_BINS
    low: float
    high: float


def histogram_image(
    records: list[HistogramRecord], kind: str, name: str, grid_bins: int = GRID_BINS
) -> HistogramImage | None:
    """The histograms of (kind, name) — kind "weight", "grad" or "activation" — or None."""
    found = []
    for record in records:
        for index, (tensor_kind, tensor_name, low, high) in enumerate(record.tensors):
            if tensor_kind == kind and tensor_name == name:
                found.append((record.step, float(low), float(high), record.counts[index]))
                break
    found = [f for f in found if np.isfinite(f[1]) and np.isfinite(f[2])]
    if not found:
        return None
    low = min(f[1] for f in found)
    high = max(f[2] for f in found)
    if high - low <= 0:
        low, high = low - 0.5, high + 0.5
    edges = np.linspace(low, high, grid_bins + 1)
    fractions = np.zeros((len(found), grid_bins), np.float32)
    for column, (_step, start, stop, counts) in enumerate(found):
        # Each bin's count spread evenly over its width: the cumulative count, interpolated at
        # the grid's edges (no empty stripes where the grid is finer than the record's bins).
        own_edges = np.linspace(start, stop, len(counts) + 1)
        cumulative = np.concatenate([[0.0], np.cumsum(counts, dtype=np.float64)])
        re_binned = np.diff(np.interp(edges, own_edges, cumulative))
        total = cumulative[-1]
        if total > 0:
            fractions[column] = re_binned / total
    steps = np.array([f[0] for f in found], dtype=np.int64)
    return HistogramImage(steps, fractions, low, high)
