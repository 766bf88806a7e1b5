"""Work for the Compare area off the GUI thread: opening the two sides (files not open in the
Files area are read with the same safe reader), comparing them tensor by tensor, and reading one
pair's values for the side-by-side view.

Jobs run in a QThreadPool and report through a relay QObject, tagged with a generation so a
result the user has moved away from is dropped. A job never lets an exception escape: anything
unexpected becomes one sentence in its report.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, Signal

from tensorviz.core.diff.comparison import compare_sides
from tensorviz.core.diff.sides import ComparedSide, SideError, side_of_file, side_of_inspection
from tensorviz.core.files.inspection import FileChangedError, FileInspection, Node
from tensorviz.ui.files.file_jobs import one_line
from tensorviz.ui.files.placeholders import filled

translate = QCoreApplication.translate  # lupdate reads translate("Context", "text") calls


@dataclass(frozen=True)
class SideRequest:
    """A file by path, or an entry of a file already open in the Files area."""

    path: str
    inspection: FileInspection | None = None
    node: Node | None = None  # None: the whole file

    def side(self) -> ComparedSide:
        if self.inspection is None:
            return side_of_file(self.path)
        return side_of_inspection(self.inspection, self.node)


@dataclass(frozen=True)
class CompareRequest:
    a: SideRequest
    b: SideRequest

    def swapped(self) -> CompareRequest:
        return CompareRequest(self.b, self.a)


class CompareRelay(QObject):
    progressed = Signal(int, int, int, str)  # generation, done, total, what is read
    compared = Signal(int, object)  # generation, Comparison (maybe cancelled, maybe with .error)
    failed = Signal(int, str)  # generation, one sentence: a side could not be opened
    pair_read = Signal(int, object, object)  # generation, tensor A, tensor B (copies)
    pair_failed = Signal(int, str)


class CompareJob(QRunnable):
    def __init__(self, request: CompareRequest, generation: int, relay: CompareRelay) -> None:
        super().__init__()
        self._request, self._generation, self._relay = request, generation, relay
        self.cancelled = threading.Event()

    def run(self) -> None:
        try:
            sides = []
            for which, side in (("A", self._request.a), ("B", self._request.b)):
                opening = filled(translate("CompareJobs", "opening %1: %2"), which, side.path)
                self._relay.progressed.emit(self._generation, 0, 0, opening)
                sides.append(side.side())
            comparison = compare_sides(*sides, progress=self._progress,
                                       should_stop=self.cancelled.is_set)  # fmt: skip
        except SideError as problem:
            self._relay.failed.emit(self._generation, str(problem))
            return
        except BaseException as error:  # noqa: BLE001 — never an endless busy state
            failed = filled(
                translate("CompareJobs", "The comparison failed (%1)."), one_line(error)
            )
            self._relay.failed.emit(self._generation, failed)
            return
        self._relay.compared.emit(self._generation, comparison)

    def _progress(self, done: int, total: int, what: str) -> None:
        self._relay.progressed.emit(self._generation, done, total, what)


class PairReadJob(QRunnable):
    """Both tensors of one pair, copied out of their files."""

    def __init__(self, pair, generation: int, relay: CompareRelay) -> None:
        super().__init__()
        self._pair, self._generation, self._relay = pair, generation, relay

    def run(self) -> None:
        try:
            a, b = self._pair.a.read(), self._pair.b.read()
        except FileChangedError as changed:
            self._relay.pair_failed.emit(self._generation, str(changed))
            return
        except BaseException as error:  # noqa: BLE001
            failed = filled(translate("CompareJobs", "Reading failed (%1)."), one_line(error))
            self._relay.pair_failed.emit(self._generation, failed)
            return
        self._relay.pair_read.emit(self._generation, a, b)
