"""The Values tab of the Files area: the selected tensor's data, copied out of the file with plain
reads (never through the mapping, which a file truncated on disk would turn into a crash). A big
tensor is read by a worker so the window stays responsive; a newer selection drops older reads."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, QThreadPool, Signal

from tensorviz.core.files.inspection import FileChangedError, FileInspection
from tensorviz.core.tensors.memory_budget import human_bytes
from tensorviz.ui.files.file_jobs import one_line
from tensorviz.ui.files.placeholders import filled

READ_IN_BACKGROUND = 8 * 2**20  # bytes


class _Relay(QObject):
    read = Signal(int, str, object)  # generation, name, tensor
    failed = Signal(int, str)  # generation, one sentence


class _ReadJob(QRunnable):
    def __init__(self, inspection, node, generation: int, relay: _Relay) -> None:
        super().__init__()
        self._inspection, self._node, self._generation, self._relay = (
            inspection, node, generation, relay,
        )  # fmt: skip

    def run(self) -> None:
        try:
            tensor = self._inspection.tensor_at(self._node.access)
        except FileChangedError as changed:
            self._relay.failed.emit(self._generation, str(changed))
            return
        except BaseException as error:  # noqa: BLE001 — a sentence, never a stuck tab
            failed = QCoreApplication.translate("ValuesLoader", "Reading failed (%1).")
            self._relay.failed.emit(self._generation, filled(failed, one_line(error)))
            return
        self._relay.read.emit(self._generation, self._node.name, tensor)


class ValuesLoader(QObject):
    status_message = Signal(str)

    def __init__(self, value_view, pool: QThreadPool, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.value_view, self._pool = value_view, pool
        self._generation = 0
        self._reading = False
        self._relay = _Relay(self)
        self._relay.read.connect(self._on_read)
        self._relay.failed.connect(self._on_failed)

    def is_reading(self) -> bool:
        return self._reading

    def show(self, node, inspection: FileInspection | None) -> None:
        """Show `node`'s values (None: nothing)."""
        self._generation += 1
        self._reading = False
        if node is None or inspection is None:
            self.value_view.set_tensor(None)
            return
        if not node.tensor.plain:
            self.value_view.set_tensor(None)
            self.status_message.emit(filled(self.tr("No values to show: %1."), node.tensor.problem))
            return
        if node.tensor.nbytes > READ_IN_BACKGROUND:
            self.value_view.set_tensor(None)
            reading = self.tr("Reading %1 (%2) from the file…")
            self.status_message.emit(filled(reading, node.name, human_bytes(node.tensor.nbytes)))
            self._reading = True
            self._pool.start(_ReadJob(inspection, node, self._generation, self._relay))
            return
        try:
            tensor = inspection.tensor_at(node.access)
        except FileChangedError as changed:
            self.value_view.set_tensor(None)
            self.status_message.emit(str(changed))
            return
        self.value_view.set_tensor(tensor, node.name)

    def _on_read(self, generation: int, name: str, tensor) -> None:
        if generation == self._generation:
            self._reading = False
            self.value_view.set_tensor(tensor, name)
            self.status_message.emit(filled(self.tr("Read %1"), name))

    def _on_failed(self, generation: int, message: str) -> None:
        if generation == self._generation:
            self._reading = False
            self.value_view.set_tensor(None)
            self.status_message.emit(message)

    def drop(self) -> None:
        """Forget reads in flight (a new file, closing)."""
        self._generation += 1
        self._reading = False
