"""The Compare area's comparison in a worker: start it (or again), its progress, its result or
failure, cancel, and stop and join it on close. Reports carry a generation; those of a
comparison replaced meanwhile are dropped (ComparePanel mixes this in)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from tensorviz.core.diff.comparison import Comparison
from tensorviz.core.diff.report import overall_line
from tensorviz.ui.diff.compare_jobs import CompareJob, CompareRequest, SideRequest
from tensorviz.ui.files.placeholders import filled


class CompareRunning:
    """Needs the panel's request, _job, _generation, _pool, _relay, _error, progress,
    progress_label, pair_dialog, status_message, comparison_finished, _show_texts,
    show_comparison and _update_actions. Its texts are the panel's (named context: lupdate
    files a mixin's self.tr under the mixin's name)."""

    def compare(self, request: CompareRequest) -> None:
        self._stop()
        self.request = request
        self._generation += 1
        self._job = CompareJob(request, self._generation, self._relay)
        self.progress.setRange(0, 0)
        self.progress_label.setText(QCoreApplication.translate("ComparePanel", "Opening…"))
        self._error = None
        self._show_texts()
        self._pool.start(self._job)
        self._update_actions()

    def compare_again(self) -> None:
        """The same two sides; whole files are read afresh from disk (one may have been
        re-saved), entries from the Files area's open file (a change on disk is reported)."""
        request = self.request
        if request is None:
            return
        if request.a.node is None and request.b.node is None:
            request = CompareRequest(SideRequest(request.a.path), SideRequest(request.b.path))
        self.compare(request)

    def _on_progressed(self, generation: int, done: int, total: int, what: str) -> None:
        if generation != self._generation:
            return
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        counted = QCoreApplication.translate("ComparePanel", "%1 of %2: %3")
        self.progress_label.setText(filled(counted, done, total, what) if total else what)

    def _on_compared(self, generation: int, comparison: Comparison) -> None:
        if generation != self._generation:
            return
        self._job = None
        self.show_comparison(comparison)
        self.status_message.emit(overall_line(comparison))
        self._update_actions()
        self.comparison_finished.emit(comparison)

    def _on_failed(self, generation: int, message: str) -> None:
        if generation != self._generation:
            return
        self._job = None
        self.progress_label.setText("")
        self._error = message
        self._show_texts()
        self.status_message.emit(message)
        self._update_actions()

    def cancel(self) -> None:
        """Stop the comparison: what was compared so far is shown, marked as cancelled."""
        if self._job is not None:
            self._job.cancelled.set()
            self.progress_label.setText(QCoreApplication.translate("ComparePanel", "Cancelling…"))

    def _stop(self) -> None:
        if self._job is not None:
            self._job.cancelled.set()
            self._generation += 1  # its report is dropped
            self._job = None

    def is_busy(self) -> bool:
        return self._job is not None or self._pool.activeThreadCount() > 0

    def shutdown(self) -> None:
        """Stop the worker and join it; safe to call more than once."""
        self._stop()
        self._pool.clear()
        self._pool.waitForDone()
        if self.pair_dialog is not None:
            self.pair_dialog.shutdown()
