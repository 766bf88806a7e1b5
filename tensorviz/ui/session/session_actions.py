"""File → Save Session… / Open Session… / Restore Last Session on Start, and the last session
itself: written when the app's window closes, opened again when it starts (the Python API's
windows, which show a program's tensors, neither write nor restore it).

A session holds the workspace (opened in its place, one Edit → Undo brings the old one back),
the Script area's text and the Training configuration; areas not built yet get theirs when
they are. Saving and opening run in a SessionJob behind a progress dialog with Cancel.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Qt, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QFileDialog, QProgressDialog

from tensorviz.core.session.session_format import SUFFIX
from tensorviz.ui.session.session_job import SessionJob

# The window is built before torch loads: the readers and writers (torch) are imported when used.

SESSIONS = QT_TRANSLATE_NOOP("SessionActions", "tensorviz sessions (%1)")
ALL_FILES = QT_TRANSLATE_NOOP("SessionActions", "All files (*)")
LAST_SESSION_MAX_BYTES = 256 * 2**20  # closing writes the last session only up to this size
PROGRESS_DELAY_MS = 400  # quick jobs finish before a dialog flashes up


class SessionActions(QObject):
    session_saved = Signal(str)  # path
    session_opened = Signal(str)  # path
    session_failed = Signal(str)  # the sentence shown

    def __init__(self, window, file_menu) -> None:
        super().__init__(window)
        self.window = window
        self.settings = window.settings
        self.job: SessionJob | None = None
        self.progress: QProgressDialog | None = None
        self.pending_training = None  # TrainingConfig for a Training area not built yet
        self._waiting: list[str] = []  # sessions asked for before torch loaded
        self.remembers = window.given_workspace is None  # the app's own window, not the API's
        self.open_action = file_menu.addAction("", self.open_dialog)
        self.open_action.setShortcut(QKeySequence("Ctrl+Alt+O"))  # Ctrl+Shift+O: Open Folder
        self.save_action = file_menu.addAction("", self.save_dialog)
        self.save_action.setShortcut(QKeySequence("Ctrl+Shift+S"))
        self.restore_action = file_menu.addAction("")
        self.restore_action.setCheckable(True)
        self.restore_action.setChecked(self.settings.restore_last_session())
        self.retranslate()
        self.restore_action.toggled.connect(self.settings.set_restore_last_session)
        window.torch_loaded.connect(self._on_torch_loaded)
        window.panel_built.connect(self._on_panel_built)
        window.closed.connect(self._on_window_closed)

    def retranslate(self) -> None:
        """The actions' texts in the language in force (the window's menus call this)."""
        self.open_action.setText(self.tr("Open &Session…"))
        self.save_action.setText(self.tr("&Save Session…"))
        self.restore_action.setText(self.tr("Restore Last Session on Start"))
        self.restore_action.setStatusTip(
            self.tr(
                "Closing the window keeps the workspace, script and Training settings for next time"
            )
        )

    def _filter(self) -> str:
        return f"{self.tr(SESSIONS).replace('%1', f'*{SUFFIX}')};;{self.tr(ALL_FILES)}"

    # --- opening -----------------------------------------------------------------------------

    def take_sessions(self, paths: list[str]) -> list[str]:
        """Open the session files among `paths` (command line, File → Open, drops); the rest."""
        for path in [p for p in paths if p.lower().endswith(SUFFIX)]:
            self.open_path(path)
        return [p for p in paths if not p.lower().endswith(SUFFIX)]

    def open_dialog(self) -> None:
        start = str(self._folder())
        title = self.tr("Open session")
        path, _filter = QFileDialog.getOpenFileName(self.window, title, start, self._filter())
        if path:
            self.open_path(path)

    def open_path(self, path: str, restoring: bool = False) -> None:
        if self.window.context is None:  # the workspace exists once torch has loaded
            self._waiting.append(path)
            return
        verb = (
            self.tr("Restoring the last session")
            if restoring
            else self.tr("Opening %1").replace("%1", Path(path).name)
        )

        def job(progress, cancelled):
            from tensorviz.core.session.session_reader import read_session

            return read_session(path, progress, cancelled)

        self._start(job, verb, lambda loaded: self._on_opened(path, loaded, restoring))

    def _on_opened(self, path: str, loaded, restoring: bool) -> None:
        """`loaded`: the LoadedSession read off the GUI thread."""
        name = Path(path).name
        self.window.context.workspace.replace_all(
            loaded.entries, "open the last session" if restoring else f"open {name}"
        )  # (the history's words are code-like: "open run.tvsession")
        if loaded.script_text is not None:
            script = self.window.built_panel("script")
            if script is not None:
                script.set_text(loaded.script_text)
            else:
                self.settings.set_script_text(loaded.script_text)
        if loaded.training is not None:
            self.pending_training = loaded.training
            training = self.window.built_panel("training")
            if training is not None:
                self._on_panel_built("training", training)
        if not restoring:
            self.settings.add_recent_file(str(Path(path).resolve()))
        count = len(loaded.entries)
        if restoring:
            message = QCoreApplication.translate(
                "SessionActions",
                "Opened the last session: %n tensor(s) — Edit → Undo brings the previous "
                "workspace back",
                "",
                count,
            )
        else:
            message = QCoreApplication.translate(
                "SessionActions",
                "Opened %1: %n tensor(s) — Edit → Undo brings the previous workspace back",
                "",
                count,
            ).replace("%1", name)
        self.window.statusBar().showMessage(message, 10_000)
        if loaded.notes:
            self.window.notice_bar.show_messages(loaded.notes[:8])
        self.session_opened.emit(path)

    def _on_panel_built(self, key: str, panel) -> None:
        if key == "training" and self.pending_training is not None:
            config, self.pending_training = self.pending_training, None
            panel.set_config(config)  # the Training area shows that task and starts it afresh

    # --- saving ------------------------------------------------------------------------------

    def save_dialog(self) -> None:
        start = str(self._folder() / f"workspace{SUFFIX}")
        title = self.tr("Save session")
        path, _filter = QFileDialog.getSaveFileName(self.window, title, start, self._filter())
        if path:
            self.save_to(path if path.lower().endswith(SUFFIX) else path + SUFFIX)

    def contents(self):
        """The SessionContents of the window now (None before torch has loaded)."""
        from tensorviz.core.session.session_writer import SessionContents

        context = self.window.context
        if context is None:
            return None
        script = self.window.built_panel("script")
        text = script.text() if script is not None else self.settings.script_text()
        training = self.window.built_panel("training")
        config = training.config() if training is not None else self.pending_training
        return SessionContents(list(context.workspace), text, config)

    def save_to(self, path: str) -> None:
        contents = self.contents()
        if contents is None:
            self._fail(self.tr("PyTorch is still loading: there is no workspace to save yet."))
            return

        def job(progress, cancelled):
            from tensorviz.core.session.session_writer import write_session

            return write_session(path, contents, progress, cancelled)

        verb = self.tr("Saving %1").replace("%1", Path(path).name)
        self._start(job, verb, lambda written: self._on_saved(written))

    def _on_saved(self, written) -> None:
        from tensorviz.core.tensors.memory_budget import human_bytes

        count = written.tensors
        text = QCoreApplication.translate(
            "SessionActions", "Saved %n tensor(s) (%1) to %2", "", count
        )
        text = text.replace("%1", human_bytes(written.storage_bytes))
        self.window.statusBar().showMessage(text.replace("%2", written.path.name), 8000)
        if written.notes:
            self.window.notice_bar.show_messages(written.notes[:8])
        self.session_saved.emit(str(written.path))

    # --- the job and its dialog --------------------------------------------------------------

    def is_busy(self) -> bool:
        return self.job is not None

    def _start(self, job, verb: str, done) -> None:
        if self.job is not None:
            busy = self.tr("A session is being saved or opened already")
            self.window.statusBar().showMessage(busy, 5000)
            return
        self.job = SessionJob(job, self)
        self.progress = QProgressDialog(f"{verb}…", self.tr("Cancel"), 0, 1000, self.window)
        self.progress.setWindowModality(Qt.WindowModality.WindowModal)
        self.progress.setMinimumDuration(PROGRESS_DELAY_MS)
        self.progress.setAutoReset(False)
        self.progress.canceled.connect(self.job.cancel)
        self.job.progressed.connect(self._on_progressed)
        self.job.succeeded.connect(done)
        self.job.failed.connect(self._fail)
        cancelled = self.tr("%1: cancelled, nothing changed").replace("%1", verb)
        self.job.cancelled_by_user.connect(
            lambda: self.window.statusBar().showMessage(cancelled, 6000)
        )
        self.job.finished.connect(self._on_job_finished)
        self.job.start()

    def _on_progressed(self, done: int, total: int) -> None:
        if self.progress is not None and total:
            self.progress.setValue(int(1000 * done / total))

    def _on_job_finished(self) -> None:
        job, self.job = self.job, None
        if job is not None:
            job.wait()
            job.deleteLater()
        if self.progress is not None:
            self.progress.close()
            self.progress.deleteLater()
            self.progress = None

    def _fail(self, message: str) -> None:
        self.window.notice_bar.show_messages([message])
        self.window.statusBar().showMessage(message, 10_000)
        self.session_failed.emit(message)

    def _folder(self) -> Path:
        recent = self.settings.recent_files()
        return Path(recent[0]).parent if recent else Path.home()

    # --- the last session --------------------------------------------------------------------

    def _on_torch_loaded(self, _report) -> None:
        waiting, self._waiting = self._waiting, []
        last = self.settings.last_session_path()
        if (
            self.remembers
            and not waiting
            and self.settings.restore_last_session()
            and (last.is_file())
        ):
            self.open_path(str(last), restoring=True)
        for path in waiting:
            self.open_path(path)

    def _on_window_closed(self) -> None:
        if self.job is not None:  # a save in flight finishes (atomically); a read is dropped
            self.job.wait()
        if not self.remembers or not self.settings.restore_last_session():
            return
        contents = self.contents()
        if contents is None:
            return
        last = self.settings.last_session_path()
        size = sum(_held_bytes(e.tensor) for e in contents.entries)  # (shared: counted twice)
        if size > LAST_SESSION_MAX_BYTES:  # too big to write while closing: start afresh
            last.unlink(missing_ok=True)
            return
        last.parent.mkdir(parents=True, exist_ok=True)
        from tensorviz.core.session.session_writer import write_session

        try:
            write_session(last, contents)
        except (OSError, ValueError):  # the app still closes; next start shows the examples
            last.unlink(missing_ok=True)


def _held_bytes(tensor) -> int:
    try:
        return 0 if tensor.device.type == "meta" else tensor.untyped_storage().nbytes()
    except (RuntimeError, NotImplementedError):  # sparse and other layouts: no one storage
        return 0
