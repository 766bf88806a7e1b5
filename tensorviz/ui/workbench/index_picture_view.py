"""The gather/scatter picture: x, index and out side by side, with the elements one index
element links highlighted and joined by lines, the formula and core's notes below. Core
(index_picture) computes every link from torch; this widget only draws them. Hover or click an
element of any grid to follow its links; the arrow keys walk the index grid."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QVBoxLayout, QWidget

from tensorviz.core.tensors.index_picture import (
    IndexLink,
    IndexPicture,
    NoPictureError,
    describe_links,
    picture_of_entry,
)
from tensorviz.core.tensors.workspace import Workspace

CELL, SMALL_CELL, TEXT_FROM, GAP, TOP, MARGIN = 30, 14, 22, 56, 24, 6  # px
SOURCE_COLOUR = QColor("#e9a23b")  # the element of x read (or overwritten)
INDEX_COLOUR = QColor("#2a9d8f")
RESULT_COLOUR = QColor("#8d5fd3")
LOST_COLOUR = QColor("#9ca3af")  # a scatter write that another write replaced
INK, LINE, BLANK = QColor("#1f2a44"), QColor("#d1d5db"), QColor("#f8fafc")
GRIDS = ("x", "index", "out")


def _value_text(value) -> str:
    text = f"{value:.3g}" if isinstance(value, float) else str(value)
    return text if len(text) <= 5 else f"{value:.0e}"


class IndexGrids(QWidget):
    cell_selected = Signal(str, int, int)  # grid ("x" | "index" | "out"), row, column

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        policy.setHeightForWidth(True)  # cells shrink to fit a narrow card, rows follow
        self.setSizePolicy(policy)
        self.picture: IndexPicture | None = None
        self.selected: tuple[str, tuple[int, int]] = ("index", (0, 0))

    def set_picture(self, picture: IndexPicture | None) -> None:
        self.picture = picture
        self.selected = ("index", (0, 0))
        self.setFixedHeight(self.heightForWidth(self.width()))
        self.updateGeometry()
        self.update()

    def active_links(self) -> list[IndexLink]:
        """The links of the selected element, as core lists them."""
        if self.picture is None:
            return []
        grid, cell = self.selected
        finder = {
            "x": self.picture.links_of_source,
            "index": self.picture.links_of_index,
            "out": self.picture.links_of_result,
        }[grid]
        return finder(cell)

    def select(self, grid: str, row: int, column: int) -> None:
        rows, columns = self._array(grid).shape
        if 0 <= row < rows and 0 <= column < columns:
            self.selected = (grid, (row, column))
            self.cell_selected.emit(grid, row, column)
            self.update()

    # --- geometry --------------------------------------------------------------------------------

    def _array(self, grid: str):
        picture = self.picture
        return {"x": picture.source, "index": picture.index, "out": picture.result}[grid]

    def _columns(self) -> int:
        return sum(self._array(g).shape[1] for g in GRIDS)

    def cell_size(self, width: int | None = None) -> int:
        """Cells as large as CELL, smaller when the widget is narrower (at least SMALL_CELL)."""
        width = self.width() if width is None else width
        room = (width - 2 * MARGIN - 2 * GAP) // max(self._columns(), 1)
        return max(SMALL_CELL, min(CELL, room))

    def _width_at(self, cell: int) -> int:
        grids = sum(max(self._array(g).shape[1] * cell, self._caption_width(g)) for g in GRIDS)
        return grids + 2 * GAP + 2 * MARGIN

    def _origin(self, grid: str) -> QPointF:
        x, cell = MARGIN, self.cell_size()
        for name in GRIDS:
            if name == grid:
                break
            x += max(self._array(name).shape[1] * cell, self._caption_width(name)) + GAP
        return QPointF(x, TOP)

    def _caption(self, grid: str) -> str:
        return f"{grid}  {list(self.picture.shapes[GRIDS.index(grid)])}"

    def _caption_width(self, grid: str) -> int:
        bold = QFont(self.font())
        bold.setBold(True)
        return QFontMetrics(bold).horizontalAdvance(self._caption(grid)) + 4

    def cell_rect(self, grid: str, cell: tuple[int, int]) -> QRectF:
        origin, size = self._origin(grid), self.cell_size()
        return QRectF(origin.x() + cell[1] * size, origin.y() + cell[0] * size, size, size)

    def cell_at(self, point: QPointF) -> tuple[str, tuple[int, int]] | None:
        if self.picture is None:
            return None
        for grid in GRIDS:
            rows, columns = self._array(grid).shape
            origin = self._origin(grid)
            if point.x() < origin.x() or point.y() < origin.y():
                continue
            row, column = (
                int((point.y() - origin.y()) // self.cell_size()),
                int((point.x() - origin.x()) // self.cell_size()),
            )
            if row < rows and column < columns:
                return grid, (row, column)
        return None

    def _rows(self) -> int:
        return max(self._array(g).shape[0] for g in GRIDS)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        if self.picture is None:
            return 0
        return TOP + self._rows() * self.cell_size(width) + MARGIN

    def sizeHint(self) -> QSize:
        if self.picture is None:
            return QSize(0, 0)
        return QSize(self._width_at(CELL), TOP + self._rows() * CELL + MARGIN)

    def minimumSizeHint(self) -> QSize:
        if self.picture is None:
            return QSize(0, 0)
        return QSize(self._width_at(SMALL_CELL), TOP + self._rows() * SMALL_CELL + MARGIN)

    def resizeEvent(self, event) -> None:
        self.setFixedHeight(self.heightForWidth(self.width()))  # the rows follow the cell size
        super().resizeEvent(event)

    # --- events ----------------------------------------------------------------------------------

    def mouseMoveEvent(self, event) -> None:
        found = self.cell_at(event.position())
        if found is not None and found != self.selected:
            self.select(found[0], *found[1])

    def mousePressEvent(self, event) -> None:
        self.setFocus()
        self.mouseMoveEvent(event)

    def keyPressEvent(self, event) -> None:
        steps = {
            Qt.Key.Key_Left: (0, -1),
            Qt.Key.Key_Right: (0, 1),
            Qt.Key.Key_Up: (-1, 0),
            Qt.Key.Key_Down: (1, 0),
        }
        if self.picture is None or event.key() not in steps:
            super().keyPressEvent(event)
            return
        grid, (row, column) = self.selected
        if grid != "index":
            row, column = 0, 0
        d_row, d_column = steps[event.key()]
        self.select("index", row + d_row, column + d_column)

    # --- painting --------------------------------------------------------------------------------

    def paintEvent(self, event) -> None:
        if self.picture is None:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        links = self.active_links()
        marks = {
            "x": {link.source_cell: SOURCE_COLOUR for link in links},
            "index": {link.index_cell: INDEX_COLOUR for link in links},
            "out": {link.result_cell: RESULT_COLOUR for link in links if link.survives},
        }
        for link in links:  # under the cells: a line shows between the grids, the cell it reaches
            self._paint_link(painter, link)  # is the highlighted one
        for grid in GRIDS:
            self._paint_grid(painter, grid, marks[grid])
        painter.end()

    def _paint_grid(self, painter: QPainter, grid: str, marks: dict) -> None:
        array = self._array(grid)
        origin = self._origin(grid)
        bold = QFont(self.font())
        bold.setBold(True)
        painter.setFont(bold)
        painter.setPen(INK)
        caption = QRectF(origin.x(), 0, self._caption_width(grid) + 8, TOP - 4)
        painter.drawText(
            caption, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self._caption(grid)
        )
        painter.setFont(self.font())
        for row in range(array.shape[0]):
            for column in range(array.shape[1]):
                rect = self.cell_rect(grid, (row, column))
                colour = marks.get((row, column))
                painter.fillRect(rect, colour.lighter(175) if colour else BLANK)
                painter.setPen(QPen(colour if colour else LINE, 2 if colour else 1))
                painter.drawRect(rect.adjusted(1, 1, -1, -1))
                if rect.width() >= TEXT_FROM:  # smaller cells show the links by colour only
                    painter.setPen(INK)
                    text = _value_text(array[row, column].item())
                    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)

    def _paint_link(self, painter: QPainter, link: IndexLink) -> None:
        index = self.cell_rect("index", link.index_cell)
        source = self.cell_rect("x", link.source_cell)
        result = self.cell_rect("out", link.result_cell)
        painter.setPen(QPen(SOURCE_COLOUR, 2))
        painter.drawLine(
            QPointF(index.left(), index.center().y()), QPointF(source.right(), source.center().y())
        )
        style = Qt.PenStyle.SolidLine if link.survives else Qt.PenStyle.DashLine
        painter.setPen(QPen(RESULT_COLOUR if link.survives else LOST_COLOUR, 2, style))
        painter.drawLine(
            QPointF(index.right(), index.center().y()), QPointF(result.left(), result.center().y())
        )


class IndexPictureView(QFrame):
    """The grids and, below them, the formula and core's notes (or why there is no picture)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("indexPicture")
        self.grids = IndexGrids()
        self.formula = QLabel()
        self.formula.setObjectName("codeLine")
        self.link = QLabel()
        self.link.setObjectName("codeLine")
        self.caption = QLabel()
        self.caption.setObjectName("hint")
        self.caption.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 8, 4, 4)
        layout.addWidget(self.grids)
        layout.addWidget(self.formula)
        layout.addWidget(self.link)
        layout.addWidget(self.caption)
        self.grids.cell_selected.connect(self._on_cell_selected)
        self.set_picture(None)

    def show_entry(self, workspace: Workspace, name: str) -> None:
        """The picture of workspace tensor `name` (core's picture_of_entry), or why not."""
        try:
            self.set_picture(picture_of_entry(workspace, name))
        except NoPictureError as why:
            self.set_picture(None, str(why))

    def set_picture(self, picture: IndexPicture | None, unavailable: str = "") -> None:
        """Show `picture`; with none, show `unavailable` (why not) or hide."""
        self.grids.set_picture(picture)
        self.grids.setVisible(picture is not None)
        self.formula.setVisible(picture is not None)
        self.link.setVisible(picture is not None)
        if picture is not None:
            self.formula.setText(picture.formula)
            self._on_cell_selected("index", 0, 0)
        else:
            self.caption.setText(f"No index picture: {unavailable}" if unavailable else "")
        self.setVisible(picture is not None or bool(unavailable))

    def _on_cell_selected(self, grid: str, row: int, column: int) -> None:
        picture = self.grids.picture
        if picture is None:
            return
        self.link.setText(describe_links(picture, self.grids.active_links()))
        hint = "Hover or click an element (arrow keys walk the index) to follow its links."
        self.caption.setText(" ".join((*picture.notes, hint)))
