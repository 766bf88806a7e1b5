"""What a tensor is, read from torch: shape, dtype, device, autograd state and memory layout,
plus the view/copy verdict, decided only by comparing storages (never a table of op names)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import torch

from tensorviz.core.translation import _, ngettext


def dtype_name(dtype: torch.dtype) -> str:
    """ "float32" for torch.float32: how the app names dtypes everywhere."""
    return str(dtype).removeprefix("torch.")


@dataclass(frozen=True)
class TensorIdentity:
    shape: tuple[int, ...]
    dtype: str
    device: str
    requires_grad: bool
    is_leaf: bool
    grad_fn: str | None
    grad: str  # what .grad holds now, in a few characters (grad_text)
    stride: tuple[int, ...]
    storage_offset: int
    is_contiguous: bool
    element_size: int
    numel: int
    nbytes: int  # the bytes this tensor's elements need (numel · element size)
    storage_nbytes: int  # the bytes of the whole storage it reads from

    def rows(self) -> list[tuple[str, str]]:
        """(field, value): the field is torch's attribute name, code in every language (the UI
        names the three that are not attributes, and explains each one in a tooltip)."""
        dims = _("{count}-d").format(count=len(self.shape))
        return [
            ("shape", f"[{', '.join(map(str, self.shape))}]  ({dims})"),
            ("dtype", self.dtype),
            ("device", self.device),
            ("requires_grad", str(self.requires_grad)),
            ("is_leaf", str(self.is_leaf)),
            ("grad_fn", self.grad_fn or "None"),
            (".grad", self.grad),
            ("stride", f"({', '.join(map(str, self.stride))})"),
            ("storage_offset", str(self.storage_offset)),
            ("is_contiguous", str(self.is_contiguous)),
            (
                "element size",
                ngettext("{count} byte", "{count} bytes", self.element_size).format(
                    count=self.element_size
                ),
            ),  # fmt: skip
            ("numel", f"{self.numel:,}"),
            ("bytes", f"{self.nbytes:,}"),
            ("storage bytes", f"{self.storage_nbytes:,}"),
        ]


def field_label(field: str) -> str:
    """How the card names a row: torch's attribute names stay code; the three sizes that are
    not attributes are words in the language in force."""
    words = {
        "element size": _("element size"),
        "bytes": _("bytes"),
        "storage bytes": _("storage bytes"),
    }
    return words.get(field, field)


def field_explanation(field: str) -> str:
    """What a row of the identity means, in a sentence (the card's tooltip)."""
    explanations = {
        "shape": _("x.shape: the size of every dimension; its length is the number of dims."),
        "dtype": _("x.dtype: the data type of every element (float32, int64, bool, …)."),
        "device": _("x.device: where the elements live (cpu, cuda:0, mps, meta)."),
        "requires_grad": _(
            "x.requires_grad: whether autograd records the operations on this tensor."
        ),
        "is_leaf": _(
            "x.is_leaf: a leaf tensor was made by you, not by an operation autograd recorded; "
            "backward() fills .grad only for leaf tensors."
        ),
        "grad_fn": _(
            "x.grad_fn: the node of the computation graph that made this tensor (None for a "
            "leaf tensor)."
        ),
        ".grad": _("x.grad: the gradient backward() accumulated into this leaf tensor."),
        "stride": _("x.stride(): how many storage elements one step along each dimension skips."),
        "storage_offset": _(
            "x.storage_offset(): the storage element where this tensor's first element is."
        ),
        "is_contiguous": _(
            "x.is_contiguous(): the elements lie in storage row after row, with no gaps and in "
            "order; view() needs that."
        ),
        "element size": _("x.element_size(): the bytes of one element."),
        "numel": _("x.numel(): the number of elements (the product of the shape)."),
        "bytes": _("The bytes this tensor's elements take: numel × element size."),
        "storage bytes": _(
            "The bytes of the whole storage it reads from: larger than its own bytes when it "
            "is a view of part of a storage."
        ),
    }
    return explanations.get(field, "")


def identify(tensor: torch.Tensor) -> TensorIdentity:
    return TensorIdentity(
        shape=tuple(tensor.shape),
        dtype=dtype_name(tensor.dtype),
        device=str(tensor.device),
        requires_grad=tensor.requires_grad,
        is_leaf=tensor.is_leaf,
        grad_fn=type(tensor.grad_fn).__name__ if tensor.grad_fn is not None else None,
        grad=grad_text(tensor),
        stride=tuple(tensor.stride()),
        storage_offset=tensor.storage_offset(),
        is_contiguous=tensor.is_contiguous(),
        element_size=tensor.element_size(),
        numel=tensor.numel(),
        nbytes=tensor.numel() * tensor.element_size(),
        storage_nbytes=tensor.untyped_storage().nbytes(),
    )


GRAD_VALUES_SHOWN = 4


def grad_text(tensor: torch.Tensor) -> str:
    """`.grad` in a few characters: "None", "7.0" or "[3] 2, 2, 2" — read only where torch keeps
    it (a leaf, or retain_grad()), so a non-leaf never triggers torch's warning."""
    if not (tensor.is_leaf or tensor.retains_grad):
        return _("None (not a leaf)")
    grad = tensor.grad
    if grad is None:
        return "None"
    try:
        flat = grad.detach().reshape(-1)[:GRAD_VALUES_SHOWN].cpu().tolist()
    except (RuntimeError, NotImplementedError):  # meta, sparse: no values to show
        return f"{list(grad.shape)} {dtype_name(grad.dtype)}"
    values = ", ".join(f"{v:.4g}" for v in flat)
    if grad.dim() == 0:
        return values
    more = ", …" if grad.numel() > GRAD_VALUES_SHOWN else ""
    return f"{list(grad.shape)} {values}{more}"


def storage_key(tensor: torch.Tensor) -> tuple[str, int] | None:
    """Identifies the memory a tensor reads; None for an empty storage (nothing to share)."""
    storage = tensor.untyped_storage()
    if storage.nbytes() == 0:
        return None
    if tensor.device.type == "meta":  # no memory, every address 0: only views share a base
        return ("meta", id(_root(tensor)))
    return (str(tensor.device), storage.data_ptr())


def storage_numbers(tensors: Mapping[str, torch.Tensor]) -> dict[str, int]:
    """1, 2, 3 … per storage, in order of first appearance: the same number, the same memory
    (what the colours of a list say, also when there are more storages than colours)."""
    numbers: dict[tuple, int] = {}
    found = {}
    for name, tensor in tensors.items():
        key = storage_key(tensor) or ("empty", id(_root(tensor)))
        found[name] = numbers.setdefault(key, len(numbers) + 1)
    return found


def _root(tensor: torch.Tensor) -> torch.Tensor:
    return tensor._base if tensor._base is not None else tensor


def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    key = storage_key(a)
    if key is None:  # an empty storage has no address to compare; a view still knows its base
        return storage_key(b) is None and _root(a) is _root(b)
    return key == storage_key(b)


@dataclass(frozen=True)
class Verdict:
    kind: str  # "view" | "copy" | "in-place"
    shared_with: tuple[str, ...] = ()
    itself: str = ""  # the input returned as it is (x.contiguous() of a contiguous x)

    @property
    def text(self) -> str:
        """The verdict in the language in force when it is read (a card shown again after a
        switch of language says it in the new one)."""
        names = ", ".join(self.shared_with)
        if self.kind == "in-place":
            return _("in place — wrote into the storage of {names}").format(names=names)
        if self.itself:
            return _("returned {name} itself — the very same tensor").format(name=self.itself)
        if self.kind == "view":
            return _("view of {names} — shares storage").format(names=names)
        return _("new storage — copy")


def view_verdict(result: torch.Tensor, inputs: Mapping[str, torch.Tensor]) -> Verdict:
    """ "view of x — shares storage" when the result reads an input's storage, else a copy."""
    shared = tuple(name for name, tensor in inputs.items() if shares_storage(result, tensor))
    if shared:
        same = [n for n in shared if inputs[n] is result]
        return Verdict("view", shared, same[0] if same else "")
    return Verdict("copy")
