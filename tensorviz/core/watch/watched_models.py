"""The models a run watches: their parameters by dotted name (wrappers seen through), their
modules with forward hooks that only keep a reference to the output (the statistics are taken
at the step, activation_statistics.py), and the schema versions the run folder lists."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from tensorviz.core.watch.activation_statistics import module_kind

_CONTAINERS = (nn.ModuleList, nn.ModuleDict, nn.ParameterList, nn.ParameterDict)


def unwrapped(module: nn.Module) -> nn.Module:
    """The model inside DataParallel / DistributedDataParallel (`.module`) and torch.compile
    (`._orig_mod`), so that names are the model's own ("0.weight", not "module.0.weight")."""
    seen = set()
    while id(module) not in seen:
        seen.add(id(module))
        inner = getattr(module, "_orig_mod", None)
        if isinstance(inner, nn.Module):
            module = inner
            continue
        inner = getattr(module, "module", None)
        wrapper = isinstance(module, (nn.DataParallel, nn.parallel.DistributedDataParallel))
        if isinstance(inner, nn.Module) and (wrapper or "DataParallel" in type(module).__name__):
            module = inner
            continue
        break
    return module


@dataclass
class WatchedParam:
    name: str
    param: torch.Tensor
    module: str  # the owning module's dotted name


@dataclass
class WatchedModule:
    name: str
    module: nn.Module
    kind: str  # relu, tanh, sigmoid, other


@dataclass
class Root:
    module: nn.Module
    prefix: str  # "" for the first model; "ClassName." (numbered if taken) for later ones
    inputs: tuple | None = None
    output: object = None
    first_module: int = 0  # its modules are self.modules[first_module:end_module]
    end_module: int = 0


class WatchedModels:
    def __init__(self, on_root_forward=None):
        self.roots: list[Root] = []
        self.modules: list[WatchedModule] = []
        self.outputs: dict[int, object] = {}  # module index → its output in the last forward
        self.extra_params: list[tuple[str, torch.Tensor]] = []  # held by an optimizer only
        self._all: list[WatchedParam] = []  # every parameter, frozen ones too
        self._flags: list[bool] = []
        self.params: list[WatchedParam] = []  # the ones in the schema (requiring grad)
        self._handles: list = []
        self._on_root_forward = on_root_forward

    def has(self, module: nn.Module) -> bool:
        inner = unwrapped(module)
        return any(root.module is inner for root in self.roots)

    def add(self, module: nn.Module) -> bool:
        """Watch `module` (and its submodules); False when it was watched already."""
        inner = unwrapped(module)
        if self.has(inner):
            return False
        prefix = self._prefix_for(inner)
        root = Root(inner, prefix)
        self.roots.append(root)
        root.first_module = len(self.modules)
        named = list(inner.named_modules())
        if len(named) == 1:  # a lone layer: its own output is its activation
            named = [(type(inner).__name__, inner)]
        else:
            named = named[1:]
        for name, sub in named:
            if isinstance(sub, _CONTAINERS):
                continue
            index = len(self.modules)
            self.modules.append(WatchedModule(prefix + name, sub, module_kind(sub)))
            self._handles.append(sub.register_forward_hook(self._output_keeper(index)))
        root.end_module = len(self.modules)
        self._hook_root(root)
        seen = {id(p.param) for p in self._all}
        for name, param in inner.named_parameters():
            if id(param) not in seen:
                seen.add(id(param))
                full = prefix + name
                self._all.append(WatchedParam(full, param, full.rpartition(".")[0]))
        self.rescan()
        return True

    def _prefix_for(self, module: nn.Module) -> str:
        if not self.roots:
            return ""
        base = type(module).__name__
        taken = {root.prefix for root in self.roots}
        prefix, number = f"{base}.", 2
        while prefix in taken:
            prefix, number = f"{base}{number}.", number + 1
        return prefix

    def _output_keeper(self, index: int):
        outputs = self.outputs
        grad_enabled = torch.is_grad_enabled

        def keep_output(_module, _args, output):
            if grad_enabled():
                outputs[index] = output

        return keep_output

    def _hook_root(self, root: Root) -> None:
        outputs = self.outputs
        notify = self._on_root_forward

        own = range(root.first_module, root.end_module)

        def forward_starts(_module, args):
            if torch.is_grad_enabled():
                for index in own:  # this model's last forward only
                    outputs.pop(index, None)

        def forward_ends(_module, args, output):
            if torch.is_grad_enabled():
                root.inputs, root.output = args, output
                if notify is not None:
                    notify()

        self._handles.append(root.module.register_forward_pre_hook(forward_starts))
        self._handles.append(root.module.register_forward_hook(forward_ends))

    def add_extra(self, name: str, param: torch.Tensor) -> None:
        if all(p.param is not param for p in self._all):
            self._all.append(WatchedParam(name, param, ""))

    def rescan(self) -> bool:
        """Pick up parameters that started (or stopped) requiring grad; True when the schema's
        parameter list changed."""
        flags = [bool(p.param.requires_grad) for p in self._all]
        if flags == self._flags:
            return False
        self._flags = flags
        before = [p.name for p in self.params]
        kept = {p.name for p in self.params}
        self.params = [p for p, f in zip(self._all, flags, strict=True) if f or p.name in kept]
        return [p.name for p in self.params] != before

    def all_params(self) -> list[WatchedParam]:
        return self._all

    def remove_hooks(self) -> None:
        for handle in self._handles:
            handle.remove()
        self._handles.clear()
        self.outputs.clear()
