"""Following a run folder off the GUI thread (ARCHITECTURE rule 4).

A FollowWorker lives in its own QThread and owns the RunReader: every POLL_MS it reads what was
appended (RunReader.refresh) and sends the new rows as a RunUpdate of plain NumPy copies, tagged
with the generation of the folder it follows (an update for a folder the user has since left is
dropped). Only one update is in flight: the next is collected once the window has handled the
last (`acknowledge`), so a window that falls behind receives fewer, larger updates and never a
growing queue. Diagnoses are recomputed at most every DIAGNOSE_S and when the run has ended.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Qt, QThread, QTimer, Signal, Slot

from tensorviz.core.watch.diagnoses import diagnose
from tensorviz.core.watch.run_reader import NotARunFolderError, RunReader
from tensorviz.core.watch.run_updates import RunUpdate, UpdateCollector

POLL_MS = 100
DIAGNOSE_S = 1.0
JOIN_TIMEOUT_MS = 3000

log = logging.getLogger(__name__)


def diagnoses_of(reader: RunReader) -> list:
    """Every rank's diagnoses (tensorviz.core.watch.diagnoses), rank 0's first."""
    found = []
    for _rank, series in sorted(reader.ranks.items()):
        try:
            found += diagnose(series)
        except Exception:  # a diagnosis must never stop the viewer
            log.exception("diagnosing the run failed")
    return found


class FollowWorker(QObject):
    updated = Signal(int, object)  # generation, RunUpdate
    failed = Signal(int, str)  # generation, one sentence (the folder is no run, or went away)

    def __init__(self, folder: Path, generation: int) -> None:
        super().__init__()
        self.folder = folder
        self.generation = generation
        self.reader: RunReader | None = None
        self.collector: UpdateCollector | None = None
        self._timer: QTimer | None = None
        self._in_flight = threading.Event()
        self._closing = threading.Event()
        self._last_diagnosis = 0.0
        self._undiagnosed = False

    # --- called from the GUI thread (thread-safe: flags only) ----------------------------------

    def acknowledge(self) -> None:
        self._in_flight.clear()

    def close(self) -> None:
        self._closing.set()

    # --- slots (the worker's thread) -----------------------------------------------------------

    @Slot()
    def setup(self) -> None:
        try:
            self.reader = RunReader(self.folder)
        except NotARunFolderError as error:
            self.failed.emit(self.generation, str(error))
            return
        self.collector = UpdateCollector(self.reader)
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._poll)
        self._timer.start(POLL_MS)
        self._send()

    @Slot()
    def teardown(self) -> None:
        if self._timer is not None:
            self._timer.stop()

    def _poll(self) -> None:
        if self._closing.is_set() or self._in_flight.is_set():
            return
        try:
            self.reader.refresh()
        except OSError as error:
            self.failed.emit(self.generation, str(error))
            return
        self._send()

    def _send(self) -> None:
        update = self.collector.collect()
        if update is not None:
            self._undiagnosed = True
        now = time.monotonic()
        ended = self.reader.ended
        due = self._undiagnosed and (ended or now - self._last_diagnosis >= DIAGNOSE_S)
        if update is None and not due:
            return
        if update is None:
            update = RunUpdate([], list(self.reader.problems), ended)
        if due:
            update.diagnoses = diagnoses_of(self.reader)
            self._last_diagnosis, self._undiagnosed = now, False
        self._in_flight.set()
        self.updated.emit(self.generation, update)


class RunFollower(QObject):
    """Follows one folder at a time: `follow(folder)` stops the previous worker (joined) and
    starts a new one; `stop()` stops it. Emits only the updates of the folder followed now."""

    run_updated = Signal(object)  # RunUpdate
    follow_failed = Signal(str)

    def __init__(self, parent: QObject | None = None, name: str = "tensorviz-runs") -> None:
        super().__init__(parent)
        self.name = name
        self.generation = 0
        self.thread: QThread | None = None
        self.worker: FollowWorker | None = None
        if app := QCoreApplication.instance():  # a last resort if nobody called stop()
            app.aboutToQuit.connect(self.stop)

    def follow(self, folder: Path) -> None:
        self.stop()
        self.generation += 1
        self.worker = FollowWorker(Path(folder), self.generation)
        self.thread = QThread()
        self.thread.setObjectName(self.name)
        self.worker.moveToThread(self.thread)
        self.worker.updated.connect(self._on_updated, Qt.ConnectionType.QueuedConnection)
        self.worker.failed.connect(self._on_failed, Qt.ConnectionType.QueuedConnection)
        self.thread.started.connect(self.worker.setup)
        self.thread.finished.connect(self.worker.teardown, Qt.ConnectionType.DirectConnection)
        self.thread.start()

    def stop(self) -> bool:
        """Stop the worker and join its thread; False if it did not stop in time (logged)."""
        thread, worker = self.thread, self.worker
        self.thread = self.worker = None
        self.generation += 1  # whatever is still queued from it is dropped
        if thread is None:
            return True
        worker.close()
        thread.quit()
        stopped = thread.wait(JOIN_TIMEOUT_MS)
        if not stopped:
            log.warning("the run follower's thread did not stop within %d ms", JOIN_TIMEOUT_MS)
            self._unjoined = (thread, worker)
        return stopped

    def is_following(self) -> bool:
        return self.thread is not None and self.thread.isRunning()

    def _on_updated(self, generation: int, update: RunUpdate) -> None:
        if generation != self.generation or self.worker is None:
            return
        self.run_updated.emit(update)
        if self.worker is not None:  # (a slot of run_updated may have stopped it)
            self.worker.acknowledge()

    def _on_failed(self, generation: int, message: str) -> None:
        if generation == self.generation:
            self.follow_failed.emit(message)
