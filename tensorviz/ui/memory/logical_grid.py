"""The logical grid: a 2-D slice of the tensor, each cell coloured by the storage cell it reads.

Paints only the visible cells; when cells shrink below a few pixels the slice is drawn as one
image sampled per pixel (level of detail), so a million elements cost what the screen costs. The
storage indices are core's StorageSlice (an affine map, never an array of the slice's size), the
values a view of the tensor read only where drawn, and the axes label only every n-th index.
Wheel zooms about the cursor, dragging pans, double-click fits the whole slice again
(logical_grid_gestures.py). Colours come from the theme and sizes from View → Zoom, both read
when painting."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QFont, QFontMetricsF, QImage, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from tensorviz.core.memory.storage_reads import StorageSlice
from tensorviz.ui.memory.axis_labels import compact, label_step, labelled
from tensorviz.ui.memory.logical_grid_gestures import LogicalGridGestures
from tensorviz.ui.memory.palette import (
    ZoomWindow,
    grid_line_colour,
    hover_colour,
    is_appearance_change,
    selected_colour,
    storage_colour,
    storage_rgb,
    text_colour_on,
    walk_colour,
)
from tensorviz.ui.widgets.theme import colour, current_theme, current_zoom, scaled

IMAGE_BELOW = 14  # cells smaller than this many pixels are drawn as one sampled image
BAND = 64  # pixels (at 100 %): an image-drawn slice is never thinner (unless the area is)
TEXT_FROM = 28  # cells at least this big (at 100 %) show their value
TWO_LINES_FROM = 46  # ... and the storage index below it
MARGIN = 8
READERS_DRAWN = 4_000  # outlines drawn at most (more would cover the visible cells anyway)


class LogicalGridView(LogicalGridGestures, QWidget):
    element_hovered = Signal(int, int)  # row, column in the slice; (-1, -1) when leaving
    element_clicked = Signal(int, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._set_minimum_size()
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.indices = StorageSlice(0, 0)
        self.values = None  # a 2-D tensor (the slice itself), read only for visible cells
        self.cells = 1
        self.row_label = self.col_label = ""
        self.hovered: tuple[int, int] | None = None
        self.readers: list[tuple[int, int]] = []
        self._readers = np.zeros((0, 2), dtype=np.int64)
        self.walk: tuple[int, int] | None = None
        self.window = ZoomWindow()
        self.selected_cell: int | None = None  # the storage cell whose readers are lit
        self._image_cache: tuple[tuple, QImage, np.ndarray] | None = None
        self._mask_cache: tuple[tuple, QImage] | None = None
        self._press: QPointF | None = None  # where a left press began (click or drag-to-pan)
        self._dragging = False

    def sizeHint(self) -> QSize:
        return QSize(scaled(520), scaled(360))

    def _set_minimum_size(self) -> None:
        """Room for the axes and a few cells: at 200 % the margins grow, the cells may not."""
        left, top = self._margins()
        self.setMinimumSize(int(left) + 160, int(top) + 80)

    def changeEvent(self, event) -> None:
        if is_appearance_change(event):  # theme or zoom: colours and sizes are read anew
            self._image_cache = self._mask_cache = None
            self._set_minimum_size()
            self.update()
        super().changeEvent(event)

    # --- model -----------------------------------------------------------------------------------

    def set_slice(self, indices: StorageSlice, values, cells: int, row_label: str, col_label: str):
        if indices.shape != self.indices.shape:
            self.window.reset()
        self.indices, self.values, self.cells = indices, values, max(cells, 1)
        self.row_label, self.col_label = row_label, col_label
        self.hovered, self._image_cache = None, None
        self.update()

    def set_axis_labels(self, row_label: str, col_label: str) -> None:
        """The axes' titles again (a new language), the slice as it is."""
        self.row_label, self.col_label = row_label, col_label
        self.update()

    def set_highlights(self, hovered=None, readers=None, walk=None, selected_cell=None) -> None:
        """readers: grid cells (row, col) lit as readers of storage cell `selected_cell` (the
        first few thousand; the sampled picture lights the rest), or None to keep the ones set
        before (hovering does not change them)."""
        self.hovered, self.walk = hovered, walk
        if readers is not None:
            self.selected_cell = selected_cell
            self.readers = list(readers)
            self._readers = np.array(self.readers, dtype=np.int64).reshape(-1, 2)
        self.update()

    @property
    def rows(self) -> int:
        return self.indices.shape[0]

    @property
    def cols(self) -> int:
        return self.indices.shape[1]

    # --- geometry --------------------------------------------------------------------------------

    def _line(self) -> float:
        """The height of one line of the widget's font (it grows with View → Zoom)."""
        return QFontMetricsF(self.font()).height()

    def _margins(self) -> tuple[float, float]:
        """(left, top): room for the rotated row title and the row numbers, and for the column
        title above the column numbers."""
        line = self._line()
        return line + scaled(42), 2 * line + scaled(6)

    def _area(self) -> QRectF:
        left, top = self._margins()
        return QRectF(
            left, top, self.width() - left - scaled(MARGIN), self.height() - top - scaled(MARGIN)
        )

    def cell_size(self) -> float:
        """The smaller side of a cell in pixels: it chooses the level of detail."""
        return min(self.cell_extent())

    def cell_extent(self) -> tuple[float, float]:
        """(width, height) of a cell in pixels. Square, except when the cells are drawn as an
        image and the slice would be thinner than BAND pixels (a 1-D tensor of millions):
        that side is stretched to a readable band instead of a hairline."""
        area = self._area()
        w = self.window
        shown_cols = max((w.x1 - w.x0) * self.cols, 1e-9)
        shown_rows = max((w.y1 - w.y0) * self.rows, 1e-9)
        size = max(min(area.width() / shown_cols, area.height() / shown_rows), 1e-6)
        if size >= IMAGE_BELOW:
            return size, size
        width = max(size, min(area.width(), scaled(BAND)) / shown_cols)
        height = max(size, min(area.height(), scaled(BAND)) / shown_rows)
        return width, height

    def _first(self) -> tuple[float, float]:
        return self.window.y0 * self.rows, self.window.x0 * self.cols

    def cell_rect(self, row: int, col: int) -> QRectF:
        (width, height), (r0, c0), area = self.cell_extent(), self._first(), self._area()
        return QRectF(
            area.left() + (col - c0) * width, area.top() + (row - r0) * height, width, height
        )

    def cell_at(self, point: QPointF) -> tuple[int, int] | None:
        if not self.rows or not self.cols:
            return None
        (width, height), (r0, c0), area = self.cell_extent(), self._first(), self._area()
        col = math.floor(c0 + (point.x() - area.left()) / width)
        row = math.floor(r0 + (point.y() - area.top()) / height)
        inside = area.contains(point) and 0 <= row < self.rows and 0 <= col < self.cols
        return (row, col) if inside else None

    def _visible(self) -> tuple[range, range]:
        (width, height), (r0, c0), area = self.cell_extent(), self._first(), self._area()
        rows = range(max(math.floor(r0), 0), min(math.ceil(r0 + area.height() / height), self.rows))
        cols = range(max(math.floor(c0), 0), min(math.ceil(c0 + area.width() / width), self.cols))
        return rows, cols

    # --- painting --------------------------------------------------------------------------------

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        self.paint_picture(painter)
        painter.end()

    def paint_picture(self, painter: QPainter) -> None:
        painter.fillRect(self.rect(), colour("canvas"))
        if not self.rows or not self.cols:
            painter.setPen(colour("muted"))
            painter.drawText(
                self.rect(), Qt.AlignmentFlag.AlignCenter, self.tr("No elements to show")
            )
            return
        painter.save()
        painter.setClipRect(self._area().adjusted(-2, -2, 2, 2))
        if self.cell_size() < IMAGE_BELOW:
            self._paint_image(painter)
        else:
            self._paint_cells(painter)
        self._paint_highlights(painter)
        painter.restore()
        self._paint_axes(painter)

    def _paint_image(self, painter: QPainter) -> None:
        (cell_w, cell_h), (r0, c0), area = self.cell_extent(), self._first(), self._area()
        width = max(min(int(area.width()), math.ceil((self.cols - c0) * cell_w)), 1)
        height = max(min(int(area.height()), math.ceil((self.rows - r0) * cell_h)), 1)
        key = (width, height, cell_w, cell_h, r0, c0, self.indices, self.cells, current_theme().key)
        if self._image_cache is None or self._image_cache[0] != key:
            cols = np.clip(
                (c0 + (np.arange(width) + 0.5) / cell_w).astype(np.int64), 0, self.cols - 1
            )
            rows = np.clip(
                (r0 + (np.arange(height) + 0.5) / cell_h).astype(np.int64), 0, self.rows - 1
            )
            sampled = self.indices.block(rows, cols)  # one storage index per pixel
            rgb = np.ascontiguousarray(storage_rgb(sampled, self.cells))
            image = QImage(rgb.data, width, height, 3 * width, QImage.Format.Format_RGB888).copy()
            self._image_cache = (key, image, sampled)
        painter.drawImage(QPointF(area.left(), area.top()), self._image_cache[1])
        if self.selected_cell is not None:
            painter.drawImage(QPointF(area.left(), area.top()), self._readers_mask())

    def _readers_mask(self) -> QImage:
        """The sampled pixels that read the selected cell, tinted: a stride-0 cell read by
        millions of elements lights as a whole band, at the cost of the pixels."""
        key = (self._image_cache[0], self.selected_cell)
        if self._mask_cache is None or self._mask_cache[0] != key:
            sampled = self._image_cache[2]
            rgba = np.zeros((*sampled.shape, 4), dtype=np.uint8)
            tint = selected_colour()
            rgba[sampled == self.selected_cell] = (tint.red(), tint.green(), tint.blue(), 110)
            height, width = sampled.shape
            image = QImage(rgba.data, width, height, 4 * width, QImage.Format.Format_RGBA8888)
            self._mask_cache = (key, image.copy())
        return self._mask_cache[1]

    def _paint_cells(self, painter: QPainter) -> None:
        rows, cols = self._visible()
        size = self.cell_size()
        values = self._visible_values(rows, cols) if size >= scaled(TEXT_FROM) else None
        font = QFont(self.font())
        font.setPixelSize(int(min(max(size * 0.3, scaled(9)), scaled(15))))
        painter.setFont(font)
        line = QPen(grid_line_colour(), 1)
        two_lines = size >= scaled(TWO_LINES_FROM)
        for r in rows:
            for c in cols:
                rect = self.cell_rect(r, c)
                fill = storage_colour(int(self.indices[r, c]), self.cells)
                painter.fillRect(rect, fill)
                painter.setPen(line)
                painter.drawRect(rect)
                if values is not None:
                    painter.setPen(text_colour_on(fill))
                    text = values[r - rows.start][c - cols.start]
                    if two_lines:
                        text = f"{text}\n@{self.indices[r, c]}"
                    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)

    def _visible_values(self, rows: range, cols: range) -> list[list[str]] | None:
        if self.values is not None and self.values.device.type == "meta":  # no values to read
            return [["∅"] * len(cols) for _ in rows]
        if self.values is None:
            return [
                [f"@{i}" for i in row]
                for row in self.indices.block(np.array(rows), np.array(cols)).tolist()
            ]
        block = self.values[rows.start : rows.stop, cols.start : cols.stop]
        return [[_short(v) for v in row] for row in block.detach().cpu().tolist()]

    def _outlines(self, cells) -> list[QRectF]:
        """Outline rectangles of grid cells (an (n, 2) array of row, col), only those visible,
        at least 8 px wide, and one per pixel position: thousands of stride-0 readers squeezed
        into a few pixels cost a few rectangles."""
        cells = np.asarray(cells, dtype=np.int64).reshape(-1, 2)
        if not len(cells):
            return []
        rows, cols = self._visible()
        r, c = cells[:, 0], cells[:, 1]
        cells = cells[(r >= rows.start) & (r < rows.stop) & (c >= cols.start) & (c < cols.stop)]
        (width, height), (r0, c0), area = self.cell_extent(), self._first(), self._area()
        wide, high = max(width, float(scaled(8))), max(height, float(scaled(8)))
        x = area.left() + (cells[:, 1] - c0) * width - (wide - width) / 2
        y = area.top() + (cells[:, 0] - r0) * height - (high - height) / 2
        spots = np.stack([x, y], axis=1)
        if min(width, height) < 1:  # many cells per pixel: one outline per pixel position
            spots = np.unique(np.round(spots), axis=0)
        return [QRectF(px, py, wide, high) for px, py in spots[:READERS_DRAWN].tolist()]

    def _paint_highlights(self, painter: QPainter) -> None:
        painter.setBrush(Qt.BrushStyle.NoBrush)
        zoom = current_zoom()
        for cells, pen_colour, width in (
            (self._readers, selected_colour(), 3),
            ([self.walk] if self.walk else [], walk_colour(), 3),
            ([self.hovered] if self.hovered else [], hover_colour(), 2.5),
        ):
            painter.setPen(QPen(pen_colour, width * zoom))
            for rect in self._outlines(cells):
                painter.drawRect(rect)

    def _paint_axes(self, painter: QPainter) -> None:
        area, (width, height) = self._area(), self.cell_extent()
        rows, cols = self._visible()
        line, gap = self._line(), scaled(2)
        painter.setPen(colour("ink"))
        bold = QFont(self.font())
        bold.setBold(True)
        painter.setFont(bold)
        titles = QFontMetricsF(bold)  # a title longer than its axis is elided, never cut
        painter.drawText(
            QRectF(area.left(), gap, area.width(), line),
            Qt.AlignmentFlag.AlignLeft,
            titles.elidedText(f"{self.col_label} →", Qt.TextElideMode.ElideRight, area.width()),
        )
        painter.save()
        painter.translate(gap + line, area.top())  # the row title reads downwards
        painter.rotate(90)
        painter.drawText(
            QRectF(0, 0, area.height(), line),
            Qt.AlignmentFlag.AlignLeft,
            titles.elidedText(f"{self.row_label} →", Qt.TextElideMode.ElideRight, area.height()),
        )
        painter.restore()
        painter.setFont(self.font())
        painter.setPen(colour("muted"))
        metrics = painter.fontMetrics()
        wide = metrics.horizontalAdvance(str(max(cols.stop - 1, 0))) + scaled(10)  # widest label
        for c in labelled(cols, label_step(max(scaled(30), wide) / width)):
            rect = self.cell_rect(0, c)
            painter.drawText(
                QRectF(rect.left(), gap + line, max(width, wide), line),
                Qt.AlignmentFlag.AlignLeft,
                str(c),
            )
        left = 2 * gap + line
        room = area.left() - left - scaled(4)
        short = metrics.horizontalAdvance(str(max(rows.stop - 1, 0))) > room
        for r in labelled(rows, label_step(line / height)):
            rect = self.cell_rect(r, 0)
            painter.drawText(
                QRectF(left, rect.top(), room, max(height, line)),
                Qt.AlignmentFlag.AlignRight,
                compact(r) if short else str(r),
            )


def _short(value) -> str:
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, complex):
        return f"{value.real:.2g}{value.imag:+.2g}j"
    return str(value)
