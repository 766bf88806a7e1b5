"""Running a user's script on the workspace's tensors, in a thread the caller provides, stoppably.

The namespace: `__name__ == "__main__"`, torch, nn, F, np, every workspace tensor by name (the
very objects, so a view made in the script shares storage with the workspace entry), plus the
non-tensor variables of the last successful run (a model, a list of losses): tensors always come
from the workspace, so a tensor deleted in the Workbench is not resurrected by the next run.

Stopping: `request_stop()` (any thread) sets a flag and raises ScriptStopped in the script's
thread with PyThreadState_SetAsyncExc, which lands at the next bytecode — Python loops, also loops
of torch calls and nn.Module code (Python between the ops). `time.sleep` in the script's thread
wakes up on a stop. One long ATen kernel cannot be interrupted: `progress()` says which line is
running so the UI can say what it waits for. The caller repeats the request while the thread
lives, so a script that swallows the exception with a bare `except:` is stopped too.

A TorchFunctionMode that checks the flag before every torch call (and names the call running)
exists but is off by default: on the training-loop example it made the run ~45 % slower
(≈14 µs per torch call, 5,000 calls), and the asynchronous exception already lands between
torch calls because Python runs between them. `stop_between_torch_calls=True` turns it on.

A run that raises or is stopped leaves the workspace's tensors as they were (WorkspaceSnapshot).
A run that raises still captures what existed when it failed (the namespace and the locals of
the script's functions, function_locals.py), for results.py to add beside the workspace's own
tensors; a stopped run is discarded.

`around_user_code`: context managers (factories) entered in the script's thread around the
user's code, e.g. core/autograd's recorder of the script's own backward passes — core/script
knows nothing of them.
"""

from __future__ import annotations

import ctypes
import sys
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, ExitStack, nullcontext
from dataclasses import dataclass, field

import numpy as np
import torch

from tensorviz.core.explain.error_origin import error_origin
from tensorviz.core.explain.errors import ExplainedError
from tensorviz.core.forward.module_tags import tagging_modules
from tensorviz.core.script.capture import ScriptCapture, capture_namespace
from tensorviz.core.script.failing_operation import explain_script_error
from tensorviz.core.script.failure_titles import python_failure
from tensorviz.core.script.function_locals import (
    FunctionLocals,
    compile_with_locals_hook,
    function_binding_lines,
    has_functions,
    hook_namespace,
)
from tensorviz.core.script.interpreter import missing_module_explained
from tensorviz.core.script.model_calls import ModelCall, model_calls
from tensorviz.core.script.namespace import build_namespace
from tensorviz.core.script.output import ScriptOutput, captured_output
from tensorviz.core.script.script_setup import NO_FILE, ScriptFile, python_setup
from tensorviz.core.script.script_threads import ThreadStarts, threads_started
from tensorviz.core.script.settings import recursion_limit_kept, torch_settings_kept
from tensorviz.core.script.source import (
    ScriptSyntaxError,
    binding_lines,
    compile_script,
    current_script_line,
    trim_traceback,
)
from tensorviz.core.script.stopping import (
    ScriptStopped,
    StopBetweenTorchCalls,
    sleep_wakes_on,
    torch_call_name,
)
from tensorviz.core.tensors.workspace_snapshot import WorkspaceSnapshot
from tensorviz.core.translation import _

# The asynchronous exception is sent again at most every RESEND_STOP_S while the caller keeps
# asking (a bare `except:` swallowed it, or it landed in a destructor, where Python drops it).
# With the TorchFunctionMode on, torch calls see the flag at once, so it waits a moment first.
RESEND_STOP_S = 0.5
MODE_STOP_DELAY_S = 0.15


@dataclass(frozen=True)
class ScriptFailure:
    traceback: str  # trimmed to the user's code
    line: int  # the script line that failed (0: unknown)
    explained: ExplainedError
    torch_error: bool  # shown explained: a rule knows it, or torch raised it (error_origin.py)
    exit_code: int | None = None  # sys.exit(N) / exit(N): the status `python SCRIPT.py` exits with


@dataclass
class ScriptResult:
    status: str  # "finished" | "failed" | "stopped" | "syntax_error"
    duration_s: float
    line: int = 0  # failing / stopped line
    syntax_error: ScriptSyntaxError | None = None
    failure: ScriptFailure | None = None
    capture: ScriptCapture | None = None
    lines: dict[str, int] = field(default_factory=dict)  # name → line that binds it
    function_lines: dict[str, dict[str, int]] = field(default_factory=dict)  # per function
    namespace: dict = field(default_factory=dict)  # kept for the next run (finished runs only)
    snapshot: WorkspaceSnapshot | None = None
    changed: list[str] = field(default_factory=list)  # workspace names written in place
    restored: list[str] = field(default_factory=list)  # names a failed run wrote, put back
    model_calls: list[ModelCall] = field(default_factory=list)  # model(x) calls it made


class ScriptRun:
    """One run of one script. `run()` blocks; call it in a worker thread. `request_stop()` and
    `progress()` may be called from any other thread."""

    def __init__(
        self,
        source: str,
        tensors: dict[str, torch.Tensor],
        previous_namespace: dict | None = None,
        arrays: dict[str, np.ndarray] | None = None,
        stop_between_torch_calls: bool = False,
        around_user_code: Sequence[Callable[[], AbstractContextManager]] = (),
        script_file: ScriptFile = NO_FILE,
    ) -> None:
        self.source = source
        self.script_file = script_file  # its path and arguments: set up as python does
        self.filename = script_file.code_filename
        self.tensors = dict(tensors)
        self.arrays = dict(arrays or {})
        self.previous_namespace = previous_namespace
        self.output = ScriptOutput()
        self.output.script_filename = self.filename
        self.stop_between_torch_calls = stop_between_torch_calls
        self.around_user_code = tuple(around_user_code)
        self.function_locals = FunctionLocals()
        self.thread_starts = ThreadStarts(self.filename)  # the threads the run started
        self._async_delay = MODE_STOP_DELAY_S if stop_between_torch_calls else 0.0
        self.torch_call = None  # the torch function running now (for "waiting for …")
        self.snapshot_note = ""
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread_id: int | None = None
        self._in_user_code = False
        self._stop_sent_at = -RESEND_STOP_S
        self._stop_asked_at = 0.0
        self._stop_line = 0  # where the script was when the stop was asked for

    # --- any thread ------------------------------------------------------------------------------

    @property
    def stop_requested(self) -> bool:
        return self._stop.is_set()

    def request_stop(self) -> None:
        """Ask the script to stop; call it again (every 0.1 s, say) until the thread has ended:
        a loop of pure Python is interrupted only by a repeated request."""
        now = time.monotonic()
        if not self._stop.is_set():
            self._stop_asked_at = now
            self._stop.set()
        line = self.progress()[0]
        self._stop_line = line or self._stop_line
        with self._lock:
            if (
                self._in_user_code
                and self._thread_id is not None
                and now - self._stop_asked_at >= self._async_delay
                and now - self._stop_sent_at >= RESEND_STOP_S
            ):
                self._stop_sent_at = now
                ctypes.pythonapi.PyThreadState_SetAsyncExc(
                    ctypes.c_ulong(self._thread_id), ctypes.py_object(ScriptStopped)
                )

    def progress(self) -> tuple[int, str | None]:
        """(the script line running now, the torch call running now or None)."""
        frame = sys._current_frames().get(self._thread_id) if self._thread_id else None
        line = current_script_line(frame, self.filename)
        call = self.torch_call
        return line, (torch_call_name(call) if call is not None else None)

    # --- the script's thread ---------------------------------------------------------------------

    def run(self) -> ScriptResult:
        self._thread_id = threading.get_ident()
        started = time.perf_counter()
        code, tree, syntax_error = compile_script(self.source, self.filename)
        if syntax_error is not None:
            return ScriptResult("syntax_error", 0.0, syntax_error.line, syntax_error)
        lines = binding_lines(tree)
        if has_functions(tree):  # their locals are kept when they return or raise
            code = compile_with_locals_hook(self.source, self.filename)
        snapshot = WorkspaceSnapshot.take(self.tensors, self.arrays)
        namespace = build_namespace(self.tensors, self.previous_namespace)
        namespace.update(hook_namespace(self.function_locals))
        with (
            captured_output(self.output),
            sleep_wakes_on(self._stop),
            torch_settings_kept(self.output),
            recursion_limit_kept(self.output),
            python_setup(self.script_file, namespace, self.source) as namespace,
            threads_started(self.filename) as self.thread_starts,
        ):
            if not snapshot.complete:
                self.output.write("stderr", _over_budget_note(snapshot.skipped_bytes))
            result = self._execute(code, namespace)
        result.duration_s = time.perf_counter() - started
        result.lines, result.snapshot = lines, snapshot
        result.function_lines = function_binding_lines(tree)
        if result.status == "stopped":
            snapshot.restore()
            return result
        scopes = self.function_locals.own_locals(result.function_lines)
        self.function_locals.last_frames.clear()  # the frames held more than their tensors
        capture = capture_namespace(namespace, set(lines), self.tensors.values(), scopes)
        result.capture = capture
        if result.status == "failed":  # what existed at the error, beside the restored workspace
            result.restored = snapshot.changed_names()
            snapshot.restore()
            return result
        result.changed = snapshot.changed_names()
        snapshot.keep_only_written()
        result.namespace = namespace
        result.model_calls = model_calls(namespace, self._root_calls)
        self._root_calls = {}  # only the calls of models the script keeps stay referenced
        return result

    def _execute(self, code, namespace: dict) -> ScriptResult:
        mode = StopBetweenTorchCalls(self) if self.stop_between_torch_calls else nullcontext()
        self._root_calls: dict = {}
        try:
            try:
                self._enter_user_code()
                with ExitStack() as around:
                    for make in self.around_user_code:
                        around.enter_context(make())
                    around.enter_context(mode)
                    # every backward node learns which module made it (the Autograd graph groups)
                    tagger = around.enter_context(tagging_modules())
                    self._root_calls = tagger.root_calls
                    exec(code, namespace)  # noqa: S102 — running the user's own script is the point
            finally:
                self._leave_user_code()
        except ScriptStopped as stopped:
            return self._stopped(stopped)
        except SystemExit as exiting:
            if exiting.code in (None, 0) and not self.stop_requested:
                return ScriptResult("finished", 0.0)
            return ScriptResult("failed", 0.0, *self._failure(exiting))
        except BaseException as error:  # noqa: BLE001 — the user's error is data (rule 7)
            if self.stop_requested:
                return self._stopped(error)
            return ScriptResult("failed", 0.0, *self._failure(error))
        if self.stop_requested:  # it finished as the stop arrived: a stopped run is discarded
            return self._stopped(None)
        return ScriptResult("finished", 0.0)

    def _stopped(self, error: BaseException | None) -> ScriptResult:
        line = trim_traceback(error, self.source, self.filename).line if error is not None else 0
        return ScriptResult("stopped", 0.0, line or self._stop_line)

    def _failure(self, error: BaseException) -> tuple[int, None, ScriptFailure]:
        trimmed = trim_traceback(error, self.source, self.filename)
        explained = python_failure(error) or explain_script_error(error, self.source, self.filename)
        exit_code = None
        if isinstance(error, SystemExit):
            title = _("The script called exit({code})").format(code=repr(error.code))
            explained = ExplainedError("exit", title, "", "", "")
            exit_code = _exit_status(error.code)
        if isinstance(error, ModuleNotFoundError):
            explained = missing_module_explained(error, self.script_file.folder)
        # explained below the traceback: a rule's explanation, or torch's error no rule knows;
        # another's error without a rule (the user's own raise) is its traceback, as in Python
        shown = explained.kind not in ("unknown", "not_torch") or _raised_in_torch(error)
        failure = ScriptFailure(trimmed.text, trimmed.line, explained, shown, exit_code)
        return trimmed.line, None, failure

    def _enter_user_code(self) -> None:
        with self._lock:
            self._in_user_code = True
        if self._stop.is_set():
            raise ScriptStopped()

    def _leave_user_code(self) -> None:
        """No stop may land in our own code after the script: clear a pending one (an async
        exception delivered while leaving is caught and the clearing repeated)."""
        while True:
            try:
                with self._lock:
                    self._in_user_code = False
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(
                        ctypes.c_ulong(self._thread_id), None
                    )
                return
            except ScriptStopped:
                continue


def _raised_in_torch(error: BaseException) -> bool:
    found = error_origin(error)
    return found is not None and found.library == "torch"


def _exit_status(code) -> int:
    """The status `python SCRIPT.py` exits with after sys.exit(code): an int modulo 256, 0 for
    None, 1 for anything else (Python prints a message as its reason)."""
    if code is None:
        return 0
    if isinstance(code, int) and not isinstance(code, bool):
        return code % 256
    return 1


def _over_budget_note(nbytes: int) -> str:
    return (
        _(
            "Note: the workspace holds {size} GiB, too much to copy before the run, so in-place "
            "writes into existing tensors cannot be undone if this run fails."
        ).format(size=f"{nbytes / 2**30:.1f}")
        + "\n"
    )
