"""What a step listener sees at a step boundary (the hook point for Pause / Step): the step's
statistics are taken, the optimizer's update is not applied yet."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import torch


@dataclass
class StepMoment:
    run: Any  # the WatchRun
    step: int  # 1, 2, … for this optimizer
    optimizer_index: int
    optimizer: Any  # the torch.optim.Optimizer about to apply its update
    loss: Any  # the scalar tensor the loop called backward() on (its graph may be freed), or None
    models: list  # the root modules (wrappers seen through)
    inputs: list  # per root model: the args of its last forward (tensors detached), or None
    outputs: list  # per root model: its last output (tensors detached), or None
    # this step's numbers, as they will be written: {"header", "arrays" (grad_norm, weight_norm,
    # act_*; update_ratio comes after the update), "params", "modules" (the arrays' names)};
    # empty at a step that `every` does not record
    statistics: dict = field(default_factory=dict)


def detached(value):
    """`value` with every tensor in it (tuples, lists, dicts) detached: references, no copies."""
    if isinstance(value, torch.Tensor):
        return value.detach()
    if isinstance(value, (tuple, list)):
        items = [detached(v) for v in value]
        return tuple(items) if isinstance(value, tuple) else items
    if isinstance(value, dict):
        return {k: detached(v) for k, v in value.items()}
    return value
