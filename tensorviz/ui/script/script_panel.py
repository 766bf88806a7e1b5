"""The Script area: an editor, Run / Stop, the output, the error explained, and the tensors the
run captured — a one-click way to the Workbench, the Memory layout and the Autograd graph.

States: idle → running → (stopping →) idle. The script runs in a ScriptThread; its result comes
back tagged with a generation and is dropped if the panel has moved on (shut down). The output
queue is drained every OUTPUT_POLL_MS; the status line ticks every STATUS_POLL_MS.

Words: the toolbar, the menus and the status line follow View → Language at once (the status
line keeps how to word itself, ScriptToolbar.say); the output pane is a log, as a terminal is,
and keeps what it printed in the language of then.
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut, QTextCursor
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.autograd.script_backward import ScriptBackwardRecorder
from tensorviz.core.script.examples import example_by_key
from tensorviz.core.script.interpreter import interpreter_text
from tensorviz.core.script.results import RunSummary
from tensorviz.core.script.run import ScriptResult, ScriptRun
from tensorviz.core.script.script_setup import NO_FILE, ScriptFile
from tensorviz.core.tensors.workspace import Workspace
from tensorviz.ui.script.captured_list import CapturedList
from tensorviz.ui.script.code_editor import CodeEditor
from tensorviz.ui.script.output_view import OutputView
from tensorviz.ui.script.run_outcomes import RunOutcomes
from tensorviz.ui.script.run_status_texts import running_text, stop_wait_text
from tensorviz.ui.script.script_errors import ScriptErrorBox
from tensorviz.ui.script.script_thread import ScriptThread
from tensorviz.ui.script.script_toolbar import ScriptToolbar
from tensorviz.ui.widgets.appearance_following import FollowsAppearance
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import scaled

OUTPUT_POLL_MS = 50
STATUS_POLL_MS = 100
SAVE_DELAY_MS = 800
STOP_PATIENCE_S = 1.0  # after this, say which torch call the stop is waiting for
DEFAULT_EXAMPLE = "06_autograd"
__all__ = ["ScriptPanel", "stop_wait_text"]  # stop_wait_text: where tests and callers found it


class ScriptPanel(RunOutcomes, Retranslating, FollowsAppearance, QWidget):
    status_message = Signal(str)
    run_finished = Signal(str)  # "finished" | "failed" | "stopped" | "syntax_error"
    graph_requested = Signal(str)
    workbench_requested = Signal(str)
    layout_requested = Signal(str)
    backward_recorded = Signal(object)  # the run's ScriptBackwardRecorder (its own passes)
    architecture_requested = Signal(object)  # a ModelCall: "Architecture of model(x)"

    def __init__(self, workspace: Workspace, settings=None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.settings = settings
        self.generation = 0
        self.thread: ScriptThread | None = None
        self.script_run: ScriptRun | None = None
        self.backward_recorder: ScriptBackwardRecorder | None = None
        self.last_result: ScriptResult | None = None
        self.last_summary: RunSummary | None = None
        self._namespace: dict | None = None  # the last successful run's variables
        self.model_calls: list = []  # the models the last successful run called
        self._source = ""
        self.script_path: str | None = None  # the file the text was opened from (None: pasted)
        self._started = 0.0
        self._stop_requested_at: float | None = None
        self._build()
        self._connect()
        saved = settings.script_text() if settings is not None else None
        self.editor.setPlainText(saved if saved is not None else self._default_text())
        if saved is not None and settings is not None:
            self.script_path = settings.script_path()
        self.editor.document().setModified(False)
        self._set_running(False)
        self.restyle_if_changed()
        self.retranslate()

    def restyle(self) -> None:
        self.right.setMinimumWidth(scaled(280))

    def retranslate(self) -> None:
        if self.script_path:  # where it runs: the file's folder comes first on sys.path
            self.interpreter.setText(
                self.tr("Runs %1 in %2")
                .replace("%1", self.script_path)
                .replace("%2", interpreter_text())
            )
        else:
            self.interpreter.setText(self.tr("Runs in %1").replace("%1", interpreter_text()))
        self.interpreter.setToolTip(
            self.tr(
                "Scripts run in tensorviz's own Python: a package it lacks cannot be imported. "
                "Install tensorviz into your environment (pip install path/to/tensorviz) to "
                "run it there."
            )
        )

    # --- construction ----------------------------------------------------------------------------

    def _build(self) -> None:
        self.toolbar = ScriptToolbar()
        self.run_button, self.stop_button = self.toolbar.run_button, self.toolbar.stop_button
        self.examples_button = self.toolbar.examples_button
        self.examples_menu = self.toolbar.examples_menu
        self.architecture_button = self.toolbar.architecture_button
        self.architecture_menu = self.toolbar.architecture_menu
        self.clear_button, self.status = self.toolbar.clear_button, self.toolbar.status
        self.busy = self.toolbar.busy

        self.editor = CodeEditor()
        self.output = OutputView()
        self.error_box = ScriptErrorBox()
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.editor)
        left.addWidget(self.output)
        left.setStretchFactor(0, 3)
        left.setStretchFactor(1, 1)
        left.setSizes([540, 180])  # scaled to the real height on first show
        self.captured = CapturedList(self.workspace)
        self.right = right = QWidget()  # the last run's error above what the last good run captured
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.error_box)
        column.addWidget(self.captured, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 8)
        self.splitter.setStretchFactor(1, 7)  # room for the Captured list's columns (1280 px)
        self.splitter.setChildrenCollapsible(False)
        self.interpreter = QLabel()
        self.interpreter.setObjectName("scriptInterpreter")
        self.interpreter.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.interpreter.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout = QVBoxLayout(self)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.interpreter)

        self.output_timer = QTimer(self)
        self.output_timer.setInterval(OUTPUT_POLL_MS)
        self.status_timer = QTimer(self)
        self.status_timer.setInterval(STATUS_POLL_MS)
        self.save_timer = QTimer(self)
        self.save_timer.setSingleShot(True)
        self.save_timer.setInterval(SAVE_DELAY_MS)

    def _connect(self) -> None:
        self.toolbar.example_chosen.connect(self.load_example)
        self.toolbar.open_button.clicked.connect(self.open_dialog)
        self.toolbar.architecture_chosen.connect(self.architecture_requested)
        self.run_button.clicked.connect(self.run_script)
        self.stop_button.clicked.connect(self.stop)
        self.clear_button.clicked.connect(self.output.clear)
        self.editor.run_requested.connect(self.run_script)
        self.editor.stop_requested.connect(self.stop)
        self.editor.textChanged.connect(self.save_timer.start)
        self.save_timer.timeout.connect(self.save_text)
        self.output_timer.timeout.connect(self._drain_output)
        self.status_timer.timeout.connect(self._on_status_tick)
        self.error_box.line_requested.connect(self.editor.go_to_line)
        self.captured.line_requested.connect(self.editor.go_to_line)
        self.captured.graph_requested.connect(self.graph_requested)
        self.captured.workbench_requested.connect(self.workbench_requested)
        self.captured.layout_requested.connect(self.layout_requested)
        for keys, slot in (("Ctrl+Return", self.run_script), ("Ctrl+Enter", self.run_script)):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        stop = QShortcut(QKeySequence("Esc"), self)
        stop.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        stop.activated.connect(self.stop)

    @staticmethod
    def _default_text() -> str:
        return example_by_key(DEFAULT_EXAMPLE).source

    # --- the text --------------------------------------------------------------------------------

    def text(self) -> str:
        return self.editor.toPlainText()

    def set_text(self, text: str, path: str | None = None) -> None:
        """Replace the editor's text as one edit: Ctrl+Z in the editor brings the old text back.
        `path`: the file it was read from, which runs set up as python sets it up; None: text
        without a file (an example, a session's script)."""
        cursor = QTextCursor(self.editor.document())
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(text)
        self.editor.moveCursor(QTextCursor.MoveOperation.Start)
        self.script_path = path
        self.save_text()
        self.retranslate()

    def save_text(self) -> None:
        self.save_timer.stop()
        if self.settings is not None:
            self.settings.set_script_text(self.text())
            self.settings.set_script_path(self.script_path)

    def open_dialog(self) -> None:
        start = str(Path(self.script_path).parent) if self.script_path else str(Path.home())
        path, _filter = QFileDialog.getOpenFileName(
            self, self.tr("Open a Python script"), start, self.tr("Python scripts (*.py)")
        )
        if path:
            self.open_script(path)

    def open_script(self, path: str) -> bool:
        """Put the file's text in the editor; its runs are set up as `python FILE` sets them up
        (core/script/script_setup.py). False, and a line on the status line, if unreadable."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            self.toolbar.say(
                lambda: self.tr("%1 cannot be opened: %2").replace("%1", path).replace("%2", reason)
            )
            return False
        self.set_text(text, path)
        self.editor.set_failing_line(0)
        name = Path(path).name
        self.toolbar.say(
            lambda: self.tr("Opened %1 — it runs as python %1 does, in its folder").replace(
                "%1", name
            )
        )
        self.status_message.emit(self.status.text())
        return True

    def load_example(self, key: str) -> None:
        example = example_by_key(key)
        replaced = self.text().strip() and self.text() != example.source
        self.set_text(example.source)
        self.editor.set_failing_line(0)
        if replaced:
            self.toolbar.say(
                lambda: self.tr(
                    "Example “%1” loaded — Ctrl+Z in the editor brings your text back"
                ).replace("%1", example.title)
            )
        else:
            self.toolbar.say(lambda: self.tr("Example “%1” loaded").replace("%1", example.title))
        self.status_message.emit(self.status.text())

    # --- running ---------------------------------------------------------------------------------

    def is_running(self) -> bool:
        return self.thread is not None

    def run_script(self) -> None:
        if self.is_running():
            return
        self.save_text()
        self._source = self.text()
        self.error_box.clear()
        self.editor.set_failing_line(0)
        self.generation += 1
        arrays = {e.name: e.numpy_array for e in self.workspace if e.numpy_array is not None}
        script_file = ScriptFile(self.script_path) if self.script_path else NO_FILE
        # the script's own backward passes, told apart by its code's filename
        self.backward_recorder = ScriptBackwardRecorder(script_file.code_filename)
        self.script_run = ScriptRun(
            self._source,
            self.workspace.tensors(),
            self._namespace,
            arrays,
            around_user_code=[self.backward_recorder.installed],
            script_file=script_file,
        )
        self.thread = ScriptThread(self.script_run, self.generation)
        self.thread.run_finished.connect(self._on_run_finished)
        self.output.append_line(self.tr("▶ Run at %1").replace("%1", time.strftime("%H:%M:%S")))
        self._started, self._stop_requested_at = time.monotonic(), None
        self._set_running(True)
        self.thread.start()

    def stop(self) -> None:
        if self.script_run is None or not self.is_running():
            return
        if self._stop_requested_at is None:
            self._stop_requested_at = time.monotonic()
        self.script_run.request_stop()
        self.stop_button.setEnabled(False)
        self.toolbar.say(lambda: self.tr("Stopping…"))

    def _set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.stop_button.setEnabled(running)
        self.busy.setVisible(running)
        if running:
            self.output_timer.start()
            self.status_timer.start()
            self._on_status_tick()
        else:
            self.output_timer.stop()
            self.status_timer.stop()

    def _on_status_tick(self) -> None:
        if self.script_run is None:
            return
        elapsed = time.monotonic() - self._started
        if self._stop_requested_at is None:
            line, _call = self.script_run.progress()
            self.toolbar.say(lambda: running_text(elapsed, line))
            return
        self.script_run.request_stop()  # repeated: a bare `except:` may swallow one request
        waited = time.monotonic() - self._stop_requested_at
        line, call = self.script_run.progress()
        if waited >= STOP_PATIENCE_S:
            source = self._source
            self.toolbar.say(lambda: stop_wait_text(source, line, call))

    def _drain_output(self) -> None:
        if self.script_run is not None:
            self.output.append_chunks(*self.script_run.output.drain())

    def _on_run_finished(self, generation: int, result: ScriptResult) -> None:
        thread, self.thread = self.thread, None
        if thread is not None:
            thread.wait()
            thread.deleteLater()
        if generation != self.generation:
            return  # stale (the panel shut down meanwhile)
        self._drain_output()
        self._note_dropped_output()
        self._set_running(False)
        self.last_result = result
        handler = {
            "finished": self._on_finished,
            "failed": self._on_failed,
            "stopped": self._on_stopped,
            "syntax_error": self._on_syntax_error,
        }[result.status]
        handler(result)
        recorder = self.backward_recorder
        if result.status in ("finished", "failed") and recorder is not None and recorder.passes:
            self.backward_recorded.emit(recorder)
        self.run_finished.emit(result.status)

    # --- Edit → Undo / Redo and closing ----------------------------------------------------------

    def undo(self) -> None:
        if not self.workspace.can_undo():
            self.status_message.emit(self.tr("Nothing to undo"))
            return
        self.status_message.emit(self.tr("Undid %1").replace("%1", self.workspace.undo()))

    def redo(self) -> None:
        if not self.workspace.can_redo():
            self.status_message.emit(self.tr("Nothing to redo"))
            return
        self.status_message.emit(self.tr("Redid %1").replace("%1", self.workspace.redo()))

    def shutdown(self) -> None:
        """Stop a running script and join its thread; keep the text (window closing)."""
        self.save_text()
        self.generation += 1  # whatever is still queued is stale now
        thread, self.thread = self.thread, None
        if thread is not None:
            thread.stop_and_join()
        self._set_running(False)
        self.captured.shutdown()
