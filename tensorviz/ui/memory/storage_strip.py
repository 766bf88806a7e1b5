"""The storage strips: each storage of the workspace as one row of cells, with one lane per
tensor (or shared NumPy array) reading it, marked where it reads, in that reader's colour.

The selected tensor's storage comes first and is the one linked to the grid. Cells narrower
than a few pixels are binned per pixel column (a lane shows whether any cell in the bin is
read), and lanes ask core's StorageReads only about the bins or cells drawn, so a strip of
millions of cells paints in the time the screen costs. A lane whose counts are still being
computed off the GUI thread is drawn hatched until they arrive. Colours come from the theme and
sizes from View → Zoom (rows are laid out again when it changes)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from tensorviz.core.memory.storage_reads import StorageReads
from tensorviz.core.memory.storage_sharing import StorageGroup
from tensorviz.ui.memory.layout_texts import filled
from tensorviz.ui.memory.palette import (
    ZoomWindow,
    grid_line_colour,
    hover_colour,
    is_appearance_change,
    member_colour,
    selected_colour,
    storage_colour,
    storage_rgb,
    text_colour_on,
    walk_colour,
)
from tensorviz.ui.widgets.theme import colour, current_theme, current_zoom, scaled

# Sizes in pixels at 100 % (View → Zoom scales them): the names' column, the margin, the gap
# between storages, the selected storage's cell row and the other storages'.
NAME_WIDTH, MARGIN, GAP = 150, 10, 26
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
    lane: float  # a lane's height
    lane_pitch: float  # from one lane's top to the next one's

    @property
    def bottom(self) -> float:
        return self.lanes_top + len(self.group.members) * self.lane_pitch


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
        self.groups: list[StorageGroup] = []
        self.reads: dict[str, StorageReads] = {}
        self.lane_positions: dict[str, int] = {}  # member → its colour's position
        self.lit: list[int] = []  # cells lit by the grid's hovered element
        self.selected_cell: int | None = None
        self.walk_cell: int | None = None
        self.walk_from: int | None = None  # the walk's previous cell: an arrow shows the jump
        self.window = ZoomWindow()
        self._images: dict[tuple, QImage] = {}  # binned rows, kept while data and zoom stay

    def set_groups(self, groups, reads: dict[str, StorageReads], selected_name: str) -> None:
        """groups: StorageGroups, the selected tensor's first; reads: read counts by member."""
        self.selected_name = selected_name
        self.groups, self.reads = list(groups), reads
        names = [m.name for g in groups for m in g.members]
        self.lane_positions = {name: i for i, name in enumerate(names)}
        self._lay_out()

    def _lay_out(self) -> None:
        """Each group's rows at the zoom and font in force."""
        line = QFontMetricsF(self.font()).height()
        header, lane = line + scaled(5), max(float(scaled(10)), line - scaled(4))
        self.rows, y = [], float(scaled(4))
        for position, group in enumerate(self.groups):
            cells_height = scaled(CELL_ROW if position == 0 else OTHER_CELL_ROW)
            group_reads = {m.name: self.reads[m.name] for m in group.members}
            cells_top = y + header
            lanes_top = cells_top + cells_height + scaled(4)
            rows = StripRows(
                group, group_reads, y, cells_top, cells_height, lanes_top, lane, lane + scaled(3)
            )
            self.rows.append(rows)
            y = rows.bottom + self._gap()
        self._images.clear()
        self.setMinimumHeight(int(y))
        self.updateGeometry()
        self.update()

    def _gap(self) -> float:
        """Between two storages: room for the walk's arc and the jump written on it."""
        return max(float(scaled(GAP)), QFontMetricsF(self.font()).height() + scaled(9))

    def member_colour_of(self, name: str) -> QColor:
        return member_colour(self.lane_positions[name])

    def changeEvent(self, event) -> None:
        if is_appearance_change(event):  # theme or zoom: colours and sizes are read anew
            self._lay_out()
        super().changeEvent(event)

    def counts_arrived(self) -> None:
        """A member's StorageReads just learnt its counts: redraw its lanes."""
        self._images.clear()
        self.update()

    def set_highlights(self, lit=(), selected_cell=None, walk_cell=None, walk_from=None) -> None:
        self.lit, self.selected_cell, self.walk_cell = list(lit), selected_cell, walk_cell
        self.walk_from = walk_from
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(scaled(600), self.minimumHeight() or scaled(120))

    # --- geometry --------------------------------------------------------------------------------

    def _strip_width(self) -> float:
        return max(self.width() - scaled(NAME_WIDTH) - scaled(MARGIN), 10)

    def _cell_width(self, cells: int) -> float:
        return self._strip_width() / max(cells * (self.window.x1 - self.window.x0), 1e-9)

    def cell_x(self, cells: int, cell: int) -> float:
        return scaled(NAME_WIDTH) + (cell - self.window.x0 * cells) * self._cell_width(cells)

    def cell_at(self, point: QPointF) -> int | None:
        if not self.rows or point.x() < scaled(NAME_WIDTH):
            return None
        first = self.rows[0]
        if not first.cells_top <= point.y() <= first.bottom:
            return None
        cells = first.group.cells
        cell = math.floor(
            self.window.x0 * cells + (point.x() - scaled(NAME_WIDTH)) / self._cell_width(cells)
        )
        return cell if 0 <= cell < cells else None

    # --- painting --------------------------------------------------------------------------------

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        self.paint_picture(painter)
        painter.end()

    def paint_picture(self, painter: QPainter) -> None:
        painter.fillRect(self.rect(), colour("canvas"))
        for position, rows in enumerate(self.rows):
            self._paint_group(painter, rows, position == 0)
        if self.rows:
            self._paint_highlights(painter, self.rows[0])
            self._paint_jump(painter, self.rows[0])

    def group_title(self, group: StorageGroup, selected: bool) -> str:
        """The line above a storage's cells: whose storage, its size, who reads it."""
        readers = ", ".join(m.name for m in group.members)
        cells, cell_bytes, nbytes = f"{group.cells:,}", str(group.cell_bytes), f"{group.nbytes:,}"
        if selected:
            template = self.tr("Storage of %1: %2 cells × %3 bytes = %4 bytes  ·  read by %5")
            return filled(template, self.selected_name, cells, cell_bytes, nbytes, readers)
        template = self.tr("Other storage: %1 cells × %2 bytes = %3 bytes  ·  read by %4")
        return filled(template, cells, cell_bytes, nbytes, readers)

    def _paint_group(self, painter: QPainter, rows: StripRows, selected: bool) -> None:
        group = rows.group
        name_width, margin = scaled(NAME_WIDTH), scaled(MARGIN)
        font = QFont(self.font())
        font.setBold(selected)
        painter.setFont(font)
        painter.setPen(colour("ink") if selected else colour("muted"))
        painter.drawText(
            QRectF(margin, rows.top, self.width() - 2 * margin, rows.cells_top - rows.top - 2),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom,
            painter.fontMetrics().elidedText(
                self.group_title(group, selected),
                Qt.TextElideMode.ElideRight,
                self.width() - 2 * margin,
            ),
        )
        painter.setFont(self.font())
        painter.setPen(colour("muted"))
        painter.drawText(
            QRectF(margin, rows.cells_top, name_width - scaled(16), rows.cells_height),
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight,
            self.tr("storage"),
        )
        cells = group.cells
        self._paint_cells(painter, rows, cells)
        swatch = rows.lane - 2
        for lane, member in enumerate(group.members):
            y = rows.lanes_top + lane * rows.lane_pitch
            lane_colour = self.member_colour_of(member.name)
            font.setBold(member.name == self.selected_name)
            painter.setFont(font)
            painter.setPen(colour("text"))
            room = name_width - scaled(16) - swatch - scaled(4)
            label = painter.fontMetrics().elidedText(
                member.name, Qt.TextElideMode.ElideMiddle, room
            )
            painter.drawText(
                QRectF(margin, y - 2, room, rows.lane + 4),
                Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight,
                label,
            )
            # The name is written in the theme's ink (readable in both themes); the swatch
            # beside it carries the lane's colour.
            painter.fillRect(QRectF(margin + room + scaled(4), y + 1, swatch, swatch), lane_colour)
            self._paint_lane(painter, rows.reads[member.name], cells, y, rows.lane, lane_colour)
        painter.setFont(self.font())

    def _visible_cells(self, cells: int) -> range:
        first = math.floor(self.window.x0 * cells)
        return range(max(first, 0), min(math.ceil(self.window.x1 * cells), cells))

    def _paint_cells(self, painter: QPainter, rows: StripRows, cells: int) -> None:
        width = self._cell_width(cells)
        top, height = rows.cells_top, rows.cells_height
        if width < CELLS_BELOW:
            image = self._cached(("cells", cells), lambda: self._cells_image(cells))
            painter.drawImage(QRectF(scaled(NAME_WIDTH), top, image.width(), height), image)
            return
        line = QPen(grid_line_colour(), 1)
        digit = painter.fontMetrics().horizontalAdvance("0")
        numbered = height >= scaled(CELL_ROW)
        for cell in self._visible_cells(cells):
            rect = QRectF(self.cell_x(cells, cell), top, width, height)
            fill = storage_colour(cell, cells)
            painter.fillRect(rect, fill)
            if width >= 5:
                painter.setPen(line)
                painter.drawRect(rect)
            if numbered and width >= digit * len(str(cell)) + scaled(4):
                painter.setPen(text_colour_on(fill))
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(cell))

    def _cached(self, key: tuple, make) -> QImage:
        key = (*key, int(self._strip_width()), self.window.x0, self.window.x1, current_theme().key)
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

    def _paint_lane(self, painter, reads: StorageReads, cells: int, y: float, lane: float,
                    lane_colour: QColor) -> None:  # fmt: skip
        width, left = self._cell_width(cells), scaled(NAME_WIDTH)
        painter.fillRect(QRectF(left, y, self._strip_width(), lane), colour("surface_alt"))
        if width < CELLS_BELOW:
            key = ("lane", id(reads), reads.known, lane_colour.rgba())
            image = self._cached(key, lambda: self._lane_image(reads, cells, lane_colour))
            painter.drawImage(QRectF(left, y, image.width(), lane), image)
            return
        visible = self._visible_cells(cells)
        counts = reads.counts_at(np.arange(visible.start, visible.stop))
        if counts is None:
            image = self._lane_image(reads, cells, lane_colour)
            painter.drawImage(QRectF(left, y, image.width(), lane), image)
            return
        font = QFont(self.font())
        font.setPixelSize(scaled(10))
        painter.setFont(font)
        many = lane_colour.darker(140)
        for cell, count in zip(visible, counts.tolist(), strict=True):
            if count:
                rect = QRectF(self.cell_x(cells, cell) + 0.5, y, max(width - 1, 1), lane)
                painter.fillRect(rect, lane_colour if count == 1 else many)
                if count > 1 and width >= scaled(22):
                    painter.setPen(text_colour_on(many))
                    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, f"×{count}")
        painter.setFont(self.font())

    def _paint_highlights(self, painter: QPainter, rows: StripRows) -> None:
        cells = rows.group.cells
        width = max(self._cell_width(cells), 5)
        height = rows.bottom - rows.cells_top
        painter.setBrush(Qt.BrushStyle.NoBrush)
        zoom = current_zoom()
        for cell_list, pen_colour, pen in (
            ([self.walk_cell] if self.walk_cell is not None else [], walk_colour(), 3),
            ([self.selected_cell] if self.selected_cell is not None else [], selected_colour(), 3),
            (self.lit, hover_colour(), 2.5),
        ):
            painter.setPen(QPen(pen_colour, pen * zoom))
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
        line = painter.fontMetrics().height()
        middle = QPointF((start.x() + end.x()) / 2, rows.bottom + self._gap() - line - scaled(2))
        path = QPainterPath(start)
        path.quadTo(middle, end)
        arc = colour("memory_walk_text")  # readable on the canvas, like the jump written on it
        painter.setPen(QPen(arc, 2 * current_zoom()))
        painter.drawPath(path)
        painter.setBrush(arc)
        painter.drawEllipse(end, scaled(3.5), scaled(3.5))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        jump = self.walk_cell - self.walk_from
        painter.drawText(
            QRectF(middle.x() - scaled(30), middle.y(), scaled(60), line),
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
        fx = (event.position().x() - scaled(NAME_WIDTH)) / self._strip_width()
        self.window.zoom(1.25 if event.angleDelta().y() > 0 else 0.8, min(max(fx, 0), 1), 0, False)
        self.update()

    def mouseDoubleClickEvent(self, event) -> None:
        self.window.reset()
        self.update()
