"""The namespace a script runs in: `__name__ == "__main__"`, torch, nn, F, np, the workspace's
tensors by name, the last successful run's other variables, and builtins without keyboard input
(input() explains itself; exit() and quit() end the script as `python SCRIPT.py` would)."""

from __future__ import annotations

import builtins

import numpy as np
import torch

from tensorviz.core.script.failure_titles import ScriptInputError
from tensorviz.core.translation import _


def _no_input(*_args, **_kwargs):
    raise ScriptInputError(
        _(
            "input() cannot read anything here: a script in tensorviz has no keyboard input "
            "(stdin). Put the value in the code instead, e.g. n = 10."
        )
    )


def _exit(code=None):
    raise SystemExit(code)


def script_builtins() -> dict:
    table = dict(builtins.__dict__)
    table.update(input=_no_input, exit=_exit, quit=_exit)
    return table


def build_namespace(tensors: dict[str, torch.Tensor], previous: dict | None = None) -> dict:
    namespace = {
        name: value
        for name, value in (previous or {}).items()
        if not name.startswith("__") and not isinstance(value, torch.Tensor)
    }
    namespace.update(
        __name__="__main__",
        __builtins__=script_builtins(),
        torch=torch,
        nn=torch.nn,
        F=torch.nn.functional,
        np=np,
    )
    namespace.update(tensors)
    return namespace
