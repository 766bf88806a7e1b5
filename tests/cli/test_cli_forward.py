"""`tensorviz forward SCRIPT.py --model NAME --input NAME`: the Architecture area, headless."""

import json
import sys
from pathlib import Path

import pytest
import torch

from tensorviz.app import main

sys.path.insert(0, str(Path(__file__).parents[1]))  # tests/: dot_reading, model_shapes

SCRIPT = """\
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(8)
        self.mlp = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 8))

    def forward(self, x):
        return x + self.mlp(self.norm(x))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(20, 8)
        self.h = nn.ModuleList(Block() for _ in range(3))
        self.head = nn.Linear(8, 5)

    def forward(self, ids):
        x = self.embed(ids)
        for block in self.h:
            x = block(x)
        return {"logits": self.head(x)}


torch.manual_seed(0)
model = Net()
ids = torch.randint(0, 20, (2, 4))
bad_input = torch.zeros(2, 4, 3)
"""


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "net.py"
    path.write_text(SCRIPT)
    return path


def test_json_modules_calls_folds_and_edges(capsys, script):
    assert main(["forward", str(script), "--model", "model", "--input", "ids", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    namespace = {}
    exec(SCRIPT, namespace)
    model = namespace["model"]
    assert [m["name"] for m in data["modules"]] == [n for n, _ in model.named_modules()]
    params = {m["name"]: m["params"] for m in data["modules"]}
    assert params[""] == sum(p.numel() for p in model.parameters())
    assert params["h.1"] == sum(p.numel() for p in model.h[1].parameters())
    assert data["folds"] == [
        {
            "id": "f0",
            "parent": "c0",
            "class": "Block",
            "count": 3,
            "calls": data["folds"][0]["calls"],
            "modules": ["h.0", "h.1", "h.2"],
        }
    ]
    head = next(c for c in data["calls"] if c["module"] == "head")
    assert head["outputs"] == [
        {"path": "output", "shape": [2, 4, 5], "dtype": "float32", "device": "cpu"}
    ]
    ids = {n["id"] for n in data["nodes"]}
    assert all(e["source"] in ids and e["target"] in ids for e in data["edges"])
    assert [n["name"] for n in data["nodes"] if n["kind"] == "output"] == ["logits"]


def test_text_tree_folds_and_depth(capsys, script):
    assert main(["forward", str(script), "--model", "model", "--input", "ids", "--depth", "1"]) == 0
    out = capsys.readouterr().out
    assert "h.0 … h.2 · Block × 3" in out and "norm · LayerNorm" not in out
    assert main(["forward", str(script), "--model", "model", "--input", "ids", "--depth", "2"]) == 0
    assert "h.0.norm · LayerNorm" in capsys.readouterr().out


def test_outputs_dot_svg_png(tmp_path, script, capsys):
    for suffix in (".dot", ".svg", ".png"):
        target = tmp_path / f"net{suffix}"
        arguments = ["forward", str(script), "--model", "model", "--input", "ids", "-o"]
        assert main([*arguments, str(target)]) == 0
        assert target.stat().st_size > 100
    assert "subgraph" in (tmp_path / "net.dot").read_text()
    assert (tmp_path / "net.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_failing_forward_is_printed_up_to_the_op_and_exits_1(capsys, script):
    assert main(["forward", str(script), "--model", "model", "--input", "bad_input"]) == 1
    captured = capsys.readouterr()
    with pytest.raises(Exception) as raised:  # what torch itself says
        torch.nn.Embedding(20, 8)(torch.zeros(2, 4, 3))
    assert str(raised.value).splitlines()[0] in captured.err
    assert "raised" in captured.out


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--model", "model"], "name the model and its input"),
        (["--model", "nope", "--input", "ids"], "defines no variable 'nope'"),
        (["--model", "ids", "--input", "ids"], "is not a model"),
        (["--model", "model", "--input", "ids", "-o", "x.txt"], "-o writes .dot, .svg or .png"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(capsys, script, arguments, message):
    assert main(["forward", str(script), *arguments]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_a_preset_records_without_a_script(capsys):
    assert main(["forward", "mlp"]) == 0
    assert "Sequential" in capsys.readouterr().out


def test_dot_labels_break_their_lines_where_graphviz_draws_them(tmp_path, script):
    from dot_reading import drawn_lines, node_labels, rendered_labels

    target = tmp_path / "net.dot"
    assert main(["forward", str(script), "--model", "model", "--input", "ids", "-o",
                 str(target)]) == 0  # fmt: skip
    text = target.read_text()
    labels = node_labels(text)
    assert labels and all("\\n" not in line for lines in labels.values() for line in lines)
    two = [lines for lines in labels.values() if len(lines) == 2]  # a box and its detail line
    norm = sum(p.numel() for p in torch.nn.LayerNorm(8).parameters())
    assert ["norm · LayerNorm", f"→ [2, 4, 8] · {norm} params"] in two
    rendered = rendered_labels(text)  # Graphviz itself, where it is installed
    if rendered is not None:
        assert rendered == drawn_lines(text)
        assert not any("\\" in line for lines in rendered.values() for line in lines)


def test_a_tied_weight_is_named_and_counted_once(tmp_path, capsys):
    path = tmp_path / "gpt.py"
    path.write_text(
        "import sys, torch\n"
        f"sys.path.insert(0, {str(Path(__file__).parents[1])!r})\n"
        "from model_shapes import GPT2LMHeadModel\n"
        "torch.manual_seed(0)\nmodel = GPT2LMHeadModel(hidden=16, layers=2)\n"
        "ids = torch.randint(0, 100, (1, 5))\n"
    )
    assert main(["forward", str(path), "--model", "model", "--input", "ids", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    from model_shapes import GPT2LMHeadModel

    model = GPT2LMHeadModel(hidden=16, layers=2)
    assert data["modules"][0]["params"] == sum(p.numel() for p in model.parameters())
    assert data["modules"][0]["params"] < sum(
        p.numel() for _, p in model.named_parameters(remove_duplicate=False)
    )  # the tied weight once
    (head,) = [m for m in data["modules"] if m["name"] == "lm_head"]
    assert head["parameters"][0]["tied_to"] == "transformer.wte.weight"
    (embedding,) = [m for m in data["modules"] if m["name"] == "transformer.wte"]
    assert embedding["parameters"][0]["tied_to"] is None
    assert main(["forward", str(path), "--model", "model", "--input", "ids"]) == 0
    out = capsys.readouterr().out
    assert "# lm_head.weight is tied to transformer.wte.weight: one tensor, counted once" in out
