"""Tied weights in a model: one Parameter reached under two names (GPT-2's `lm_head.weight` is
`transformer.wte.weight`). `model.parameters()` and every count here hold it once, under the
name `named_parameters()` gives it first; the other names say what they are tied to."""

from __future__ import annotations

import torch

from tensorviz.core.translation import _


def first_names(model: torch.nn.Module) -> dict[int, str]:
    """id(parameter) → the name named_parameters() gives it first (where it is counted)."""
    first: dict[int, str] = {}
    for name, parameter in model.named_parameters(remove_duplicate=False):
        first.setdefault(id(parameter), name)
    return first


def tied_sentence(name: str, tied_to: str) -> str:
    return _("{name} is tied to {tied_to}: one tensor, counted once").format(
        name=name, tied_to=tied_to
    )
