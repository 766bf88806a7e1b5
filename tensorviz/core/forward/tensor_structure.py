"""The tensors inside whatever a forward takes or returns: tuples, lists, dicts, namedtuples,
dataclasses and transformers' ModelOutput (an OrderedDict that is also a dataclass), each with
the access path a user would type (`[0]`, `.logits`, `['mask']`)."""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Mapping

import torch

from tensorviz.core.tensors.identity import dtype_name
from tensorviz.core.translation import _

MAX_DEPTH = 6  # nesting deeper than this is not searched


@dataclasses.dataclass(frozen=True)
class TensorInfo:
    """What an edge of the forward graph is labelled with."""

    shape: tuple[int, ...]
    dtype: str
    device: str

    @classmethod
    def of(cls, tensor: torch.Tensor) -> TensorInfo:
        return cls(tuple(tensor.shape), dtype_name(tensor.dtype), tensor.device.type)

    def shape_text(self) -> str:
        return _("scalar") if not self.shape else "[" + ", ".join(map(str, self.shape)) + "]"

    def text(self) -> str:
        return f"{self.shape_text()} {self.dtype}"

    def to_json(self) -> dict:
        return {"shape": list(self.shape), "dtype": self.dtype, "device": self.device}


class TensorInfoMemo:
    """TensorInfo.of, remembered by (shape, dtype, device): a recorded forward labels thousands
    of edges and outputs with a few dozen distinct infos, and a frozen one serves them all."""

    def __init__(self) -> None:
        self._known: dict[tuple, TensorInfo] = {}

    def of(self, tensor: torch.Tensor) -> TensorInfo:
        key = (tensor.shape, tensor.dtype, tensor.device)  # (a Size hashes as its tuple)
        info = self._known.get(key)
        if info is None:
            info = self._known[key] = TensorInfo.of(tensor)
        return info


def _child_path(path: str, key) -> str:
    if isinstance(key, str) and key.isidentifier():
        return f"{path}.{key}" if path else key
    return f"{path}[{key!r}]"


def flatten_tensors(value, path: str = "", depth: int = 0) -> list[tuple[str, torch.Tensor]]:
    """(path, tensor) for every tensor in `value`, in order; other leaves are skipped."""
    if isinstance(value, torch.Tensor):
        return [(path, value)]
    if depth >= MAX_DEPTH or isinstance(value, (str, bytes, int, float, bool, type(None))):
        return []
    kind = type(value)
    if kind is list or kind is tuple:  # an op's arguments, every call: the quick way through
        found = []
        for i, item in enumerate(value):
            if isinstance(item, torch.Tensor):
                found.append((f"{path}[{i}]", item))
            elif not isinstance(item, (str, bytes, int, float, bool, type(None))):
                found += flatten_tensors(item, f"{path}[{i}]", depth + 1)
        return found
    found: list[tuple[str, torch.Tensor]] = []
    if isinstance(value, Mapping):  # ModelOutput too: its keys are the fields that are set
        items = list(value.items())
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        items = [(f.name, getattr(value, f.name, None)) for f in dataclasses.fields(value)]
    elif isinstance(value, tuple) and hasattr(value, "_fields"):  # a namedtuple
        items = list(zip(value._fields, value, strict=False))
    elif isinstance(value, (list, tuple)):
        return [
            pair
            for i, item in enumerate(value)
            for pair in flatten_tensors(item, f"{path}[{i}]", depth + 1)
        ]
    else:
        return []
    for key, item in items:
        found += flatten_tensors(item, _child_path(path, key), depth + 1)
    return found


def bound_arguments(function, args: tuple, kwargs: dict) -> list[tuple[str, object]]:
    """(parameter name, value) of a call, named as the function's signature names them
    (`forward(self, input_ids, attention_mask=None)` → input_ids, attention_mask)."""
    underlying = getattr(function, "__func__", None)
    names = _plain_names(underlying) if underlying is not None else None
    if names is not None and len(args) <= len(names) and kwargs.keys() <= set(names[len(args) :]):
        # What bind_partial gives for a signature of plain parameters (every forward of
        # torch.nn's layers), without building a BoundArguments for each module call.
        named = list(zip(names, args, strict=False))
        return named + [(name, kwargs[name]) for name in names[len(args) :] if name in kwargs]
    try:
        bound = _signature(function).bind_partial(*args, **kwargs)
    except (TypeError, ValueError):
        return [(f"arg{i}", value) for i, value in enumerate(args)] + list(kwargs.items())
    named = []
    for name, value in bound.arguments.items():
        kind = bound.signature.parameters[name].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            named += [(f"{name}[{i}]", item) for i, item in enumerate(value)]
        elif kind is inspect.Parameter.VAR_KEYWORD:
            named += list(value.items())
        else:
            named.append((name, value))
    return named


@functools.lru_cache(maxsize=1024)
def _unbound_signature(function) -> inspect.Signature:
    signature = inspect.signature(function)
    return signature.replace(parameters=list(signature.parameters.values())[1:])


@functools.lru_cache(maxsize=1024)
def _plain_names(function) -> tuple[str, ...] | None:
    """A method's parameter names after `self` when every one may be given by position or by
    name (no *args, **kwargs, positional-only or keyword-only), else None."""
    try:
        parameters = _unbound_signature(function).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD for p in parameters):
        return None
    return tuple(p.name for p in parameters)


def _signature(function) -> inspect.Signature:
    """The signature a call binds to; a method's is cached on its class's function (every
    Linear shares one), without `self`."""
    underlying = getattr(function, "__func__", None)
    if underlying is not None:
        return _unbound_signature(underlying)
    return inspect.signature(function)
