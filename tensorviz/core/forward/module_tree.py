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
    """Every module of model.named_modules() with its own and its subtree's parameter counts.

    A subtree's count is what `module.parameters()` would sum (every parameter once, a shared
    one too), found the other way round: each parameter adds itself to every module above one
    that holds it, walked up once per parameter; not each module's whole subtree again."""
    infos: dict[str, ModuleInfo] = {}
    parents: dict[int, str] = {}
    first = first_names(model)
    above: dict[int, list[torch.nn.Module]] = {}  # id(module) → every module holding it
    owners: dict[int, tuple[torch.nn.Parameter, list[torch.nn.Module]]] = {}
    modules = []
    for name, module in model.named_modules():
        modules.append((name, module))
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
        for parameter in module._parameters.values():
            if parameter is not None:
                owners.setdefault(id(parameter), (parameter, []))[1].append(module)
        params = [p for p in own if p.kind == "parameter"]
        infos[name] = ModuleInfo(
            name,
            type(module).__name__,
            parents.get(id(module)) if name else None,
            own,
            sum(int(torch.Size(p.shape).numel()) for p in params),
            sum(p.nbytes for p in params),
        )
        for child in module.children():
            parents.setdefault(id(child), name)
            above.setdefault(id(child), []).append(module)
    info_of = {id(module): infos[name] for name, module in modules}
    for parameter, holders in owners.values():
        count, size = parameter.numel(), _shape_bytes(parameter)
        seen: set[int] = set()
        pending = list(holders)
        while pending:
            module = pending.pop()
            if id(module) in seen or id(module) not in info_of:
                continue
            seen.add(id(module))
            info = info_of[id(module)]
            info.total_params += count
            info.total_bytes += size
            pending += above.get(id(module), ())
    return infos


def _tied_to(first: dict[int, str], parameter, qualified: str) -> str:
    """The name a tied parameter is counted under, when it is not this one."""
    counted = first.get(id(parameter), qualified)
    return "" if counted == qualified else counted
