"""How a running script is stopped from another thread (see run.py's docstring): the exception
that lands in the script's thread, the optional TorchFunctionMode that checks before every torch
call, `time.sleep` that wakes on a stop, and the name of the torch call a stop waits for."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

from torch.overrides import TorchFunctionMode


class ScriptStopped(BaseException):  # noqa: N818 — not an error: the user asked for it
    """Raised in the script's thread when the user presses Stop."""


class StopBetweenTorchCalls(TorchFunctionMode):
    """Checks the run's stop flag before every torch call and names the call running."""

    def __init__(self, run) -> None:  # a ScriptRun (stop_requested, torch_call)
        super().__init__()
        self.run = run

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if self.run.stop_requested:
            raise ScriptStopped()
        self.run.torch_call = func
        try:
            return func(*args, **(kwargs or {}))
        finally:
            self.run.torch_call = None


_ORIGINAL_SLEEP = time.sleep
_SLEEPERS: dict[int, threading.Event] = {}
_SLEEP_LOCK = threading.Lock()


def _stoppable_sleep(seconds: float) -> None:
    stop = _SLEEPERS.get(threading.get_ident())
    if stop is None:
        return _ORIGINAL_SLEEP(seconds)
    if stop.wait(seconds):
        raise ScriptStopped()


@contextmanager
def sleep_wakes_on(stop: threading.Event):
    ident = threading.get_ident()
    with _SLEEP_LOCK:
        if not _SLEEPERS:
            time.sleep = _stoppable_sleep
        _SLEEPERS[ident] = stop
    try:
        yield
    finally:
        with _SLEEP_LOCK:
            _SLEEPERS.pop(ident, None)
            if not _SLEEPERS:
                time.sleep = _ORIGINAL_SLEEP


def torch_call_name(func) -> str:
    name = getattr(func, "__name__", None) or repr(func)
    qualname = getattr(func, "__qualname__", "") or ""
    if "Tensor" in qualname or "tensor" in qualname.split(".")[0].lower():
        return f"Tensor.{name}"
    return f"torch.{name}"
