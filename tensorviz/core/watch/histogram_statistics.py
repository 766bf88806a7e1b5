"""Histograms of weights, gradients and activations in one pass for all tensors: each tensor's
sample (≤ 1024 values, tensor_sampling.py) is concatenated, its finite values' range taken by
segment, and the bins counted by one bincount. The bins are torch.histc's over [low, high]
(low == high widens to [low − 1, high + 1] as histc does)."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import torch

from tensorviz.core.watch.tensor_sampling import padded_samples, sampled_values

BINS = 32
HISTOGRAM_SAMPLE = 1024


def histogram_sample(tensor):
    """A private copy of the ≤ HISTOGRAM_SAMPLE values a histogram of `tensor` counts (None:
    nothing to count), taken before the optimizer changes the tensor, counted when the step's
    frame is written."""
    usable = isinstance(tensor, torch.Tensor) and tensor.layout is torch.strided
    if not usable or tensor.is_meta or not tensor.is_floating_point() or tensor.numel() == 0:
        return None
    values = tensor.detach()
    sample = sampled_values(values, HISTOGRAM_SAMPLE)
    if sample._is_view() or sample is values:
        sample = sample.clone()
    return sample


def histograms(named: list[tuple[str, str, torch.Tensor]], bins: int = BINS):
    """(tensors, counts): tensors = [[kind, name, low, high], ...] for the tensors that have
    finite values, counts a len(tensors) × bins uint32 array."""
    by_device: dict = defaultdict(list)
    for index, (_kind, _name, tensor) in enumerate(named):
        if tensor is not None and tensor.layout == torch.strided and tensor.numel() > 0:
            if tensor.device.type != "meta" and tensor.is_floating_point():
                by_device[tensor.device].append(index)
    rows: list = []
    for indices in by_device.values():
        values, mask, _lengths = padded_samples([named[i][2] for i in indices], HISTOGRAM_SAMPLE)
        low, high, counts = _counts(values, mask, bins)
        for position, index in enumerate(indices):
            kind, name, _tensor = named[index]
            if np.isfinite(low[position]):
                rows.append(([kind, name, float(low[position]), float(high[position])],
                             counts[position]))  # fmt: skip
    if not rows:
        return [], np.zeros((0, bins), np.uint32)
    return [r[0] for r in rows], np.stack([r[1] for r in rows]).astype(np.uint32)


def _counts(values, mask, bins: int):
    kept = mask & torch.isfinite(values)
    low = torch.where(kept, values, float("inf")).amin(1)
    high = torch.where(kept, values, float("-inf")).amax(1)
    same = low == high
    low = torch.where(same, low - 1, low)
    high = torch.where(same, high + 1, high)
    position = ((values - low[:, None]) / (high - low)[:, None] * bins).floor()
    position = position.nan_to_num(0).clamp(0, bins - 1).long()
    rows = values.shape[0]
    row = torch.arange(rows, device=values.device)[:, None]
    flat = torch.where(kept, row * bins + position, rows * bins)
    counts = torch.bincount(flat.reshape(-1), minlength=rows * bins + 1)[: rows * bins]
    bounds = torch.stack([low, high]).cpu().numpy()
    return bounds[0], bounds[1], counts.cpu().numpy().reshape(rows, bins)
