"""LayoutBands: the arithmetic behind building items only for the bands of layers in view."""

import torch

from tensorviz.core.autograd.graph import extract_graph
from tensorviz.core.graph_layout.bands import LayoutBands
from tensorviz.core.graph_layout.layered_layout import GraphLayout, layout_graph


def chain_layout(length: int = 40) -> GraphLayout:
    x = torch.ones(2, requires_grad=True)
    y = x
    for _ in range(length):
        y = y * 1.0 + x  # x is read by every step: a hub split into stubs, and long edges
    return layout_graph(extract_graph(y.sum(), {"x": x}, ["loss"]).graph)


def test_every_node_and_edge_is_in_the_bands_it_touches():
    layout = chain_layout()
    bands = LayoutBands(layout, {})
    keys = [key for band in range(bands.band_count) for key in bands.nodes_in(band)]
    assert sorted(keys) == sorted(layout.nodes)
    for index, route in enumerate(layout.edges):
        for _, y in route.points:
            assert index in bands.edges_in(bands.band_of(y))
    assert len(bands.segments) == sum(len(r.points) - 1 for r in layout.edges)
    first = layout.edges[0].points
    assert tuple(bands.segments[0]) == (*first[0], *first[1])


def test_node_at_and_rectangle_queries():
    layout = chain_layout()
    bands = LayoutBands(layout, {})
    for placed in list(layout.nodes.values())[:10]:
        assert bands.node_at(placed.x, placed.y) == placed.node
    assert bands.node_at(-50.0, -50.0) == ""
    boxes, _ = bands.boxes_within(0, 0, layout.width, layout.height)
    assert len(boxes) == len(layout.nodes)
    assert len(bands.segments_within(-1, -1, -1, -1)) == 0


def test_an_empty_layout_has_one_empty_band():
    bands = LayoutBands(GraphLayout({}, [], [], 0.0, 0.0), {})
    assert bands.band_count == 1 and bands.nodes_in(0) == [] and len(bands.segments) == 0
