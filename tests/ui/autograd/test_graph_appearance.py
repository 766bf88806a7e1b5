"""View → Theme and View → Zoom reach the Autograd graph and the Architecture view: the canvas
and every node are painted in the theme's roles (no white boxes in the dark theme), and the
picture grows with the zoom."""

import pytest
from PySide6.QtCore import QPoint, QPointF

from tensorviz.ui.autograd.graph_items import NodeItem
from tensorviz.ui.widgets import theme as themes


@pytest.fixture
def dark(window):
    window.theme_menu.choices["dark"].trigger()
    yield window
    window.appearance.apply(zoom=1.0)
    window.theme_menu.choices["light"].trigger()


def _pixel(view, item) -> str:
    """The colour painted inside the node's box, left of its text and right of its border."""
    inside = item.scenePos() + QPointF(-item.placed.width / 2 + 3, 0)
    point = view.mapFromScene(inside)
    return view.viewport().grab().toImage().pixelColor(QPoint(point.x(), point.y())).name()


def test_the_dark_theme_paints_the_graph_dark_and_zoom_enlarges_it(dark, qtbot):
    dark.show_area("graph")
    panel = dark.panel("graph")
    qtbot.waitUntil(panel.isVisible)
    view = panel.view
    qtbot.waitUntil(lambda: view.backgroundBrush().color() == themes.DARK.colour("canvas"))
    node = next(n for n, d in panel.graph.graph.nodes(data=True) if d["kind"] == "backward")
    (item,) = view.items_of(node)
    fill = themes.DARK.colour("graph_backward")
    assert _pixel(view, item) == fill.name()  # as painted on screen
    assert themes.relative_luminance(fill) < 0.1  # a dark box, not a white one
    scale = view.scale_factor()
    dark.appearance.apply(zoom=2.0)
    qtbot.waitUntil(lambda: view.scale_factor() == pytest.approx(scale * 2.0))
    dark.theme_menu.choices["light"].trigger()
    qtbot.waitUntil(lambda: view.backgroundBrush().color() == themes.LIGHT.colour("canvas"))
    assert _pixel(view, item) == themes.LIGHT.colour("graph_backward").name()


def test_the_architecture_frames_follow_the_theme(dark, qtbot):
    dark.show_area("architecture")
    panel = dark.panel("architecture")
    qtbot.waitUntil(lambda: panel.current is not None, timeout=60_000)
    view = panel.view
    qtbot.waitUntil(lambda: view.backgroundBrush().color() == themes.DARK.colour("canvas"))
    ops = [i for items in view.node_items.values() for i in items if i.kind == "op"]
    assert ops and isinstance(ops[0], NodeItem)
    assert _pixel(view, ops[0]) == themes.DARK.colour("graph_backward").name()
