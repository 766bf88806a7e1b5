"""The Architecture area: pick a preset or a model the Script area ran, see its forward module
by module — repeated blocks folded, a depth control, boxes that open on double-click, frames
that close on their header — search by name, export, and jump to the backward graph.

Recording runs the model's forward, so it happens in a worker; changing the depth or opening a
box re-lays out the record here (milliseconds to a second for every op of GPT-2)."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.forward.presets import PRESETS
from tensorviz.ui.autograd.details_pane import DetailsPane
from tensorviz.ui.autograd.graph_export import ask_export_path
from tensorviz.ui.forward.architecture_details import intro_text, item_details, meta_note
from tensorviz.ui.forward.architecture_export import export_architecture
from tensorviz.ui.forward.architecture_view import ArchitectureView
from tensorviz.ui.forward.record_worker import RecordedForward, RecordWorker
from tensorviz.ui.widgets.retranslating import Retranslating


class ArchitecturePanel(Retranslating, QWidget):
    status_message = Signal(str)
    architecture_shown = Signal(str)  # the picker text of what is shown
    backward_requested = Signal(object)  # RecordedForward, node id (or "") to select there

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.current: RecordedForward | None = None
        self.selected = ""
        self.matches: list[str] = []
        self.generation = 0
        self.subjects: dict[str, tuple[str, Callable]] = {}  # picker key → (text, maker)
        self.worker = RecordWorker(self)
        self.worker.recorded.connect(self._on_recorded)
        self.worker.failed.connect(self._on_record_failed)
        self._build()
        for key, preset in PRESETS.items():
            self.add_subject(f"preset:{key}", self._preset_text(preset), preset.build)
        self.retranslate()
        self.show_subject("preset:transformer")

    def retranslate(self) -> None:
        self.depth.setToolTip(
            self.tr(
                "0 = the model as one box; the highest value opens every module "
                "down to its torch operations"
            )
        )
        self.fold.setText(self.tr("fold repeats"))
        self.fold.setToolTip(
            self.tr("Draw consecutive blocks with the same structure as one (Block × N)")
        )
        self.search.setPlaceholderText(self.tr("Find module or op…"))
        self.search.setToolTip(
            self.tr("Find modules or ops by name (h.5.attn, linear); Enter jumps to the next match")
        )
        self.fit_button.setText(self.tr("Fit"))
        self.fit_button.setToolTip(self.tr("Show the whole picture"))
        self.export_button.setText(self.tr("Export…"))
        self.export_button.setToolTip(self.tr("Save the picture as PNG, SVG or Graphviz DOT"))
        self.backward_button.setText(self.tr("Backward graph"))
        self.backward_button.setToolTip(
            self.tr(
                "Open the Autograd graph of this forward's output, on the node of the selected op"
            )
        )
        self.title.setText(self.tr("Architecture of"))
        self.depth_label.setText(self.tr("depth"))
        for key, preset in PRESETS.items():
            self.add_subject(f"preset:{key}", self._preset_text(preset), preset.build)
        self._update_depth_note()
        self._update_notice()
        self._rearrange()  # the picture's own words (params, "(model)") in the new language

    def _preset_text(self, preset) -> str:
        return self.tr("preset: %1").replace("%1", preset.title)

    # --- construction ----------------------------------------------------------------------------

    def _build(self) -> None:
        self.picker = QComboBox()
        self.picker.setMinimumContentsLength(10)
        self.picker.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.picker.activated.connect(self._on_picker_changed)
        self.depth = QSpinBox()
        self.depth.valueChanged.connect(self._on_depth_changed)
        self.depth_note = QLabel()
        self.depth_note.setObjectName("hint")
        self.fold = QCheckBox()
        self.fold.setChecked(True)
        self.fold.toggled.connect(self._on_fold_toggled)
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._on_search_changed)
        self.search.returnPressed.connect(self.focus_next_match)
        self.fit_button = QPushButton()
        self.fit_button.clicked.connect(lambda: self.view.fit())
        self.export_button = QPushButton()
        self.export_button.clicked.connect(self._on_export_clicked)
        self.backward_button = QPushButton()
        self.backward_button.clicked.connect(self.request_backward)
        top = QHBoxLayout()
        self.title = QLabel()
        self.title.setObjectName("sectionTitle")
        top.addWidget(self.title)
        top.addWidget(self.picker, 2)
        top.addWidget(self.search, 1)
        top.addWidget(self.fit_button)
        controls = QHBoxLayout()
        self.depth_label = QLabel()
        controls.addWidget(self.depth_label)
        controls.addWidget(self.depth)
        controls.addWidget(self.depth_note)
        controls.addWidget(self.fold)
        controls.addStretch(1)
        controls.addWidget(self.export_button)
        controls.addWidget(self.backward_button)
        self.notice = QLabel()
        self.notice.setObjectName("hint")
        self.notice.setWordWrap(True)
        self.notice.hide()
        self.view = ArchitectureView()
        self.view.item_clicked.connect(self.select_item)
        self.view.item_toggled.connect(self.toggle_item)
        self.view.items_created.connect(self._on_items_created)
        self.details = DetailsPane()
        self.details.setMinimumWidth(200)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.view)
        splitter.addWidget(self.details)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([640, 260])
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(controls)
        layout.addWidget(self.notice)
        layout.addWidget(splitter, 1)
        find = QShortcut(QKeySequence.StandardKey.Find, self)
        find.activated.connect(self.search.setFocus)
        self._set_controls(False)

    def _set_controls(self, ready: bool) -> None:
        for widget in (self.depth, self.fold, self.export_button, self.backward_button):
            widget.setEnabled(ready)

    # --- what is shown ---------------------------------------------------------------------------

    def add_subject(self, key: str, text: str, make_subject: Callable) -> None:
        """A model the picker offers; `make_subject()` returns a ForwardSubject (in a worker)."""
        if key not in self.subjects:
            self.picker.addItem(text, key)
        else:
            self.picker.setItemText(self.picker.findData(key), text)
        self.subjects[key] = (text, make_subject)

    def show_subject(self, key: str) -> None:
        text, make_subject = self.subjects[key]
        self.picker.setCurrentIndex(self.picker.findData(key))
        self.generation += 1
        self.current, self.selected = None, ""
        self._set_controls(False)
        self.view.clear()
        name = text.split(": ", 1)[-1]
        self.details.show_text(lambda: self.tr("<p>Recording %1…</p>").replace("%1", name))
        self.status_message.emit(
            self.tr("Recording the forward of %1… (the window stays usable)").replace("%1", text)
        )
        self.worker.start(make_subject, self.generation)

    def _on_picker_changed(self, index: int) -> None:
        self.show_subject(self.picker.itemData(index))

    def _on_record_failed(self, generation: int, message: str) -> None:
        if generation == self.generation:
            self.details.show_text(
                lambda: (
                    "<p><b>" + self.tr("Could not build the model") + "</b></p>"
                    f"<p>{escape(message)}</p>"
                )
            )
            self.status_message.emit(message)

    def _on_recorded(self, generation: int, done: RecordedForward) -> None:
        if generation != self.generation:
            return  # the user has picked another model meanwhile
        self.current = done
        architecture = done.architecture
        self.depth.blockSignals(True)
        self.depth.setRange(0, architecture.max_depth)
        self.depth.setValue(architecture.state.depth)
        self.depth.blockSignals(False)
        self.fold.blockSignals(True)
        self.fold.setChecked(architecture.state.fold)
        self.fold.blockSignals(False)
        self._update_depth_note()
        self._update_notice()
        self._show_picture(done.picture, fit=True)
        self.details.show_text(lambda: intro_text(architecture))
        self._set_controls(True)
        self.backward_button.setEnabled(self._backward_root() is not None)
        self.architecture_shown.emit(self.picker.currentText())

    def _update_notice(self) -> None:
        record = self.current.architecture.record if self.current is not None else None
        notes = [meta_note()] if record is not None and record.meta else []
        if record is not None and record.error is not None:
            text = self.tr("The forward raised %1: %2 — drawn up to the failing op (red).")
            notes.append(text.replace("%1", record.error_type).replace("%2", record.error.title))
        self.notice.setText("  ·  ".join(notes))
        self.notice.setVisible(bool(notes))

    def _show_picture(self, picture, fit: bool = False) -> None:
        center = self.view.mapToScene(self.view.viewport().rect().center())
        scale = self.view.scale_factor()
        self.view.show_architecture(picture)
        if not fit:  # keep the user's zoom and place while boxes open and close
            self.view.resetTransform()
            self.view.scale(scale, scale)
            self.view.centerOn(center)
            self.view.build_visible_items()
        self._on_search_changed(self.search.text())
        for item in self.view.items_of(self.selected):
            item.set_state(selected_node=True)

    def _rearrange(self, fit: bool = False) -> None:
        if self.current is not None:
            self._show_picture(self.current.architecture.arrange(), fit)

    # --- controls --------------------------------------------------------------------------------

    def _update_depth_note(self) -> None:
        if self.current is None:
            self.depth_note.setText("")
            return
        top = self.depth.maximum()
        value = self.depth.value()
        note = self.tr("every op") if value == top else (self.tr("one box") if value == 0 else "")
        self.depth_note.setText(note)

    def _on_depth_changed(self, value: int) -> None:
        if self.current is not None:
            self.current.architecture.set_depth(value)
            self._update_depth_note()
            self._rearrange(fit=True)

    def _on_fold_toggled(self, checked: bool) -> None:
        if self.current is not None:
            self.current.architecture.set_folding(checked)
            self._rearrange(fit=True)

    def toggle_item(self, item: str) -> None:
        if self.current is not None and self.current.architecture.toggle(item):
            self._rearrange()
            self.select_item(item)

    def select_item(self, item: str) -> None:
        for built in self._items_of(self.selected):
            built.set_state(selected_node=False)
        self.selected = item
        if self.current is None:
            return
        architecture = self.current.architecture
        if not item:
            self.details.show_text(lambda: intro_text(architecture))
            return
        for built in self._items_of(item):
            built.set_state(selected_node=True)
        if item_details(architecture, item):
            self.details.show_text(lambda: item_details(architecture, item))

    def _items_of(self, item: str) -> list:
        frame = self.view.frame_items.get(item)
        return [frame] if frame is not None else self.view.items_of(item)

    def _on_items_created(self, nodes: list, _edges: list) -> None:
        matches = set(self.matches)
        for item in nodes:
            item.set_state(selected_node=item.node == self.selected, match=item.node in matches)

    def _on_search_changed(self, text: str) -> None:
        for item in self.matches:
            for built in self._items_of(item):
                built.set_state(match=False)
        if self.current is None:
            self.matches = []
            return
        architecture = self.current.architecture
        found = architecture.record.find(text)
        self.matches = list(dict.fromkeys(architecture.shown_item(i) for i in found))
        for item in self.matches:
            for built in self._items_of(item):
                built.set_state(match=True)

    def focus_next_match(self) -> None:
        if not self.matches:
            self.status_message.emit(
                self.tr("Nothing is called '%1'").replace("%1", self.search.text())
            )
            return
        at = self.matches.index(self.selected) + 1 if self.selected in self.matches else 0
        item = self.matches[at % len(self.matches)]
        self.select_item(item)
        self.view.focus_on(item)

    # --- the backward graph ----------------------------------------------------------------------

    def _backward_root(self):
        from tensorviz.core.forward.tensor_structure import flatten_tensors

        if self.current is None:
            return None
        tensors = flatten_tensors(self.current.outputs)
        return next((t for _, t in tensors if t.grad_fn is not None), None)

    def request_backward(self) -> None:
        if self._backward_root() is not None:
            self.backward_requested.emit((self.current, self.selected))

    def select_recorded(self, serial: int, node: str) -> bool:
        """Select the op a backward node was made by (the link back from the Autograd graph)."""
        if self.current is None or self.current.architecture.record.serial != serial:
            return False
        item = self.current.architecture.shown_item(node)
        self.select_item(item)
        self.view.focus_on(item)
        return True

    # --- export and closing ----------------------------------------------------------------------

    def export_to(self, path: str) -> bool:
        if self.current is None:
            return False
        try:
            written = export_architecture(self.view, self.current.architecture, path)
        except (OSError, ValueError) as error:
            self.status_message.emit(self.tr("Export failed: %1").replace("%1", str(error)))
            return False
        self.status_message.emit(self.tr("Saved %1").replace("%1", str(written)))
        return True

    def _on_export_clicked(self) -> None:
        if path := ask_export_path(self):
            self.export_to(path)

    def shutdown(self) -> None:
        self.generation += 1
        self.worker.stop()
