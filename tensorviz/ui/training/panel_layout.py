"""How the Training area is laid out: the settings column beside the transport bar, the problem,
the plots and, below them, the phases beside the gradients (stacked on a narrow window). Every part
keeps its text whole from the app's minimum window size up; what cannot fit scrolls."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QBoxLayout, QSplitter, QVBoxLayout, QWidget

from tensorviz.ui.widgets.appearance_following import FollowsAppearanceLater
from tensorviz.ui.widgets.scrolling import scrolling


class ResponsiveRow(FollowsAppearanceLater, QWidget):
    """Widgets side by side, stacked in a column when the row is too narrow for them."""

    def __init__(
        self, widgets: list[tuple[QWidget, int]], side_by_side_width: Callable[[], int], parent=None
    ) -> None:
        """widgets: (widget, stretch) pairs, left to right (top to bottom when stacked), side by
        side from side_by_side_width() on (asked again when the zoom or language changes)."""
        super().__init__(parent)
        self.box = QBoxLayout(QBoxLayout.Direction.LeftToRight, self)
        self.box.setContentsMargins(0, 4, 0, 0)
        for widget, stretch in widgets:
            self.box.addWidget(widget, stretch)
        self.side_by_side_width = side_by_side_width
        self.box.setDirection(QBoxLayout.Direction.TopToBottom)
        self.setMinimumWidth(self.box.minimumSize().width())

    @property
    def stacked(self) -> bool:
        return self.box.direction() == QBoxLayout.Direction.TopToBottom

    def resizeEvent(self, event) -> None:  # noqa: N802 — Qt override
        super().resizeEvent(event)
        self._arrange(event.size().width())

    def restyle(self) -> None:
        self._arrange(self.width())

    def _arrange(self, width: int) -> None:
        wide = width >= self.side_by_side_width()
        direction = QBoxLayout.Direction.LeftToRight if wide else QBoxLayout.Direction.TopToBottom
        if self.box.direction() != direction:
            self.box.setDirection(direction)


def lay_out_panel(panel) -> None:
    """Build the TrainingPanel's layout from its parts (form, bar, views, plots)."""
    side = QWidget()
    side_layout = QVBoxLayout(side)
    side_layout.setContentsMargins(0, 0, 0, 0)
    side_layout.addWidget(panel.gradient_view)
    side_layout.addStretch(1)

    # Side by side when the code and the gradients fit whole; stacked on a narrow window.
    def wide() -> int:
        return panel.phase_view.comfortable_width() + panel.gradient_view.sizeHint().width() + 12

    bottom = ResponsiveRow([(panel.phase_view, 3), (side, 2)], wide)
    bottom_scroll = scrolling(bottom)
    bottom_scroll.setMinimumHeight(90)
    centre = QSplitter(Qt.Orientation.Vertical)
    centre.addWidget(panel.plots)
    centre.addWidget(bottom_scroll)
    centre.setStretchFactor(0, 1)
    centre.setSizes([480, 230])
    right = QWidget()
    right_layout = QVBoxLayout(right)
    right_layout.setContentsMargins(0, 0, 0, 0)
    right_layout.addWidget(panel.bar)
    right_layout.addWidget(panel.problem_view)
    right_layout.addWidget(centre, 1)

    left = QWidget()
    left_layout = QVBoxLayout(left)
    left_layout.setContentsMargins(0, 0, 4, 0)
    left_layout.addWidget(panel.form)
    left_layout.addWidget(panel.results_view)
    left_layout.addStretch(1)
    form_scroll = scrolling(left)
    # Wide enough that every setting can be read; the transport bar and the phase view go
    # compact on a narrow window to leave room for it (the app's minimum width depends on it).
    bar_width = form_scroll.verticalScrollBar().sizeHint().width() + 4
    full_width = left.sizeHint().width() + bar_width
    form_scroll.setMinimumWidth(left.minimumSizeHint().width() + bar_width)
    outer = QSplitter(Qt.Orientation.Horizontal)
    outer.addWidget(form_scroll)
    outer.addWidget(right)
    outer.setStretchFactor(0, 1)  # a narrow window takes a fifth from the settings
    outer.setStretchFactor(1, 4)
    outer.setSizes([full_width, 850])
    outer.setCollapsible(0, False)
    outer.setCollapsible(1, False)
    layout = QVBoxLayout(panel)
    layout.setContentsMargins(6, 6, 6, 6)
    layout.addWidget(outer)
