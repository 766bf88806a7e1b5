"""The Memory layout area: pick a workspace tensor and see its logical grid beside the storage
strips it reads, linked both ways; contiguity, stride 0, walk mode and the broadcasting explainer.

Everything computed comes from core (strides, storage_reads, storage_sharing, write_probe,
broadcasting); this panel wires gestures to those calls and hands the answers to the views. Nothing
here is proportional to the tensor: the slice is an affine map, readers are solved from the
strides, and read counts that need a full pass arrive from a worker (stale ones are dropped by
generation). Every text follows View → Language (retranslate) and every colour and size View →
Theme and Zoom (the texts are rendered again, the views paint from the theme in force)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

from tensorviz.core.memory.storage_reads import (
    StorageSlice,
    readers_in_slice,
    readers_of,
    storage_slice,
)
from tensorviz.core.memory.storage_sharing import StorageGroup, StripMember, sharing_groups
from tensorviz.core.memory.strides import Layout, storage_index_of, stride_zero_dims, walk_step
from tensorviz.core.memory.write_probe import probe_in_place_write
from tensorviz.core.tensors.workspace import Workspace, WorkspaceEvent
from tensorviz.ui.memory import layout_texts
from tensorviz.ui.memory.broadcast_explainer import BroadcastExplainer
from tensorviz.ui.memory.layout_texts import filled
from tensorviz.ui.memory.palette import is_appearance_change
from tensorviz.ui.memory.picture_export import (
    PictureExportError,
    ask_picture_path,
    export_picture,
)
from tensorviz.ui.memory.read_count_worker import ReadCounter
from tensorviz.ui.memory.strides_tab import StridesTab
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.scrolling import scrolling

TRAIL = 10  # storage indices remembered by the walk


class LayoutPanel(Retranslating, QWidget):
    status_message = Signal(str)
    tensor_changed = Signal(str)  # the tensor now shown ("" for none)

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.name = ""
        self.member: StripMember | None = None  # the shown tensor, in strip cells
        self.group: StorageGroup | None = None
        self.hovered_index: tuple[int, ...] | None = None
        self.selected_cell: int | None = None
        self.walk_trail: list[int] = []
        self.walk_index: tuple[int, ...] | None = None
        self.readers = np.zeros((0, 0), dtype=np.int64)  # of the selected cell (first few)
        self.readers_total = 0
        self._generation = 0  # counts computed for an older picture are dropped
        self._reads: dict = {}  # member name → StorageReads of the strips
        self.read_counter = ReadCounter(self)
        self.read_counter.counts_computed.connect(self._on_counts_computed)
        self._stale = False  # the workspace changed while the panel was hidden
        self._build()
        self._unsubscribe = workspace.subscribe(self._on_workspace_changed)
        self._refill_picker()
        names = workspace.names()
        self.show_tensor(names[-1] if names else "")
        self.retranslate()

    def retranslate(self) -> None:
        self.tabs.setTabText(0, self.tr("Strides && storage"))
        self.tabs.setTabText(1, self.tr("Broadcasting"))
        self.strips.setToolTip("")  # the next hover writes it in the new language
        self._refresh_texts()

    def changeEvent(self, event: QEvent) -> None:
        if is_appearance_change(event):
            self._refresh_texts()  # colours and sizes live in the rich texts
        super().changeEvent(event)

    # --- construction ----------------------------------------------------------------------------

    def _build(self) -> None:
        tab = StridesTab()
        # The views the panel drives (tests and the screenshot tour reach them here too).
        self.picker, self.summary, self.grid_caption = tab.picker, tab.summary, tab.grid_caption
        self.slice_controls, self.grid, self.strips = tab.slice_controls, tab.grid, tab.strips
        self.details, self.export_png, self.export_svg = tab.details, tab.export_png, tab.export_svg
        self.picker.currentIndexChanged.connect(self._on_tensor_changed)
        self.export_png.clicked.connect(lambda: self._on_export_clicked("png"))
        self.export_svg.clicked.connect(lambda: self._on_export_clicked("svg"))
        self.slice_controls.slice_changed.connect(self._on_slice_changed)
        self.grid.element_hovered.connect(self._on_element_hovered)
        self.grid.element_clicked.connect(self._on_element_clicked)
        self.strips.cell_hovered.connect(self._on_cell_hovered)
        self.strips.cell_clicked.connect(self._on_cell_clicked)
        self.details.write_button.clicked.connect(self._on_write_clicked)
        self.details.walk.position_changed.connect(self._on_walk_changed)
        self.broadcasting = BroadcastExplainer(self.workspace)
        self.tabs = QTabWidget()
        # At a projector's zoom the tab may need more room than the window has: it scrolls.
        self.tabs.addTab(scrolling(tab), "")
        self.tabs.addTab(self.broadcasting, "")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        outer.addWidget(self.tabs)

    def _refresh_texts(self) -> None:
        """Every text on screen again, in the language, theme and zoom now in force; what is
        hovered, selected and walked stays."""
        if self._stale or not hasattr(self, "tabs"):
            return  # showEvent renders everything afresh
        self._show_tensor_texts()
        if self.member is None:
            return
        tensor = self.workspace.tensor(self.name)
        self.grid.set_axis_labels(*self._axis_labels())
        self.grid_caption.setText(layout_texts.caption(self.name, self.slice_controls.fixed()))
        if self.hovered_index is not None:
            self.details.show_formula(self.name, tensor, self.hovered_index)
        if self.selected_cell is not None:
            self.details.show_readers(
                self.name, self.selected_cell, self.readers, self.readers_total
            )
        if self.walk_index is not None:
            self.details.show_walk(self.name, tensor, self.details.walk.position, self.walk_trail)

    def _show_tensor_texts(self) -> None:
        tensor = self.workspace.tensor(self.name) if self.name in self.workspace else None
        self.summary.setText(layout_texts.summary_text(tensor) if tensor is not None else "")
        sharers = [m for m in self.group.members if m.name != self.name] if self.group else ()
        self.details.show_tensor(self.name, tensor, self.member, sharers)

    # --- the shown tensor ------------------------------------------------------------------------

    def show_tensor(self, name: str) -> None:
        """Show workspace tensor `name` (the Workbench selection can drive this)."""
        row = self.picker.findData(name)
        if row >= 0 and row != self.picker.currentIndex():
            self.picker.setCurrentIndex(row)  # → _on_tensor_changed
        elif row >= 0 or not name:
            self._show(name if row >= 0 else "")

    def _refill_picker(self) -> None:
        self.picker.blockSignals(True)
        self.picker.clear()
        for name in self.workspace.names():
            tensor = self.workspace.tensor(name)
            self.picker.addItem(f"{name}  [{', '.join(map(str, tensor.shape))}]", name)
        self.picker.blockSignals(False)

    def _on_tensor_changed(self, row: int) -> None:
        self._show(self.picker.itemData(row) or "")

    def _show(self, name: str) -> None:
        self.name, self._stale = name, False
        self.selected_cell, self.hovered_index = None, None
        self.details.error_panel.clear()
        self._recompute()
        self.tensor_changed.emit(name)

    def _recompute(self) -> None:
        """Groups, read counts and every view, after a new tensor or a workspace change."""
        if self.name not in self.workspace:
            self.name = ""
        self.hovered_index = None  # the tensor (or its shape) may have changed under the pointer
        groups = sharing_groups(self.workspace)
        mine = next((g for g in groups if self.name in g.names), None)
        ordered = ([mine] if mine else []) + [g for g in groups if g is not mine]
        self._generation += 1
        self._reads = self.read_counter.reads_for(ordered, self._generation)
        if mine is None or (self.selected_cell or 0) >= mine.cells:
            self.selected_cell = None
        self.group = mine
        self.member = next((m for m in mine.members if m.name == self.name), None) if mine else None
        self._solve_readers()
        self.strips.set_groups(ordered, self._reads, self.name)
        tensor = self.workspace.tensor(self.name) if self.name else None
        shape = tuple(tensor.shape) if tensor is not None else ()
        self.slice_controls.set_shape(shape)
        self.details.walk.set_length(tensor.numel() if tensor is not None else 0)
        self.walk_trail, self.walk_index = [], None
        zero = tensor is not None and bool(stride_zero_dims(Layout.of(tensor)))
        self.details.write_button.setEnabled(zero)
        self._show_tensor_texts()
        self._on_slice_changed()

    # --- the 2-D slice ---------------------------------------------------------------------------

    def _on_slice_changed(self) -> None:
        controls = self.slice_controls
        if self.member is None:
            self.grid.set_slice(StorageSlice(0, 0), None, 1, "", "")
            self._update_highlights(readers_moved=True)
            return
        tensor = self.workspace.tensor(self.name)
        indices = storage_slice(self.member.layout, controls.fixed())
        values = tensor.detach()[self.slice_controls.index_tuple()]  # a view: read where drawn
        while values.dim() < 2:
            values = values.unsqueeze(0)
        if controls.row_dim is not None and controls.row_dim > controls.col_dim:
            indices, values = indices.T, values.T
        self.grid.set_slice(indices, values, self.group.cells, *self._axis_labels())
        self.grid_caption.setText(layout_texts.caption(self.name, controls.fixed()))
        self._update_highlights(readers_moved=True)

    def _axis_labels(self) -> tuple[str, str]:
        controls = self.slice_controls
        row_label = controls.dim_label(controls.row_dim) if controls.row_dim is not None else ""
        return row_label, controls.dim_label(controls.col_dim)

    # --- linking ---------------------------------------------------------------------------------

    def _on_element_hovered(self, row: int, col: int) -> None:
        self.hover_element(None if row < 0 else self.slice_controls.full_index(row, col))

    def hover_element(self, index: tuple[int, ...] | None) -> None:
        """Light the storage cell of logical element `index` and show its formula."""
        self._ensure_fresh()
        if self.member is None or index is None:
            self.hovered_index = None
        else:
            self.hovered_index = tuple(index)
            self.slice_controls.show_index(self.hovered_index)
            tensor = self.workspace.tensor(self.name)
            self.details.show_formula(self.name, tensor, self.hovered_index)
        self._update_highlights()

    def _on_element_clicked(self, row: int, col: int) -> None:
        if self.member is not None:
            self.select_cell(
                storage_index_of(self.member.layout, self.slice_controls.full_index(row, col))
            )

    def _on_cell_hovered(self, cell: int) -> None:
        self.strips.setToolTip(
            filled(self.tr("storage cell %1: click to see who reads it"), cell) if cell >= 0 else ""
        )

    def _on_cell_clicked(self, cell: int) -> None:
        self.select_cell(cell)

    def select_cell(self, cell: int | None) -> None:
        """Select a storage cell: every element reading it lights up in the grid."""
        self._ensure_fresh()
        self.selected_cell = cell
        self._solve_readers()
        if cell is not None and self.member is not None:
            self.details.show_readers(self.name, cell, self.readers, self.readers_total)
        self._update_highlights(readers_moved=True)

    def _solve_readers(self) -> None:
        """Who reads the selected cell, from the strides (the first READERS_LIMIT, and the
        exact total): never an index array of the tensor's size."""
        if self.selected_cell is None or self.member is None:
            self.readers, self.readers_total = np.zeros((0, 0), dtype=np.int64), 0
        else:
            self.readers, self.readers_total = readers_of(self.member.layout, self.selected_cell)

    def selected_readers(self) -> list[tuple[int, ...]]:
        """The logical indices reading the selected cell (the first READERS_LIMIT of them)."""
        return [tuple(r) for r in self.readers.tolist()]

    def _update_highlights(self, readers_moved: bool = False) -> None:
        hovered = (
            self.slice_controls.grid_position(self.hovered_index) if self.hovered_index else None
        )
        controls = self.slice_controls
        readers = (
            readers_in_slice(self.readers, controls.fixed(), controls.row_dim, controls.col_dim)
            if readers_moved
            else None
        )
        walk = (
            self.slice_controls.grid_position(self.walk_index)
            if self.walk_index is not None
            else None
        )
        self.grid.set_highlights(hovered, readers, walk, self.selected_cell)
        lit = []
        if self.hovered_index is not None and self.member is not None:
            lit = [storage_index_of(self.member.layout, self.hovered_index)]
        walk_cell = self.walk_trail[-1] if self.walk_index is not None else None
        walk_from = (
            self.walk_trail[-2] if walk_cell is not None and len(self.walk_trail) > 1 else None
        )
        self.strips.set_highlights(lit, self.selected_cell, walk_cell, walk_from)

    # --- walk, in-place write, export ----------------------------------------------------------

    def _on_walk_changed(self, position: int) -> None:
        if position < 0 or self.member is None:
            self.walk_trail, self.walk_index = [], None
            self.details.walk_text.setText(layout_texts.walk_prompt())
            self._update_highlights()
            return
        tensor = self.workspace.tensor(self.name)
        step = walk_step(Layout.of(tensor), position)
        cell = storage_index_of(self.member.layout, step.index)
        self.walk_trail = (self.walk_trail + [cell])[-TRAIL:]
        self.walk_index = step.index
        self.slice_controls.show_index(step.index)
        self.details.show_walk(self.name, tensor, position, self.walk_trail)
        self._update_highlights()

    def _on_write_clicked(self) -> None:
        self.try_in_place_write()

    def try_in_place_write(self) -> None:
        """Show torch's answer to `name.add_(1)` (tried on a copy; the workspace is untouched)."""
        self._ensure_fresh()
        if not self.name:
            return
        explained = probe_in_place_write(self.workspace.tensor(self.name), self.name)
        if explained is None:
            self.status_message.emit(filled(self.tr("torch would allow %1.add_(1)"), self.name))
        else:
            self.details.error_panel.show_error(explained)

    def export(self, path: str) -> bool:
        """Write the picture to `path` (.png or .svg); a failure is said in the status bar and
        leaves any file already there as it was."""
        self._ensure_fresh()
        try:
            export_picture([self.grid, self.strips], path)
        except PictureExportError as error:
            self.status_message.emit(str(error))
            return False
        self.status_message.emit(filled(self.tr("Saved the picture to %1"), path))
        return True

    def _on_export_clicked(self, kind: str) -> None:
        path = ask_picture_path(self, self.name or "layout", kind)
        if path:
            self.export(path)

    # --- workspace -------------------------------------------------------------------------------

    def _on_workspace_changed(self, event: WorkspaceEvent) -> None:
        if event.kind == "renamed" and event.old_name == self.name:
            self.name = event.names[0]
        self._refill_picker()
        if self.name not in self.workspace and self.workspace.names():
            self.name = (
                self.workspace.names()[-1] if event.kind == "added" else self.workspace.names()[0]
            )
        self.picker.blockSignals(True)
        self.picker.setCurrentIndex(self.picker.findData(self.name))
        self.picker.blockSignals(False)
        if self.isVisible():
            self._recompute()
        else:  # a hidden area does no drawing work; showEvent catches up
            self._stale = True
        self.tensor_changed.emit(self.name)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._ensure_fresh()

    def _ensure_fresh(self) -> None:
        if self._stale:
            self._stale = False
            self._recompute()

    def _on_counts_computed(self, generation: int, name: str, counts) -> None:
        if generation == self._generation and name in self._reads:
            self._reads[name].counts = counts
            self.strips.counts_arrived()

    def shutdown(self) -> None:
        self.read_counter.stop()
        self.details.walk.stop()
        self._unsubscribe()
        self.broadcasting.close_subscription()
