"""Export the layout picture (grid above, strips below) as PNG or SVG, written atomically:
painted into a temporary file beside the target, then moved over it with os.replace."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator

from tensorviz.core.atomic_files import write_atomically


def _paint(painter: QPainter, parts) -> None:
    y = 0
    for widget in parts:
        painter.save()
        painter.translate(0, y)
        painter.setClipRect(QRect(0, 0, widget.width(), widget.height()))
        widget.paint_picture(painter)
        painter.restore()
        y += widget.height()


def picture_size(parts) -> QSize:
    return QSize(max(w.width() for w in parts), sum(w.height() for w in parts))


def export_picture(parts, path: str | os.PathLike) -> Path:
    """Paint each part (widgets with paint_picture) one below the other; .svg or .png by suffix."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise ValueError(f"Export as .png or .svg, not '{target.suffix or 'no suffix'}'.")
    size = picture_size(parts)

    def write(temporary: str) -> None:
        if suffix == ".svg":
            generator = QSvgGenerator()
            generator.setFileName(temporary)
            generator.setSize(size)
            generator.setViewBox(QRect(0, 0, size.width(), size.height()))
            generator.setTitle("tensorviz memory layout")
            painter = QPainter(generator)
            _paint(painter, parts)
            painter.end()
        else:
            image = QImage(size, QImage.Format.Format_RGB32)
            image.fill(QColor("white"))
            painter = QPainter(image)
            _paint(painter, parts)
            painter.end()
            if not image.save(temporary, "PNG"):
                raise OSError(f"Could not write {target}")

    write_atomically(target, write)
    return target
