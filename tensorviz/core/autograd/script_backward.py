"""The backward passes a script runs itself (`loss.backward()`), recorded as they happen, so the
learner steps through *their* pass — node order, gradients on edges, `.grad` filling in —
after the run, although torch freed the graph (no retain_graph needed).

While a run is recorded, `torch.autograd.backward` (what `Tensor.backward` calls) is wrapped:
in the script's thread each call extracts the graph of its roots, names the leaves after the
script's variables, reads each node's local derivative and hooks every node for that one call
(backward_steps.recorded_pass); other threads pass straight through. The wrapper is removed
when the last recorded run ends. What the script sees is unchanged: the same call, the same
result, torch's own errors.

A training loop calls backward hundreds of times, and recording one pass costs several times
the pass itself (hooks on every node, gradients copied, derivatives read): the first KEEP_FIRST
passes are always recorded, later ones only while recording has taken at most LATER_SHARE of
the time since the first backward — so the run slows by about that much — and of those only
the latest is kept ("pass 480 of 500"). Every call is counted.
"""

from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

import torch

from tensorviz.core.autograd.backward_steps import BackwardRecord, recorded_pass
from tensorviz.core.autograd.graph import AutogradGraph, LeafNames, extract_graph
from tensorviz.core.translation import _

KEEP_FIRST = 3
LATER_SHARE = 0.1  # later passes are recorded while recording took at most this share of time


@dataclass
class ScriptBackwardPass:
    number: int  # which backward call of the run (1 = the first)
    line: int  # the script line that called it (0: unknown)
    root_label: str  # the variable holding the root, e.g. "loss"
    graph: AutogradGraph
    record: BackwardRecord
    roots: list[torch.Tensor]
    retain_graph: bool

    def title(self, total: int) -> str:
        call = f"{self.root_label}.backward()"
        if self.line and total > 1:
            text = _("{call} on line {line} (pass {number} of {total})")
        elif self.line:
            text = _("{call} on line {line}")
        elif total > 1:
            text = _("{call} (pass {number} of {total})")
        else:
            return call
        return text.format(call=call, line=self.line, number=self.number, total=total)


@dataclass
class ScriptBackwardRecorder:
    """Give `installed` to ScriptRun(around_user_code=...); read `passes` after the run."""

    filename: str  # the script's code filename: its frames name the leaves and the line
    passes: list[ScriptBackwardPass] = field(default_factory=list)
    calls: int = 0  # every backward call the script made, recorded or not
    started: float = 0.0  # when the first backward call came
    spent: float = 0.0  # seconds spent in recorded calls

    def installed(self):
        return _recording_in_this_thread(self)

    @property
    def skipped(self) -> int:
        return self.calls - len(self.passes)

    def _record(self, original, tensors, kwargs) -> None:
        self.calls += 1
        now = time.perf_counter()
        self.started = self.started or now
        roots = [tensors] if isinstance(tensors, torch.Tensor) else list(tensors)
        roots = [t for t in roots if isinstance(t, torch.Tensor) and t.grad_fn is not None]
        later = self.calls > KEEP_FIRST
        if not roots or (later and self.spent > LATER_SHARE * (now - self.started)):
            original(tensors, **kwargs)
            return
        try:
            self._record_pass(original, tensors, kwargs, roots)
        finally:
            self.spent += time.perf_counter() - now

    def _record_pass(self, original, tensors, kwargs, roots) -> None:
        frames = _script_frames(sys._getframe(2), self.filename)
        names = _leaf_names(frames)
        labels = [_name_in(frames, root) or "root" for root in roots]
        graph = extract_graph(roots, names, labels)
        record = recorded_pass(graph, lambda: original(tensors, **kwargs))
        line = frames[0].f_lineno if frames else 0
        retain = bool(kwargs.get("retain_graph") or kwargs.get("create_graph"))
        made = ScriptBackwardPass(self.calls, line, labels[0], graph, record, roots, retain)
        if len(self.passes) > KEEP_FIRST:
            self.passes[-1] = made  # the latest pass of a long loop replaces the one before
        else:
            self.passes.append(made)


def _script_frames(frame, filename: str) -> list:
    """The script's own frames on the stack, innermost first."""
    frames = []
    while frame is not None:
        if frame.f_code.co_filename == filename:
            frames.append(frame)
        frame = frame.f_back
    return frames


def _leaf_names(frames: list) -> LeafNames:
    """Leaves named as the script names them: its variables (innermost scope first) and the
    parameters of its nn.Modules (`model.0.weight`)."""
    names = LeafNames()
    for frame in frames:
        for name, value in list(frame.f_locals.items()):
            if isinstance(value, torch.Tensor):
                names.add(name, value)
            elif isinstance(value, torch.nn.Module) and not name.startswith("__"):
                names.add_module(value, prefix=f"{name}.")
    return names


def _name_in(frames: list, tensor: torch.Tensor) -> str | None:
    for frame in frames:
        for name, value in list(frame.f_locals.items()):
            if value is tensor:
                return name
    return None


_ORIGINAL_BACKWARD = torch.autograd.backward
_RECORDERS: dict[int, ScriptBackwardRecorder] = {}
_LOCK = threading.Lock()


def _backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, **rest):
    kwargs = dict(
        grad_tensors=grad_tensors, retain_graph=retain_graph, create_graph=create_graph, **rest
    )
    recorder = _RECORDERS.get(threading.get_ident())
    if recorder is None:
        return _ORIGINAL_BACKWARD(tensors, **kwargs)
    return recorder._record(_ORIGINAL_BACKWARD, tensors, kwargs)


@contextmanager
def _recording_in_this_thread(recorder: ScriptBackwardRecorder):
    ident = threading.get_ident()
    with _LOCK:
        if not _RECORDERS:
            torch.autograd.backward = _backward
        _RECORDERS[ident] = recorder
    try:
        yield recorder
    finally:
        with _LOCK:
            _RECORDERS.pop(ident, None)
            if not _RECORDERS:
                torch.autograd.backward = _ORIGINAL_BACKWARD
