"""The models a script called: each nn.Module the script keeps in a variable and called at top
level (not from inside another module), with the arguments of its last call, so the
Architecture area can show "Architecture of model(x)" on the script's own input."""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class ModelCall:
    name: str  # the variable holding the model
    module: torch.nn.Module
    args: tuple
    text: str  # "model(x)", "net([64, 3, 32, 32])"


def _argument_text(value, names: dict[int, str]) -> str:
    if isinstance(value, torch.Tensor):
        return names.get(id(value)) or "[" + ", ".join(map(str, value.shape)) + "]"
    if isinstance(value, (tuple, list)):
        inner = ", ".join(_argument_text(v, names) for v in value)
        return f"({inner})" if isinstance(value, tuple) else f"[{inner}]"
    text = repr(value)
    return text if len(text) <= 20 else type(value).__name__


def model_calls(namespace: dict, root_calls: dict[int, tuple]) -> list[ModelCall]:
    """`root_calls`: id(module) → (module, args), from module tagging during the run."""
    names = {
        id(v): k
        for k, v in namespace.items()
        if isinstance(v, torch.Tensor) and not k.startswith("__")
    }
    found = []
    for name, value in namespace.items():
        if isinstance(value, torch.nn.Module) and id(value) in root_calls:
            module, args = root_calls[id(value)]
            if module is value:
                shown = ", ".join(_argument_text(a, names) for a in args)
                found.append(ModelCall(name, value, tuple(args), f"{name}({shown})"))
    return found
