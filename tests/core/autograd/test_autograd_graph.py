"""Extraction of the autograd graph, compared with a direct walk of torch's own next_functions."""

import random

import pytest
import torch

from tensorviz.core.autograd.graph import extract_graph, why_no_grad_fn
from tensorviz.core.autograd.presets import PRESETS
from tensorviz.core.autograd.saved_values import storage_key


def reference_walk(root: torch.Tensor):
    """Independent walk: node identities by id(fn), edges (input, consumer, output_nr)."""
    nodes, edges, cut = {}, set(), 0
    stack, seen = [root.grad_fn], {id(root.grad_fn)}
    while stack:
        fn = stack.pop()
        nodes[id(fn)] = type(fn).__name__
        for next_fn, output_nr in fn.next_functions:
            if next_fn is None:
                cut += 1
                continue
            edges.add((id(next_fn), id(fn), output_nr))
            if id(next_fn) not in seen:
                seen.add(id(next_fn))
                stack.append(next_fn)
    return nodes, edges, cut


def ours_as_reference(graph):
    fn_id = {node: id(fn) for node, fn in graph.functions.items()}
    nodes = {fn_id[n]: d["op"] for n, d in graph.graph.nodes(data=True) if n in fn_id}
    edges = {
        (fn_id[s], fn_id[t], nr)
        for s, t, d in graph.graph.edges(data=True)
        if t in fn_id
        for nr in d["output_nrs"]
    }
    cut = sum(len(d["cut_inputs"]) for _, d in graph.graph.nodes(data=True))
    return nodes, edges, cut


@pytest.mark.parametrize("key", list(PRESETS))
def test_presets_match_a_direct_walk(key):
    built = PRESETS[key].build()
    graph = built.extract()
    assert ours_as_reference(graph) == reference_walk(built.root)
    assert graph.graph.nodes[graph.roots[0]]["label"] == built.root_name


def random_expression(seed: int) -> tuple[torch.Tensor, dict]:
    rng = random.Random(seed)
    leaves = {f"p{i}": torch.randn(3, requires_grad=True) for i in range(3)}
    values = list(leaves.values()) + [torch.randn(3)]
    for _ in range(rng.randint(3, 12)):
        a, b = rng.choice(values), rng.choice(values)
        op = rng.choice(["add", "mul", "sin", "exp", "pow", "split", "sub"])
        if op == "add":
            values.append(a + b)
        elif op == "mul":
            values.append(a * b)
        elif op == "sub":
            values.append(a - b.detach())
        elif op == "sin":
            values.append(a.sin())
        elif op == "exp":
            values.append((a * 0.1).exp())
        elif op == "pow":
            values.append(a**2)
        else:
            first, second = torch.cat([a, b]).split([2, 4])
            values.append(torch.cat([second[:1], first]))
    root = sum(v.sum() for v in values if v.requires_grad)
    return root, leaves


@pytest.mark.parametrize("seed", range(12))
def test_random_expressions_match_a_direct_walk(seed):
    root, leaves = random_expression(seed)
    graph = extract_graph(root, leaves, ["root"])
    assert ours_as_reference(graph) == reference_walk(root)
    labels = {graph.graph.nodes[n]["label"] for n in graph.nodes_of_kind("accumulate_grad")}
    assert labels <= set(leaves)


def test_module_parameters_get_their_dotted_names():
    built = PRESETS["mlp"].build()
    graph = built.extract()
    labels = {graph.graph.nodes[n]["label"] for n in graph.nodes_of_kind("accumulate_grad")}
    assert labels == {name for name, _ in built.module.named_parameters()}
    for node in graph.nodes_of_kind("accumulate_grad"):
        data = graph.graph.nodes[node]
        parameter = dict(built.module.named_parameters())[data["label"]]
        assert data["shape"] == tuple(parameter.shape)
        assert data["requires_grad"] is True


def test_saved_tensors_are_identified_by_storage():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    graph = extract_graph(y, {"x": x})
    exp_node = next(n for n in graph.functions if graph.graph.nodes[n]["op"] == "ExpBackward0")
    (saved,) = graph.saved_of(exp_node)
    assert saved.attribute == "result" and saved.kind == "tensor"
    assert saved.storage_key == storage_key(y)  # the same memory as y itself
    assert saved.shape == tuple(y.shape) and saved.dtype == "float32"


def test_non_tensor_saved_values_are_kept():
    built = PRESETS["square"].build()
    graph = built.extract()
    pow_node = next(n for n in graph.functions if graph.graph.nodes[n]["op"] == "PowBackward0")
    saved = {s.attribute: s for s in graph.saved_of(pow_node)}
    assert saved["exponent"].text == repr(built.root.grad_fn.next_functions[0][0]._saved_exponent)
    assert saved["self"].storage_key == storage_key(built.named["x"])


def test_multi_output_edges_carry_the_output_index():
    built = PRESETS["split"].build()
    graph = built.extract()
    split_nodes = [n for n in graph.functions if graph.graph.nodes[n]["op"] == "SplitBackward0"]
    (split,) = split_nodes
    indices = {nr for _, _, d in graph.graph.out_edges(split, data=True) for nr in d["output_nrs"]}
    assert indices == {0, 1, 2}  # chunk(3): three outputs, each read


def test_cut_inputs_and_rewrites_are_marked():
    detached = PRESETS["detach"].build().extract()
    add = next(n for n in detached.functions if detached.graph.nodes[n]["op"] == "AddBackward0")
    assert detached.graph.nodes[add]["cut_inputs"] == (1,)
    in_place = PRESETS["inplace"].build().extract()
    ops = {d["op"]: d for _, d in in_place.graph.nodes(data=True)}
    assert ops["CopySlices"]["rewrite"] is True


def test_freed_saved_tensors_read_as_freed_never_raise():
    built = PRESETS["square"].build()
    built.root.backward()
    graph = built.extract()  # after backward without retain_graph
    pow_node = next(n for n in graph.functions if graph.graph.nodes[n]["op"] == "PowBackward0")
    saved = {s.attribute: s for s in graph.saved_of(pow_node)}
    assert saved["self"].kind == "freed"
    with pytest.raises(RuntimeError):
        built.root.grad_fn.next_functions[0][0]._saved_self  # noqa: B018 — torch does raise


def test_a_long_chain_extracts_without_recursion():
    x = torch.ones(1, requires_grad=True)
    y = x
    for _ in range(20_000):
        y = y * 1.0
    graph = extract_graph(y, {"x": x})
    assert graph.graph.number_of_nodes() == 20_002  # root, 20,000 MulBackward0, x


def test_reasons_for_a_missing_grad_fn():
    x = torch.ones(2, requires_grad=True)
    assert "leaf" in why_no_grad_fn(x)
    assert "detach" in why_no_grad_fn((x * 2).detach(), made_by="detach")
    with torch.no_grad():
        made = x * 2
    assert made.grad_fn is None
    assert "no_grad" in why_no_grad_fn(made, made_by="no_grad")
    assert "requires_grad=False" in why_no_grad_fn(torch.ones(2))


def test_json_has_the_documented_shape():
    data = PRESETS["square"].build().extract().to_json()
    kinds = {"tensor", "backward", "accumulate_grad", "saved"}
    assert {n["kind"] for n in data["nodes"]} == kinds
    assert all({"id", "kind", "name", "shape"} <= set(n) for n in data["nodes"])
    assert all(set(e) == {"source", "target", "output_nr"} for e in data["edges"])
    ids = {n["id"] for n in data["nodes"]}
    assert all(e["source"] in ids and e["target"] in ids for e in data["edges"])
    # x**2 saves x in PowBackward0 (and keeps the exponent 2 as a value)
    pow_row = next(n for n in data["nodes"] if n["name"] == "PowBackward0")
    assert pow_row["saved_values"] == {"exponent": "2"}
    saved_edge = {"source": f"{pow_row['id']}:_saved_self", "target": pow_row["id"]}
    assert {**saved_edge, "output_nr": None} in data["edges"]


def test_dot_text_names_every_node_and_edge():
    from tensorviz.core.autograd.dot_text import to_dot

    graph = PRESETS["split"].build().extract().graph
    text = to_dot(graph)
    assert all(f'"{node}" [label=' in text for node in graph.nodes)
    assert text.count(" -> ") == graph.number_of_edges()


def small_cnn_loss():
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Conv2d(1, 4, 3),
        torch.nn.ReLU(),
        torch.nn.MaxPool2d(2),
        torch.nn.Flatten(),
        torch.nn.Linear(4 * 3 * 3, 10),
    )
    return model, torch.nn.functional.cross_entropy(
        model(torch.randn(2, 1, 8, 8)), torch.tensor([1, 7])
    )


def transformer_loss():
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0)
    model = torch.nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
    return model, model(torch.randn(5, 2, 8)).pow(2).mean()


def lstm_cell_loss():
    torch.manual_seed(0)
    model = torch.nn.LSTMCell(3, 4)
    h = c = torch.zeros(1, 4)
    for _ in range(6):
        h, c = model(torch.randn(1, 3), (h, c))
    return model, h.sum()


@pytest.mark.parametrize("make", [small_cnn_loss, transformer_loss, lstm_cell_loss])
def test_real_models_match_a_direct_walk_with_parameter_names(make):
    from tensorviz.core.autograd.graph import LeafNames

    model, loss = make()
    names = LeafNames()
    names.add_module(model)
    graph = extract_graph(loss, names, ["loss"])
    assert ours_as_reference(graph) == reference_walk(loss)
    labels = {graph.graph.nodes[n]["label"] for n in graph.nodes_of_kind("accumulate_grad")}
    assert labels == {name for name, p in model.named_parameters() if p.requires_grad}
