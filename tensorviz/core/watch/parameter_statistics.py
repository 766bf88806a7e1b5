"""Per-parameter norms in a few fused calls: torch._foreach_norm over the gradients (or the
weights) of one device at a time, stacked per device so that the step moves everything to the
CPU at once (cpu_transfer.py), never one .item() per tensor. Sparse gradients are normed one by
one (foreach takes dense tensors); tensors on the meta device have no values (NaN)."""

from __future__ import annotations

from collections import defaultdict

import torch


def _usable(tensor) -> bool:
    return isinstance(tensor, torch.Tensor) and tensor.device.type != "meta"


def fused_norms(tensors: list) -> list[tuple[list[int], torch.Tensor]]:
    """[(indices, float32 norms of tensors[indices] stacked on their device), ...] (call it under
    torch.no_grad: the tensors are not detached one by one); entries that
    are None or on meta are in no group (their norm is NaN)."""
    groups: dict = defaultdict(list)
    sparse: list[int] = []
    for index, tensor in enumerate(tensors):
        if not _usable(tensor):
            continue
        if tensor.is_sparse:
            sparse.append(index)
        elif tensor.layout == torch.strided:
            groups[tensor.device].append(index)
    results = []
    for indices in groups.values():
        group = [tensors[i] for i in indices]  # no detach: the caller runs under no_grad
        try:
            norms = torch._foreach_norm(group, 2, dtype=torch.float32)
        except (RuntimeError, TypeError, NotImplementedError):
            norms = [t.float().norm() for t in group]
        results.append((indices, torch.stack(norms)))
    for index in sparse:
        values = tensors[index].detach().coalesce().values().float()
        results.append(([index], values.norm().reshape(1)))
    return results


def non_finite_count(tensor) -> int:
    """How many values of `tensor` are NaN or ±inf (the rare path: its norm was not finite)."""
    if not _usable(tensor):
        return 0
    values = tensor.detach().coalesce().values() if tensor.is_sparse else tensor.detach()
    if not values.is_floating_point():
        return 0
    return int((~torch.isfinite(values)).sum())


def weights_copy(params: list) -> list:
    """A copy of each dense weight (for the update ratio), one foreach call per device/dtype."""
    copies: list = [None] * len(params)
    groups: dict = defaultdict(list)
    for index, param in enumerate(params):
        if _usable(param) and param.layout == torch.strided:
            groups[(param.device, param.dtype)].append(index)
    with torch.no_grad():
        for indices in groups.values():
            made = torch._foreach_mul([params[i].detach() for i in indices], 1)
            for index, copy in zip(indices, made, strict=True):
                copies[index] = copy
    return copies


def update_norms(params: list, before: list) -> list[tuple[list[int], torch.Tensor]]:
    """‖p_now − p_before‖₂ per parameter that has a copy, grouped as fused_norms returns them.
    The copies are overwritten by the differences (no second copy)."""
    groups: dict = defaultdict(list)
    for index, copy in enumerate(before):
        if copy is not None:
            groups[(copy.device, copy.dtype)].append(index)
    results = []
    with torch.no_grad():
        for indices in groups.values():
            olds = [before[i] for i in indices]
            torch._foreach_sub_(olds, [params[i].detach() for i in indices])
            norms = torch._foreach_norm(olds, 2, dtype=torch.float32)
            results.append((indices, torch.stack(norms)))
    return results
