"""Process-wide torch settings a script may change — the default dtype, print options, the
number of threads — are put back after every run: the app shares the process, and a script's
`torch.set_default_dtype(torch.float64)` would otherwise change every tensor the app creates.
The output says what was put back, so the user knows to set it in each script that needs it."""

from __future__ import annotations

import sys
from contextlib import contextmanager

import torch
from torch import _tensor_str

_PRINT_FIELDS = ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")


def _settings() -> dict:
    printing = {name: getattr(_tensor_str.PRINT_OPTS, name) for name in _PRINT_FIELDS}
    return {
        "default dtype": torch.get_default_dtype(),
        "print options": printing,
        "threads": torch.get_num_threads(),
    }


def _put_back(name: str, value) -> None:
    if name == "default dtype":
        torch.set_default_dtype(value)
    elif name == "print options":
        for field, setting in value.items():
            setattr(_tensor_str.PRINT_OPTS, field, setting)
    else:
        torch.set_num_threads(value)


@contextmanager
def torch_settings_kept(output):
    """Run the body, then restore torch's process-wide settings, noting each one restored."""
    before = _settings()
    try:
        yield
    finally:
        after = _settings()
        for name, value in before.items():
            if after[name] != value:
                _put_back(name, value)
                output.write(
                    "stderr",
                    f"Note: the script changed torch's {name}; it was put back after the run "
                    "(the app shares it). Set it at the top of each script that needs it.\n",
                )


@contextmanager
def recursion_limit_kept(output):
    """Put Python's recursion limit back after the run (the app shares the interpreter; a
    script's setrecursionlimit(10**6) would otherwise outlive it), noting it when changed."""
    before = sys.getrecursionlimit()
    try:
        yield
    finally:
        if sys.getrecursionlimit() != before:
            sys.setrecursionlimit(before)
            output.write(
                "stderr",
                f"Note: the script changed Python's recursion limit; it was put back to "
                f"{before:,} after the run. Set it at the top of each script that needs it.\n",
            )
