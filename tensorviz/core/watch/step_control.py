"""Pause / Step / Continue / Run to step N: the control channel between a viewer and the user's
own training loop, through two files of the run folder (docs/run_format.md).

Viewer side: `send(folder, command, step)` writes control.json atomically, with a sequence
number one above the last one, and `beat(folder)` keeps heartbeat.json fresh (its mtime) while
the viewer is connected.

Recorder side: a `StepGate` is asked at every step boundary (the recorder's step listener, on
the user's thread, before the optimizer's update). Unpaused it costs one os.stat of
control.json: the file is parsed only when its inode or mtime changed, and the loop never waits.
Paused, it blocks the user's thread, polling every POLL_SECONDS, until continue / step / run_to
arrives, and writes "paused" and "resumed" events. A viewer that stopped beating for
VIEWER_TIMEOUT seconds releases the pause (and a pause asked for is dropped), so a closed or
crashed viewer never holds training back. Ctrl+C while paused raises KeyboardInterrupt in the
user's thread as it would have anyway (the wait is a plain sleep there).

The paused step's tensors and autograd graph (paused_step.py) are collected only for a step the
gate is going to pause at: the backward listener asks `wants_graph()` before the user's
backward runs, so that pass alone is recorded; every other step pays nothing.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tensorviz.core.atomic_files import write_text_atomically
from tensorviz.core.translation import _
from tensorviz.core.watch import run_format as rf
from tensorviz.core.watch.inspectors import default_inspector
from tensorviz.core.watch.paused_step import (
    BackwardCapture,
    PausedStep,
    collect_paused_step,
    models_of,
)

HEARTBEAT_FILE = "heartbeat.json"
COMMANDS = ("pause", "continue", "step", "run_to", "inspect")
POLL_SECONDS = 0.05  # how often a paused loop looks at control.json
VIEWER_TIMEOUT = 15.0  # a heartbeat older than this: the viewer is gone, the pause released
BEAT_SECONDS = 2.0  # how often a connected viewer refreshes heartbeat.json (step_control_bar)


class ControlCommandError(ValueError):
    """A command the channel does not know (one sentence for the user)."""


@dataclass(frozen=True)
class ControlCommand:
    seq: int
    command: str
    step: int | None = None


# ---------------------------------------------------------------------------- viewer side


def send(folder: str | os.PathLike, command: str, step: int | None = None) -> ControlCommand:
    """Write `command` into the run folder's control.json (atomically) with the next sequence
    number, and beat: a command is a sign of life too. `step` is run_to's target."""
    if command not in COMMANDS:
        raise ControlCommandError(
            _("{command} is no step command; the commands are {known}.").format(
                command=command, known=", ".join(COMMANDS)
            )
        )
    if command == "run_to" and (not isinstance(step, int) or isinstance(step, bool) or step < 1):
        raise ControlCommandError(_("run_to needs the step to stop at: a whole number from 1."))
    folder = Path(folder)
    last = read_control(folder)
    sent = ControlCommand(
        (last.seq if last else 0) + 1, command, step if command == "run_to" else None
    )
    record = {"seq": sent.seq, "command": sent.command, "step": sent.step, "time": time.time()}
    beat(folder)
    write_text_atomically(folder / rf.CONTROL_FILE, json.dumps(record))
    return sent


def beat(folder: str | os.PathLike) -> None:
    """The viewer is here: heartbeat.json's mtime set to now (made atomically the first time;
    after that a touch, which costs no write and no fsync)."""
    path = Path(folder) / HEARTBEAT_FILE
    try:
        os.utime(path)
    except FileNotFoundError:
        write_text_atomically(path, json.dumps({"pid": os.getpid(), "since": time.time()}))


def read_control(folder: str | os.PathLike) -> ControlCommand | None:
    """The command control.json holds now; None when there is none or it is not one."""
    try:
        record = json.loads((Path(folder) / rf.CONTROL_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(record, dict) or record.get("command") not in COMMANDS:
        return None
    seq, step = record.get("seq"), record.get("step")
    if not isinstance(seq, int):
        return None
    return ControlCommand(seq, record["command"], step if isinstance(step, int) else None)


def heartbeat_age(folder: str | os.PathLike, now: float | None = None) -> float | None:
    """Seconds since the viewer's last beat; None when no viewer ever beat."""
    try:
        beaten = os.stat(Path(folder) / HEARTBEAT_FILE).st_mtime
    except OSError:
        return None
    return (time.time() if now is None else now) - beaten


# ---------------------------------------------------------------------------- recorder side

Inspector = Callable[["StepGate"], None]


def attach_gate(run, **options) -> StepGate:
    """A StepGate on a WatchRun: its step and backward listeners, its events, its models."""

    def write_event(name: str, **fields) -> None:
        run.write_event(name, **fields)

    def models() -> list:
        return [root.module for root in run._models.roots]

    def keep_inputs(wanted: bool) -> None:
        """The root models' inputs and outputs are kept (for the paused step) only while a
        pause is on its way, or another step listener wants them: a kept output would live on
        past the user's own variable (a GPT's logits are big)."""
        watched = run._models
        watched.keep_root_io = wanted or len(run._step_listeners) > 1
        if not watched.keep_root_io:
            for root in watched.roots:
                root.inputs = root.output = None

    gate = StepGate(run.folder, write_event, names=models, keep_inputs=keep_inputs, **options)
    run.add_backward_listener(gate.before_backward)
    run.add_step_listener(gate.at_step)
    keep_inputs(False)
    return gate


class StepGate:
    """Blocks the user's loop at a step boundary while a viewer asks it to (see the module).

    `write_event(name, **fields)` is the run's (events.jsonl); `inspector(gate)` opens the
    paused step in a window (tensorviz.api gives one; without it "inspect" is ignored);
    `names()` gives the models to name leaves by when the backward graph is read, before the
    first step boundary says which models there are; `keep_inputs(wanted)` asks the recorder to
    keep the root models' inputs and outputs (only while a pause is on its way)."""

    def __init__(
        self,
        folder: str | os.PathLike,
        write_event: Callable[..., None],
        *,
        inspector: Inspector | None = None,
        names: Callable[[], dict] | None = None,
        keep_inputs: Callable[[bool], None] | None = None,
        poll_seconds: float = POLL_SECONDS,
        viewer_timeout: float = VIEWER_TIMEOUT,
    ) -> None:
        self.folder = Path(folder)
        self.control_path = self.folder / rf.CONTROL_FILE
        self.write_event = write_event
        self.inspector = inspector
        self.names = names
        self.keep_inputs = keep_inputs
        self._inputs_kept = keep_inputs is None  # the recorder keeps them now
        self._inputs_of_this_step = self._inputs_kept  # ... and did since the last boundary
        self.poll_seconds = poll_seconds
        self.viewer_timeout = viewer_timeout
        self._seen_file: tuple | None = self._file_key()
        last = read_control(self.folder) if self._seen_file else None
        self._seq = last.seq if last else 0  # commands from before this run are not obeyed
        self._mode = "run"  # "run", "pause" (at the next boundary), "step", "run_to"
        self._target: int | None = None
        self._last_step = 0
        self._backward_since_boundary = False
        self._capture: BackwardCapture | None = None
        self._models = None  # the models the last step boundary named
        self.paused: PausedStep | None = None  # the step the loop is held at
        self._paused_thread: int | None = None
        self._inspect_asked = False
        self._inspecting = False
        self.pauses = 0  # how many times the loop was held (tests, the report)

    # -- asked by the recorder's listeners, on the user's thread

    def before_backward(self, loss) -> None:
        """The backward listener: when this step will pause, hook its pass (that step only)."""
        self._backward_since_boundary = True
        self._read_new_command()
        if self._capture is not None:
            self._capture.finish()  # gradient accumulation: the latest pass of the step is kept
            self._capture = None
        if self.wants_graph():
            models = self._models or (self.names() if self.names else None)
            self._capture = BackwardCapture.start(loss, models_of(models))

    def at_step(self, moment) -> None:
        """The step listener: `moment` has step, optimizer_index, optimizer, loss, models,
        inputs, outputs (the recorder's StepMoment). Returns at once unless a pause is due."""
        self._read_new_command()
        step = int(moment.step)
        self._models = getattr(moment, "models", None)  # (made a dict only when a pass is read)
        capture, self._capture = self._capture, None
        if capture is not None:
            capture.finish()
        backward_seen, self._backward_since_boundary = self._backward_since_boundary, False
        self._last_step = max(self._last_step, step)
        complete = (capture is not None or not backward_seen) and self._inputs_of_this_step
        self._want_inputs(self.wants_graph())  # for the coming step's forward
        self._inputs_of_this_step = self._inputs_kept
        if not self._pause_due(step, complete):
            return
        if self._viewer_gone():
            self._release("viewer_gone", step, paused=False)
            return
        self._hold(collect_paused_step(moment, capture))

    def wants_graph(self) -> bool:
        """Whether the next step boundary pauses (so its backward's graph is worth keeping)."""
        if self._mode in ("pause", "step"):
            return True
        return (
            self._mode == "run_to"
            and self._target is not None
            and self._target <= self._last_step + 1
        )

    # -- anywhere

    def inspect_paused(self) -> bool:
        """Open the paused step in a window (on the paused thread: now; from another thread: at
        the paused loop's next poll). False, with nothing done, when nothing is paused."""
        if self.paused is None:
            return False
        if threading.get_ident() == self._paused_thread:
            self._inspect()
        else:
            self._inspect_asked = True
        return True

    def poll(self) -> bool:
        """One look at the channel while paused (the wait loop's, or an open window's timer):
        obey a new command, release the pause if the viewer is gone. True: still paused."""
        if self.paused is None:
            return False
        command = self._read_new_command()
        if self._viewer_gone():
            self._release("viewer_gone", self.paused.step)
        elif command is not None and self._mode != "pause":
            self._release(command.command, self.paused.step)
        elif (command is not None and command.command == "inspect") or self._inspect_asked:
            self._inspect_asked = False
            self._inspect()
        return self.paused is not None

    # -- inside

    def _file_key(self) -> tuple | None:
        try:
            stat = os.stat(self.control_path)
        except OSError:
            return None
        return (stat.st_ino, stat.st_mtime_ns, stat.st_size)

    def _read_new_command(self) -> ControlCommand | None:
        """The command sent since the last look, obeyed (mode set); None when nothing changed
        (the common case: one os.stat, no parse)."""
        key = self._file_key()
        if key == self._seen_file:
            return None
        self._seen_file = key
        command = read_control(self.folder)
        if command is None or command.seq <= self._seq:
            return None
        self._seq = command.seq
        self._obey(command)
        return command

    def _obey(self, command: ControlCommand) -> None:
        name = command.command
        if name == "pause":
            self._set_mode("pause")
        elif name == "step":
            self._set_mode("step" if self.paused is not None else "pause")
        elif name == "continue":
            self._set_mode("run")
        elif name == "run_to":
            target = command.step or 0
            current = self.paused.step if self.paused is not None else self._last_step
            if target > current:
                self._set_mode("run_to", target)
            elif self.paused is not None:
                self._set_mode("pause")  # already there: stay
        elif name == "inspect" and self.paused is None:
            pass  # nothing to look at while running

    def _set_mode(self, mode: str, target: int | None = None) -> None:
        self._mode, self._target = mode, target
        self._want_inputs(self.wants_graph())

    def _want_inputs(self, wanted: bool) -> None:
        """Ask the recorder to keep the root models' inputs and outputs, or to stop."""
        if self.keep_inputs is None or wanted == self._inputs_kept:
            return
        self.keep_inputs(wanted)
        self._inputs_kept = wanted

    def _pause_due(self, step: int, complete: bool) -> bool:
        if self._mode == "step":
            return True
        if self._mode == "run_to":
            return self._target is not None and step >= self._target
        if self._mode == "pause":
            # A pause that arrived during this step (after its forward or backward) waits one
            # step more, so the step it holds has its inputs, outputs and autograd graph.
            return complete
        return False

    def _viewer_gone(self) -> bool:
        age = heartbeat_age(self.folder)
        return age is None or age > self.viewer_timeout

    def _hold(self, paused: PausedStep) -> None:
        self.paused, self._paused_thread = paused, threading.get_ident()
        self._set_mode("pause")
        self.pauses += 1
        try:  # (from here on: whatever stops the wait is said as "resumed")
            self.write_event("paused", step=paused.step, optimizer=paused.optimizer_index)
            while self.poll():
                time.sleep(self.poll_seconds)
        except BaseException:  # Ctrl+C (KeyboardInterrupt) or the inspector's window raising
            if self.paused is not None:
                self._release("interrupted", paused.step)
            raise

    def _release(self, reason: str, step: int, paused: bool = True) -> None:
        """Back to running (`reason`: continue, step, run_to, viewer_gone, interrupted); a step
        command keeps mode "step" so the next boundary pauses again."""
        if reason in ("continue", "viewer_gone", "interrupted"):
            self._set_mode("run")
        if paused:
            self.paused, self._paused_thread = None, None
            self.write_event("resumed", step=step, reason=reason)
        elif reason == "viewer_gone":
            self.write_event("note", what="pause_dropped", step=step, reason="viewer_gone")

    def _inspect(self) -> None:
        inspector = self.inspector or default_inspector()
        if inspector is None or self._inspecting or self.paused is None:
            return
        self._inspecting = True
        try:
            inspector(self)
        except Exception as error:  # noqa: BLE001 (a window that failed keeps the loop held)
            said = f"{type(error).__name__}: {error}".splitlines()[0]
            print(
                _("tensorviz: the paused step could not be opened ({error}); step {step} stays "
                  "paused.").format(error=said, step=self.paused.step),
                file=sys.stderr,
            )  # fmt: skip
        finally:
            self._inspecting = False
