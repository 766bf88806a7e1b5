"""A model's module tree as named_modules() lists it, with each module's own parameters and
buffers (shape, dtype, bytes, what a tied parameter is tied to) and the parameter counts of its
own and of its subtree."""

from __future__ import annotations

import torch

from tensorviz.core.forward.forward_record import ModuleInfo, ParameterInfo
from tensorviz.core.forward.tied_weights import first_names
from tensorviz.core.tensors.identity import dtype_name


def _shape_bytes(tensor: torch.Tensor) -> int:
    return tensor.numel() * tensor.element_size()


def module_infos(model: torch.nn.Module) -> dict[str, ModuleInfo]:
    """Every module of model.named_modules() with its own and its subtree's parameter counts."""
    infos: dict[str, ModuleInfo] = {}
    parents: dict[int, str] = {}
    first = first_names(model)
    for name, module in model.named_modules():
        own = [
            ParameterInfo(n, tuple(p.shape), dtype_name(p.dtype), _shape_bytes(p),
                          tied_to=_tied_to(first, p, f"{name}.{n}" if name else n))
            for n, p in module.named_parameters(recurse=False)
        ]  # fmt: skip
        own += [
            ParameterInfo(n, tuple(b.shape), dtype_name(b.dtype), _shape_bytes(b), "buffer")
            for n, b in module.named_buffers(recurse=False)
            if b is not None
        ]
        subtree = list(module.parameters())
        params = [p for p in own if p.kind == "parameter"]
        infos[name] = ModuleInfo(
            name,
            type(module).__name__,
            parents.get(id(module)) if name else None,
            own,
            sum(int(torch.Size(p.shape).numel()) for p in params),
            sum(p.nbytes for p in params),
            sum(p.numel() for p in subtree),
            sum(_shape_bytes(p) for p in subtree),
        )
        for child in module.children():
            parents.setdefault(id(child), name)
    return infos


def _tied_to(first: dict[int, str], parameter, qualified: str) -> str:
    """The name a tied parameter is counted under, when it is not this one."""
    counted = first.get(id(parameter), qualified)
    return "" if counted == qualified else counted
