"""What the Runs area says of a run: live, finished, or stopped at step N with an error."""

from __future__ import annotations

from dataclasses import dataclass

LIVE, WAITING, FINISHED, ERROR, INTERRUPTED, QUIET = (
    "live", "waiting", "finished", "error", "interrupted", "quiet",
)  # fmt: skip
QUIET_AFTER_S = 30.0  # no new step for this long and no "ended": the writer may be gone


@dataclass(frozen=True)
class RunState:
    kind: str  # one of the names above
    step: int  # the last step read (0: none yet)
    error: str = ""  # the one line the run ended with (ERROR)
    quiet_s: float = 0.0  # seconds since the last step (QUIET)


def run_state(ended: dict | None, last_step: int, last_time: float, now: float) -> RunState:
    """`ended`: the rank's "ended" event (None while it runs); `last_time`: its last step's
    time (Unix seconds, 0 if none); `now`: the clock to compare it with."""
    if ended is not None:
        status = ended.get("status")
        step = int(ended.get("step") or last_step)
        if status == "error":
            return RunState(ERROR, step, str(ended.get("error") or "").strip())
        if status == "interrupted":
            return RunState(INTERRUPTED, step)
        return RunState(FINISHED, step)
    if last_step == 0:
        return RunState(WAITING, 0)
    quiet = now - last_time
    if last_time > 0 and quiet > QUIET_AFTER_S:
        return RunState(QUIET, last_step, quiet_s=quiet)
    return RunState(LIVE, last_step)
