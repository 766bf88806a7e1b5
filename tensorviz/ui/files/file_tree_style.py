"""How each kind of row of a file's tree looks: a small badge icon and a text colour, so tensors,
plain values, objects of the file's classes, modules and — in red — calls a plain torch.load would
make are told apart at a glance. Colours are roles of the theme in force (a call is red in both
themes); badges are painted once per kind and theme, after the QApplication exists.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QApplication, QStyle

from tensorviz.ui.widgets.theme import colour, current_theme

# kind → (badge text, badge colour role, text colour role or None for the palette's)
KIND_LOOKS = {
    "tensor": ("T", "link", None),
    "dict": ("{}", "muted", None),
    "group": ("·", "faint", None),
    "list": ("[]", "muted", None),
    "tuple": ("()", "muted", None),
    "value": ("=", "ok_text", "ok_text"),
    "object": ("O", "kind_object", "kind_object"),
    "module": ("M", "kind_module", "kind_module"),
    "call": ("!", "error_text", "error_text"),
    "global": ("G", "kind_global", "kind_global"),
    "text": ("≡", "muted", "muted"),
    "missing": ("?", "kind_missing", "kind_missing"),
}
KIND_WORDS = {
    "tensor": QT_TRANSLATE_NOOP("FileKinds", "a tensor"),
    "dict": QT_TRANSLATE_NOOP("FileKinds", "a dict"),
    "group": QT_TRANSLATE_NOOP("FileKinds", "a state-dict prefix"),
    "list": QT_TRANSLATE_NOOP("FileKinds", "a list"),
    "tuple": QT_TRANSLATE_NOOP("FileKinds", "a tuple"),
    "value": QT_TRANSLATE_NOOP("FileKinds", "a plain value"),
    "module": QT_TRANSLATE_NOOP("FileKinds", "an nn.Module saved whole"),
    "object": QT_TRANSLATE_NOOP(
        "FileKinds", "an object of a class the file names (never built: its state as recorded)"
    ),
    "call": QT_TRANSLATE_NOOP(
        "FileKinds", "a call a plain torch.load would make — never made here"
    ),
    "global": QT_TRANSLATE_NOOP("FileKinds", "a class or function the file names (never imported)"),
    "text": QT_TRANSLATE_NOOP("FileKinds", "a text file (code), shown, never run"),
    "missing": QT_TRANSLATE_NOOP("FileKinds", "named, but its data is not there"),
    "file": QT_TRANSLATE_NOOP("FileKinds", "a file of the folder"),
    "folder": QT_TRANSLATE_NOOP("FileKinds", "a folder"),
}

_icons: dict[tuple[str, str], QIcon] = {}


def kind_word(kind: str) -> str:
    """What a kind of row is, in the language in force."""
    word = KIND_WORDS.get(kind)
    return QCoreApplication.translate("FileKinds", word) if word else kind


def kind_icon(kind: str) -> QIcon:
    key = (kind, current_theme().key)
    if key not in _icons:
        _icons[key] = _make_icon(kind)
    return _icons[key]


def kind_colour(kind: str) -> QColor | None:
    look = KIND_LOOKS.get(kind)
    return colour(look[2]) if look and look[2] else None


def _make_icon(kind: str) -> QIcon:
    if kind in ("file", "folder"):
        pixmap = QStyle.StandardPixmap.SP_FileIcon if kind == "file" else (
            QStyle.StandardPixmap.SP_DirIcon)  # fmt: skip
        return QApplication.style().standardIcon(pixmap)
    text, role, _text_role = KIND_LOOKS.get(kind, ("", "faint", None))
    icon = QIcon()
    for size in (16, 32, 64):  # 64: sharp at a projector's zoom
        pixmap = QPixmap(size, size)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(colour(role)))
        rect = QRectF(1, 1, size - 2, size - 2)
        painter.drawRoundedRect(rect, size / 4, size / 4)
        font = QFont()
        font.setBold(True)
        font.setPixelSize(int(size * (0.62 if len(text) == 1 else 0.5)))
        painter.setFont(font)
        painter.setPen(colour("window"))  # light on the light theme's dark badges, and back
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
        painter.end()
        icon.addPixmap(pixmap)
    return icon
