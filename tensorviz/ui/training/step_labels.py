"""The labels the Training area's step views are made of: the fixed-width font, section titles,
labels whose changing text never re-lays out the panel, number cells, and the tutorial's printed
lines."""

from __future__ import annotations

import math

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QFrame, QLabel, QPlainTextEdit, QSizePolicy


def mono_font() -> QFont:
    """The system's fixed-width family and nothing else: the size stays inherited from the
    parent widget, so it follows the app's font and the zoom by itself."""
    font = QFont()
    font.setFamilies(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).families())
    font.setStyleHint(QFont.StyleHint.Monospace)
    return font


def number_text(value: float | None) -> str:
    return "—" if value is None else f"{value:.6g}"


def title_label(text: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName("sectionTitle")
    return steady(label)


def steady(label: QLabel) -> QLabel:
    """A label whose changing text never re-lays out the panel (and so never resizes the plots,
    which is the most expensive thing a frame can do)."""
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
    label.setMinimumWidth(0)
    return label


class NumberCell(QLabel):
    """A number as wide as any value needs, narrower on a narrow window (its tooltip holds the
    value then). Its size hints never follow the text, so updates never re-lay out the panel."""

    def __init__(self, mono) -> None:
        super().__init__("—")
        self.setFont(mono)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:  # noqa: N802 — Qt override (the font follows the zoom)
        wide = self.fontMetrics().horizontalAdvance("-0.000000e+00")
        return QSize(wide, super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 — Qt override
        narrow = self.fontMetrics().horizontalAdvance("-0.00000")
        return QSize(narrow, super().minimumSizeHint().height())


def set_number(cell: QLabel, text: str) -> None:
    cell.setText(text)
    cell.setToolTip(text)


class PrintedLines(QPlainTextEdit):
    """Lines a loop prints (the tutorial's "Epoch [100/500], Loss: …" every 100 epochs), appended
    as they come: the last VISIBLE_LINES in view, the earlier ones a scroll away, every one kept
    and selectable; as wide as its longest line, as a label is. Each line is one append: a label
    holding them all laid its whole text out again on every batch, and grew a line taller every
    100 epochs (1,000 lines in a 100,000-epoch run, the panel re-laid out each time: the event
    loop fell behind)."""

    VISIBLE_LINES = 5

    def __init__(self, mono: QFont) -> None:
        super().__init__()
        self.setFont(mono)
        self.setReadOnly(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.viewport().setAutoFillBackground(False)  # the panel's background, as a label has
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self._longest = ""
        self.fit_height()

    def add_lines(self, lines: list[str]) -> None:
        for line in lines:
            self.appendPlainText(line)
        longest = max(lines, key=len, default="")
        if len(longest) > len(self._longest):
            self._longest = longest
            self.updateGeometry()  # (rarely: the lines of one loop are about as long)
        self.fit_height()
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())  # the newest line in view

    def clear(self) -> None:
        super().clear()
        self._longest = ""
        self.updateGeometry()
        self.fit_height()

    def fit_height(self) -> None:
        """As tall as its lines, at most VISIBLE_LINES (called again when the font changes)."""
        shown = max(1, min(self.blockCount(), self.VISIBLE_LINES))
        line = self.blockBoundingRect(self.document().firstBlock()).height()
        line = max(line, self.fontMetrics().lineSpacing())  # (0 before the first layout)
        margins = self.contentsMargins()
        # Qt counts a last line as visible with one pixel below the document's bottom margin.
        height = shown * line + 2 * self.document().documentMargin() + 1
        self.setFixedHeight(math.ceil(height + margins.top() + margins.bottom()))

    def _text_width(self) -> int:
        bar = self.verticalScrollBar().sizeHint().width() if self.blockCount() > 1 else 0
        margin = 2 * self.document().documentMargin() + self.cursorWidth() + 2
        return math.ceil(self.fontMetrics().horizontalAdvance(self._longest) + margin) + bar

    def sizeHint(self) -> QSize:  # noqa: N802 — Qt override
        return QSize(self._text_width(), self.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 — Qt override
        return QSize(self._text_width(), self.height())
