"""How the playground is laid out: the settings column beside the transport bar, the problem, the
run's summary line, then the pictures — the network's tiles beside the decision boundary above,
the losses, the gradients per layer and the Step / Code / Model tabs below."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QVBoxLayout, QWidget

from tensorviz.ui.widgets.scrolling import scrolling


def _splitter(orientation, widgets, stretches, sizes) -> QSplitter:
    splitter = QSplitter(orientation)
    for widget, stretch in zip(widgets, stretches, strict=True):
        splitter.addWidget(widget)
        splitter.setStretchFactor(splitter.count() - 1, stretch)
    splitter.setSizes(sizes)
    splitter.setChildrenCollapsible(False)
    return splitter


def lay_out_playground(panel) -> None:
    """Build the PlaygroundPanel's layout from its parts; panel.pictures is what 'Pictures as
    PNG' saves."""
    # Small minimums: at the app's minimum window size the playground must fit where the
    # regression fits (the area's stack is as wide as its widest panel's minimum).
    panel.network_view.setMinimumSize(170, 150)
    panel.boundary.setMinimumSize(140, 150)
    for view in (panel.loss_plot, panel.gradient_plot):
        view.setMinimumSize(100, 150)
    panel.tabs.setMinimumSize(130, 150)
    top = _splitter(
        Qt.Orientation.Horizontal, [panel.network_view, panel.boundary], [3, 2], [520, 360]
    )
    bottom = _splitter(
        Qt.Orientation.Horizontal,
        [panel.loss_plot, panel.gradient_plot, panel.tabs],
        [2, 2, 3],
        [280, 280, 380],
    )
    pictures = _splitter(Qt.Orientation.Vertical, [top, bottom], [3, 2], [440, 300])
    panel.pictures = pictures
    right = QWidget()
    right_layout = QVBoxLayout(right)
    right_layout.setContentsMargins(0, 0, 0, 0)
    right_layout.addWidget(panel.bar)
    right_layout.addWidget(panel.problem_view)
    right_layout.addWidget(panel.summary)
    right_layout.addWidget(pictures, 1)

    left = QWidget()
    left_layout = QVBoxLayout(left)
    left_layout.setContentsMargins(0, 0, 4, 0)
    left_layout.addWidget(panel.form)
    left_layout.addStretch(1)
    form_scroll = scrolling(left)
    bar_width = form_scroll.verticalScrollBar().sizeHint().width() + 4
    form_scroll.setMinimumWidth(left.minimumSizeHint().width() + bar_width)
    outer = _splitter(
        Qt.Orientation.Horizontal,
        [form_scroll, right],
        [1, 4],
        [max(left.sizeHint().width(), 260) + bar_width, 900],  # room for "BCE with logits"
    )
    layout = QVBoxLayout(panel)
    layout.setContentsMargins(6, 6, 6, 6)
    layout.addWidget(outer)
