"""One script run in its own QThread (ARCHITECTURE rule 4). The thread only calls the Qt-free
ScriptRun and emits its result, tagged with the generation it belongs to; it never touches a
widget. Stopping goes through ScriptRun.request_stop, which is safe from the GUI thread."""

from __future__ import annotations

import traceback

from PySide6.QtCore import QThread, Signal

from tensorviz.core.explain.errors import explain_error
from tensorviz.core.script.run import ScriptFailure, ScriptResult, ScriptRun


class ScriptThread(QThread):
    run_finished = Signal(int, object)  # generation, ScriptResult

    def __init__(self, script_run: ScriptRun, generation: int, parent=None) -> None:
        super().__init__(parent)
        self.script_run = script_run
        self.generation = generation

    def run(self) -> None:
        try:
            result = self.script_run.run()
        except Exception as error:  # noqa: BLE001 — a bug of ours must still end the run cleanly
            text = "".join(traceback.format_exception(error))
            failure = ScriptFailure(text, 0, explain_error(error), False)
            result = ScriptResult("failed", 0.0, 0, None, failure)
        self.run_finished.emit(self.generation, result)

    def stop_and_join(self, poll_ms: int = 50) -> None:
        """Ask the script to stop until the thread has really ended (window closing)."""
        while self.isRunning():
            self.script_run.request_stop()
            self.wait(poll_ms)
