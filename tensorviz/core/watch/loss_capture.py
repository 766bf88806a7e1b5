"""The loss, taken by itself: while a run is active, torch.Tensor.backward and
torch.autograd.backward are wrapped so that a backward on a one-value tensor hands that tensor
to every active run (and to its backward listeners, before the real backward frees the graph).
Closing the last run puts torch's own functions back."""

from __future__ import annotations

import threading

import torch

_active: list = []
_lock = threading.Lock()
_inside = threading.local()
_originals: dict = {}


def _seen(tensors) -> None:
    if isinstance(tensors, torch.Tensor):
        loss = tensors
    elif isinstance(tensors, (tuple, list)) and len(tensors) == 1:
        loss = tensors[0]
    else:
        return
    if isinstance(loss, torch.Tensor) and loss.numel() == 1:
        for run in list(_active):
            run._on_backward(loss)


def _taking_the_loss(key: str):
    """torch's backward `key` ("tensor" or "autograd") that first hands a one-value tensor to the
    active runs; Tensor.backward calls autograd.backward, so only the outermost call hands it."""

    def backward(tensors, *args, **kwargs):
        if getattr(_inside, "depth", 0) == 0 and _active:
            _seen(tensors)
        _inside.depth = getattr(_inside, "depth", 0) + 1
        try:
            return _originals[key](tensors, *args, **kwargs)
        finally:
            _inside.depth -= 1

    return backward


_tensor_backward = _taking_the_loss("tensor")
_autograd_backward = _taking_the_loss("autograd")


def activate(run) -> None:
    with _lock:
        if not _originals:
            _originals["tensor"] = torch.Tensor.backward
            _originals["autograd"] = torch.autograd.backward
            torch.Tensor.backward = _tensor_backward
            torch.autograd.backward = _autograd_backward
        if run not in _active:
            _active.append(run)


def deactivate(run) -> None:
    with _lock:
        if run in _active:
            _active.remove(run)
        if _active or not _originals:
            return
        # put torch's own back, unless someone wrapped ours since (then ours stays, inert)
        if (
            torch.Tensor.backward is _tensor_backward
            and torch.autograd.backward is _autograd_backward
        ):
            torch.Tensor.backward = _originals.pop("tensor")
            torch.autograd.backward = _originals.pop("autograd")


def is_wrapped() -> bool:
    return torch.Tensor.backward is _tensor_backward
