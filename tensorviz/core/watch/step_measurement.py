"""One step's statistics, taken in the optimizer's step pre-hook: the gradient and weight norms
of the optimizer's parameters and the loss, moved to the CPU at once; on the rare path
(something not finite) the non-finite counts; at histogram steps the weights and gradients are
sampled (copies) for their histograms. The activation numbers are an ActivationJob; a step's
records, histograms counted, are put together (`step_records`) when its frame is written."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch

from tensorviz.core.watch.activation_job import ActivationJob
from tensorviz.core.watch.cpu_transfer import CpuBatch, add_groups, scatter
from tensorviz.core.watch.histogram_statistics import BINS, histogram_sample, histograms
from tensorviz.core.watch.parameter_statistics import fused_norms, non_finite_count, update_norms
from tensorviz.core.watch.watched_models import WatchedModels


@dataclass
class StepNumbers:
    loss: float | None
    arrays: dict[str, np.ndarray]
    module_count: int
    non_finite: dict[str, dict[str, int]] = field(default_factory=dict)
    histogram_samples: list = field(default_factory=list)  # (kind, name, sample copy)
    activations: ActivationJob | None = None


def _loss_number(loss) -> torch.Tensor | None:
    if isinstance(loss, torch.Tensor) and loss.numel() == 1 and loss.device.type != "meta":
        if not loss.is_complex():
            return loss.detach().reshape(1)
    return None


def measure_step(models: WatchedModels, rows: list[int], loss, *, with_histograms: bool):
    """`rows`: the schema positions of the stepping optimizer's parameters."""
    params = [models.params[r].param for r in rows]
    grads = [p.grad for p in params]
    with torch.no_grad():
        groups = fused_norms(grads + params)  # one foreach call per device for both
    batch = CpuBatch()
    add_groups(batch, groups)
    loss_tensor = _loss_number(loss)
    if loss_tensor is not None:
        batch.add("loss", loss_tensor)
    fetched = batch.fetch()
    count = len(models.params)
    both = scatter(2 * len(rows), groups, fetched)
    arrays = {"grad_norm": np.full(count, np.nan, np.float32),
              "weight_norm": np.full(count, np.nan, np.float32)}  # fmt: skip
    arrays["grad_norm"][rows] = both[: len(rows)]
    arrays["weight_norm"][rows] = both[len(rows) :]
    # the float32 loss by its shortest decimal (4.783699, not 4.783699035644531): same value
    loss_value = float(str(fetched["loss"][0])) if "loss" in fetched else None
    numbers = StepNumbers(loss_value, arrays, len(models.modules))
    _count_non_finite(numbers, rows, params, grads)
    if with_histograms:  # samples copied now, counted when the frame is written (step_records)
        names = [models.params[r].name for r in rows]
        numbers.histogram_samples = [("weight", n, histogram_sample(p))
                                     for n, p in zip(names, params, strict=True)]  # fmt: skip
        numbers.histogram_samples += [("grad", n, histogram_sample(g))
                                      for n, g in zip(names, grads, strict=True)]  # fmt: skip
    return numbers


def _count_non_finite(numbers, rows, params, grads) -> None:
    arrays = numbers.arrays
    if (
        np.isfinite(arrays["grad_norm"][rows]).all()
        & np.isfinite(arrays["weight_norm"][rows]).all()
    ):
        return  # the common case: nothing to count
    has_grad = np.array([g is not None for g in grads], dtype=bool)
    grad_bad = has_grad & ~np.isfinite(arrays["grad_norm"][rows])
    on_device = np.array([p.device.type != "meta" for p in params], dtype=bool)
    weight_bad = on_device & ~np.isfinite(arrays["weight_norm"][rows])
    for what, bad, tensors in (("grad", grad_bad, grads), ("weight", weight_bad, params)):
        counts = {}
        for position in np.flatnonzero(bad):
            found = non_finite_count(tensors[position])
            if found:
                counts[str(rows[position])] = found
        if counts:
            numbers.non_finite[what] = counts


def suspicious(numbers: StepNumbers) -> bool:
    """The loss or a gradient is not finite: the outputs are searched whole for NaN/inf."""
    loss_bad = numbers.loss is not None and not np.isfinite(numbers.loss)
    return loss_bad or bool(numbers.non_finite)


def step_records(header: dict, numbers: StepNumbers) -> list[tuple]:
    """The writer's records of one step: its frame, with the activation numbers the job left,
    and its histograms frame."""
    arrays = dict(numbers.arrays)
    job = numbers.activations
    non_finite = dict(numbers.non_finite)
    if job is not None and job.done:
        arrays.update(job.arrays)
        if job.non_finite:
            non_finite["activation"] = job.non_finite
    if non_finite:
        header["non_finite"] = non_finite
    records = [("step", header, arrays)]
    tensors, counts = [], []
    if numbers.histogram_samples:
        tensors, made = histograms(numbers.histogram_samples)
        counts.append(made)
    if job is not None and job.done and job.histogram_counts is not None:
        tensors += job.histogram_tensors
        counts.append(job.histogram_counts)
    if tensors:
        histogram_header = {"step": header["step"], "optimizer": header["optimizer"],
                            "bins": BINS, "tensors": tensors}  # fmt: skip
        records.append(("histograms", histogram_header, np.concatenate(counts)))
    return records


def update_ratios(params: list, before: list, rows: list[int], weight_norm: np.ndarray):
    """‖p_after − p_before‖ / ‖p_before‖ per schema row (NaN where not measured): in the
    optimizer's post-hook, against the copies kept in its pre-hook."""
    groups = update_norms(params, before)
    batch = CpuBatch()
    add_groups(batch, groups)
    delta = scatter(len(weight_norm), groups, batch.fetch(), rows)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (delta / weight_norm).astype(np.float32)
