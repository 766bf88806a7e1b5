"""Work for the Files area off the GUI thread: opening a file, and statistics of its tensors.

Jobs run in a QThreadPool and report through a relay QObject (queued to the GUI thread), tagged
with a generation number so a result the user has moved away from is dropped. Statistics check a
cancel flag between tensors and send back plain TensorSummary text, never tensors.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, QRunnable, Signal

from tensorviz.core.tensor_files import FileInspection, inspect_file
from tensorviz.core.tensor_summary import heading, summarize


class FileJobRelay(QObject):
    file_opened = Signal(int, str, object)  # generation, path, FileInspection
    statistics_progressed = Signal(int, int, int)  # generation, done, total
    statistic_computed = Signal(int, object, str)  # generation, access, summary text
    statistics_finished = Signal(int, bool)  # generation, cancelled


class OpenFileJob(QRunnable):
    def __init__(self, path: str, generation: int, relay: FileJobRelay) -> None:
        super().__init__()
        self._path, self._generation, self._relay = path, generation, relay

    def run(self) -> None:
        inspection = inspect_file(self._path)  # never raises: problems are in .error
        self._relay.file_opened.emit(self._generation, self._path, inspection)


class StatisticsJob(QRunnable):
    """min/max/mean/std, NaN/Inf counts of every tensor of a file, one tensor at a time."""

    def __init__(self, inspection: FileInspection, generation: int, relay: FileJobRelay) -> None:
        super().__init__()
        self._inspection, self._generation, self._relay = inspection, generation, relay
        self.cancelled = threading.Event()

    def run(self) -> None:
        entries = self._inspection.entries
        self._relay.statistics_progressed.emit(self._generation, 0, len(entries))
        for done, node in enumerate(entries, start=1):
            if self.cancelled.is_set():
                self._relay.statistics_finished.emit(self._generation, True)
                return
            try:
                summary = summarize(self._inspection.tensor_at(node.access))
                head = heading(summary.shape, summary.dtype, summary.device)
                text = summary.text().removeprefix(head).strip()  # the tree shows the shape
            except Exception as error:  # noqa: BLE001 — e.g. the mapped file vanished
                text = f"failed: {type(error).__name__}: {error}"
            self._relay.statistic_computed.emit(self._generation, node.access, text)
            self._relay.statistics_progressed.emit(self._generation, done, len(entries))
        self._relay.statistics_finished.emit(self._generation, False)
