"""The limits around one headless run (`tensorviz run`): a timeout, Ctrl+C, and the threads the
script leaves behind.

The script runs in a daemon thread while the calling thread waits: a timeout or Ctrl+C asks the
run to stop (ScriptRun.request_stop, repeated, as the Script area's Stop does). One torch kernel
cannot be interrupted, so after STOP_GRACE_S the caller stops waiting and reports that the run
did not end; being a daemon, its thread does not keep the process alive.
"""

from __future__ import annotations

import threading
import time
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
    runner.start()
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    stopped_by, stop_asked = "", 0.0
    while runner.is_alive():
        try:
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
        except KeyboardInterrupt:
            if stopped_by == "interrupt":
                break
            stopped_by, stop_asked = "interrupt", time.monotonic()
    if "error" in outcome:
        raise outcome["error"]
    started = [
        t for t in threading.enumerate() if t not in before and t is not runner and t.is_alive()
    ]
    own = [t for t in started if t in script_run.thread_starts.own]
    others = [t for t in started if t not in own]
    return LimitedRun(outcome.get("result"), stopped_by, own, others)
