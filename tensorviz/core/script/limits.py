"""The limits around one headless run (`tensorviz run`): a timeout, Ctrl+C, and the threads the
script leaves behind.

The script runs in a daemon thread while the calling thread waits: a timeout or Ctrl+C (counted
by a signal handler of its own while the run lasts, never raised) asks the run to stop
(ScriptRun.request_stop, repeated, as the Script area's Stop does). One torch kernel cannot be
interrupted, so after STOP_GRACE_S the caller stops waiting and reports that the run did not
end; being a daemon, its thread does not keep the process alive.

Threads the run leaves running are told apart by who started them (script_threads.py): the
script's own are named, the libraries' only decide whether the process must exit at once.
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

from tensorviz.core.script.run import ScriptResult, ScriptRun

STOP_GRACE_S = 3.0  # how long a stopped run may take to end before the caller gives up on it
_POLL_S = 0.05


@dataclass
class LimitedRun:
    result: ScriptResult | None  # None: the run did not end within the grace after its stop
    stopped_by: str = ""  # "" | "timeout" | "interrupt" (Ctrl+C)
    # still running after the run: the ones the script's own code started (script_threads.py),
    # and those libraries started for themselves (IPython's history thread), never reported
    threads_left: list[threading.Thread] = field(default_factory=list)
    library_threads_left: list[threading.Thread] = field(default_factory=list)

    @property
    def non_daemon_threads_left(self) -> list[threading.Thread]:
        """Threads Python would wait for at exit, whoever started them."""
        return [t for t in [*self.threads_left, *self.library_threads_left] if not t.daemon]


def run_with_limits(
    script_run: ScriptRun, timeout_s: float | None = None, grace_s: float = STOP_GRACE_S
) -> LimitedRun:
    """Run the script in its own thread, stopping it after `timeout_s` or on Ctrl+C (a second
    Ctrl+C stops waiting at once)."""
    before = set(threading.enumerate())
    outcome: dict = {}

    def target() -> None:
        try:
            outcome["result"] = script_run.run()
        except BaseException as error:  # noqa: BLE001 — a bug of ours: re-raised by the caller
            outcome["error"] = error

    runner = threading.Thread(target=target, name="tensorviz script", daemon=True)
    with _ctrl_c_counted() as interrupts:
        runner.start()
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        stopped_by, stop_asked = "", 0.0
        while runner.is_alive():
            if interrupts and stopped_by != "interrupt":
                stopped_by, stop_asked = "interrupt", time.monotonic()
            if stopped_by == "interrupt" and len(interrupts) >= 2:
                break  # a second Ctrl+C: stop waiting at once
            if stopped_by:
                script_run.request_stop()
                if time.monotonic() - stop_asked > grace_s:
                    break
                runner.join(_POLL_S)
                continue
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                stopped_by, stop_asked = "timeout", time.monotonic()
                continue
            runner.join(_POLL_S if left is None else min(_POLL_S, left))
    if "error" in outcome:
        raise outcome["error"]
    started = [
        t for t in threading.enumerate() if t not in before and t is not runner and t.is_alive()
    ]
    own = [t for t in started if t in script_run.thread_starts.own]
    others = [t for t in started if t not in own]
    return LimitedRun(outcome.get("result"), stopped_by, own, others)


@contextmanager
def _ctrl_c_counted():
    """Ctrl+C counted instead of raised while the script runs: a KeyboardInterrupt raised
    between two lines of this loop (or before it began) would end the process unexplained.
    Signals reach the main thread only; elsewhere the list stays empty."""
    interrupts: list[float] = []
    if threading.current_thread() is not threading.main_thread():
        yield interrupts
        return
    previous = signal.signal(signal.SIGINT, lambda *_: interrupts.append(time.monotonic()))
    try:
        yield interrupts
    finally:
        signal.signal(signal.SIGINT, previous)
