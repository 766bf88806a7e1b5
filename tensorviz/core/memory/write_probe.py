"""Try an in-place write the way a learner would, without touching the workspace's memory: the
write goes to an alias of a *fresh* storage of the same size (uninitialised: torch's verdict
depends on dtype, sizes, strides and offset, never on the values, so nothing is copied) with
the same sizes, strides and offset, so torch raises exactly what it would raise on the real
tensor (e.g. for stride 0 after expand)."""

from __future__ import annotations

import torch

from tensorviz.core.explain.errors import ExplainedError, explain_error


def in_place_write_code(name: str) -> str:
    return f"{name}.add_(1)"


def probe_in_place_write(tensor: torch.Tensor, name: str) -> ExplainedError | None:
    """torch's explained error for `name.add_(1)`, or None when torch would allow the write."""
    nbytes = tensor.untyped_storage().nbytes()
    stand_in = torch.empty(nbytes, dtype=torch.uint8, device=tensor.device).untyped_storage()
    alias = torch.empty(0, dtype=tensor.dtype, device=tensor.device)
    alias.set_(stand_in, tensor.storage_offset(), tuple(tensor.shape), tuple(tensor.stride()))
    try:
        with torch.no_grad():
            alias.add_(1)
    except Exception as error:  # noqa: BLE001 — torch refused; that is what we show
        return explain_error(error, "add_", [tensor], {}, [name])
    return None
