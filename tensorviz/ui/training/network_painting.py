"""The network picture painted in the worker thread, into one RGBA image: the weights as
antialiased lines (blue positive, orange negative, wider for larger |w|), the neuron tiles over
them, each tile's border and, for 1-D tasks, each tile's curve.

Painting a QImage with QPainter is allowed outside the GUI thread; the GUI thread then only
shows one finished image per frame, however many weights the network has. The image's rows
run with y upwards (row 0 is y = 0), as the view's ImageItem shows them.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QPolygonF

from tensorviz.core.training.network_picture import EDGE_LEVELS, NetworkLayout
from tensorviz.ui.widgets.theme import colour

EDGE_WIDTHS = (0.4, 0.8, 1.3, 2.0, 2.8)[:EDGE_LEVELS]  # device pixels, one per strength level
TARGET_PIXELS = 400  # the longer side is painted at least this large (narrow lines stay sharp)


def paint_scale(layout: NetworkLayout) -> int:
    return max(1, int(np.ceil(TARGET_PIXELS / max(layout.width, layout.height))))


def _pen(rgb, level: int) -> QPen:
    colour = QColor(*(int(c) for c in rgb), 90 + 30 * level)
    pen = QPen(colour, EDGE_WIDTHS[level])
    pen.setCosmetic(True)  # widths in pixels of the painted image, whatever its scale
    return pen


def paint_network(
    layout: NetworkLayout,
    tiles: np.ndarray,
    edges: dict,
    curves: np.ndarray | None,
    colours: tuple,
) -> np.ndarray:
    """The picture as (height·s, width·s, 4) RGBA bytes, s = paint_scale(layout).
    tiles: the RGBA mosaic (height, width, 4); edges: (sign, level) → segment pairs in layout
    coordinates; curves: the 1-D tiles' NaN-separated polyline or None; colours: the RGB of
    negative and positive weights."""
    s = paint_scale(layout)
    width, height = layout.width * s, layout.height * s
    # Painted premultiplied (the raster engine's fast format), handed on as plain RGBA.
    image = QImage(width, height, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    rgba = QImage.Format.Format_RGBA8888
    mosaic = QImage(tiles.data, tiles.shape[1], tiles.shape[0], tiles.strides[0], rgba)
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.scale(s, s)
        for (sign, level), pairs in edges.items():
            if len(pairs):
                painter.setPen(_pen(colours[sign], level))
                points = pairs.tolist()
                painter.drawLines(
                    [QLineF(*points[i], *points[i + 1]) for i in range(0, len(points), 2)]
                )
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        painter.drawImage(QRectF(0, 0, layout.width, layout.height), mosaic)  # nearest: crisp
        border = QPen(colour("border"), 1)  # the theme in force as the frame is painted
        border.setCosmetic(True)
        painter.setPen(border)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        t = layout.tile
        painter.drawRects(
            [QRectF(x, y, t, t) for origins in layout.origins for x, y in origins.tolist()]
        )
        if curves is not None and len(curves):
            line = QPen(colour("ink"), 1.3)
            line.setCosmetic(True)
            painter.setPen(line)
            for piece in np.split(curves, np.flatnonzero(np.isnan(curves[:, 0]))):
                piece = piece[np.isfinite(piece[:, 0])]
                if len(piece) > 1:
                    painter.drawPolyline(QPolygonF([QPointF(x, y) for x, y in piece.tolist()]))
    finally:
        painter.end()
    image = image.convertToFormat(rgba)
    bits = np.frombuffer(image.constBits(), dtype=np.uint8)
    return bits.reshape(height, image.bytesPerLine() // 4, 4)[:, :width].copy()
