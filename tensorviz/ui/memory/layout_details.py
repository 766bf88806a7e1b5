"""The column beside the picture: the formula of the hovered element, who reads the selected
storage cell, the contiguity explanation, walk mode, and torch's error for an in-place write."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from tensorviz.core.memory.strides import Layout, walk_step
from tensorviz.ui.memory import layout_texts
from tensorviz.ui.memory.walk_controls import WalkControls
from tensorviz.ui.widgets.error_panel import ErrorPanel
from tensorviz.ui.widgets.retranslating import Retranslating


def _section() -> QLabel:
    label = QLabel()
    label.setObjectName("sectionTitle")
    return label


def _text(object_name: str = "") -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    if object_name:
        label.setObjectName(object_name)
    return label


class LayoutDetails(Retranslating, QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.formula = _text("formulaBox")
        self.cell = _text()
        self.layout_text = _text()
        self.walk_text = _text("formulaBox")
        self.walk = WalkControls()
        self.write_button = QPushButton()
        self.error_panel = ErrorPanel()
        self.sections = [_section() for _ in range(4)]
        column = QVBoxLayout(self)
        column.setContentsMargins(4, 0, 4, 0)
        column.addWidget(self.sections[0])
        column.addWidget(self.formula)
        column.addWidget(self.sections[1])
        column.addWidget(self.cell)
        column.addWidget(self.sections[2])
        column.addWidget(self.layout_text)
        column.addWidget(self.write_button, 0, Qt.AlignmentFlag.AlignLeft)
        column.addWidget(self.error_panel)
        column.addWidget(self.sections[3])
        column.addWidget(self.walk)
        column.addWidget(self.walk_text)
        column.addStretch(1)
        self.retranslate()

    def retranslate(self) -> None:
        titles = (
            self.tr("Element → storage"),
            self.tr("Storage cell → elements"),
            self.tr("Layout"),
            self.tr("Walk in logical order"),
        )
        for section, title in zip(self.sections, titles, strict=True):
            section.setText(title)
        self.write_button.setText(self.tr("Try in-place write"))
        self.write_button.setToolTip(
            self.tr(
                "Runs name.add_(1) on a stand-in storage with the same strides, so you see "
                "torch's real answer and the workspace stays as it is"
            )
        )

    def show_tensor(self, name: str, tensor, member, sharers) -> None:
        """The texts for a newly shown tensor (None when the workspace is empty); `member` is
        its StripMember, `sharers` the other members reading its storage."""
        self.walk_text.setText(layout_texts.walk_prompt())
        if tensor is None:
            self.layout_text.setText(self.tr("The workspace is empty: create a tensor first."))
            self.formula.setText("")
            self.cell.setText("")
            return
        byte_stride = member.byte_stride if member else ()
        self.layout_text.setText(
            layout_texts.layout_html(name, Layout.of(tensor), byte_stride, sharers)
        )
        # The grid's gestures are said here, where the hovered element's formula will be, so
        # the caption above the grid stays short (two lines at 200 %, not four).
        self.formula.setText(
            self.tr(
                "Hover over an element of the grid to see its formula. Wheel zooms, drag pans, "
                "double-click fits."
            )
        )
        self.cell.setText(self.tr("Click a storage cell (or an element) to see who reads it."))

    def show_formula(self, name: str, tensor, index) -> None:
        """Which storage cell element `index` reads, and the formula with its numbers."""
        layout = Layout.of(tensor)
        self.formula.setText(layout_texts.formula_html(name, layout, index, tensor.element_size()))

    def show_readers(self, name: str, cell: int, readers, total: int) -> None:
        self.cell.setText(layout_texts.readers_html(name, cell, readers, total))

    def show_walk(self, name: str, tensor, position: int, trail: list[int]) -> None:
        """Step `position` of the walk in logical order; `trail` ends with the cell it reads."""
        step = walk_step(Layout.of(tensor), position)
        self.walk_text.setText(
            layout_texts.walk_html(
                name, step.index, trail[-1], position, tensor.numel(), step.jump, trail
            )
        )
