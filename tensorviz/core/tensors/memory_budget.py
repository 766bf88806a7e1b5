"""Refuse, with numbers, an action that would allocate more memory than the machine can spare.

A learner who types zeros(100000, 100000) should read "needs 40.0 GB" — not wait for the
operating system to kill the app. Results are sized on torch's "meta" device, which computes
shapes and dtypes without allocating anything.
"""

from __future__ import annotations

import os
import warnings

import torch

from tensorviz.core.translation import _, ngettext

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
    """'512 bytes', '1.5 KB', '40.0 GB' (KB = 1024 bytes); the word 'bytes' in the language in
    force, the units as written everywhere."""
    if n < 1024:
        count = round(n)
        return ngettext("{count} byte", "{count} bytes", count).format(count=f"{count:,}")
    for unit in ("KB", "MB", "GB"):
        n /= 1024
        if n < 1024:
            return f"{n:,.1f} {unit}"
    return f"{n / 1024:,.1f} TB"


def spare_bytes() -> int:
    """What one action may allocate: a share of the memory available now."""
    return int(available_memory_bytes() * MAX_FRACTION_OF_AVAILABLE)


def allocation_problem(nbytes: int, what: str) -> str | None:
    budget = spare_bytes()
    if nbytes <= budget:
        return None
    return _(
        "{what} needs {size} (number of elements × element size), but only {budget} can be "
        "spared on this machine. Use a smaller shape, or a narrower dtype (float16 takes half "
        "of float32, int8 an eighth of int64)."
    ).format(what=what, size=human_bytes(nbytes), budget=human_bytes(budget))


def to_meta(value):
    """The same tensors (also inside lists and tuples) on the meta device: shapes, strides and
    dtypes without data, so torch can size what a call would make without allocating it."""
    if isinstance(value, torch.Tensor):
        if value.device.type == "meta":
            return value
        try:
            meta = torch.empty_strided(
                value.shape, value.stride(), dtype=value.dtype, device="meta"
            )
        except (RuntimeError, NotImplementedError):  # sparse and other layouts without strides
            meta = torch.empty(value.shape, dtype=value.dtype, device="meta")
        return meta.requires_grad_(value.requires_grad and value.is_floating_point())
    if isinstance(value, (list, tuple)):
        return type(value)(to_meta(v) for v in value)
    return value


def masks_counted(key):
    """An index key whose boolean masks are replaced by meta index tensors as long as the
    number of True elements (what torch turns a mask into), so a data-dependent result such as
    x[x > 0] can be sized on meta once the mask exists. Counting reads the mask; it allocates
    a scalar."""
    if isinstance(key, tuple):
        return tuple(part for item in key for part in _mask_as_indices(item))
    parts = _mask_as_indices(key)
    return parts[0] if len(parts) == 1 else tuple(parts)


def _mask_as_indices(item) -> list:
    if isinstance(item, list) and item and all(isinstance(v, bool) for v in item):
        item = torch.tensor(item)
    if isinstance(item, torch.Tensor) and item.dtype == torch.bool and item.dim() > 0:
        count = int(item.count_nonzero())
        return [
            torch.empty(count, dtype=torch.long, device="meta") for _unused in range(item.dim())
        ]
    return [item]


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
    None when it cannot be sized that way (data-dependent or unsupported: torch decides).

    A device among the values is the meta device too (`meta.to("cpu")` would allocate on the
    CPU); moving to another device than x's then makes even x itself, returned, a new copy."""
    try:
        meta_x = to_meta(x)
        meta_values = {
            k: torch.device("meta") if isinstance(v, torch.device) else to_meta(v)
            for k, v in values.items()
        }
        moves = any(
            isinstance(v, torch.device) and (not isinstance(x, torch.Tensor) or v != x.device)
            for v in values.values()
        )
        with warnings.catch_warnings():  # the real run reports torch's warnings, once
            warnings.simplefilter("ignore")
            result = run(meta_x, **meta_values)
        return new_bytes(result, [] if moves else [meta_x])
    except Exception:  # noqa: BLE001
        return None
