"""Work for the Files area off the GUI thread: opening a file, and statistics of its tensors.

Jobs run in a QThreadPool and report through a relay QObject (queued to the GUI thread), tagged
with a generation number so a result the user has moved away from is dropped. Statistics check a
cancel flag between tensors and send back plain TensorSummary text, never tensors.

A job never lets an exception escape: the panel waits for its report, so a job that died silently
would leave it busy forever. Anything unexpected becomes one sentence in the report.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, Signal

from tensorviz.core.files.inspection import FileChangedError, FileInspection, inspect_file
from tensorviz.core.tensors.summary import heading, summarize
from tensorviz.ui.files.placeholders import filled

translate = QCoreApplication.translate  # lupdate reads translate("Context", "text") calls


def one_line(error: BaseException) -> str:
    """'ValueError: its first line' (Python's and torch's words as they are), at most 200 long."""
    lines = str(error).strip().splitlines()
    text = f"{type(error).__name__}: {lines[0] if lines else translate('FileJobs', 'no details')}"
    return text if len(text) <= 200 else text[:199] + "…"


class FileJobRelay(QObject):
    file_opened = Signal(int, str, object)  # generation, path, FileInspection
    statistics_progressed = Signal(int, int, int)  # generation, done, total
    statistic_computed = Signal(int, object, str)  # generation, access, summary text
    statistics_finished = Signal(int, bool)  # generation, cancelled
    statistics_failed = Signal(int, str)  # generation, one sentence; no statistics_finished follows


class OpenFileJob(QRunnable):
    def __init__(self, path: str, generation: int, relay: FileJobRelay) -> None:
        super().__init__()
        self._path, self._generation, self._relay = path, generation, relay

    def run(self) -> None:
        try:
            inspection = inspect_file(self._path)  # problems with the file are in .error
        except BaseException as error:  # noqa: BLE001 — a bug must not leave "opening…" forever
            inspection = FileInspection(self._path)
            inspection.error = filled(
                translate("FileJobs", "Opening failed unexpectedly (%1)."), one_line(error)
            )
        self._relay.file_opened.emit(self._generation, self._path, inspection)


class StatisticsJob(QRunnable):
    """min/max/mean/std, NaN/Inf counts of every tensor of a file, one tensor at a time."""

    def __init__(self, inspection: FileInspection, generation: int, relay: FileJobRelay) -> None:
        super().__init__()
        self._inspection, self._generation, self._relay = inspection, generation, relay
        self.cancelled = threading.Event()

    def run(self) -> None:
        try:
            self._summarize_all()
        except FileChangedError as changed:  # cut short mid-run: say so, never crash
            stopped = filled(translate("FileJobs", "Statistics stopped: %1"), changed)
            self._relay.statistics_failed.emit(self._generation, stopped)
        except BaseException as error:  # noqa: BLE001 — never an endless busy state
            message = filled(
                translate("FileJobs", "Statistics failed unexpectedly (%1)."), one_line(error)
            )
            self._relay.statistics_failed.emit(self._generation, message)

    def _summarize_all(self) -> None:
        entries = self._inspection.entries
        self._relay.statistics_progressed.emit(self._generation, 0, len(entries))
        for done, node in enumerate(entries, start=1):
            if self.cancelled.is_set():
                self._relay.statistics_finished.emit(self._generation, True)
                return
            self._relay.statistic_computed.emit(self._generation, node.access, self._text(node))
            self._relay.statistics_progressed.emit(self._generation, done, len(entries))
        self._relay.statistics_finished.emit(self._generation, False)

    def _text(self, node) -> str:
        if not node.tensor.plain:
            return filled(translate("FileJobs", "not available: %1"), node.tensor.problem)
        tensor = self._inspection.tensor_at(node.access)  # a copy read with plain reads
        try:
            summary = summarize(tensor)
        except Exception as error:  # noqa: BLE001 — one tensor torch cannot summarise
            return filled(translate("FileJobs", "failed: %1"), one_line(error))
        head = heading(summary.shape, summary.dtype, summary.device)
        return summary.text().removeprefix(head).strip()  # the tree shows the shape
