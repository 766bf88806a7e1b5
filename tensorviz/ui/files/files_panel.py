"""The Files area: the files you opened, each one's contents as a tree with shared storages marked,
the selected entry's identity and values, statistics on demand, send to workspace, save back.

Every file is read by core's inspect_file in a worker thread; the panel only shows the result.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtCore import QItemSelectionModel, Qt, QThreadPool, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.files.inspection import (
    FileChangedError,
    FileInspection,
    Node,
    tensor_nodes_below,
)
from tensorviz.core.files.text import explain_file_error, format_bytes, workspace_entries
from tensorviz.core.files.tree import walk
from tensorviz.core.tensors.workspace import Workspace, WorkspaceError
from tensorviz.ui.files.file_details import FileDetails
from tensorviz.ui.files.file_jobs import FileJobRelay, OpenFileJob, StatisticsJob
from tensorviz.ui.files.file_tree_model import (
    FileTreeModel,
    expand_and_fit,
    file_tree_view,
    shortcut_button,
)
from tensorviz.ui.files.safety_notice import SafetyNotice
from tensorviz.ui.files.save_dialog import SaveTensorsDialog
from tensorviz.ui.files.values_loader import ValuesLoader
from tensorviz.ui.widgets.error_panel import ErrorPanel
from tensorviz.ui.workbench.value_view import ValueView

HINT = (
    "Open a .pt / .pth / .bin / .ckpt, .safetensors, .npy or .npz file, a TorchScript archive, an "
    "*.index.json or a checkpoint folder with File → Open (Ctrl+O), File → Open Folder "
    "(Ctrl+Shift+O), Recent files, drag and drop, or the command line. Nothing in a file is ever "
    "run: objects show their recorded state and calls a plain torch.load would make are listed "
    "in red, never made."
)


class FilesPanel(QWidget):
    status_message = Signal(str)
    file_loaded = Signal(str)  # path; its inspection (or its error) is shown
    statistics_finished = Signal(bool)  # cancelled
    tensors_sent = Signal(list)  # workspace names just added from a file

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.inspections: dict[str, FileInspection] = {}
        self.current_path: str | None = None
        self.save_dialog: SaveTensorsDialog | None = None
        self._pending: set[str] = set()
        self._open_generation = 0
        self._statistics_generation = 0
        self._statistics_job: StatisticsJob | None = None
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(2)
        self._relay = FileJobRelay(self)
        self._relay.file_opened.connect(self._on_file_opened)
        self._relay.statistics_progressed.connect(self._on_statistics_progressed)
        self._relay.statistic_computed.connect(self._on_statistic_computed)
        self._relay.statistics_finished.connect(self._on_statistics_finished)
        self._relay.statistics_failed.connect(self._on_statistics_failed)
        self._build()
        self._update_actions()

    # --- construction -------------------------------------------------------------------------

    def _build(self) -> None:
        self.send_button = self._button("Send to workspace", "Ctrl+Return", self.send_to_workspace)
        self.statistics_button = self._button("Statistics", "Ctrl+I", self.compute_statistics)
        self.cancel_button = self._button("Cancel", "Escape", self.cancel)
        self.reload_button = self._button("Reload", "F5", self.reload)
        self.save_button = self._button("Save tensors…", "Ctrl+Shift+S", self.open_save_dialog)
        self.save_button.setToolTip("Save workspace tensors as .pt or .safetensors (Ctrl+Shift+S)")
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(160)
        self.progress.setMinimumWidth(48)
        self.progress.setMaximumHeight(16)
        self.progress.hide()
        bar = QHBoxLayout()
        for button in (self.send_button, self.statistics_button, self.reload_button):
            bar.addWidget(button)
        bar.addWidget(self.progress)
        bar.addWidget(self.cancel_button)
        bar.addStretch(1)
        bar.addWidget(self.save_button)

        self.error_panel = ErrorPanel()
        self.safety_notice = SafetyNotice()
        self.notes = QLabel(HINT)
        self.notes.setWordWrap(True)
        self.notes.setStyleSheet("color: #4b5563")
        self.file_list = QListWidget()
        self.file_list.hide()  # shown, as tall as its rows (at most four), once a file is open
        self.file_list.currentItemChanged.connect(self._on_file_changed)

        self.model = FileTreeModel(self)
        self.tree = file_tree_view(self.model)
        self.tree.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.tree.doubleClicked.connect(self._on_tree_double_clicked)

        self.details = FileDetails()
        details_scroll = QScrollArea()
        details_scroll.setWidget(self.details)
        details_scroll.setWidgetResizable(True)
        self.value_view = ValueView()
        self.values_loader = ValuesLoader(self.value_view, self._pool, self)
        self.values_loader.status_message.connect(self.status_message)
        self.tabs = QTabWidget()
        self.tabs.addTab(details_scroll, "Details")
        self.tabs.addTab(self.value_view, "Values")
        self.tabs.currentChanged.connect(lambda _i: self._show_values())

        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.tree)
        splitter.addWidget(self.tabs)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([480, 280])
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.error_panel)
        layout.addWidget(self.safety_notice)
        layout.addWidget(self.notes)
        layout.addWidget(self.file_list)
        layout.addWidget(splitter, 1)

    def _button(self, text: str, shortcut: str, slot) -> QPushButton:
        return shortcut_button(self, text, shortcut, slot)

    # --- opening ------------------------------------------------------------------------------

    def show_queue(self, paths: list[str]) -> None:
        """The main window's list of files to open: open each one not opened yet."""
        for path in paths:
            if path not in self.inspections and path not in self._pending:
                self.open_file(path)

    def open_file(self, path: str) -> None:
        self._pending.add(path)
        item = self._file_item(path) or QListWidgetItem()
        if self.file_list.row(item) < 0:
            item.setData(Qt.ItemDataRole.UserRole, path)
            item.setToolTip(path)
            self.file_list.addItem(item)
        item.setText(f"{Path(path).name} — opening…")
        rows = min(self.file_list.count(), 4)
        frame = 2 * self.file_list.frameWidth()
        self.file_list.setFixedHeight(rows * self.file_list.sizeHintForRow(0) + frame + 4)
        self.file_list.show()
        self._pool.start(OpenFileJob(path, self._open_generation, self._relay))
        self._update_actions()

    def reload(self) -> None:
        """Read the current file again (it may have been replaced on disk)."""
        if self.current_path and self.current_path not in self._pending:
            self.inspections.pop(self.current_path, None)
            self.open_file(self.current_path)

    def _file_item(self, path: str) -> QListWidgetItem | None:
        for row in range(self.file_list.count()):
            if self.file_list.item(row).data(Qt.ItemDataRole.UserRole) == path:
                return self.file_list.item(row)
        return None

    def open_paths(self) -> list[str]:
        """Every file in the list, in order (opened, failed or still opening)."""
        items = (self.file_list.item(r) for r in range(self.file_list.count()))
        return [it.data(Qt.ItemDataRole.UserRole) for it in items]

    def _on_file_opened(self, generation: int, path: str, inspection: FileInspection) -> None:
        if generation != self._open_generation or path not in self._pending:
            return  # cancelled meanwhile
        self._pending.discard(path)
        self.inspections[path] = inspection
        item = self._file_item(path)
        name = Path(path).name
        if inspection.error:
            item.setText(f"⚠ {name} — cannot open")
        else:
            size = format_bytes(inspection.root.total_bytes)
            calls = len(inspection.calls)
            warning = f" — {calls} call(s) listed, never made" if calls else ""
            item.setText(f"{'⚠ ' if calls else ''}{name} — {inspection.format_label}, "
                         f"{len(inspection.entries)} tensors, {size}{warning}")  # fmt: skip
        self.file_list.setCurrentItem(item)
        self.show_file(path)
        self.status_message.emit(inspection.error or f"Opened {name}")
        self._update_actions()
        self.file_loaded.emit(path)

    def _on_file_changed(self, current: QListWidgetItem | None, _previous=None) -> None:
        path = current.data(Qt.ItemDataRole.UserRole) if current is not None else None
        if path in self.inspections:
            self.show_file(path)

    def show_file(self, path: str) -> None:
        self._stop_statistics()
        self.current_path = path
        inspection = self.inspections[path]
        self.model.set_inspection(None if inspection.error else inspection)
        self.value_view.set_tensor(None)
        self.safety_notice.show_inspection(None if inspection.error else inspection)
        if inspection.error:
            self.error_panel.show_error(explain_file_error(inspection))
            self.notes.setText(escape(inspection.path))
        else:
            self.error_panel.clear()
            shared = inspection.shared_groups()
            notes = [*inspection.notes]
            if shared:
                notes.append(f"{len(shared)} storage(s) shared between entries (highlighted).")
            self.notes.setText(
                escape(
                    " · ".join(
                        [inspection.format_label, " ".join(notes)]
                        if notes
                        else [inspection.format_label]
                    )
                )
            )
            expand_and_fit(self.tree, self.model)
            self.tree.setCurrentIndex(self.model.index(0, 0))
        self._show_details()
        self._update_actions()

    # --- selection ----------------------------------------------------------------------------

    def selected_nodes(self) -> list[Node]:
        rows = self.tree.selectionModel().selectedRows(0)
        return [self.model.node(index) for index in rows]

    def select_entry(self, key: str) -> None:
        """Select the entry whose key (e.g. "['model']['0.weight']") is given: a tensor, or any
        other row (a value, an object, a call)."""
        inspection = self.model.inspection
        rows = [*inspection.entries, *walk(inspection.root)]
        node = next(n for n in rows if n.key_text() == key and n.kind != "group")
        index = self.model.index_of_node(node)
        self.tree.scrollTo(index)
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect
        self.tree.selectionModel().setCurrentIndex(
            index, flags | QItemSelectionModel.SelectionFlag.Rows
        )

    def _on_selection_changed(self, *_args) -> None:
        self._show_details()
        self._show_values()
        self._update_actions()

    def _on_tree_double_clicked(self, index) -> None:
        node = self.model.node(index)
        if node is not None and node.tensor is not None:  # containers just expand
            self.send_to_workspace()

    def _show_details(self) -> None:
        nodes = self.selected_nodes()
        inspection = self.model.inspection
        node = nodes[0] if nodes else None
        statistics = self.model.statistics_text(node.access) if node is not None else None
        self.details.show_node(node, inspection, statistics)

    def _show_values(self) -> None:
        if self.tabs.currentWidget() is not self.value_view:
            return  # values (and their statistics) only on demand
        nodes = [n for n in self.selected_nodes() if n.tensor is not None]
        self.values_loader.show(nodes[0] if nodes else None, self.model.inspection)

    def _update_actions(self) -> None:
        tensors = self._tensor_nodes()
        self.send_button.setEnabled(bool(tensors))
        loaded = self.model.inspection is not None and bool(self.model.inspection.entries)
        self.statistics_button.setEnabled(loaded and self._statistics_job is None)
        self.cancel_button.setEnabled(bool(self._pending) or self._statistics_job is not None)
        self.reload_button.setEnabled(self.current_path is not None)
        busy = bool(self._pending) or self._statistics_job is not None
        self.progress.setVisible(busy)
        if self._pending and self._statistics_job is None:
            self.progress.setRange(0, 0)

    def _tensor_nodes(self) -> list[Node]:
        """The selected tensors, or every tensor below a selected container."""
        return tensor_nodes_below(self.selected_nodes())

    # --- actions ------------------------------------------------------------------------------

    def send_to_workspace(self) -> list[str]:
        """Add the selected tensors to the workspace as one undoable step; returns their names."""
        inspection = self.model.inspection
        nodes = self._tensor_nodes()
        if inspection is None or not nodes:
            return []
        try:  # copies in memory: the workspace must not depend on the file staying as it is
            entries, skipped = workspace_entries(self.workspace, inspection, nodes)
        except FileChangedError as changed:
            self.status_message.emit(str(changed))
            return []
        if not entries:
            self.status_message.emit(skipped)
            return []
        try:
            names = self.workspace.add(entries, f"load {len(entries)} tensor(s) from a file")
        except WorkspaceError as error:
            self.status_message.emit(str(error))
            return []
        sent = f"Sent {', '.join(names)} to the workspace"
        self.status_message.emit(f"{sent}. {skipped}" if skipped else sent)
        self.tensors_sent.emit(names)
        return names

    def open_save_dialog(self) -> SaveTensorsDialog:
        self.save_dialog = SaveTensorsDialog(self.workspace, parent=self)
        self.save_dialog.saved.connect(lambda path: self.status_message.emit(f"Saved {path}"))
        self.save_dialog.open()
        return self.save_dialog

    def compute_statistics(self) -> None:
        inspection = self.model.inspection
        if inspection is None or self._statistics_job is not None:
            return
        if changed := inspection.changed_on_disk():
            self.status_message.emit(changed)
            return
        self._statistics_generation += 1
        self._statistics_job = StatisticsJob(inspection, self._statistics_generation, self._relay)
        self.progress.setRange(0, len(inspection.entries))
        self.progress.setValue(0)
        self._pool.start(self._statistics_job)
        self._update_actions()

    def cancel(self) -> None:
        """Stop what is running: files still opening are dropped, statistics stop."""
        if self._pending:
            self._open_generation += 1
            for path in self._pending:
                item = self._file_item(path)
                self.file_list.takeItem(self.file_list.row(item))
            self.status_message.emit(f"Cancelled opening {len(self._pending)} file(s)")
            self._pending.clear()
        self._stop_statistics()
        self._update_actions()

    def _stop_statistics(self) -> None:
        if self._statistics_job is not None:
            self._statistics_job.cancelled.set()
            self._statistics_generation += 1  # its remaining reports are dropped
            self._statistics_job = None
            self.statistics_finished.emit(True)

    def _on_statistics_progressed(self, generation: int, done: int, total: int) -> None:
        if generation == self._statistics_generation:
            self.progress.setRange(0, total)
            self.progress.setValue(done)

    def _on_statistic_computed(self, generation: int, access: tuple, text: str) -> None:
        if generation == self._statistics_generation:
            self.model.set_statistics(access, text)

    def _on_statistics_finished(self, generation: int, cancelled: bool) -> None:
        if generation != self._statistics_generation:
            return
        self._statistics_job = None
        self._show_details()
        self._update_actions()
        self.statistics_finished.emit(cancelled)

    def _on_statistics_failed(self, generation: int, message: str) -> None:
        if generation == self._statistics_generation:
            self.status_message.emit(message)
            self._on_statistics_finished(generation, True)

    def is_busy(self) -> bool:
        return bool(self._pending) or self._pool.activeThreadCount() > 0

    def shutdown(self) -> None:
        """Drop pending work and join the workers; safe to call more than once."""
        self._open_generation += 1
        self._pending.clear()
        self._stop_statistics()
        self.values_loader.drop()
        self._pool.clear()
        self._pool.waitForDone()
        self.value_view.shutdown()
