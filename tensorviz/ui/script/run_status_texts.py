"""What the Script area's status line says while a script runs, stops or has failed, in the
language in force when asked (the status line asks again when the language changes)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def running_text(elapsed_s: float, line: int) -> str:
    if line:
        text = QCoreApplication.translate("ScriptStatus", "Running… %1 s — line %2").replace(
            "%2", str(line)
        )
    else:
        text = QCoreApplication.translate("ScriptStatus", "Running… %1 s")
    return text.replace("%1", f"{elapsed_s:.1f}")


def stop_wait_text(source: str, line: int, call: str | None) -> str:
    """What the status line says when a stop has not landed after a moment: which torch call or
    line it waits for (one torch call cannot be interrupted)."""
    lines = source.splitlines()
    code = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    if call and line:
        text = QCoreApplication.translate(
            "ScriptStatus",
            "Stopping: waiting for %1 on line %2 to return — one torch call cannot be "
            "interrupted mid-way; the run's results will be discarded",
        )
        return text.replace("%2", str(line)).replace("%1", call)
    if call:
        text = QCoreApplication.translate(
            "ScriptStatus",
            "Stopping: waiting for %1 to return — one torch call cannot be interrupted mid-way; "
            "the run's results will be discarded",
        )
        return text.replace("%1", call)
    if code:
        text = QCoreApplication.translate(
            "ScriptStatus",
            "Stopping: waiting for line %1 (`%2`) to return — one torch call cannot be "
            "interrupted mid-way; the run's results will be discarded",
        )
        return text.replace("%1", str(line)).replace("%2", code[:60])
    return QCoreApplication.translate(
        "ScriptStatus",
        "Stopping: waiting for the script to return — one torch call cannot be interrupted "
        "mid-way; the run's results will be discarded",
    )


def failed_text(line: int) -> str:
    if line:
        text = QCoreApplication.translate(
            "ScriptStatus", "Failed at line %1 — the workspace is as it was before the run"
        )
        return text.replace("%1", str(line))
    return QCoreApplication.translate(
        "ScriptStatus", "Failed — the workspace is as it was before the run"
    )


def stopped_text(line: int) -> str:
    if line:
        return QCoreApplication.translate("ScriptStatus", "Stopped at line %1").replace(
            "%1", str(line)
        )
    return QCoreApplication.translate("ScriptStatus", "Stopped")
