"""Chooses the 2-D slice of an n-D tensor the grid shows: which dims run down and across, and a
slider + spin box for the index of every other dim."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSlider, QSpinBox, QWidget

from tensorviz.core.memory.strides import index_names
from tensorviz.ui.widgets.layout_clearing import clear_layout


class SliceControls(QWidget):
    slice_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.shape: tuple[int, ...] = ()
        self.row_dim: int | None = None
        self.col_dim: int | None = None
        self.positions: dict[int, int] = {}
        self.spin_boxes: dict[int, QSpinBox] = {}
        self.layout_ = QHBoxLayout(self)
        self.layout_.setContentsMargins(0, 0, 0, 0)

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
        return f"dim {dim} ({index_names(len(self.shape))[dim]}), size {self.shape[dim]}"

    def _other_dims(self) -> set[int]:
        return {d for d in range(len(self.shape)) if d not in (self.row_dim, self.col_dim)}

    def _rebuild(self) -> None:
        clear_layout(self.layout_)
        self.spin_boxes = {}
        ndim = len(self.shape)
        if ndim >= 2:
            self.layout_.addWidget(QLabel("rows:"))
            self.row_combo = self._dim_combo(self.row_dim)
            self.row_combo.currentIndexChanged.connect(self._on_axes_changed)
            self.layout_.addWidget(self.row_combo)
            self.layout_.addWidget(QLabel("columns:"))
            self.col_combo = self._dim_combo(self.col_dim)
            self.col_combo.currentIndexChanged.connect(self._on_axes_changed)
            self.layout_.addWidget(self.col_combo)
        names = index_names(ndim)
        for dim in sorted(self._other_dims()):
            self.layout_.addWidget(QLabel(f"  {names[dim]} (dim {dim}):"))
            slider = QSlider(Qt.Orientation.Horizontal)
            slider.setRange(0, max(self.shape[dim] - 1, 0))
            slider.setMaximumWidth(120)
            slider.setMinimumWidth(40)
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

    def _dim_combo(self, chosen: int | None) -> QComboBox:
        combo = QComboBox()
        names = index_names(len(self.shape))
        for dim in range(len(self.shape)):
            combo.addItem(f"dim {dim} ({names[dim]})", dim)
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
