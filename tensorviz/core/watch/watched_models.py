"""The models a run watches: their parameters by dotted name (wrappers seen through), and their
modules with forward hooks that keep a small sample of each output (≤ ACTIVATION_SAMPLE values,
tensor_sampling.py) for the step's activation numbers (activation_statistics.py). Keeping the
outputs themselves until the step would hold a whole forward's activations through backward
(on a CPU nanoGPT that alone cost ~10 % of a step: the allocator could not reuse them)."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from tensorviz.core.watch.activation_statistics import (
    ACTIVATION_SAMPLE,
    module_kind,
    output_tensor,
    watched_for_activations,
)
from tensorviz.core.watch.tensor_sampling import sampled_values

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


def activation_sample(output):
    """The sample of a module's output the statistics read, or None (no floating tensor)."""
    tensor = output if type(output) is torch.Tensor else output_tensor(output)
    if tensor is None or not tensor.is_floating_point() or tensor.layout is not torch.strided:
        return None
    if tensor.is_meta or tensor.numel() == 0:
        return None
    return sampled_values(tensor, ACTIVATION_SAMPLE)


def _activation_modules(root: nn.Module) -> list[tuple[str, nn.Module]]:
    """The modules whose outputs are watched: every leaf (a lone layer: the root itself) and
    every layer of a list (a ModuleList's or Sequential's children: a transformer's blocks, a
    ResNet's stages). Other containers (a block's `attn`, `mlp`) mostly hand on a child's
    output; Dropout and Identity hand on their input."""
    if not any(True for _ in root.children()):
        return [(type(root).__name__, root)] if watched_for_activations(root) else []
    layers = {id(child) for module in root.modules()
              if isinstance(module, (nn.ModuleList, nn.Sequential))
              for child in module.children()}  # fmt: skip
    chosen = []
    for name, module in list(root.named_modules())[1:]:
        if isinstance(module, _CONTAINERS) or not watched_for_activations(module):
            continue
        is_leaf = not any(True for _ in module.children())
        if is_leaf or id(module) in layers:
            chosen.append((name, module))
    return chosen


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
        self.samples: dict[int, torch.Tensor] = {}  # module index → sample of its last output
        self.sampling = True  # the coming step is recorded: the hooks take samples
        self.keep_root_io = False  # a step listener wants the models' inputs and outputs
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
        for name, sub in _activation_modules(inner):
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
        samples = self.samples
        grad_enabled = torch.is_grad_enabled

        def keep_sample(_module, _args, output):
            if self.sampling and grad_enabled():
                sample = activation_sample(output)
                if sample is not None:
                    samples[index] = sample

        return keep_sample

    def _hook_root(self, root: Root) -> None:
        samples = self.samples
        notify = self._on_root_forward
        own = range(root.first_module, root.end_module)

        def forward_starts(_module, args):
            if torch.is_grad_enabled():
                for index in own:  # this model's last forward only
                    samples.pop(index, None)

        def forward_ends(_module, args, output):
            if torch.is_grad_enabled():
                if self.keep_root_io:
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
        self.samples.clear()
