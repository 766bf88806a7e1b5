"""The logical grid's gestures: hovering and clicking an element, arrow keys and Enter, the
wheel zooming about the cursor, dragging to pan, double-click to fit the whole slice again."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt

from tensorviz.ui.widgets.arrow_keys import ARROW_STEPS


class LogicalGridGestures:
    """Mixin of LogicalGridView, listed before QWidget: needs its window (ZoomWindow), rows, cols,
    hovered, cell_extent(), cell_at(), _first(), _area(), the element signals, _press,
    _dragging and _image_cache."""

    def mouseMoveEvent(self, event) -> None:
        if self._press is not None and event.buttons() & Qt.MouseButton.LeftButton:
            delta = event.position() - self._press
            if self._dragging or abs(delta.x()) + abs(delta.y()) > 4:
                self._dragging = True
                self._press = event.position()
                width, height = self.cell_extent()
                self.window.pan(-delta.x() / (width * self.cols), -delta.y() / (height * self.rows))
                self._image_cache = None
                self.update()
                return
        cell = self.cell_at(event.position())
        if cell != self.hovered:
            self.element_hovered.emit(*(cell or (-1, -1)))

    def leaveEvent(self, event) -> None:
        self.element_hovered.emit(-1, -1)

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._press, self._dragging = event.position(), False

    def mouseReleaseEvent(self, event) -> None:
        clicked = self._press is not None and not self._dragging
        self._press, self._dragging = None, False
        cell = self.cell_at(event.position())
        if clicked and cell is not None and event.button() == Qt.MouseButton.LeftButton:
            self.element_clicked.emit(*cell)

    def keyPressEvent(self, event) -> None:
        """Arrow keys move the lit element, Enter selects the storage cell it reads."""
        if not self.rows or not self.cols:
            return super().keyPressEvent(event)
        row, col = self.hovered or (0, 0)
        if event.key() in ARROW_STEPS:
            d_row, d_col = ARROW_STEPS[event.key()] if self.hovered else (0, 0)
            row = min(max(row + d_row, 0), self.rows - 1)
            col = min(max(col + d_col, 0), self.cols - 1)
            self.element_hovered.emit(row, col)
        elif event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            self.element_clicked.emit(row, col)
        else:
            super().keyPressEvent(event)

    def wheelEvent(self, event) -> None:
        """Zoom, keeping the cell under the pointer under the pointer."""
        if not self.rows or not self.cols:
            return
        point = event.position()
        before = self._cell_coordinates(point)
        self.window.zoom(1.25 if event.angleDelta().y() > 0 else 0.8, 0.5, 0.5)
        after = self._cell_coordinates(point)
        self.window.pan((before[1] - after[1]) / self.cols, (before[0] - after[0]) / self.rows)
        self._image_cache = None
        self.update()

    def _cell_coordinates(self, point: QPointF) -> tuple[float, float]:
        (width, height), (r0, c0), area = self.cell_extent(), self._first(), self._area()
        return r0 + (point.y() - area.top()) / height, c0 + (point.x() - area.left()) / width

    def mouseDoubleClickEvent(self, event) -> None:
        self.window.reset()
        self._image_cache = None
        self.update()
