"""The column beside the picture: the formula of the hovered element, who reads the selected
storage cell, the contiguity explanation, walk mode, and torch's error for an in-place write."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from tensorviz.core.memory.strides import Layout
from tensorviz.ui.memory import layout_texts
from tensorviz.ui.memory.walk_controls import WalkControls
from tensorviz.ui.widgets.error_panel import ErrorPanel


def _section(title: str) -> QLabel:
    label = QLabel(title)
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


class LayoutDetails(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.formula = _text("formulaBox")
        self.cell = _text()
        self.layout_text = _text()
        self.walk_text = _text("formulaBox")
        self.walk = WalkControls()
        self.write_button = QPushButton("Try in-place write")
        self.write_button.setToolTip(
            "Runs name.add_(1) on a stand-in storage with the same strides, so you see "
            "torch's real answer and the workspace stays as it is"
        )
        self.error_panel = ErrorPanel()
        column = QVBoxLayout(self)
        column.setContentsMargins(4, 0, 4, 0)
        column.addWidget(_section("Element → storage"))
        column.addWidget(self.formula)
        column.addWidget(_section("Storage cell → elements"))
        column.addWidget(self.cell)
        column.addWidget(_section("Layout"))
        column.addWidget(self.layout_text)
        column.addWidget(self.write_button, 0, Qt.AlignmentFlag.AlignLeft)
        column.addWidget(self.error_panel)
        column.addWidget(_section("Walk in logical order"))
        column.addWidget(self.walk)
        column.addWidget(self.walk_text)
        column.addStretch(1)

    def show_tensor(self, name: str, tensor, member, sharers) -> None:
        """The texts for a newly shown tensor (None when the workspace is empty); `member` is
        its StripMember, `sharers` the other members reading its storage."""
        self.walk_text.setText(layout_texts.WALK_PROMPT)
        if tensor is None:
            self.layout_text.setText("The workspace is empty: create a tensor first.")
            self.formula.setText("")
            self.cell.setText("")
            return
        byte_stride = member.byte_stride if member else ()
        self.layout_text.setText(
            layout_texts.layout_html(name, Layout.of(tensor), byte_stride, sharers)
        )
        self.formula.setText("Hover over an element of the grid.")
        self.cell.setText("Click a storage cell (or an element) to see who reads it.")
