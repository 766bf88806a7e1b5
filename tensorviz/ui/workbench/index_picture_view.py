"""The gather/scatter picture: x, index and out side by side, with the elements one index
element links highlighted and joined by lines, the formula and core's notes below. Core
(index_picture) computes every link from torch; this widget only draws them. Hover or click an
element of any grid to follow its links; the arrow keys walk the index grid. Colours are the
theme's, read when painting; cells and gaps grow with the zoom."""

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
from tensorviz.ui.widgets.appearance_following import on_appearance_changed
from tensorviz.ui.widgets.arrow_keys import ARROW_STEPS
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import colour, current_theme, scaled
from tensorviz.ui.workbench.text_arguments import arg

CELL, SMALL_CELL, TEXT_FROM, GAP, TOP, MARGIN = 30, 14, 22, 56, 24, 6  # px at 100 %
GRIDS = ("x", "index", "out")
MARK_STRENGTH = 0.4  # a marked cell: this much of the mark's colour over the cell's background


def _marks() -> tuple[QColor, QColor, QColor]:
    """(the element of x read or overwritten, the index element, the element of out), from the
    theme's series: amber, teal, purple in both themes."""
    series = current_theme().series
    return QColor(series[4]), QColor(series[2]), QColor(series[3])


def _tint(mark: QColor, background: QColor) -> QColor:
    """The mark over the background: light on the light theme, deep on the dark one, so the
    theme's ink reads on it either way."""
    pairs = zip(mark.getRgbF()[:3], background.getRgbF()[:3], strict=True)
    return QColor.fromRgbF(*(MARK_STRENGTH * m + (1 - MARK_STRENGTH) * b for m, b in pairs))


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
        on_appearance_changed(self._on_appearance_changed)

    def _on_appearance_changed(self) -> None:
        """Cells, gaps and captions at the new zoom (the height follows); colours repaint."""
        self.setFixedHeight(self.heightForWidth(self.width()))
        self.updateGeometry()
        self.update()

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
        room = (width - 2 * scaled(MARGIN) - 2 * scaled(GAP)) // max(self._columns(), 1)
        return max(scaled(SMALL_CELL), min(scaled(CELL), room))

    def _width_at(self, cell: int) -> int:
        grids = sum(max(self._array(g).shape[1] * cell, self._caption_width(g)) for g in GRIDS)
        return grids + 2 * scaled(GAP) + 2 * scaled(MARGIN)

    def _origin(self, grid: str) -> QPointF:
        x, cell = scaled(MARGIN), self.cell_size()
        for name in GRIDS:
            if name == grid:
                break
            x += max(self._array(name).shape[1] * cell, self._caption_width(name)) + scaled(GAP)
        return QPointF(x, scaled(TOP))

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
        return scaled(TOP) + self._rows() * self.cell_size(width) + scaled(MARGIN)

    def sizeHint(self) -> QSize:
        return self._size_at(scaled(CELL))

    def minimumSizeHint(self) -> QSize:
        return self._size_at(scaled(SMALL_CELL))

    def _size_at(self, cell: int) -> QSize:
        if self.picture is None:
            return QSize(0, 0)
        return QSize(self._width_at(cell), scaled(TOP) + self._rows() * cell + scaled(MARGIN))

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
        if self.picture is None or event.key() not in ARROW_STEPS:
            super().keyPressEvent(event)
            return
        grid, (row, column) = self.selected
        if grid != "index":
            row, column = 0, 0
        d_row, d_column = ARROW_STEPS[event.key()]
        self.select("index", row + d_row, column + d_column)

    # --- painting --------------------------------------------------------------------------------

    def paintEvent(self, event) -> None:
        if self.picture is None:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        links = self.active_links()
        source, index, result = _marks()
        marks = {
            "x": {link.source_cell: source for link in links},
            "index": {link.index_cell: index for link in links},
            "out": {link.result_cell: result for link in links if link.survives},
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
        ink, line, blank = colour("ink"), colour("border"), colour("canvas")
        painter.setPen(ink)
        caption = QRectF(origin.x(), 0, self._caption_width(grid) + 8, scaled(TOP) - 4)
        painter.drawText(
            caption, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self._caption(grid)
        )
        painter.setFont(self.font())
        border = max(1, scaled(1))
        for row in range(array.shape[0]):
            for column in range(array.shape[1]):
                rect = self.cell_rect(grid, (row, column))
                mark = marks.get((row, column))
                painter.fillRect(rect, _tint(mark, blank) if mark else blank)
                painter.setPen(QPen(mark if mark else line, 2 * border if mark else border))
                painter.drawRect(rect.adjusted(1, 1, -1, -1))
                if rect.width() >= scaled(TEXT_FROM):  # smaller cells show links by colour only
                    painter.setPen(ink)
                    text = _value_text(array[row, column].item())
                    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)

    def _paint_link(self, painter: QPainter, link: IndexLink) -> None:
        index = self.cell_rect("index", link.index_cell)
        source = self.cell_rect("x", link.source_cell)
        result = self.cell_rect("out", link.result_cell)
        source_colour, _index_colour, result_colour = _marks()
        width = 2 * max(1, scaled(1))
        painter.setPen(QPen(source_colour, width))
        painter.drawLine(
            QPointF(index.left(), index.center().y()), QPointF(source.right(), source.center().y())
        )
        style = Qt.PenStyle.SolidLine if link.survives else Qt.PenStyle.DashLine
        lost = colour("faint")  # a scatter write that another write replaced
        painter.setPen(QPen(result_colour if link.survives else lost, width, style))
        painter.drawLine(
            QPointF(index.right(), index.center().y()), QPointF(result.left(), result.center().y())
        )


class IndexPictureView(Retranslating, QFrame):
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
        self._shown: tuple[Workspace, str] | None = None  # whose picture, to say it again
        self._unavailable = ""
        self.set_picture(None)

    def retranslate(self) -> None:
        """core's notes and reasons again, in the language now in force."""
        if self._shown is not None and self._shown[1] in self._shown[0]:
            selected = self.grids.selected
            self.show_entry(*self._shown)
            if self.grids.picture is not None:
                self.grids.select(selected[0], *selected[1])
        else:
            self._show_caption()

    def show_entry(self, workspace: Workspace, name: str) -> None:
        """The picture of workspace tensor `name` (core's picture_of_entry), or why not."""
        self._shown = (workspace, name)
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
        if picture is None:
            self._shown = self._shown if unavailable else None
        self._unavailable = unavailable
        if picture is not None:
            self.formula.setText(picture.formula)
            self._on_cell_selected("index", 0, 0)
        else:
            self._show_caption()
        self.setVisible(picture is not None or bool(unavailable))

    def _show_caption(self) -> None:
        picture = self.grids.picture
        if picture is not None:
            hint = self.tr(
                "Hover or click an element (arrow keys walk the index) to follow its links."
            )
            self.caption.setText(" ".join((*picture.notes, hint)))
        elif self._unavailable:
            self.caption.setText(arg(self.tr("No index picture: %1"), self._unavailable))
        else:
            self.caption.setText("")

    def _on_cell_selected(self, grid: str, row: int, column: int) -> None:
        picture = self.grids.picture
        if picture is None:
            return
        self.link.setText(describe_links(picture, self.grids.active_links()))
        self._show_caption()
