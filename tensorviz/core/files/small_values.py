"""The values of a file's small tensors (0-d and up to 8 elements), read for `tensorviz inspect`:
a checkpoint's `best_val_loss`, `iter_num`, an optimizer's `step` are tensors whose value is the
point, where a shape `[]` says nothing. Read on demand, as every value is; a file that changed
since it was opened simply gives no values."""

from __future__ import annotations

import math

import torch

from tensorviz.core.files.file_nodes import Node
from tensorviz.core.files.value_reading import FileChangedError

MAX_ELEMENTS = 8  # a tensor this small is shown by its values
MAX_READS = 10_000  # a file of a million scalars is not read scalar by scalar


def small_values(inspection) -> dict[int, torch.Tensor]:
    """id(node) → the tensor's values, for every plain tensor entry of at most 8 elements."""
    found: dict[int, torch.Tensor] = {}
    small = [node for node in inspection.entries if _small(node)][:MAX_READS]
    for node in small:
        try:
            found[id(node)] = inspection.tensor_at(node.access)
        except (FileChangedError, OSError, RuntimeError, ValueError):
            return found  # what was read so far; the rest shows its shape alone
    return found


def _small(node: Node) -> bool:
    info = node.tensor
    if info is None or not info.plain or info.shape is None or info.device == "meta":
        return False
    return math.prod(info.shape) <= MAX_ELEMENTS


def _plain(tensor: torch.Tensor) -> torch.Tensor:
    """A dtype whose values Python can hold: float8 and bfloat16 widened to float32."""
    if tensor.dtype.is_floating_point and tensor.dtype not in (torch.float32, torch.float64):
        return tensor.float()
    return tensor


def value_words(tensor: torch.Tensor) -> str:
    """6.2638, True, [1, 2, 3], [[0.5, 1], [2, 3]]: five significant digits, as a person reads."""
    return _words(_plain(tensor).tolist())


def _words(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_words(v) for v in value) + "]"
    if isinstance(value, bool | int):
        return str(value)
    text = f"{value:.5g}"
    if isinstance(value, float) and text.lstrip("-").isdigit():
        text += ".0"  # a float, as torch prints it: 2.0, never 2
    return text


def value_json(tensor: torch.Tensor):
    """The values as JSON holds them: numbers (NaN and infinities as text), nested lists."""
    return _json(_plain(tensor).tolist())


def _json(value):
    if isinstance(value, list):
        return [_json(v) for v in value]
    if isinstance(value, complex):
        return [_json(value.real), _json(value.imag)]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value
