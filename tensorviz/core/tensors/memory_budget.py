"""Refuse, with numbers, an action that would allocate more memory than the machine can spare.

A learner who types zeros(100000, 100000) should read "needs 40.0 GB" — not wait for the
operating system to kill the app. Results are sized on torch's "meta" device, which computes
shapes and dtypes without allocating anything.
"""

from __future__ import annotations

import os
import warnings

import torch

# Leave room for statistics, undo snapshots and the rest of the app.
MAX_FRACTION_OF_AVAILABLE = 0.5


def available_memory_bytes() -> int:
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 8 * 2**30


def human_bytes(n: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if n < 1024 or unit == "TB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1024
    return f"{n:,.1f} TB"


def allocation_problem(nbytes: int, what: str) -> str | None:
    budget = int(available_memory_bytes() * MAX_FRACTION_OF_AVAILABLE)
    if nbytes <= budget:
        return None
    return (
        f"{what} needs {human_bytes(nbytes)} (number of elements × element size), but only "
        f"{human_bytes(budget)} can be spared on this machine. Use a smaller shape, or a "
        "narrower dtype (float16 takes half of float32, int8 an eighth of int64)."
    )


def _to_meta(value):
    if isinstance(value, torch.Tensor):
        return torch.empty_strided(
            value.shape, value.stride(), dtype=value.dtype, device="meta"
        ).requires_grad_(value.requires_grad and value.is_floating_point())
    if isinstance(value, (list, tuple)):
        return type(value)(_to_meta(v) for v in value)
    return value


def new_bytes(result, inputs) -> int:
    """Bytes a (meta) result would newly allocate: views and inputs returned as-is cost none."""
    tensors = [result] if isinstance(result, torch.Tensor) else list(result)
    total = 0
    for t in tensors:
        if isinstance(t, torch.Tensor) and not t._is_view() and not any(t is i for i in inputs):
            total += t.numel() * t.element_size()
    return total


def new_bytes_on_meta(run, x, values: dict) -> int | None:
    """Bytes `run(x, **values)` would newly allocate, found by running it on meta tensors first;
    None when it cannot be sized that way (data-dependent or unsupported: torch decides)."""
    try:
        meta_x = _to_meta(x)
        meta_values = {k: _to_meta(v) for k, v in values.items()}
        with warnings.catch_warnings():  # the real run reports torch's warnings, once
            warnings.simplefilter("ignore")
            result = run(meta_x, **meta_values)
        return new_bytes(result, [meta_x])
    except Exception:  # noqa: BLE001
        return None
