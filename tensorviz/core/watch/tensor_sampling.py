"""Which values of a large tensor the statistics read: `count` values at a fixed stride through
the tensor's values in order, the stride chosen coprime with the last dimension, so that the
sample walks through every feature of every row instead of landing on one column. A contiguous
tensor's sample is a view (no gather); others are gathered with torch.take. Tests read the same
values through `sampled_values`."""

from __future__ import annotations

import math
from functools import lru_cache

import torch
from torch.nn.utils.rnn import pad_sequence


@lru_cache(maxsize=4096)
def sample_stride(numel: int, last_dim: int, count: int) -> int:
    """The stride of a `count`-value sample of `numel` values (1: take them all)."""
    if numel <= count:
        return 1
    stride = numel // count
    while stride > 1 and math.gcd(stride, max(last_dim, 1)) != 1:
        stride -= 1
    return stride


def sampled_values(tensor: torch.Tensor, count: int) -> torch.Tensor:
    """Up to `count` values of `tensor` as a flat tensor on its device (its own dtype)."""
    values = tensor.detach()
    numel = values.numel()
    last = values.shape[-1] if values.dim() else 1
    stride = sample_stride(numel, last, count)
    if values.is_contiguous():
        flat = values.view(-1)
        return flat if stride == 1 else flat[::stride][:count]
    if stride == 1:
        return values.reshape(-1)
    positions = torch.arange(0, stride * count, stride, device=values.device)
    return torch.take(values, positions)


def padded_samples(tensors: list[torch.Tensor], count: int):
    """(values, mask, lengths): one row per tensor of its sample as float32, zero-padded to the
    longest, with a mask of the real entries — the shape every statistic reduces along."""
    samples = [sampled_values(t, count) for t in tensors]
    lengths = torch.tensor([s.numel() for s in samples])
    matrix = pad_sequence([s.float() for s in samples], batch_first=True)
    device = matrix.device
    width = matrix.shape[1]
    mask = torch.arange(width, device=device)[None, :] < lengths.to(device)[:, None]
    return matrix, mask, lengths.to(device)
