"""Which torch function calls are ops of the forward graph, and what they are called: a call
that returns a tensor (size(), dim(), item() do not), named as a user writes it (`getitem`,
`add`), an attribute read only when it is a view (`.T`, `.mT`), in place when it writes its input
(`add_`, `x[0] = ...`, `out=`)."""

from __future__ import annotations

import torch

IN_PLACE_DUNDERS = frozenset(
    f"__i{name}__"
    for name in (
        "add",
        "sub",
        "mul",
        "truediv",
        "floordiv",
        "mod",
        "pow",
        "matmul",
        "and",
        "or",
        "xor",
        "lshift",
        "rshift",
    )
) | {"__setitem__"}
VIEW_ATTRIBUTES = frozenset({"T", "mT", "H", "mH", "real", "imag"})  # attribute reads that are ops


def op_name(func) -> str | None:
    """The name an op is shown by, or None for a call that is no op (an attribute read such
    as .shape or .grad)."""
    name = getattr(func, "__name__", None) or repr(func)
    if name == "__get__":
        attribute = getattr(getattr(func, "__self__", None), "__name__", "")
        return attribute if attribute in VIEW_ATTRIBUTES else None
    if name.startswith("__") and name.endswith("__") and name not in IN_PLACE_DUNDERS:
        return name[2:-2]  # __getitem__ → getitem, __add__ → add
    return name


def is_in_place(name: str, kwargs: dict) -> bool:
    return (
        name in IN_PLACE_DUNDERS
        or (name.endswith("_") and not name.startswith("_"))
        or isinstance(kwargs.get("out"), torch.Tensor)
    )
