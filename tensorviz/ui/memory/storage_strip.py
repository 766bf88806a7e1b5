"""The storage strips: each storage of the workspace as one row of cells, with one lane per
tensor (or shared NumPy array) reading it, marked where it reads, in that reader's colour.

The selected tensor's storage comes first and is the one linked to the grid. Cells narrower
than a few pixels are binned per pixel column (a lane shows whether any cell in the bin is
read), and lanes ask core's StorageReads only about the bins or cells drawn, so a strip of
millions of cells paints in the time the screen costs. A lane whose counts are still being
computed off the GUI thread is drawn hatched until they arrive."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from tensorviz.core.memory.storage_reads import StorageReads
from tensorviz.core.memory.storage_sharing import StorageGroup
from tensorviz.ui.memory.palette import (
    GRID_LINE,
    HOVER,
    INK,
    MUTED,
    SELECTED,
    WALK,
    ZoomWindow,
    member_colour,
    storage_colour,
    storage_rgb,
    text_colour_on,
)

NAME_WIDTH, MARGIN, HEADER, LANE, GAP = 150, 10, 22, 13, 26
CELL_ROW, OTHER_CELL_ROW = 30, 18
CELLS_BELOW = 3.0  # narrower cells are binned per pixel column
IMAGES_KEPT = 64  # binned rows remembered across zooms


@dataclass
class StripRows:
    """Where one group's rows lie (y coordinates), for painting and hit-testing."""

    group: StorageGroup
    reads: dict[str, StorageReads]
    top: float
    cells_top: float
    cells_height: float
    lanes_top: float

    @property
    def bottom(self) -> float:
        return self.lanes_top + len(self.group.members) * (LANE + 3)


class StorageStripView(QWidget):
    cell_hovered = Signal(int)  # a cell of the selected tensor's storage; -1 when leaving
    cell_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(260)
        self.rows: list[StripRows] = []
        self.selected_name = ""
        self.colours: dict[str, QColor] = {}
        self.lit: list[int] = []  # cells lit by the grid's hovered element
        self.selected_cell: int | None = None
        self.walk_cell: int | None = None
        self.walk_from: int | None = None  # the walk's previous cell: an arrow shows the jump
        self.window = ZoomWindow()
        self._images: dict[tuple, QImage] = {}  # binned rows, kept while data and zoom stay

    def set_groups(self, groups, reads: dict[str, StorageReads], selected_name: str) -> None:
        """groups: StorageGroups, the selected tensor's first; reads: read counts by member."""
        self.selected_name = selected_name
        names = [m.name for g in groups for m in g.members]
        self.colours = {name: member_colour(i) for i, name in enumerate(names)}
        self.rows, y = [], 4.0
        for position, group in enumerate(groups):
            cells_height = CELL_ROW if position == 0 else OTHER_CELL_ROW
            group_reads = {m.name: reads[m.name] for m in group.members}
            rows = StripRows(
                group, group_reads, y, y + HEADER, cells_height, y + HEADER + cells_height + 4
            )
            self.rows.append(rows)
            y = rows.bottom + GAP
        self._images.clear()
        self.setMinimumHeight(int(y))
        self.updateGeometry()
        self.update()

    def counts_arrived(self) -> None:
        """A member's StorageReads just learnt its counts: redraw its lanes."""
        self._images.clear()
        self.update()

    def set_highlights(self, lit=(), selected_cell=None, walk_cell=None, walk_from=None) -> None:
        self.lit, self.selected_cell, self.walk_cell = list(lit), selected_cell, walk_cell
        self.walk_from = walk_from
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(600, self.minimumHeight() or 120)

    # --- geometry --------------------------------------------------------------------------------

    def _strip_width(self) -> float:
        return max(self.width() - NAME_WIDTH - MARGIN, 10)

    def _cell_width(self, cells: int) -> float:
        return self._strip_width() / max(cells * (self.window.x1 - self.window.x0), 1e-9)

    def cell_x(self, cells: int, cell: int) -> float:
        return NAME_WIDTH + (cell - self.window.x0 * cells) * self._cell_width(cells)

    def cell_at(self, point: QPointF) -> int | None:
        if not self.rows or point.x() < NAME_WIDTH:
            return None
        first = self.rows[0]
        if not first.cells_top <= point.y() <= first.bottom:
            return None
        cells = first.group.cells
        cell = math.floor(
            self.window.x0 * cells + (point.x() - NAME_WIDTH) / self._cell_width(cells)
        )
        return cell if 0 <= cell < cells else None

    # --- painting --------------------------------------------------------------------------------

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        self.paint_picture(painter)
        painter.end()

    def paint_picture(self, painter: QPainter) -> None:
        painter.fillRect(self.rect(), Qt.GlobalColor.white)
        for position, rows in enumerate(self.rows):
            self._paint_group(painter, rows, position == 0)
        if self.rows:
            self._paint_highlights(painter, self.rows[0])
            self._paint_jump(painter, self.rows[0])

    def _paint_group(self, painter: QPainter, rows: StripRows, selected: bool) -> None:
        group = rows.group
        font = QFont(self.font())
        font.setBold(selected)
        painter.setFont(font)
        painter.setPen(INK if selected else MUTED)
        readers = ", ".join(m.name for m in group.members)
        title = (
            f"{'Storage of ' + self.selected_name if selected else 'Other storage'}: "
            f"{group.cells:,} cells × {group.cell_bytes} bytes = {group.nbytes:,} bytes"
            f"  ·  read by {readers}"
        )
        painter.drawText(
            QRectF(MARGIN, rows.top, self.width() - 2 * MARGIN, HEADER - 4),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom,
            painter.fontMetrics().elidedText(
                title, Qt.TextElideMode.ElideRight, self.width() - 2 * MARGIN
            ),
        )
        painter.setFont(self.font())
        painter.setPen(MUTED)
        painter.drawText(
            QRectF(MARGIN, rows.cells_top, NAME_WIDTH - 16, rows.cells_height),
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight,
            "storage",
        )
        cells = group.cells
        self._paint_cells(painter, rows, cells)
        for lane, member in enumerate(group.members):
            y = rows.lanes_top + lane * (LANE + 3)
            colour = self.colours[member.name]
            font.setBold(member.name == self.selected_name)
            painter.setFont(font)
            painter.setPen(colour)
            label = painter.fontMetrics().elidedText(
                member.name, Qt.TextElideMode.ElideMiddle, NAME_WIDTH - 20
            )
            painter.drawText(
                QRectF(MARGIN, y - 2, NAME_WIDTH - 16, LANE + 4),
                Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight,
                label,
            )
            self._paint_lane(painter, rows.reads[member.name], cells, y, colour)
        painter.setFont(self.font())

    def _visible_cells(self, cells: int) -> range:
        first = math.floor(self.window.x0 * cells)
        return range(max(first, 0), min(math.ceil(self.window.x1 * cells), cells))

    def _paint_cells(self, painter: QPainter, rows: StripRows, cells: int) -> None:
        width = self._cell_width(cells)
        top, height = rows.cells_top, rows.cells_height
        if width < CELLS_BELOW:
            image = self._cached(("cells", cells), lambda: self._cells_image(cells))
            painter.drawImage(QRectF(NAME_WIDTH, top, image.width(), height), image)
            return
        painter.setPen(QPen(GRID_LINE, 1))
        for cell in self._visible_cells(cells):
            rect = QRectF(self.cell_x(cells, cell), top, width, height)
            colour = storage_colour(cell, cells)
            painter.fillRect(rect, colour)
            if width >= 5:
                painter.setPen(QPen(GRID_LINE, 1))
                painter.drawRect(rect)
            if width >= 8 * len(str(cell)) + 4 and height >= CELL_ROW:
                painter.setPen(text_colour_on(colour))
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(cell))

    def _cached(self, key: tuple, make) -> QImage:
        key = (*key, int(self._strip_width()), self.window.x0, self.window.x1)
        if key not in self._images:
            if len(self._images) >= IMAGES_KEPT:
                self._images.clear()
            self._images[key] = make()
        return self._images[key]

    def _cells_image(self, cells: int) -> QImage:
        bins = self._bins(cells)
        rgb = np.ascontiguousarray(storage_rgb(bins, cells)[None, :, :])
        return QImage(rgb.data, len(bins), 1, 3 * len(bins), QImage.Format.Format_RGB888).copy()

    def _lane_image(self, reads: StorageReads, cells: int, colour: QColor) -> QImage:
        bins = self._bins(cells)
        read = reads.any_read(bins, min(math.ceil(self.window.x1 * cells), cells))
        rgba = np.zeros((1, len(bins), 4), dtype=np.uint8)
        if read is None:  # still counting: a light hatch, never a wrong answer
            rgba[0, ::4] = (colour.red(), colour.green(), colour.blue(), 70)
        else:
            rgba[0, read] = (colour.red(), colour.green(), colour.blue(), 255)
        image = QImage(rgba.data, len(bins), 1, 4 * len(bins), QImage.Format.Format_RGBA8888)
        return image.copy()

    def _bins(self, cells: int) -> np.ndarray:
        """First cell of every pixel column of the strip."""
        pixels = int(self._strip_width())
        starts = self.window.x0 * cells + np.arange(pixels) / self._cell_width(cells)
        return np.clip(starts.astype(np.int64), 0, cells - 1)

    def _paint_lane(self, painter, reads: StorageReads, cells: int, y: float, colour) -> None:
        width = self._cell_width(cells)
        painter.fillRect(QRectF(NAME_WIDTH, y, self._strip_width(), LANE), QColor("#f3f4f6"))
        if width < CELLS_BELOW:
            key = ("lane", id(reads), reads.known, colour.rgba())
            image = self._cached(key, lambda: self._lane_image(reads, cells, colour))
            painter.drawImage(QRectF(NAME_WIDTH, y, image.width(), LANE), image)
            return
        visible = self._visible_cells(cells)
        counts = reads.counts_at(np.arange(visible.start, visible.stop))
        if counts is None:
            image = self._lane_image(reads, cells, colour)
            painter.drawImage(QRectF(NAME_WIDTH, y, image.width(), LANE), image)
            return
        font = QFont(self.font())
        font.setPixelSize(10)
        painter.setFont(font)
        for cell, count in zip(visible, counts.tolist(), strict=True):
            if count:
                rect = QRectF(self.cell_x(cells, cell) + 0.5, y, max(width - 1, 1), LANE)
                painter.fillRect(rect, colour if count == 1 else colour.darker(140))
                if count > 1 and width >= 22:
                    painter.setPen(QColor("white"))
                    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, f"×{count}")
        painter.setFont(self.font())

    def _paint_highlights(self, painter: QPainter, rows: StripRows) -> None:
        cells = rows.group.cells
        width = max(self._cell_width(cells), 5)
        height = rows.bottom - rows.cells_top
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for cell_list, colour, pen in (
            ([self.walk_cell] if self.walk_cell is not None else [], WALK, 3),
            ([self.selected_cell] if self.selected_cell is not None else [], SELECTED, 3),
            (self.lit, HOVER, 2.5),
        ):
            painter.setPen(QPen(colour, pen))
            for cell in cell_list:
                x = self.cell_x(cells, cell) - (width - self._cell_width(cells)) / 2
                painter.drawRect(QRectF(x, rows.cells_top - 1, width, height + 2))

    def _paint_jump(self, painter: QPainter, rows: StripRows) -> None:
        """An arc under the lanes from the walk's previous cell to its current one."""
        if self.walk_cell is None or self.walk_from is None:
            return
        cells, half = rows.group.cells, self._cell_width(rows.group.cells) / 2
        start = QPointF(self.cell_x(cells, self.walk_from) + half, rows.bottom)
        end = QPointF(self.cell_x(cells, self.walk_cell) + half, rows.bottom)
        middle = QPointF((start.x() + end.x()) / 2, rows.bottom + GAP - 2)
        path = QPainterPath(start)
        path.quadTo(middle, end)
        painter.setPen(QPen(WALK.darker(150), 2))
        painter.drawPath(path)
        painter.setBrush(WALK.darker(150))
        painter.drawEllipse(end, 3.5, 3.5)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        jump = self.walk_cell - self.walk_from
        painter.drawText(
            QRectF(middle.x() - 30, middle.y() - 12, 60, 14),
            Qt.AlignmentFlag.AlignCenter,
            f"{jump:+d}",
        )

    # --- gestures --------------------------------------------------------------------------------

    def mouseMoveEvent(self, event) -> None:
        cell = self.cell_at(event.position())
        self.cell_hovered.emit(-1 if cell is None else cell)

    def leaveEvent(self, event) -> None:
        self.cell_hovered.emit(-1)

    def mousePressEvent(self, event) -> None:
        cell = self.cell_at(event.position())
        if cell is not None and event.button() == Qt.MouseButton.LeftButton:
            self.cell_clicked.emit(cell)

    def wheelEvent(self, event) -> None:
        fx = (event.position().x() - NAME_WIDTH) / self._strip_width()
        self.window.zoom(1.25 if event.angleDelta().y() > 0 else 0.8, min(max(fx, 0), 1), 0, False)
        self.update()

    def mouseDoubleClickEvent(self, event) -> None:
        self.window.reset()
        self.update()
