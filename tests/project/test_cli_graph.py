"""`tensorviz graph PRESET`: the same graph the Autograd graph area draws, headless."""

import json

import pytest

from tensorviz.app import main
from tensorviz.core.autograd_presets import PRESETS


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
    assert main(["graph", "square", "-o", str(tmp_path / "g.png")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
