"""Export the layout picture (grid above, strips below) as PNG or SVG, written atomically:
painted into a temporary file beside the target, then moved over it with os.replace. The
picture is painted in the theme in force (a dark picture from the dark theme)."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QRect, QSize
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QFileDialog, QWidget

from tensorviz.core.atomic_files import write_atomically
from tensorviz.ui.memory.layout_texts import filled
from tensorviz.ui.widgets.theme import colour

translate = QCoreApplication.translate  # lupdate reads the context given


class PictureExportError(OSError):
    """The picture could not be written; the message says why, in the language in force."""


def ask_picture_path(parent: QWidget, name: str, kind: str) -> str:
    """The file the user chose in the save dialog ("" when cancelled), ending in .png/.svg."""
    wanted = (
        translate("PictureExport", "PNG picture (*.png)")
        if kind == "png"
        else translate("PictureExport", "SVG picture (*.svg)")
    )
    path, _unused = QFileDialog.getSaveFileName(
        parent, translate("PictureExport", "Export picture"), f"{name}.{kind}", wanted
    )
    if path and not path.lower().endswith(f".{kind}"):
        path = f"{path}.{kind}"
    return path


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
    """Paint each part (widgets with paint_picture) one below the other; .svg or .png by suffix.
    Raises PictureExportError (and leaves any file already at `path` as it was) on failure."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in (".png", ".svg"):
        message = translate("PictureExport", "Export as .png or .svg, not “%1”.")
        raise PictureExportError(
            filled(message, target.suffix or translate("PictureExport", "no suffix"))
        )
    size = picture_size(parts)

    def write(temporary: str) -> None:
        if suffix == ".svg":
            generator = QSvgGenerator()
            generator.setFileName(temporary)
            generator.setSize(size)
            generator.setViewBox(QRect(0, 0, size.width(), size.height()))
            generator.setTitle(translate("PictureExport", "tensorviz memory layout"))
            painter = QPainter(generator)
            _paint(painter, parts)
            painter.end()
        else:
            image = QImage(size, QImage.Format.Format_RGB32)
            image.fill(colour("canvas"))
            painter = QPainter(image)
            _paint(painter, parts)
            painter.end()
            if not image.save(temporary, "PNG"):
                raise PictureExportError(
                    filled(translate("PictureExport", "Could not write %1"), target)
                )

    try:
        write_atomically(target, write)
    except PictureExportError:
        raise
    except OSError as error:  # a folder that is gone, no permission, a full disk
        reason = error.strerror or str(error)
        raise PictureExportError(
            filled(translate("PictureExport", "Could not write %1: %2"), target, reason)
        ) from error
    return target
