"""Which values of a large tensor the statistics read: a fixed pseudo-random sample of positions
(sorted, the same for every tensor of that size, so a test can read the same values), never a
regular stride that could fall on one feature of every row."""

from __future__ import annotations

from functools import lru_cache

import torch


@lru_cache(maxsize=512)
def _positions_on(numel: int, count: int, device: str) -> torch.Tensor:
    generator = torch.Generator().manual_seed(numel)
    chosen = torch.randperm(numel, generator=generator)[:count].sort().values
    return chosen.to(device)


def sample_positions(numel: int, count: int, device="cpu") -> torch.Tensor | None:
    """Flat positions of `count` values of a tensor of `numel` values; None: take them all."""
    if numel <= count:
        return None
    if numel > 1 << 24:  # randperm of a huge size costs more than it saves: spread evenly
        return _spread_positions(numel, count, str(device))
    return _positions_on(numel, count, str(device))


@lru_cache(maxsize=512)
def _spread_positions(numel: int, count: int, device: str) -> torch.Tensor:
    step = numel / count
    offsets = torch.rand(count, generator=torch.Generator().manual_seed(numel), dtype=torch.float64)
    positions = ((torch.arange(count, dtype=torch.float64) + offsets) * step).long()
    return positions.clamp_(max=numel - 1).to(device)


def sampled_values(tensor: torch.Tensor, count: int) -> torch.Tensor:
    """Up to `count` values of `tensor` as a flat float32 tensor on its device."""
    values = tensor.detach()
    positions = sample_positions(values.numel(), count, values.device)
    flat = values.reshape(-1) if positions is None else torch.take(values, positions)
    return flat.float() if flat.dtype != torch.float32 else flat
