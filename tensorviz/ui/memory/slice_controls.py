"""Chooses the 2-D slice of an n-D tensor the grid shows: which dims run down and across, and a
slider + spin box for the index of every other dim."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSlider, QSpinBox, QWidget

from tensorviz.core.memory.strides import index_names
from tensorviz.ui.memory.layout_texts import filled
from tensorviz.ui.widgets.layout_clearing import clear_layout
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import scaled


class SliceControls(Retranslating, QWidget):
    slice_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.shape: tuple[int, ...] = ()
        self.row_dim: int | None = None
        self.col_dim: int | None = None
        self.positions: dict[int, int] = {}
        self.spin_boxes: dict[int, QSpinBox] = {}
        self.sliders: dict[int, QSlider] = {}
        self.axis_titles: list[QLabel] = []  # "rows:", "columns:"
        self.dim_titles: dict[int, QLabel] = {}  # beside each slider
        self.row_combo: QComboBox | None = None
        self.col_combo: QComboBox | None = None
        self.layout_ = QHBoxLayout(self)
        self.layout_.setContentsMargins(0, 0, 0, 0)
        self.retranslate()

    def retranslate(self) -> None:
        """The words of the controls in place (rebuilding would drop the focus)."""
        for title, text in zip(
            self.axis_titles, (self.tr("rows:"), self.tr("columns:")), strict=False
        ):
            title.setText(text)
        names = index_names(len(self.shape))
        for dim, title in self.dim_titles.items():
            title.setText(filled(self.tr("  %1 (dim %2):"), names[dim], dim))
        for combo in (self.row_combo, self.col_combo):
            if combo is not None:
                for row in range(combo.count()):
                    combo.setItemText(row, self._dim_choice(combo.itemData(row)))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.FontChange:  # View → Zoom: the sliders grow too
            for slider in self.sliders.values():
                self._size_slider(slider)
        super().changeEvent(event)

    def set_shape(self, shape: tuple[int, ...]) -> None:
        if shape == self.shape and self.spin_boxes.keys() == self._other_dims():
            return
        self.shape = tuple(shape)
        ndim = len(shape)
        self.row_dim = ndim - 2 if ndim >= 2 else None
        self.col_dim = ndim - 1 if ndim >= 1 else None
        self.positions = {}
        self._rebuild()

    def fixed(self) -> tuple[int | None, ...]:
        """One entry per dim: the chosen index, or None for the two dims the grid shows."""
        return tuple(
            None if d in (self.row_dim, self.col_dim) else self.positions.get(d, 0)
            for d in range(len(self.shape))
        )

    def show_index(self, index: tuple[int, ...]) -> None:
        """Move the sliders so the grid shows the element at `index`."""
        for dim, box in self.spin_boxes.items():
            if box.value() != index[dim]:
                box.setValue(index[dim])  # fires _on_position_changed

    def index_tuple(self) -> tuple:
        """The slice as a torch index, e.g. (1, slice(None), slice(None)) for x[1, :, :]."""
        return tuple(slice(None) if i is None else i for i in self.fixed())

    def full_index(self, row: int, col: int) -> tuple[int, ...]:
        """The n-D index of the grid cell (row, col)."""
        index = list(self.fixed())
        if self.row_dim is not None:
            index[self.row_dim] = row
        if self.col_dim is not None:
            index[self.col_dim] = col
        return tuple(index)

    def grid_position(self, index) -> tuple[int, int] | None:
        """The grid cell of an n-D index, or None when it lies in another slice."""
        if any(f is not None and f != i for f, i in zip(self.fixed(), index, strict=True)):
            return None
        row = index[self.row_dim] if self.row_dim is not None else 0
        col = index[self.col_dim] if self.col_dim is not None else 0
        return (row, col)

    def dim_label(self, dim: int | None) -> str:
        if dim is None:
            return ""
        name = index_names(len(self.shape))[dim]
        return filled(self.tr("dim %1 (%2), size %3"), dim, name, self.shape[dim])

    def _dim_choice(self, dim: int) -> str:
        return filled(self.tr("dim %1 (%2)"), dim, index_names(len(self.shape))[dim])

    @staticmethod
    def _size_slider(slider: QSlider) -> None:
        slider.setMaximumWidth(scaled(120))
        slider.setMinimumWidth(scaled(40))

    def _other_dims(self) -> set[int]:
        return {d for d in range(len(self.shape)) if d not in (self.row_dim, self.col_dim)}

    def _rebuild(self) -> None:
        clear_layout(self.layout_)
        self.spin_boxes, self.sliders, self.axis_titles, self.dim_titles = {}, {}, [], {}
        self.row_combo = self.col_combo = None
        ndim = len(self.shape)
        if ndim >= 2:
            self.axis_titles = [QLabel(), QLabel()]
            self.layout_.addWidget(self.axis_titles[0])
            self.row_combo = self._dim_combo(self.row_dim)
            self.row_combo.currentIndexChanged.connect(self._on_axes_changed)
            self.layout_.addWidget(self.row_combo)
            self.layout_.addWidget(self.axis_titles[1])
            self.col_combo = self._dim_combo(self.col_dim)
            self.col_combo.currentIndexChanged.connect(self._on_axes_changed)
            self.layout_.addWidget(self.col_combo)
        for dim in sorted(self._other_dims()):
            self.dim_titles[dim] = QLabel()
            self.layout_.addWidget(self.dim_titles[dim])
            slider = QSlider(Qt.Orientation.Horizontal)
            slider.setRange(0, max(self.shape[dim] - 1, 0))
            self._size_slider(slider)
            self.sliders[dim] = slider
            box = QSpinBox()
            box.setRange(0, max(self.shape[dim] - 1, 0))
            box.setValue(self.positions.get(dim, 0))
            slider.setValue(box.value())
            slider.valueChanged.connect(box.setValue)
            box.valueChanged.connect(slider.setValue)
            box.valueChanged.connect(lambda value, d=dim: self._on_position_changed(d, value))
            self.layout_.addWidget(slider)
            self.layout_.addWidget(box)
            self.spin_boxes[dim] = box
        self.layout_.addStretch(1)
        self.retranslate()

    def _dim_combo(self, chosen: int | None) -> QComboBox:
        combo = QComboBox()
        combo.setProperty("translated_items", True)  # the walker checks these words too
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)  # any language
        for dim in range(len(self.shape)):
            combo.addItem("", dim)  # named by retranslate
        combo.setCurrentIndex(chosen or 0)
        return combo

    def _on_axes_changed(self, _index: int) -> None:
        row, col = self.row_combo.currentData(), self.col_combo.currentData()
        if row == col:  # the same dim twice: swap the two instead
            if row != self.row_dim:
                col = self.row_dim
            else:
                row = self.col_dim
        self.row_dim, self.col_dim = row, col
        self._rebuild()
        self.slice_changed.emit()

    def _on_position_changed(self, dim: int, value: int) -> None:
        self.positions[dim] = value
        self.slice_changed.emit()
