"""The Files area: the files you opened, each one's contents as a tree with shared storages marked,
the selected entry's identity and values, statistics on demand, send to workspace, save back.

Every file is read by core's inspect_file in a worker thread; the panel only shows the result.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QItemSelectionModel, Qt, QThreadPool, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidgetItem,
    QProgressBar,
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
from tensorviz.core.files.text import explain_file_error, workspace_entries
from tensorviz.core.files.tree import walk
from tensorviz.core.tensors.workspace import Workspace, WorkspaceError
from tensorviz.core.translation import current_language
from tensorviz.ui.files.file_details import FileDetails
from tensorviz.ui.files.file_jobs import FileJobRelay, OpenFileJob, StatisticsJob
from tensorviz.ui.files.file_list import FileList
from tensorviz.ui.files.file_notes import FileNotes
from tensorviz.ui.files.file_statistics import StatisticsOnDemand
from tensorviz.ui.files.file_tree_model import (
    FileTreeModel,
    expand_and_fit,
    file_tree_view,
    fit_to_zoom,
)
from tensorviz.ui.files.placeholders import filled
from tensorviz.ui.files.safety_notice import SafetyNotice
from tensorviz.ui.files.save_dialog import SaveTensorsDialog
from tensorviz.ui.files.values_loader import ValuesLoader
from tensorviz.ui.widgets.appearance_following import FollowsAppearanceLater
from tensorviz.ui.widgets.error_panel import ErrorPanel
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.shortcut_buttons import retitle_shortcut_button, shortcut_button
from tensorviz.ui.widgets.theme import scaled
from tensorviz.ui.workbench.value_view import ValueView


class FilesPanel(StatisticsOnDemand, FollowsAppearanceLater, Retranslating, QWidget):
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
        self._rewording: set[str] = set()  # open files read again in a new language
        self._words_language = current_language()  # the language core's words were made in
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
        self.restyle()
        self.retranslate()

    # --- construction -------------------------------------------------------------------------

    def _build(self) -> None:
        self.send_button = shortcut_button(self, "", "Ctrl+Return", self.send_to_workspace)
        self.statistics_button = shortcut_button(self, "", "Ctrl+I", self.compute_statistics)
        self.cancel_button = shortcut_button(self, "", "Escape", self.cancel)
        self.reload_button = shortcut_button(self, "", "F5", self.reload)
        self.save_button = shortcut_button(self, "", "Ctrl+Shift+S", self.open_save_dialog)
        self.progress = QProgressBar()
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
        self.notes = FileNotes()
        self.file_list = FileList(self.inspections)
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
        # scrolled too: its controls, table and charts are taller than a 200 % window leaves
        self.values_page = values_scroll = QScrollArea()
        values_scroll.setWidget(self.value_view)
        values_scroll.setWidgetResizable(True)
        self.tabs = QTabWidget()
        self.tabs.addTab(details_scroll, "")
        self.tabs.addTab(values_scroll, "")
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

    def retranslate(self) -> None:
        for button, text in (
            (self.send_button, self.tr("Send to workspace")),
            (self.statistics_button, self.tr("Statistics")),
            (self.cancel_button, self.tr("Cancel")),
            (self.reload_button, self.tr("Reload")),
            (self.save_button, self.tr("Save tensors…")),
        ):
            retitle_shortcut_button(button, text)
        self.save_button.setToolTip(
            self.tr("Save workspace tensors as .pt or .safetensors (Ctrl+Shift+S)")
        )
        self.tabs.setTabText(0, self.tr("Details"))
        self.tabs.setTabText(1, self.tr("Values"))
        self.model.retranslate()
        if self._words_language != current_language():
            self._words_language = current_language()
            self._reword_open_files()

    def restyle(self) -> None:
        """Sizes set by hand, at the zoom in force (fonts and colours follow by themselves)."""
        self.progress.setMaximumWidth(scaled(160))
        self.progress.setMinimumWidth(scaled(48))
        self.progress.setMaximumHeight(scaled(16))
        fit_to_zoom(self.tree)
        if self.model.inspection is not None:
            expand_and_fit(self.tree, self.model)
        self.file_list.fit_height()
        self.details.restyle()
        self.safety_notice.restyle()

    # --- opening ------------------------------------------------------------------------------

    def show_queue(self, paths: list[str]) -> None:
        """The main window's list of files to open: open each one not opened yet."""
        for path in paths:
            if path not in self.inspections and path not in self._pending:
                self.open_file(path)

    def open_file(self, path: str) -> None:
        self._pending.add(path)
        self.file_list.show_opening(path)
        self._pool.start(OpenFileJob(path, self._open_generation, self._relay))
        self._update_actions()

    def reload(self) -> None:
        """Read the current file again (it may have been replaced on disk)."""
        if self.current_path and self.current_path not in self._pending:
            self.inspections.pop(self.current_path, None)
            self.open_file(self.current_path)

    def open_paths(self) -> list[str]:
        """Every file in the list, in order (opened, failed or still opening)."""
        return self.file_list.paths()

    def _reword_open_files(self) -> None:
        """Core's words about a file (its rows, notes, weights_only sentences) are made when it is
        read: read the open files again in the background; the old words stay until then."""
        for path in set(self.inspections) - self._rewording:
            self._rewording.add(path)
            self._pool.start(OpenFileJob(path, self._open_generation, self._relay))

    def _take_reworded(self, path: str, inspection: FileInspection) -> None:
        self._rewording.discard(path)
        before = self.inspections.get(path)
        if inspection.error and before is not None and not before.error:
            return  # gone or damaged since: keep what was read, in the words it was read with
        self.inspections[path] = inspection
        self.file_list.show_opened(path)
        if path == self.current_path:  # the file and the entry shown stay
            keys = [node.key_text() for node in self.selected_nodes()]
            self.show_file(path)
            if (
                keys
                and inspection.root is not None
                and any(n.key_text() == keys[0] for n in walk(inspection.root))
            ):
                self.select_entry(keys[0])

    def _on_file_opened(self, generation: int, path: str, inspection: FileInspection) -> None:
        if generation == self._open_generation and path in self._rewording:
            self._take_reworded(path, inspection)
            return
        if generation != self._open_generation or path not in self._pending:
            return  # cancelled meanwhile
        self._pending.discard(path)
        self.inspections[path] = inspection
        self.file_list.setCurrentItem(self.file_list.show_opened(path))
        self.show_file(path)
        opened = filled(self.tr("Opened %1"), Path(path).name)
        self.status_message.emit(inspection.error or opened)
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
        else:
            self.error_panel.clear()
            expand_and_fit(self.tree, self.model)
            self.tree.setCurrentIndex(self.model.index(0, 0))
        self.notes.show_inspection(inspection)
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
        if self.tabs.currentWidget() is not self.values_page:
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
            count = len(entries)  # (lupdate reads a name here, not a call)
            step = QCoreApplication.translate(
                "FilesPanel", "load %n tensor(s) from a file", "", count
            )
            names = self.workspace.add(entries, step)
        except WorkspaceError as error:
            self.status_message.emit(str(error))
            return []
        sent = filled(self.tr("Sent %1 to the workspace"), ", ".join(names))
        self.status_message.emit(f"{sent}. {skipped}" if skipped else sent)
        self.tensors_sent.emit(names)
        return names

    def open_save_dialog(self) -> SaveTensorsDialog:
        self.save_dialog = SaveTensorsDialog(self.workspace, parent=self)
        self.save_dialog.saved.connect(
            lambda path: self.status_message.emit(filled(self.tr("Saved %1"), path))
        )
        self.save_dialog.open()
        return self.save_dialog

    def cancel(self) -> None:
        """Stop what is running: files still opening are dropped, statistics stop."""
        if self._pending:
            self._open_generation += 1
            for path in self._pending:
                self.file_list.remove(path)
            count = len(self._pending)
            self.status_message.emit(
                QCoreApplication.translate("FilesPanel", "Cancelled opening %n file(s)", "", count)
            )
            self._pending.clear()
        self._rewording.clear()  # their results are then dropped (neither pending nor rewording)
        self._stop_statistics()
        self._update_actions()

    def is_busy(self) -> bool:
        return bool(self._pending or self._rewording) or self._pool.activeThreadCount() > 0

    def shutdown(self) -> None:
        """Drop pending work and join the workers; safe to call more than once."""
        self._open_generation += 1
        self._pending.clear()
        self._rewording.clear()
        self._stop_statistics()
        self.values_loader.drop()
        self._pool.clear()
        self._pool.waitForDone()
        self.value_view.shutdown()
