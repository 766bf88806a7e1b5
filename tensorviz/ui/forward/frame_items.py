"""A module call drawn open: a frame around what ran inside it, with a header (▾ name · class ·
parameters) whose click closes it again. Frames nest; deeper ones are tinted darker."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QRectF, Qt
from PySide6.QtGui import QBrush, QFont, QPen
from PySide6.QtWidgets import QGraphicsItem

from tensorviz.core.forward.nested_layout import FRAME_HEADER, PlacedFrame
from tensorviz.ui.autograd.graph_items import CUT, INK, MATCH, READABLE_ZOOM, SELECTED
from tensorviz.ui.widgets.theme import colour

FRAME_FILLS = ("graph_frame_1", "graph_frame_2", "graph_frame_3", "graph_frame_4")  # by depth


class FrameItem(QGraphicsItem):
    def __init__(self, frame: PlacedFrame) -> None:
        super().__init__()
        self.frame = frame
        self.call = frame.call
        self.match = False
        self.selected_node = False
        self._rect = QRectF(
            frame.left, frame.top, frame.right - frame.left, frame.bottom - frame.top
        )
        self.setZValue(-0.5 + frame.depth * 0.01)  # under nodes and edges, inner over outer
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)  # the view handles clicks
        hint = QCoreApplication.translate("FrameItem", "click the header to close it")
        self.setToolTip(f"{frame.title}\n{hint}")

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-2, -2, 2, 2)

    def header_rect(self) -> QRectF:
        return QRectF(self._rect.left(), self._rect.top(), self._rect.width(), FRAME_HEADER)

    def set_state(self, **states) -> None:
        changed = False
        for name, value in states.items():
            if getattr(self, name) != value:
                setattr(self, name, value)
                changed = True
        if changed:
            self.update()

    def paint(self, painter, option, widget=None) -> None:
        frame = self.frame
        role = "graph_fold" if frame.fold else FRAME_FILLS[frame.depth % len(FRAME_FILLS)]
        fill = colour(role)
        border, width = colour("graph_frame_border"), 1.0
        if frame.failed:
            border, width = colour(CUT), 2.0
        if self.match:
            border, width = colour(MATCH), 2.5
        if self.selected_node:
            border, width = colour(SELECTED), 2.5
        pen = QPen(border, width)
        if frame.fold:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(QBrush(fill))
        painter.drawRoundedRect(self._rect, 8, 8)
        if option.levelOfDetailFromTransform(painter.worldTransform()) < READABLE_ZOOM * 0.5:
            return
        font = QFont()
        font.setPointSizeF(8.5)
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(colour(INK))
        text_rect = self.header_rect().adjusted(10, 0, -8, 0)
        painter.drawText(
            text_rect,
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
            "▾  " + frame.title,
        )
