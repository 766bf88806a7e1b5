"""The Memory layout area's first tab, as built: the tensor picker, its summary and the export
buttons above; the slice controls, the logical grid and the storage strips on the left; the
details column on the right. LayoutPanel wires it to core; this holds only widgets, their fixed
words and the sizes that follow View → Zoom."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from tensorviz.ui.memory.layout_details import LayoutDetails
from tensorviz.ui.memory.logical_grid import LogicalGridView
from tensorviz.ui.memory.palette import is_appearance_change
from tensorviz.ui.memory.slice_controls import SliceControls
from tensorviz.ui.memory.storage_strip import StorageStripView
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.scrolling import scrolling
from tensorviz.ui.widgets.theme import scaled

DETAILS_WIDTH = 220  # pixels at 100 %: the narrowest the details column gets
STRIP_ROOM = 50  # pixels at 100 % beside two lines of text: a storage's cell row and margins


class _Hint(QLabel):
    """A word-wrapped hint that asks for the height its words need at its width: a splitter
    reads only minimum sizes, and would otherwise squeeze it under the widgets below it."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("hint")
        self.setWordWrap(True)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        needed = max(self.heightForWidth(self.width()), 0)  # -1: no text, no need
        if needed != self.minimumHeight():
            self.setMinimumHeight(needed)


class StridesTab(Retranslating, QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.picker = QComboBox()
        self.picker.setMinimumContentsLength(12)
        self.export_png = QPushButton()
        self.export_svg = QPushButton()
        self.tensor_title = QLabel()
        self.tensor_title.setObjectName("sectionTitle")
        self.summary = _Hint()
        top = QHBoxLayout()
        for widget, stretch in ((self.tensor_title, 0), (self.picker, 0), (self.summary, 1),
                                (self.export_png, 0), (self.export_svg, 0)):  # fmt: skip
            top.addWidget(widget, stretch)

        self.slice_controls = SliceControls()
        self.grid = LogicalGridView()
        self.strips = StorageStripView()
        self.grid_caption = _Hint()
        grid_box = QWidget()
        grid_layout = QVBoxLayout(grid_box)
        grid_layout.setContentsMargins(0, 0, 0, 0)
        # Many dims must not widen the window: the slice controls scroll sideways when short.
        self.controls_scroll = scrolling(self.slice_controls, Qt.Orientation.Horizontal)
        grid_layout.addWidget(self.controls_scroll)
        grid_layout.addWidget(self.grid_caption)
        grid_layout.addWidget(self.grid, 1)
        picture = QSplitter(Qt.Orientation.Vertical)
        picture.addWidget(grid_box)
        self.strip_scroll = scrolling(self.strips, Qt.Orientation.Vertical)
        picture.addWidget(self.strip_scroll)
        picture.setStretchFactor(0, 3)
        picture.setStretchFactor(1, 2)
        picture.setSizes([430, 250])

        self.details = LayoutDetails()
        self.details_scroll = scrolling(self.details, Qt.Orientation.Vertical)
        body = QSplitter(Qt.Orientation.Horizontal)
        body.addWidget(picture)
        body.addWidget(self.details_scroll)
        body.setStretchFactor(0, 3)
        body.setStretchFactor(1, 2)
        body.setSizes([640, 380])

        column = QVBoxLayout(self)
        column.addLayout(top)
        column.addWidget(body, 1)
        self._size_controls()
        self.retranslate()

    def retranslate(self) -> None:
        self.export_png.setText(self.tr("Export PNG…"))
        self.export_svg.setText(self.tr("Export SVG…"))
        self.tensor_title.setText(self.tr("Tensor"))

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt override)
        """The least height that shows everything: the scroll area around the tab scrolls only
        when that does not fit (its preferred height, the default, would make the whole tab
        scroll at 200 % and squeeze the splitter's views out of sight)."""
        return self.layout().totalMinimumHeightForWidth(width)

    def changeEvent(self, event: QEvent) -> None:
        if is_appearance_change(event) and hasattr(self, "details_scroll"):
            self._size_controls()
        super().changeEvent(event)

    def _size_controls(self) -> None:
        """Sizes that follow the font (View → Zoom): the slice controls' row is one row of
        spin boxes and its scroll bar high; the details column keeps room for its words; the
        strips keep room for the shown storage's title, its cells and a lane (at 200 % the
        splitter would otherwise squeeze them to their title)."""
        bar_height = self.controls_scroll.horizontalScrollBar().sizeHint().height()
        row_height = max(
            self.slice_controls.sizeHint().height(), QSpinBox().sizeHint().height() + scaled(8)
        )
        self.controls_scroll.setFixedHeight(row_height + bar_height + 2)
        self.details_scroll.setMinimumWidth(scaled(DETAILS_WIDTH))
        line = QFontMetricsF(self.font()).height()
        self.strip_scroll.setMinimumHeight(round(2 * line + scaled(STRIP_ROOM)))
