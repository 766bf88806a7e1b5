"""`tensorviz watch SCRIPT.py` watches models nobody named: one global forward hook notes every
module that runs (and keeps its last output until the module is watched, so the first step has
its activations too); at an optimizer's first step the models are the outermost modules seen
that hold the optimizer's parameters (a GAN's generator and critic, a DDP wrapper's model)."""

from __future__ import annotations

import weakref

import torch
from torch import nn


class ModuleDiscovery:
    def __init__(self):
        self._seen: dict[int, weakref.ref] = {}
        self._early: dict[int, object] = {}  # id → last output of a module not watched yet
        self.watched: set[int] = set()
        self._handle = None

    def start(self) -> None:
        if self._handle is None:
            hook = torch.nn.modules.module.register_module_forward_hook
            self._handle = hook(self._forward_seen)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.remove()
            self._handle = None
        self._early.clear()

    def _forward_seen(self, module, _args, output) -> None:
        key = id(module)
        if key in self.watched:
            return
        known = self._seen.get(key)
        if known is None or known() is not module:
            self._seen[key] = weakref.ref(module, lambda _ref, key=key: self._forget(key))
        if torch.is_grad_enabled():
            self._early[key] = output

    def _forget(self, key: int) -> None:
        self._seen.pop(key, None)
        self._early.pop(key, None)

    def roots_for(self, optimizer) -> list[nn.Module]:
        """The outermost modules seen that hold a parameter of `optimizer`."""
        wanted = {id(p) for group in optimizer.param_groups for p in group["params"]}
        holders = []
        for ref in list(self._seen.values()):
            module = ref()
            if module is not None and any(id(p) in wanted for p in module.parameters()):
                holders.append(module)
        inner = {id(sub) for module in holders for sub in list(module.modules())[1:]}
        return [module for module in holders if id(module) not in inner]

    def early_output(self, module: nn.Module):
        return self._early.pop(id(module), None)

    def now_watched(self, root: nn.Module) -> None:
        for sub in root.modules():
            self.watched.add(id(sub))
            self._early.pop(id(sub), None)
