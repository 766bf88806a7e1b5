"""How each kind of row of a file's tree looks: a small badge icon and a text colour, so tensors,
plain values, objects of the file's classes, modules and — in red — calls a plain torch.load would
make are told apart at a glance. Badges are painted once per kind, after the QApplication exists.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QApplication, QStyle

# kind → (badge text, badge colour, text colour or None for the palette's)
KIND_LOOKS = {
    "tensor": ("T", "#2563eb", None),
    "dict": ("{}", "#6b7280", None),
    "group": ("·", "#9ca3af", None),
    "list": ("[]", "#6b7280", None),
    "tuple": ("()", "#6b7280", None),
    "value": ("=", "#059669", "#065f46"),
    "object": ("O", "#7c3aed", "#5b21b6"),
    "module": ("M", "#0d9488", "#115e59"),
    "call": ("!", "#dc2626", "#b91c1c"),
    "global": ("G", "#a16207", "#854d0e"),
    "text": ("≡", "#475569", "#334155"),
    "missing": ("?", "#d97706", "#b45309"),
}
KIND_WORDS = {
    "tensor": "a tensor", "dict": "a dict", "group": "a state-dict prefix", "list": "a list",
    "tuple": "a tuple", "value": "a plain value", "module": "an nn.Module saved whole",
    "object": "an object of a class the file names (never built: its state as recorded)",
    "call": "a call a plain torch.load would make — never made here",
    "global": "a class or function the file names (never imported)",
    "text": "a text file (code), shown, never run", "missing": "named, but its data is not there",
    "file": "a file of the folder", "folder": "a folder",
}  # fmt: skip

_icons: dict[str, QIcon] = {}


def kind_icon(kind: str) -> QIcon:
    if kind not in _icons:
        _icons[kind] = _make_icon(kind)
    return _icons[kind]


def kind_colour(kind: str) -> QColor | None:
    look = KIND_LOOKS.get(kind)
    return QColor(look[2]) if look and look[2] else None


def _make_icon(kind: str) -> QIcon:
    if kind in ("file", "folder"):
        pixmap = QStyle.StandardPixmap.SP_FileIcon if kind == "file" else (
            QStyle.StandardPixmap.SP_DirIcon)  # fmt: skip
        return QApplication.style().standardIcon(pixmap)
    text, colour, _ = KIND_LOOKS.get(kind, ("", "#9ca3af", None))
    icon = QIcon()
    for size in (16, 32):
        pixmap = QPixmap(size, size)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(QColor(colour)))
        rect = QRectF(1, 1, size - 2, size - 2)
        painter.drawRoundedRect(rect, size / 4, size / 4)
        font = QFont()
        font.setBold(True)
        font.setPixelSize(int(size * (0.62 if len(text) == 1 else 0.5)))
        painter.setFont(font)
        painter.setPen(QColor("white"))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
        painter.end()
        icon.addPixmap(pixmap)
    return icon
