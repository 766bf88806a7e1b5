"""Process-wide torch settings a script may change — the default dtype, print options, the
number of threads — are put back after every run: the app shares the process, and a script's
`torch.set_default_dtype(torch.float64)` would otherwise change every tensor the app creates.
The output says what was put back, so the user knows to set it in each script that needs it."""

from __future__ import annotations

import sys
from contextlib import contextmanager

import torch
from torch import _tensor_str

from tensorviz.core.translation import _

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


def _put_back_note(name: str) -> str:
    """One whole sentence per setting (a translated name inside a sentence reads badly)."""
    if name == "default dtype":
        return _(
            "Note: the script changed torch's default dtype; it was put back after the run (the "
            "app shares it). Set it at the top of each script that needs it."
        )
    if name == "print options":
        return _(
            "Note: the script changed torch's print options; they were put back after the run "
            "(the app shares them). Set them at the top of each script that needs them."
        )
    return _(
        "Note: the script changed torch's number of threads; it was put back after the run (the "
        "app shares it). Set it at the top of each script that needs it."
    )


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
                output.write("stderr", _put_back_note(name) + "\n")


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
            note = _(
                "Note: the script changed Python's recursion limit; it was put back to {limit} "
                "after the run. Set it at the top of each script that needs it."
            ).format(limit=f"{before:,}")
            output.write("stderr", note + "\n")
