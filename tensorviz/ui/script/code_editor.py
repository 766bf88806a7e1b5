"""The script editor: monospace, line numbers, current-line and failing-line highlights, Python
colours, Tab → four spaces, Enter keeps the indentation, Ctrl+/ toggles comments.

Its colours are the theme's roles (read when painting, set again when the theme changes) and its
font follows View → Zoom, the gutter with it. The text is the user's own: never translated."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFontDatabase, QKeyEvent, QPainter, QTextCursor, QTextFormat
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QTextEdit, QWidget

from tensorviz.ui.script.python_highlighter import PythonHighlighter
from tensorviz.ui.widgets.appearance_following import FollowsAppearance
from tensorviz.ui.widgets.theme import colour, current_zoom, scaled

INDENT = "    "
BASE_POINT_SIZE = 10  # at 100 % zoom; the system's fixed font when it is larger


def monospace_font():
    """The fixed-width font at the zoom in force; a glyph it lacks (Chinese in a comment) comes
    from the families of the application's font, which end with a CJK one (ui/window)."""
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font.setPointSizeF(max(font.pointSizeF(), BASE_POINT_SIZE) * current_zoom())
    behind = [f for f in QApplication.font().families() if f not in font.families()]
    font.setFamilies([*font.families(), *behind])
    return font


class _Gutter(QWidget):
    def __init__(self, editor: CodeEditor) -> None:
        super().__init__(editor)
        self.editor = editor

    def sizeHint(self) -> QSize:
        return QSize(self.editor.gutter_width(), 0)

    def paintEvent(self, event) -> None:
        self.editor.paint_gutter(event)


class CodeEditor(FollowsAppearance, QPlainTextEdit):
    run_requested = Signal()  # Ctrl+Enter
    stop_requested = Signal()  # Esc

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("codeEditor")
        self.setProperty("verbatim", True)  # the user's code: never translated
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.failing_line = 0
        self.highlighter = PythonHighlighter(self.document())
        self.gutter = _Gutter(self)
        self.blockCountChanged.connect(self._update_gutter_width)
        self.updateRequest.connect(self._on_update_requested)
        self.cursorPositionChanged.connect(self._update_highlights)
        self.restyle_if_changed()

    def lost_style(self) -> bool:
        return self.font().pointSizeF() != monospace_font().pointSizeF()

    def restyle(self) -> None:
        """The theme or zoom changed: the font, the gutter's width, the colours again."""
        self.setFont(monospace_font())
        self.setTabStopDistance(self.fontMetrics().horizontalAdvance(" ") * 4)
        self.highlighter.restyle()
        self._update_gutter_width()
        self._place_gutter()
        self._update_highlights()

    # --- failing line ----------------------------------------------------------------------------

    def set_failing_line(self, line: int) -> None:
        """Mark a line (1-based) as the one that failed; 0 clears the mark."""
        self.failing_line = line
        self._update_highlights()
        self.gutter.update()

    def go_to_line(self, line: int) -> None:
        block = self.document().findBlockByNumber(max(line - 1, 0))
        if block.isValid():
            cursor = QTextCursor(block)
            self.setTextCursor(cursor)
            self.centerCursor()
            self.setFocus()

    # --- gutter ----------------------------------------------------------------------------------

    def gutter_width(self) -> int:
        digits = max(3, len(str(self.blockCount())))
        return scaled(14) + self.fontMetrics().horizontalAdvance("9") * digits

    def _update_gutter_width(self, _count: int = 0) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def _on_update_requested(self, rect: QRect, dy: int) -> None:
        if dy:
            self.gutter.scroll(0, dy)
        else:
            self.gutter.update(0, rect.y(), self.gutter.width(), rect.height())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._place_gutter()

    def _place_gutter(self) -> None:
        area = self.contentsRect()
        self.gutter.setGeometry(QRect(area.left(), area.top(), self.gutter_width(), area.height()))

    def paint_gutter(self, event) -> None:
        painter = QPainter(self.gutter)
        painter.fillRect(event.rect(), colour("code_background"))
        block = self.firstVisibleBlock()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        height = self.fontMetrics().height()
        current = self.textCursor().blockNumber()
        while block.isValid() and top <= event.rect().bottom():
            bottom = top + round(self.blockBoundingRect(block).height())
            if block.isVisible() and bottom >= event.rect().top():
                number = block.blockNumber() + 1
                failing = number == self.failing_line
                painter.setPen(colour("error_text" if failing else "gutter_text"))
                font = painter.font()
                font.setBold(failing or block.blockNumber() == current)
                painter.setFont(font)
                painter.drawText(
                    0,
                    top,
                    self.gutter.width() - scaled(6),
                    height,
                    Qt.AlignmentFlag.AlignRight,
                    str(number),
                )
            block, top = block.next(), bottom
        painter.end()

    # --- highlights ------------------------------------------------------------------------------

    def _line_selection(self, block_number: int, colour: QColor) -> QTextEdit.ExtraSelection:
        selection = QTextEdit.ExtraSelection()
        selection.format.setBackground(colour)
        selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        cursor = QTextCursor(self.document().findBlockByNumber(block_number))
        cursor.clearSelection()
        selection.cursor = cursor
        return selection

    def _update_highlights(self) -> None:
        current = self._line_selection(self.textCursor().blockNumber(), colour("current_line"))
        selections = [current]
        if 0 < self.failing_line <= self.blockCount():
            failing = colour("failing_line")
            selections.append(self._line_selection(self.failing_line - 1, failing))
        self.setExtraSelections(selections)
        self.gutter.update()

    # --- keys ------------------------------------------------------------------------------------

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key, modifiers = event.key(), event.modifiers()
        control = bool(modifiers & Qt.KeyboardModifier.ControlModifier)
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and control:
            self.run_requested.emit()
        elif key == Qt.Key.Key_Escape:
            self.stop_requested.emit()
        elif key == Qt.Key.Key_Slash and control:
            self.toggle_comment()
        elif key == Qt.Key.Key_Tab and not self.textCursor().hasSelection():
            self.insertPlainText(INDENT)
        elif key == Qt.Key.Key_Tab:
            self._indent_selection(+1)
        elif key == Qt.Key.Key_Backtab:
            self._indent_selection(-1)
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self._new_line_keeping_indent()
        else:
            super().keyPressEvent(event)

    def _new_line_keeping_indent(self) -> None:
        line = self.textCursor().block().text()
        indent = line[: len(line) - len(line.lstrip(" "))]
        if line[: self.textCursor().positionInBlock()].rstrip().endswith(":"):
            indent += INDENT
        self.insertPlainText("\n" + indent)

    def _selected_blocks(self):
        cursor = self.textCursor()
        first = self.document().findBlock(cursor.selectionStart()).blockNumber()
        end = cursor.selectionEnd()
        last_block = self.document().findBlock(end)
        last = last_block.blockNumber()
        if cursor.hasSelection() and end == last_block.position() and last > first:
            last -= 1  # a selection ending at a line's start does not include that line
        return [self.document().findBlockByNumber(n) for n in range(first, last + 1)]

    def _edit_lines(self, change) -> None:
        """Replace each selected line by change(text), as one undoable edit."""
        blocks = self._selected_blocks()
        cursor = self.textCursor()
        cursor.beginEditBlock()
        for block in blocks:
            new = change(block.text())
            if new != block.text():
                line = QTextCursor(block)
                line.movePosition(
                    QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor
                )
                line.insertText(new)
        cursor.endEditBlock()

    def _indent_selection(self, direction: int) -> None:
        if direction > 0:
            self._edit_lines(lambda text: INDENT + text if text.strip() else text)
        else:
            self._edit_lines(lambda text: text[min(4, len(text) - len(text.lstrip(" "))) :])

    def toggle_comment(self) -> None:
        texts = [b.text() for b in self._selected_blocks() if b.text().strip()]
        uncomment = bool(texts) and all(t.lstrip().startswith("#") for t in texts)
        if uncomment:
            self._edit_lines(_uncomment)
        else:
            column = min((len(t) - len(t.lstrip()) for t in texts), default=0)
            self._edit_lines(lambda t: t[:column] + "# " + t[column:] if t.strip() else t)


def _uncomment(text: str) -> str:
    stripped = text.lstrip()
    if not stripped.startswith("#"):
        return text
    indent = text[: len(text) - len(stripped)]
    rest = stripped[1:]
    return indent + (rest[1:] if rest.startswith(" ") else rest)
