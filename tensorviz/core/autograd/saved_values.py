"""What a backward node saved for its backward pass: its `_saved_*` attributes read defensively
(after a backward without retain_graph they are freed and read as such, never raising), and the
storage key that tells which memory a saved tensor reads."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import torch

from tensorviz.core.tensors.identity import dtype_name
from tensorviz.core.translation import _

SAVED_PREFIX = "_saved_"


@dataclass(frozen=True)
class SavedValue:
    """One `_saved_*` attribute of a backward node."""

    attribute: str  # "self", "other", "result", "exponent", ...
    kind: str  # "tensor" | "value" | "freed" | "none"
    shape: tuple[int, ...] | None = None
    dtype: str = ""
    storage_key: tuple | None = None  # (storage address, offset, shape, stride): identity
    text: str = ""  # the value of a non-tensor, or why it cannot be read

    def describe(self) -> str:
        if self.kind == "tensor":
            return _("{attribute}: tensor {shape} {dtype}").format(
                attribute=self.attribute, shape=list(self.shape), dtype=self.dtype
            )
        if self.kind == "freed":
            return _("{attribute}: freed by backward (retain_graph=False)").format(
                attribute=self.attribute
            )
        return f"{self.attribute}: {self.text}"


def storage_key(tensor: torch.Tensor) -> tuple:
    """What a tensor reads: storage address, offset, shape, stride (Python ids are not stable)."""
    try:
        address = tensor.untyped_storage().data_ptr()
    except (RuntimeError, NotImplementedError):
        address = -1
    return (address, tensor.storage_offset(), tuple(tensor.shape), tuple(tensor.stride()))


def _read_saved_value(fn, attribute: str) -> SavedValue:
    short = attribute.removeprefix(SAVED_PREFIX)
    try:
        value = getattr(fn, attribute)
    except RuntimeError as error:
        if "freed" in str(error) or "second time" in str(error):
            return SavedValue(short, "freed")
        return SavedValue(short, "value", text=f"unreadable ({str(error).splitlines()[0]})")
    except Exception as error:  # noqa: BLE001 — a strange attribute must not break the walk
        return SavedValue(short, "value", text=f"unreadable ({type(error).__name__})")
    if isinstance(value, torch.Tensor):
        return SavedValue(
            short, "tensor", tuple(value.shape), dtype_name(value.dtype), storage_key(value)
        )
    if value is None:
        return SavedValue(short, "none", text="None")
    if isinstance(value, (tuple, list)) and value and isinstance(value[0], torch.Tensor):
        shapes = ", ".join(str(list(t.shape)) for t in value)
        return SavedValue(short, "value", text=f"{len(value)} tensors {shapes}")
    text = repr(value)
    return SavedValue(short, "value", text=text if len(text) <= 60 else text[:57] + "...")


@functools.cache
def _saved_attributes(node_type: type) -> tuple[str, ...]:
    """`_saved_*` attribute names of one backward class (the same for all its instances)."""
    return tuple(sorted(a for a in dir(node_type) if a.startswith(SAVED_PREFIX)))


def saved_values(fn) -> tuple[SavedValue, ...]:
    return tuple(_read_saved_value(fn, a) for a in _saved_attributes(type(fn)))
