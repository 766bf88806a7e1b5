"""Grouping backward nodes by the nn.Module whose forward made them, and collapsing them."""

import torch

from tensorviz.core.autograd.graph import LeafNames, extract_graph
from tensorviz.core.autograd.module_groups import (
    collapse_modules,
    module_of_nodes,
    record_module_spans,
)
from tensorviz.core.autograd.presets import PRESETS
from tensorviz.core.graph_layout.layered_layout import layout_graph


def test_each_linear_layer_owns_its_addmm_and_parameters():
    built = PRESETS["mlp"].build()
    graph = built.extract()
    groups = module_of_nodes(graph, built.module_spans)
    by_group = {}
    for node, group in groups.items():
        by_group.setdefault(group, set()).add(graph.graph.nodes[node]["label"])
    assert by_group["0"] == {"AddmmBackward0", "TBackward0", "0.weight", "0.bias"}
    assert by_group["1"] == {"ReluBackward0"}
    assert by_group["2"] == {"AddmmBackward0", "TBackward0", "2.weight", "2.bias"}
    loss_node = next(n for n, d in graph.graph.nodes(data=True) if d["op"] == "MseLossBackward0")
    assert loss_node not in groups  # made outside the model


def test_collapsed_graph_is_the_chain_of_modules():
    built = PRESETS["mlp"].build()
    graph = built.extract()
    collapsed, shown_as = collapse_modules(
        graph.graph, module_of_nodes(graph, built.module_spans), built.module_spans
    )
    labels = {n: d["label"] for n, d in collapsed.nodes(data=True)}
    chain = ["module:0", "module:1", "module:2"]
    assert [labels[n] for n in chain] == ["0 · Linear", "1 · ReLU", "2 · Linear"]
    assert collapsed.has_edge("module:0", "module:1") and collapsed.has_edge("module:1", "module:2")
    assert set(shown_as) == set(graph.graph.nodes)
    assert collapsed.nodes["module:2"]["output_shapes"] == ((8, 1),)
    layout = layout_graph(collapsed)
    assert {p.node for p in layout.nodes.values()} == set(collapsed.nodes)


def test_spans_bracket_a_transformer_layer():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
    with record_module_spans(model) as spans:
        out = model(torch.randn(3, 4)).sum()
    names = LeafNames()
    names.add_module(model)
    graph = extract_graph(out, names)
    groups = module_of_nodes(graph, spans)
    assert [s.name for s in spans] == ["0", "1", "2"]
    tanh = next(n for n, d in graph.graph.nodes(data=True) if d["op"] == "TanhBackward0")
    assert groups[tanh] == "1"
    assert not any(h for h in model[0]._forward_hooks.values())  # hooks removed afterwards
