"""The labels the Training area's step views are made of: the fixed-width font, section titles,
labels whose changing text never re-lays out the panel, and number cells."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QLabel, QSizePolicy


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
