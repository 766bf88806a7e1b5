"""Which values of a large tensor the statistics read: `count` values in runs of up to
`RUN` neighbours, the runs spread evenly from the first value to the last. Runs keep the reads
on few cache lines (a stride of one value per cache line costs as much memory traffic as reading
the whole tensor), and a run spans a row's features, so the sample sees every feature of the rows
it meets. A contiguous tensor's sample is a view; others are gathered with torch.take. Tests read
the same values through `sampled_values`."""

from __future__ import annotations

import torch
from torch.nn.utils.rnn import pad_sequence

RUN = 64


_layouts: dict[tuple[int, int], tuple[int, int, int]] = {}  # the same sizes come every step


def sample_layout(numel: int, count: int) -> tuple[int, int, int]:
    """(runs, run length, distance between run starts); (1, numel, 0): take every value."""
    if numel <= count:
        return 1, numel, 0
    run = min(RUN, count)
    runs = count // run
    if runs == 1:
        return 1, run, 0
    return runs, run, (numel - run) // (runs - 1)


def sampled_values(tensor: torch.Tensor, count: int) -> torch.Tensor:
    """Up to `count` values of `tensor` as a flat tensor on its device (its own dtype)."""
    values = tensor.detach()
    numel = values.numel()
    layout = _layouts.get((numel, count))
    if layout is None:
        layout = _layouts.setdefault((numel, count), sample_layout(numel, count))
    runs, run, distance = layout
    if runs == 1 and run == numel:
        return values.reshape(-1)
    if values.is_contiguous():
        offset = values.storage_offset()
        return values.as_strided((runs, run), (distance, 1), offset).reshape(-1)
    starts = torch.arange(runs, device=values.device)[:, None] * distance
    positions = (starts + torch.arange(run, device=values.device)[None, :]).reshape(-1)
    return torch.take(values, positions)


def padded_samples(tensors: list[torch.Tensor], count: int):
    """(values, mask, lengths): one row per tensor of its sample as float32, zero-padded to the
    longest, with a mask of the real entries — the shape every statistic reduces along."""
    samples = [sampled_values(t, count) for t in tensors]
    lengths = torch.tensor([s.numel() for s in samples])
    if all(s.dtype == torch.float32 for s in samples):
        matrix = pad_sequence(samples, batch_first=True)
    else:
        matrix = pad_sequence([s.float() for s in samples], batch_first=True)
    device = matrix.device
    width = matrix.shape[1]
    lengths = lengths.to(device)
    mask = torch.arange(width, device=device)[None, :] < lengths[:, None]
    return matrix, mask, lengths
