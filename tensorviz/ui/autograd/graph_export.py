"""Export the shown graph as PNG, SVG (the scene, painted) or Graphviz DOT (core's text),
written atomically: into a temporary file beside the target, then moved over it."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QRect, QRectF, QSize
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QFileDialog, QGraphicsScene, QWidget

from tensorviz.core.atomic_files import write_atomically
from tensorviz.core.autograd.dot_text import to_dot
from tensorviz.ui.autograd.graph_overview import DETAIL_ZOOM
from tensorviz.ui.widgets.theme import colour

SUFFIXES = (".png", ".svg", ".dot")
MAX_PNG_SIDE = 8000


def _render(scene: QGraphicsScene, painter: QPainter, size: QSize) -> None:
    target = QRectF(0, 0, size.width(), size.height())
    scene.render(painter, target, scene.sceneRect())


def png_scale(rect: QRectF) -> float:
    """The scale a PNG export paints the scene at (at most MAX_PNG_SIDE pixels a side)."""
    return min(2.0, MAX_PNG_SIDE / max(rect.width(), rect.height(), 1.0))


def export_view(view, graph, path: str | os.PathLike, dot_text=to_dot) -> Path:
    """Export what a GraphView shows: every item is built first, except for a PNG small enough
    that the overview paints the whole graph at that scale."""
    small_png = png_scale(view.scene().sceneRect()) < DETAIL_ZOOM
    if not (str(path).lower().endswith(".png") and small_png):
        view.build_all_items()
    return export_graph(view.scene(), graph, path, dot_text)


def export_graph(scene: QGraphicsScene, graph, path: str | os.PathLike, dot_text=to_dot) -> Path:
    """Write `path` by its suffix: .png, .svg (the scene) or .dot (`dot_text(graph)`: the
    structure; the autograd graph's by default)."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in SUFFIXES:
        text = QCoreApplication.translate("GraphExport", "Export as .png, .svg or .dot, not '%1'.")
        none = QCoreApplication.translate("GraphExport", "no suffix")
        raise ValueError(text.replace("%1", target.suffix or none))
    rect = scene.sceneRect()
    scale = png_scale(rect)
    size = QSize(int(rect.width() * scale), int(rect.height() * scale))

    def write(temporary: str) -> None:
        if suffix == ".dot":
            Path(temporary).write_text(dot_text(graph), encoding="utf-8")
        elif suffix == ".svg":
            generator = QSvgGenerator()
            generator.setFileName(temporary)
            svg_size = QSize(int(rect.width()), int(rect.height()))
            generator.setSize(svg_size)
            generator.setViewBox(QRect(0, 0, svg_size.width(), svg_size.height()))
            generator.setTitle("tensorviz graph")
            painter = QPainter(generator)
            _render(scene, painter, svg_size)
            painter.end()
        else:
            image = QImage(size, QImage.Format.Format_RGB32)
            image.fill(colour("canvas"))  # the theme's canvas, as the view shows it
            painter = QPainter(image)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            _render(scene, painter, size)
            painter.end()
            if not image.save(temporary, "PNG"):
                text = QCoreApplication.translate("GraphExport", "Could not write %1")
                raise OSError(text.replace("%1", str(target)))

    write_atomically(target, write)
    return target


def write_graph_picture(graph, path: Path) -> None:
    """Lay out and paint `graph` offscreen with the app's own scene, then export it as the GUI
    does (every item built for SVG / big PNG). For the CLI, which has no window."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from tensorviz.core.graph_layout.layered_layout import layout_graph
    from tensorviz.ui.autograd.graph_view import GraphView

    app = QApplication.instance() or QApplication([])  # noqa: F841  (kept alive while painting)
    view = GraphView()
    view.show_layout(graph, layout_graph(graph))
    export_view(view, graph, path)
    view.deleteLater()


def ask_export_path(parent: QWidget) -> str:
    title = QCoreApplication.translate("GraphExport", "Export graph")
    path, _unused = QFileDialog.getSaveFileName(
        parent, title, "autograd_graph.png", "PNG (*.png);;SVG (*.svg);;DOT (*.dot)"
    )
    return path
