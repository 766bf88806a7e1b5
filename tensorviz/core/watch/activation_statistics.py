"""Per-module activation mean, std and fraction dead or saturated, computed at the step in a few
fused calls: the forward hooks only keep a reference to each module's output, and at the step a
sample of each output (all of it when small) is concatenated once and reduced by segment.

Kinds (docs/run_format.md): "relu" counts values exactly 0 (dead), "tanh" counts |y| > 0.99,
"sigmoid" counts y < 0.01 or y > 0.99 (saturated); "other" has no fraction (NaN).

Dropout and Identity are not watched: their output is their input (zeros aside)."""

from __future__ import annotations

import functools
from collections import defaultdict

import torch
from torch import nn

from tensorviz.core.watch.tensor_sampling import padded_samples

ACTIVATION_SAMPLE = 2048  # values per module output read for its statistics
KIND_CODES = {"relu": 0, "tanh": 1, "sigmoid": 2, "other": 3}
_RELU_FAMILY = (nn.ReLU, nn.ReLU6)
_TANH_FAMILY = (nn.Tanh, nn.Hardtanh, nn.Softsign)
_SIGMOID_FAMILY = (nn.Sigmoid, nn.Hardsigmoid)


_PASS_THROUGH = (nn.Dropout, nn.Dropout1d, nn.Dropout2d, nn.Dropout3d, nn.AlphaDropout,
                 nn.FeatureAlphaDropout, nn.Identity)  # fmt: skip


def watched_for_activations(module: nn.Module) -> bool:
    return not isinstance(module, _PASS_THROUGH)


def module_kind(module: nn.Module) -> str:
    if isinstance(module, _TANH_FAMILY) and not isinstance(module, nn.ReLU6):
        return "tanh"
    if isinstance(module, _RELU_FAMILY):
        return "relu"
    if isinstance(module, _SIGMOID_FAMILY):
        return "sigmoid"
    return "other"


def output_tensor(output):
    """The tensor a module's output stands for: itself, or the first floating tensor of a
    tuple/list/dict (attention returning (y, weights), an LSTM's (out, state))."""
    if isinstance(output, torch.Tensor):
        return output if output.is_floating_point() else None
    if isinstance(output, (tuple, list)):
        items = output
    elif isinstance(output, dict):
        items = list(output.values())
    else:
        items = getattr(output, "values", lambda: ())()  # ModelOutput-like mappings
    for item in items:
        if isinstance(item, torch.Tensor) and item.is_floating_point():
            return item
    return None


def _usable(tensor) -> bool:
    return (
        tensor is not None
        and tensor.layout == torch.strided
        and tensor.device.type != "meta"
        and tensor.numel() > 0
    )


def activation_statistics(outputs: dict, kinds: list[str]) -> tuple[list, list, list]:
    """Per device, the (module indices, values) groups of the mean, the std and the fraction of
    the modules' outputs (`outputs`: module index → tensor), from one padded matrix of samples
    reduced along its rows (a handful of torch calls for all modules together); they go to the
    CPU with the step's other numbers."""
    by_device: dict = defaultdict(list)
    for index, tensor in outputs.items():
        if _usable(tensor):
            by_device[tensor.device].append(index)
    means, stds, fractions = [], [], []
    for indices in by_device.values():
        values, mask, lengths = padded_samples([outputs[i] for i in indices], ACTIVATION_SAMPLE)
        mean, std = _mean_and_std(values, lengths)
        means.append((indices, mean))
        stds.append((indices, std))
        flagged = [p for p, i in enumerate(indices) if kinds[i] != "other"]
        if flagged:
            codes = [KIND_CODES[kinds[indices[p]]] for p in flagged]
            fraction = _flagged_fraction(values, mask, lengths, flagged, codes)
            fractions.append(([indices[p] for p in flagged], fraction))
    return means, stds, fractions


def _mean_and_std(values, lengths):
    """Row means and unbiased stds (torch.std's); the sums in float64, so that a large mean
    does not swallow a small spread. Padding zeros add nothing to either sum."""
    counts = lengths.to(torch.float64)
    total = values.sum(1, dtype=torch.float64)
    squares = values.square().sum(1, dtype=torch.float64)
    mean = total / counts
    variance = ((squares - total * mean) / (counts - 1)).clamp_min(0)
    return mean.float(), variance.sqrt().float()


@functools.lru_cache(maxsize=64)
def _row_tensors(rows: tuple, codes: tuple, device):
    """The rows and their kind codes as tensors: the same every step (made once)."""
    return torch.tensor(rows, device=device), torch.tensor(codes, device=device)[:, None]


def _flagged_fraction(values, mask, lengths, rows: list[int], codes: list[int]):
    """The fraction dead (relu: == 0) or saturated (tanh, sigmoid) of the given rows."""
    picked, code = _row_tensors(tuple(rows), tuple(codes), values.device)
    sub, real = values[picked], mask[picked]
    flagged = torch.zeros_like(real)
    if KIND_CODES["relu"] in codes:
        flagged |= (code == KIND_CODES["relu"]) & (sub == 0)
    if KIND_CODES["tanh"] in codes:
        flagged |= (code == KIND_CODES["tanh"]) & (sub.abs() > 0.99)
    if KIND_CODES["sigmoid"] in codes:
        flagged |= (code == KIND_CODES["sigmoid"]) & ((sub < 0.01) | (sub > 0.99))
    return (flagged & real).sum(1).float() / lengths[picked].float()


def first_non_finite(outputs: dict) -> dict[int, int]:
    """Module index → how many values of its output are NaN/inf, over the whole outputs (the
    rare path: the loss, a gradient or a sampled statistic was not finite)."""
    found: dict[int, int] = {}
    for index, tensor in outputs.items():
        if _usable(tensor):
            bad = int((~torch.isfinite(tensor.detach())).sum())
            if bad:
                found[index] = bad
    return found
