"""The sentence the Runs area's status line says of a run (core/watch/run_state.py's states)."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from tensorviz.core.watch import run_state as rs

CONTEXT = "RunStatus"
TEXTS = {
    rs.WAITING: QT_TRANSLATE_NOOP("RunStatus", "live · waiting for the first step"),
    rs.LIVE: QT_TRANSLATE_NOOP("RunStatus", "live · step %1"),
    rs.QUIET: QT_TRANSLATE_NOOP(
        "RunStatus", "no new step for %2 s · step %1 (the run may have stopped)"
    ),
    rs.FINISHED: QT_TRANSLATE_NOOP("RunStatus", "finished · %1 steps"),
    rs.INTERRUPTED: QT_TRANSLATE_NOOP("RunStatus", "stopped at step %1 (interrupted)"),
    rs.ERROR: QT_TRANSLATE_NOOP("RunStatus", "stopped at step %1 with %2"),
}
AN_ERROR = QT_TRANSLATE_NOOP("RunStatus", "an error")
RANKS = QT_TRANSLATE_NOOP("RunStatus", "%1 ranks")
DROPPED = QT_TRANSLATE_NOOP("RunStatus", "%1 records dropped by the recorder")


def _tr(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text)


def status_text(state: rs.RunState, ranks: int, dropped: int) -> str:
    text = _tr(TEXTS[state.kind]).replace("%1", f"{state.step:,}")
    if state.kind == rs.QUIET:
        text = text.replace("%2", f"{state.quiet_s:.0f}")
    elif state.kind == rs.ERROR:
        text = text.replace("%2", state.error or _tr(AN_ERROR))
    if ranks > 1:
        text = f"{text} · " + _tr(RANKS).replace("%1", str(ranks))
    if dropped:
        text = f"{text} · " + _tr(DROPPED).replace("%1", f"{dropped:,}")
    return text
