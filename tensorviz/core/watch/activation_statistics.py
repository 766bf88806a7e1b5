"""Per-module activation mean, std and fraction dead or saturated, computed at the step in a few
fused calls: the forward hooks only keep a reference to each module's output, and at the step a
sample of each output (all of it when small) is concatenated once and reduced by segment.

Kinds (docs/run_format.md): "relu" counts values exactly 0 (dead), "tanh" counts |y| > 0.99,
"sigmoid" counts y < 0.01 or y > 0.99 (saturated); "other" has no fraction (NaN)."""

from __future__ import annotations

from collections import defaultdict

import torch
from torch import nn

from tensorviz.core.watch.tensor_sampling import sampled_values

ACTIVATION_SAMPLE = 1 << 14  # values per module output read for its statistics
KIND_CODES = {"relu": 0, "tanh": 1, "sigmoid": 2, "other": 3}
_RELU_FAMILY = (nn.ReLU, nn.ReLU6)
_TANH_FAMILY = (nn.Tanh, nn.Hardtanh, nn.Softsign)
_SIGMOID_FAMILY = (nn.Sigmoid, nn.Hardsigmoid)


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
    the modules' outputs (`outputs`: module index → tensor), each from one concatenation of
    samples and segment sums; they go to the CPU with the step's other numbers."""
    by_device: dict = defaultdict(list)
    for index, tensor in outputs.items():
        if _usable(tensor):
            by_device[tensor.device].append(index)
    means, stds, fractions = [], [], []
    for device, indices in by_device.items():
        samples = [sampled_values(outputs[i], ACTIVATION_SAMPLE) for i in indices]
        mean, std, fraction = _segment_statistics(
            samples, [KIND_CODES[kinds[i]] for i in indices], device
        )
        means.append((indices, mean))
        stds.append((indices, std))
        fractions.append((indices, fraction))
    return means, stds, fractions


def _segment_statistics(samples: list, codes: list[int], device) -> torch.Tensor:
    lengths = torch.tensor([s.numel() for s in samples], device=device)
    values = torch.cat(samples)
    segment = torch.repeat_interleave(torch.arange(len(samples), device=device), lengths)
    counts = lengths.to(torch.float32)
    sums = torch.zeros(len(samples), device=device).index_add_(0, segment, values)
    mean = sums / counts
    centered = values - mean[segment]
    squares = torch.zeros(len(samples), device=device).index_add_(0, segment, centered * centered)
    std = (squares / (counts - 1)).sqrt()  # torch.std's unbiased estimate
    codes_tensor = torch.tensor(codes, device=device)
    element_code = codes_tensor[segment]
    flagged = torch.zeros_like(values, dtype=torch.bool)
    if 0 in codes:
        flagged |= (element_code == 0) & (values == 0)
    if 1 in codes:
        flagged |= (element_code == 1) & (values.abs() > 0.99)
    if 2 in codes:
        flagged |= (element_code == 2) & ((values < 0.01) | (values > 0.99))
    fraction = torch.zeros(len(samples), device=device).index_add_(0, segment, flagged.float())
    fraction = fraction / counts
    fraction = torch.where(codes_tensor == KIND_CODES["other"], float("nan"), fraction)
    return mean, std, fraction


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
