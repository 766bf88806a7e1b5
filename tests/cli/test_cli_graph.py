"""`tensorviz graph PRESET|SCRIPT.py`: the same graph the Autograd graph area draws, headless."""

import json
import sys
from collections import Counter
from pathlib import Path

import pytest
import torch

from tensorviz.app import main
from tensorviz.core.autograd.presets import PRESETS

sys.path.insert(0, str(Path(__file__).parents[1]))  # tests/: dot_reading

SCRIPT = """\
import torch
x = torch.tensor(2.0, requires_grad=True)
y = x**2 + 3*x
w = x.detach()
n = 3
"""


@pytest.mark.parametrize("key", ["square", "split", "mlp"])
def test_json_nodes_and_edges_are_the_extracted_graph(capsys, key):
    assert main(["graph", key, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = PRESETS[key].build().extract().to_json()
    assert data["nodes"] == expected["nodes"] and data["edges"] == expected["edges"]


def test_backward_prints_torchs_order_and_grad(capsys):
    assert main(["graph", "square", "--backward"]) == 0
    out = capsys.readouterr().out
    assert "AddBackward0 → MulBackward0 → PowBackward0 → AccumulateGrad" in out
    assert "x.grad = 7.0" in out


def test_unknown_preset_is_one_line_and_exit_2(capsys):
    assert main(["graph", "nonsense"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown preset" in err


def test_output_writes_dot_and_refuses_other_suffixes(capsys, tmp_path):
    target = tmp_path / "g.dot"
    assert main(["graph", "square", "-o", str(target)]) == 0
    assert target.read_text().startswith("digraph")
    capsys.readouterr()
    assert main(["graph", "square", "-o", str(tmp_path / "g.jpg")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


# --- a user's script -----------------------------------------------------------------------------


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "model.py"
    path.write_text(SCRIPT)
    return path


def reference_walk(root):
    """Independent of tensorviz: (kind, name) of every node, (source, target, output_nr) edges."""
    names = {}
    nodes = Counter({("tensor", "y"): 1})
    edges = Counter({(type(root.grad_fn).__name__, "y", root.output_nr): 1})
    seen, stack = {root.grad_fn}, [root.grad_fn]

    def name(fn):
        if type(fn).__name__ == "AccumulateGrad":
            return names.setdefault(id(fn.variable), "x")
        return type(fn).__name__

    while stack:
        fn = stack.pop()
        kind = "accumulate_grad" if type(fn).__name__ == "AccumulateGrad" else "backward"
        nodes[(kind, name(fn))] += 1
        for next_fn, output_nr in fn.next_functions:
            if next_fn is None:
                continue
            edges[(name(next_fn), name(fn), output_nr)] += 1
            if next_fn not in seen:
                seen.add(next_fn)
                stack.append(next_fn)
    return nodes, edges


def test_script_json_equals_an_independent_walk(capsys, script):
    assert main(["graph", str(script), "--tensor", "y", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    x = torch.tensor(2.0, requires_grad=True)
    nodes, edges = reference_walk(x**2 + 3 * x)
    by_id = {n["id"]: n["name"] for n in data["nodes"]}
    graph_nodes = [n for n in data["nodes"] if n["kind"] != "saved"]
    assert Counter((n["kind"], n["name"]) for n in graph_nodes) == nodes
    assert {"id", "kind", "name", "shape"} <= set(data["nodes"][0])
    graph_edges = [e for e in data["edges"] if e["output_nr"] is not None]
    assert (
        Counter((by_id[e["source"]], by_id[e["target"]], e["output_nr"]) for e in graph_edges)
        == edges
    )


def reference_saved(root):
    """Independent of tensorviz: (backward node name, "_saved_*" name, shape, dtype) of every
    saved tensor, read from torch's own attributes."""
    found, seen, stack = Counter(), {root.grad_fn}, [root.grad_fn]
    while stack:
        fn = stack.pop()
        for attribute in dir(fn):
            if attribute.startswith("_saved_"):
                value = getattr(fn, attribute)
                if isinstance(value, torch.Tensor):
                    shape, dtype = list(value.shape), str(value.dtype).removeprefix("torch.")
                    found[(type(fn).__name__, attribute, tuple(shape), dtype)] += 1
        for next_fn, _ in fn.next_functions:
            if next_fn is not None and next_fn not in seen:
                seen.add(next_fn)
                stack.append(next_fn)
    return found


def saved_rows(data):
    """(consumer name, saved name, shape, dtype) of each saved node, following its edge."""
    by_id = {n["id"]: n for n in data["nodes"]}
    rows = Counter()
    for edge in data["edges"]:
        saved = by_id[edge["source"]]
        if saved["kind"] == "saved":
            assert edge["output_nr"] is None and by_id[edge["target"]]["kind"] == "backward"
            consumer = by_id[edge["target"]]["name"]
            rows[(consumer, saved["name"], tuple(saved["shape"]), saved["dtype"])] += 1
    return rows


def test_script_json_lists_saved_tensors_as_nodes(capsys, tmp_path):
    path = tmp_path / "mlp.py"
    path.write_text(
        "import torch\ntorch.manual_seed(0)\nnet = torch.nn.Sequential(torch.nn.Linear(3, 4), "
        "torch.nn.Tanh(), torch.nn.Linear(4, 1))\nloss = net(torch.randn(5, 3)).pow(2).mean()\n"
    )
    assert main(["graph", str(path), "--tensor", "loss", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
    expected = reference_saved(net(torch.randn(5, 3)).pow(2).mean())
    assert expected and saved_rows(data) == expected
    saved = [n for n in data["nodes"] if n["kind"] == "saved"]
    assert all(n["freed"] is False and n["name"].startswith("_saved_") for n in saved)
    assert all("saved" not in n for n in data["nodes"] if n["kind"] == "backward")


def test_saved_tensors_read_as_freed_after_backward(capsys, tmp_path):
    path = tmp_path / "freed.py"
    path.write_text(
        "import torch\nx = torch.tensor(2.0, requires_grad=True)\ny = x.exp() * x\ny.backward()\n"
    )
    assert main(["graph", str(path), "--tensor", "y", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    saved = [n for n in data["nodes"] if n["kind"] == "saved"]
    assert saved and all(n["freed"] is True and n["shape"] is None for n in saved)


def test_script_runs_as_main_with_argv_and_path_restored(capsys, tmp_path):
    (tmp_path / "helper.py").write_text("import torch\ndef square(t):\n    return t * t\n")
    path = tmp_path / "main_script.py"
    path.write_text(
        "import sys\nimport torch\nfrom helper import square\n"
        "assert __name__ == '__main__' and sys.argv == [sys.argv[0]]\n"
        "a = torch.ones(2, requires_grad=True)\nb = square(a).sum()\n"
    )
    argv, path_before = sys.argv[:], sys.path[:]
    assert main(["graph", str(path), "--tensor", "b"]) == 0
    assert "MulBackward0" in capsys.readouterr().out
    assert sys.argv == argv and sys.path == path_before


@pytest.mark.parametrize("suffix", [".svg", ".png", ".dot"])
def test_script_output_files_are_valid(capsys, script, tmp_path, suffix):
    target = tmp_path / f"graph{suffix}"
    assert main(["graph", str(script), "--tensor", "y", "-o", str(target)]) == 0
    content = target.read_bytes()
    if suffix == ".png":
        assert content.startswith(b"\x89PNG\r\n\x1a\n") and len(content) > 1000
    elif suffix == ".svg":
        import xml.etree.ElementTree as ET

        root = ET.fromstring(content)
        assert root.tag.endswith("svg") and b"PowBackward0" in content
    else:
        assert content.startswith(b"digraph") and b"PowBackward0" in content
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".export-")] == []


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("missing", "defines no variable 'missing'"),
        ("n", "n is not a tensor"),
        ("x", "x has no grad_fn: it is a leaf"),
        ("w", "w has no grad_fn"),
    ],
)
def test_script_bad_tensor_is_one_line_and_exit_2(capsys, script, name, message):
    assert main(["graph", str(script), "--tensor", name]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_script_without_tensor_option_is_exit_2(capsys, script):
    assert main(["graph", str(script)]) == 2
    assert "--tensor" in capsys.readouterr().err


def test_script_raising_is_exit_1_with_the_users_traceback(capsys, tmp_path):
    path = tmp_path / "broken.py"
    path.write_text("import torch\n\ndef f():\n    raise ValueError('bad shape')\n\nf()\n")
    assert main(["graph", str(path), "--tensor", "y"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):")
    assert str(path) in err and "ValueError: bad shape" in err
    assert "runpy" not in err and "tensorviz" not in err.replace(str(tmp_path), "")


def test_what_a_script_prints_never_spoils_the_json(capsys, tmp_path):
    path = tmp_path / "chatty.py"
    path.write_text("import torch\nprint('hi')\na = torch.ones(2, requires_grad=True)\nb = a * 2\n")
    assert main(["graph", str(path), "--tensor", "b", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["nodes"] and "hi" in err


def test_backward_json_summarises_gradients_and_values_adds_them(capsys):
    assert main(["graph", "regression", "--backward", "--json"]) == 0
    grads = json.loads(capsys.readouterr().out)["grads"]
    built = PRESETS["regression"].build()
    built.root.backward()
    for name in ("w", "b"):
        grad = built.named[name].grad
        assert grads[name]["shape"] == list(grad.shape) and "values" not in grads[name]
        assert grads[name]["norm"] == pytest.approx(float(grad.norm()), rel=1e-5)
        assert grads[name]["min"] == pytest.approx(float(grad.min()), rel=1e-5)
        assert grads[name]["max"] == pytest.approx(float(grad.max()), rel=1e-5)
    assert main(["graph", "regression", "--backward", "--json", "--values"]) == 0
    grads = json.loads(capsys.readouterr().out)["grads"]
    assert grads["w"]["values"] == pytest.approx(built.named["w"].grad.tolist(), rel=1e-5)
    assert main(["graph", "regression", "--values"]) == 2  # --values needs --backward


def test_dot_labels_break_their_lines_where_graphviz_draws_them(capsys, tmp_path):
    from dot_reading import drawn_lines, node_labels, rendered_labels

    target = tmp_path / "g.dot"
    assert main(["graph", "mlp", "-o", str(target)]) == 0
    text = target.read_text()
    labels = node_labels(text)
    graph = PRESETS["mlp"].build().extract()
    for node_id, data in graph.graph.nodes(data=True):
        shape = [str(list(data["shape"]))] if data.get("shape") is not None else []
        assert labels[node_id] == [data["label"], *shape]  # no "\n" drawn as text
    assert any(len(lines) == 2 for lines in labels.values())
    rendered = rendered_labels(text)  # Graphviz itself, where it is installed
    if rendered is not None:
        assert rendered == drawn_lines(text)
        assert not any("\\" in line for lines in rendered.values() for line in lines)


@pytest.mark.parametrize("tagged_by", ["tensorviz.tag_modules()", "the cli, as the Script area"])
def test_json_carries_each_nodes_module_path_when_the_forward_was_tagged(
    capsys, tmp_path, tagged_by
):
    forward = "out = net(torch.randn(5, 3))\n"
    if tagged_by.startswith("tensorviz"):
        forward = f"with {tagged_by}:\n    {forward}"
    path = tmp_path / "net.py"
    path.write_text(
        "import torch\nimport tensorviz\ntorch.manual_seed(0)\n"
        "net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))\n"
        f"{forward}loss = out.pow(2).mean()\n"
    )
    assert main(["graph", str(path), "--tensor", "loss", "--json"]) == 0
    nodes = [n for n in json.loads(capsys.readouterr().out)["nodes"] if n["kind"] != "saved"]
    modules = {n["name"]: n.get("module") for n in nodes}
    assert modules["TanhBackward0"] == "1" and modules["net.0.weight"] == "0"
    assert modules["PowBackward0"] is None and modules["MeanBackward0"] is None  # outside net
    (tanh,) = [n for n in nodes if n["name"] == "TanhBackward0"]
    assert tanh["module_path"] == [{"name": "1", "class": "Tanh"}]
    assert "module_path" not in [n for n in nodes if n["name"] == "PowBackward0"][0]
    linear = [n for n in nodes if n.get("module") == "2"]
    assert linear and all(n["module_path"][-1]["class"] == "Linear" for n in linear)
