"""One step's statistics, taken in the optimizer's step pre-hook: gradient and weight norms of
the optimizer's parameters, the modules' activation numbers, the loss, all moved to the CPU at
once; on the rare path (something not finite) the non-finite counts; at histogram steps the
histograms of weights, gradients and activations."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch

from tensorviz.core.watch.activation_statistics import (
    activation_statistics,
    first_non_finite,
    output_tensor,
)
from tensorviz.core.watch.cpu_transfer import CpuBatch, add_groups, scatter
from tensorviz.core.watch.histogram_statistics import histograms
from tensorviz.core.watch.parameter_statistics import fused_norms, non_finite_count
from tensorviz.core.watch.watched_models import WatchedModels


@dataclass
class StepNumbers:
    loss: float | None
    arrays: dict[str, np.ndarray]
    non_finite: dict[str, dict[str, int]] = field(default_factory=dict)
    first_activation: str | None = None  # the first module (forward order) with NaN/inf output
    histogram_tensors: list = field(default_factory=list)
    histogram_counts: np.ndarray | None = None


def _loss_number(loss) -> torch.Tensor | None:
    if isinstance(loss, torch.Tensor) and loss.numel() == 1 and loss.device.type != "meta":
        if loss.is_floating_point() or not loss.is_complex():
            return loss.detach().reshape(1)
    return None


def measure_step(models: WatchedModels, rows: list[int], loss, *, with_histograms: bool):
    """`rows`: the schema positions of the stepping optimizer's parameters."""
    params = [models.params[r].param for r in rows]
    grads = [p.grad for p in params]
    outputs = {i: output_tensor(o) for i, o in models.outputs.items()}
    outputs = {i: t for i, t in outputs.items() if t is not None}
    kinds = [m.kind for m in models.modules]
    grad_groups = fused_norms(grads)
    weight_groups = fused_norms(params)
    means, stds, fractions = activation_statistics(outputs, kinds)
    batch = CpuBatch()
    for groups in (grad_groups, weight_groups, means, stds, fractions):
        add_groups(batch, groups)
    loss_tensor = _loss_number(loss)
    if loss_tensor is not None:
        batch.add("loss", loss_tensor)
    fetched = batch.fetch()
    count, module_count = len(models.params), len(models.modules)
    arrays = {
        "grad_norm": scatter(count, grad_groups, fetched, rows),
        "weight_norm": scatter(count, weight_groups, fetched, rows),
        "act_mean": scatter(module_count, means, fetched),
        "act_std": scatter(module_count, stds, fetched),
        "act_fraction": scatter(module_count, fractions, fetched),
    }
    loss_value = float(fetched["loss"][0]) if "loss" in fetched else None
    numbers = StepNumbers(loss_value, arrays)
    _count_non_finite(numbers, models, rows, params, grads, outputs)
    if with_histograms:
        named = [("weight", models.params[r].name, p) for r, p in zip(rows, params, strict=True)]
        named += [("grad", models.params[r].name, g) for r, g in zip(rows, grads, strict=True)]
        named += [("activation", models.modules[i].name, t) for i, t in outputs.items()]
        numbers.histogram_tensors, numbers.histogram_counts = histograms(named)
    return numbers


def _count_non_finite(numbers, models, rows, params, grads, outputs) -> None:
    arrays = numbers.arrays
    has_grad = np.array([g is not None for g in grads], dtype=bool)
    grad_bad = has_grad & ~np.isfinite(arrays["grad_norm"][rows])
    weight_bad = ~np.isfinite(arrays["weight_norm"][rows]) & np.array(
        [p.device.type != "meta" for p in params], dtype=bool
    )
    activations = arrays["act_mean"][list(outputs)] if outputs else np.zeros(0)
    loss_bad = numbers.loss is not None and not np.isfinite(numbers.loss)
    if not (grad_bad.any() or weight_bad.any() or loss_bad or (~np.isfinite(activations)).any()):
        return
    for what, bad, tensors in (("grad", grad_bad, grads), ("weight", weight_bad, params)):
        counts = {}
        for position in np.flatnonzero(bad):
            found = non_finite_count(tensors[position])
            if found:
                counts[str(rows[position])] = found
        if counts:
            numbers.non_finite[what] = counts
    found = first_non_finite(outputs)  # in forward order: outputs keeps the order they came
    if found:
        numbers.non_finite["activation"] = {str(i): n for i, n in found.items()}
        numbers.first_activation = models.modules[next(iter(found))].name
