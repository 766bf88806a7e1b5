"""The output pane: what the script printed, stdout in ink, stderr in the error colour, notes
from the app in grey. Appended in throttled batches; old lines fall off the top.

What the script printed is shown verbatim (never translated). Each piece of text remembers its
stream, so a change of theme colours the text already there again; the font follows the zoom."""

from __future__ import annotations

from PySide6.QtGui import QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import QPlainTextEdit

from tensorviz.ui.script.code_editor import monospace_font
from tensorviz.ui.widgets.appearance_following import FollowsAppearance
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import colour

MAX_LINES = 20_000
STREAM_ROLES = {"stdout": "text", "stderr": "error_text", "note": "muted", "ok": "ok_text"}
STREAM_PROPERTY = int(QTextFormat.Property.UserProperty) + 1  # which stream a piece came from


def stream_formats() -> dict[str, QTextCharFormat]:
    formats = {}
    for stream, role in STREAM_ROLES.items():
        text_format = QTextCharFormat()
        text_format.setForeground(colour(role))
        text_format.setFontItalic(stream == "note")
        text_format.setProperty(STREAM_PROPERTY, stream)
        formats[stream] = text_format
    return formats


class OutputView(Retranslating, FollowsAppearance, QPlainTextEdit):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("scriptOutput")
        self.setProperty("verbatim", True)  # the script's own output and tracebacks
        self.setReadOnly(True)
        self.setMaximumBlockCount(MAX_LINES)
        self._formats = stream_formats()
        self.restyle_if_changed()
        self.retranslate()

    def retranslate(self) -> None:
        self.setPlaceholderText(self.tr("What the script prints appears here."))

    def lost_style(self) -> bool:
        return self.font().pointSizeF() != monospace_font().pointSizeF()

    def restyle(self) -> None:
        self.setFont(monospace_font())
        self._formats = stream_formats()
        self._recolour()

    def _recolour(self) -> None:
        """Give every piece of text already shown its stream's colour in the theme now."""
        document = self.document()
        cursor = QTextCursor(document)
        cursor.beginEditBlock()
        block = document.begin()
        while block.isValid():
            pieces = block.begin()
            while not pieces.atEnd():
                fragment = pieces.fragment()
                stream = fragment.charFormat().property(STREAM_PROPERTY)
                cursor.setPosition(fragment.position())
                cursor.setPosition(
                    fragment.position() + fragment.length(), QTextCursor.MoveMode.KeepAnchor
                )
                cursor.setCharFormat(self._formats.get(stream, self._formats["stdout"]))
                pieces += 1
            block = block.next()
        cursor.endEditBlock()

    def append_chunks(self, chunks: list[tuple[str, str]], skipped_chars: int = 0) -> None:
        if not chunks and not skipped_chars:
            return
        bar = self.verticalScrollBar()
        at_bottom = bar.value() >= bar.maximum() - 4
        cursor = QTextCursor(self.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.beginEditBlock()
        if skipped_chars:
            note = self.tr("… %1 characters of output dropped here …").replace(
                "%1", f"{skipped_chars:,}"
            )
            cursor.insertText(note + "\n", self._formats["note"])
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
