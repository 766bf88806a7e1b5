"""Histograms of weights, gradients and activations in one pass for all tensors: each tensor's
sample (≤ 1024 values, tensor_sampling.py) is concatenated, its finite values' range taken by
segment, and the bins counted by one bincount. The bins are torch.histc's over [low, high]
(low == high widens to [low − 1, high + 1] as histc does)."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import torch

from tensorviz.core.watch.tensor_sampling import sampled_values

BINS = 32
HISTOGRAM_SAMPLE = 1024


def histograms(named: list[tuple[str, str, torch.Tensor]], bins: int = BINS):
    """(tensors, counts): tensors = [[kind, name, low, high], ...] for the tensors that have
    finite values, counts a len(tensors) × bins uint32 array."""
    by_device: dict = defaultdict(list)
    for index, (_kind, _name, tensor) in enumerate(named):
        if tensor is not None and tensor.layout == torch.strided and tensor.numel() > 0:
            if tensor.device.type != "meta" and tensor.is_floating_point():
                by_device[tensor.device].append(index)
    rows: list = []
    for device, indices in by_device.items():
        samples = [sampled_values(named[i][2], HISTOGRAM_SAMPLE) for i in indices]
        low, high, counts = _counts(samples, bins, device)
        for position, index in enumerate(indices):
            kind, name, _tensor = named[index]
            if np.isfinite(low[position]):
                rows.append(([kind, name, float(low[position]), float(high[position])],
                             counts[position]))  # fmt: skip
    if not rows:
        return [], np.zeros((0, bins), np.uint32)
    return [r[0] for r in rows], np.stack([r[1] for r in rows]).astype(np.uint32)


def _counts(samples: list, bins: int, device):
    lengths = torch.tensor([s.numel() for s in samples], device=device)
    values = torch.cat(samples)
    segment = torch.repeat_interleave(torch.arange(len(samples), device=device), lengths)
    finite = torch.isfinite(values)
    inf = torch.tensor(float("inf"), device=device)
    low = torch.full((len(samples),), float("inf"), device=device).scatter_reduce(
        0, segment, torch.where(finite, values, inf), "amin"
    )
    high = torch.full((len(samples),), float("-inf"), device=device).scatter_reduce(
        0, segment, torch.where(finite, values, -inf), "amax"
    )
    same = low == high
    low = torch.where(same, low - 1, low)
    high = torch.where(same, high + 1, high)
    element_low, element_high = low[segment], high[segment]
    position = ((values - element_low) / (element_high - element_low) * bins).floor()
    position = position.clamp(0, bins - 1).nan_to_num(0).long()
    flat = torch.where(finite, segment * bins + position, len(samples) * bins)
    counts = torch.bincount(flat, minlength=len(samples) * bins + 1)[: len(samples) * bins]
    bounds = torch.stack([low, high]).cpu().numpy()
    return bounds[0], bounds[1], counts.cpu().numpy().reshape(len(samples), bins)
