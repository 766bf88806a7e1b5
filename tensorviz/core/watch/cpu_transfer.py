"""One move to the CPU per step: every statistic of a step (norms, loss, activation numbers) is
queued here as a float32 tensor on its device, then each device's pieces are joined and copied
once — on a GPU the loop syncs once per step instead of once per tensor."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import torch


class CpuBatch:
    def __init__(self):
        self._pieces: dict = defaultdict(list)  # device → [(key, flat float32 tensor)]

    def add(self, key, tensor: torch.Tensor) -> None:
        flat = tensor.detach().reshape(-1)
        if flat.dtype != torch.float32:
            flat = flat.float()
        self._pieces[flat.device].append((key, flat))

    def fetch(self) -> dict:
        """key → float32 NumPy array (keys added twice: the later piece wins)."""
        fetched: dict = {}
        for pieces in self._pieces.values():
            joined = torch.cat([p for _key, p in pieces]).cpu().numpy()
            start = 0
            for key, piece in pieces:
                fetched[key] = joined[start : start + piece.numel()]
                start += piece.numel()
        return fetched


def scatter(count: int, groups: list[tuple[list[int], object]], fetched: dict, rows=None):
    """A float32 array of `count` NaNs with each group's fetched values put at its indices
    (mapped through `rows` when the indices are positions in a subset)."""
    out = np.full(count, np.nan, dtype=np.float32)
    for key, (indices, _tensor) in enumerate(groups):
        values = fetched.get(("group", id(groups), key))
        if values is None:
            continue
        places = indices if rows is None else [rows[i] for i in indices]
        out[np.asarray(places, dtype=np.int64)] = values
    return out


def add_groups(batch: CpuBatch, groups: list) -> None:
    for key, (_indices, tensor) in enumerate(groups):
        batch.add(("group", id(groups), key), tensor)
