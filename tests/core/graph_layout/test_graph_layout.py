"""The layered layout: deterministic, no overlaps, edges downward, fewer crossings, hubs split."""

import itertools
import random

import networkx as nx
import pytest
import torch

from tensorviz.core.autograd.graph import extract_graph
from tensorviz.core.autograd.presets import PRESETS
from tensorviz.core.graph_layout.layer_ordering import count_crossings, order_layers
from tensorviz.core.graph_layout.layered_layout import NODE_GAP, layout_graph


def shared_weight_rnn(steps: int = 12):
    torch.manual_seed(0)
    cell = torch.nn.RNNCell(3, 4)
    h = torch.zeros(1, 4)
    for _ in range(steps):
        h = cell(torch.randn(1, 3), h)
    names = {name: p for name, p in cell.named_parameters()}
    return extract_graph(h.sum(), names, ["loss"])


def assert_well_formed(layout, graph):
    for layer in layout.layers:
        placed = sorted((layout.nodes[k] for k in layer), key=lambda p: p.x)
        assert len({p.y for p in placed}) <= 1
        for left, right in itertools.pairwise(placed):
            assert right.x - left.x >= (left.width + right.width) / 2 + NODE_GAP - 1e-6
    for route in layout.edges:
        ys = [y for _, y in route.points]
        assert ys == sorted(ys)  # every edge runs downward, input above its consumer
    shown = {p.node for p in layout.nodes.values()}
    assert shown == set(graph.nodes)


@pytest.mark.parametrize("key", list(PRESETS))
def test_presets_lay_out_cleanly(key):
    graph = PRESETS[key].build().extract().graph
    assert_well_formed(layout_graph(graph), graph)


def test_layout_is_deterministic():
    first = layout_graph(shared_weight_rnn().graph)
    second = layout_graph(shared_weight_rnn().graph)
    assert first.nodes == second.nodes and first.edges == second.edges


def test_shared_weights_become_one_stub_per_use():
    extracted = shared_weight_rnn(12)
    layout = layout_graph(extracted.graph)
    assert_well_formed(layout, extracted.graph)
    hubs = {extracted.graph.nodes[h]["label"]: keys for h, keys in layout.stubs_of.items()}
    assert set(hubs) == {"weight_ih", "weight_hh", "bias_ih", "bias_hh"}
    for hub, keys in layout.stubs_of.items():
        assert len(keys) == extracted.graph.out_degree(hub) == 12
        assert all(layout.nodes[k].stub and layout.nodes[k].node == hub for k in keys)


def brute_force_crossings(layers, edges):
    position = {n: i for layer in layers for i, n in enumerate(layer)}
    layer_of = {n: k for k, layer in enumerate(layers) for n in layer}
    total = 0
    for (a, b), (c, d) in itertools.combinations(edges, 2):
        if layer_of[a] != layer_of[c]:
            continue
        if (position[a] - position[c]) * (position[b] - position[d]) < 0:
            total += 1
    return total


def random_layered_dag(seed: int, layers_count: int = 5, width: int = 6):
    rng = random.Random(seed)
    layers = [[f"{k}.{i}" for i in range(rng.randint(2, width))] for k in range(layers_count)]
    edges = []
    for upper, lower in itertools.pairwise(layers):
        for node in lower:
            for source in rng.sample(upper, rng.randint(1, min(2, len(upper)))):
                edges.append((source, node))
    for layer in layers:
        rng.shuffle(layer)
    return layers, edges


@pytest.mark.parametrize("seed", range(10))
def test_crossing_count_matches_brute_force(seed):
    layers, edges = random_layered_dag(seed)
    assert count_crossings(layers, edges) == brute_force_crossings(layers, edges)


def test_sweeps_reduce_crossings_on_random_dags():
    before = after = 0
    for seed in range(20):
        layers, edges = random_layered_dag(seed)
        ordered, crossings = order_layers(layers, edges)
        assert crossings == count_crossings(ordered, edges) <= count_crossings(layers, edges)
        assert [sorted(a) for a in ordered] == [sorted(b) for b in layers]
        before += count_crossings(layers, edges)
        after += crossings
    assert after < before / 2


def test_a_long_chain_lays_out_without_recursion():
    graph = nx.DiGraph()
    nx.add_path(graph, [f"n{i}" for i in range(20_000)])
    for node in graph.nodes:
        graph.nodes[node].update(kind="backward", label="MulBackward0")
    layout = layout_graph(graph)
    assert len(layout.layers) == 20_000 and layout.crossings == 0


def test_reported_crossings_are_the_crossings_of_the_order_returned():
    for seed in range(60):  # wider and deeper: many swaps, whose removed crossings are summed
        layers, edges = random_layered_dag(seed, layers_count=8, width=10)
        ordered, crossings = order_layers(layers, edges)
        assert crossings == count_crossings(ordered, edges) == brute_force_crossings(ordered, edges)
