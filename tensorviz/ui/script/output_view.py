"""The output pane: what the script printed, stdout in ink, stderr in the error colour, notes
from the app in grey. Appended in throttled batches; old lines fall off the top."""

from __future__ import annotations

from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

from tensorviz.ui.script.code_editor import monospace_font

MAX_LINES = 20_000
COLOURS = {"stdout": "#1f2a44", "stderr": "#b42318", "note": "#6b7280", "ok": "#2a7d4f"}


class OutputView(QPlainTextEdit):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("scriptOutput")
        self.setReadOnly(True)
        self.setFont(monospace_font())
        self.setMaximumBlockCount(MAX_LINES)
        self.setPlaceholderText("What the script prints appears here.")
        self._formats = {}
        for stream, colour in COLOURS.items():
            text_format = QTextCharFormat()
            text_format.setForeground(QColor(colour))
            text_format.setFontItalic(stream == "note")
            self._formats[stream] = text_format

    def append_chunks(self, chunks: list[tuple[str, str]], skipped_chars: int = 0) -> None:
        if not chunks and not skipped_chars:
            return
        bar = self.verticalScrollBar()
        at_bottom = bar.value() >= bar.maximum() - 4
        cursor = QTextCursor(self.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.beginEditBlock()
        if skipped_chars:
            note = f"… {skipped_chars:,} characters of output dropped here …\n"
            cursor.insertText(note, self._formats["note"])
        for stream, text in chunks:
            self._insert(cursor, text, self._formats.get(stream, self._formats["stdout"]))
        cursor.endEditBlock()
        if at_bottom:
            bar.setValue(bar.maximum())

    @staticmethod
    def _insert(cursor: QTextCursor, text: str, text_format: QTextCharFormat) -> None:
        """As a terminal shows it: a carriage return (progress bars, `print(..., end="\\r")`)
        goes back to the start of the line, so the next text replaces it."""
        first, *after_returns = text.replace("\r\n", "\n").split("\r")
        cursor.insertText(first, text_format)
        for piece in after_returns:
            cursor.movePosition(
                QTextCursor.MoveOperation.StartOfBlock, QTextCursor.MoveMode.KeepAnchor
            )
            cursor.removeSelectedText()
            cursor.insertText(piece, text_format)

    def append_line(self, text: str, stream: str = "note") -> None:
        """A line from the app (a run's start, its summary), on a line of its own."""
        last = self.document().lastBlock().text()
        prefix = "\n" if last else ""
        self.append_chunks([(stream, f"{prefix}{text}\n")])

    def lines_fell_off(self) -> bool:
        """Whether the pane holds as many lines as it keeps (older ones are gone)."""
        return self.document().blockCount() >= MAX_LINES

    def text(self) -> str:
        return self.toPlainText()
