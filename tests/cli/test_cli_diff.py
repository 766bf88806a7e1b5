"""`tensorviz diff A B`: git-diff exit codes (0 equal within tolerance, 1 differ, 2 bad input with
one line on stderr), the JSON report with each file's own keys, tolerance as torch.allclose."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from tensorviz.app import main

sys.path.insert(0, str(Path(__file__).parents[1]))  # tests/: checkpoint_containers, model_shapes


class Payload:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


@pytest.fixture
def pair(tmp_path):
    torch.manual_seed(0)
    state = {
        "enc.0.weight": torch.randn(6, 5),
        "enc.0.bias": torch.randn(6),
        "head.w": torch.randn(3),
    }
    tuned = {k: v.clone() for k, v in state.items()}
    tuned["enc.0.weight"] += 1e-4 * torch.randn(6, 5)
    torch.save({"model": state, "epoch": 3}, tmp_path / "a.pt")
    torch.save({"model": tuned, "epoch": 12}, tmp_path / "b.pt")
    return tmp_path / "a.pt", tmp_path / "b.pt", state, tuned


def test_identical_files_exit_0(tmp_path, pair, capsys):
    path_a, _, state, _ = pair
    torch.save({"model": {k: v.clone() for k, v in state.items()}, "epoch": 3}, tmp_path / "c.pt")
    assert main(["diff", str(path_a), str(tmp_path / "c.pt")]) == 0
    out = capsys.readouterr().out
    assert "3 tensors in both: 0 changed, 3 unchanged" in out and "Verdict: equal" in out


def test_different_files_exit_1_and_json_lists_every_difference(pair, capsys):
    path_a, path_b, state, tuned = pair
    assert main(["diff", "--json", str(path_a), str(path_b)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["equal"] is False and data["counts"]["changed"] == 1
    weight = next(t for t in data["tensors"] if t["key"] == "model.enc.0.weight")
    assert weight["a"]["file_key"] == "['model']['enc.0.weight']" == weight["b"]["file_key"]
    delta = tuned["enc.0.weight"].double() - state["enc.0.weight"].double()
    assert weight["max_abs_diff"] == delta.abs().max().item()
    assert weight["changed_elements"] == int((delta != 0).sum())
    assert data["values"] == [{"key": "epoch", "a": "3", "b": "12", "file_key_a": "['epoch']",
                               "file_key_b": "['epoch']"}]  # fmt: skip
    assert {t["status"] for t in data["tensors"]} == {"changed", "unchanged"}


def test_only_changed_leaves_out_the_unchanged(pair, capsys):
    assert main(["diff", "--json", "--only-changed", str(pair[0]), str(pair[1])]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [t["key"] for t in data["tensors"]] == ["model.enc.0.weight"]
    assert main(["diff", "--only-changed", str(pair[0]), str(pair[1])]) == 1
    out = capsys.readouterr().out
    assert "~ model.enc.0.weight" in out and "model.head.w  [" not in out
    assert "value epoch: 3 → 12" in out


def test_tolerance_decides_as_torch_allclose(tmp_path, pair, capsys):
    path_a, _, state, tuned = pair
    torch.save({"model": tuned, "epoch": 3}, tmp_path / "same_epoch.pt")
    a, b = state["enc.0.weight"].double(), tuned["enc.0.weight"].double()
    for atol in (1e-6, 1e-3):
        code = main(["diff", "--atol", str(atol), str(path_a), str(tmp_path / "same_epoch.pt")])
        capsys.readouterr()
        assert code == (0 if torch.allclose(b, a, rtol=0, atol=atol) else 1)
        assert torch.allclose(b, a, rtol=0, atol=atol) is (atol == 1e-3)
    assert main(["diff", "--rtol", "0.5", str(path_a), str(tmp_path / "same_epoch.pt")]) == 0


def test_bad_input_is_one_line_and_exit_2(tmp_path, pair, capsys):
    (tmp_path / "empty.pt").write_bytes(b"")
    for args in (["missing.pt", str(pair[0])], [str(pair[0]), str(tmp_path / "empty.pt")],
                 ["--atol", "-1", str(pair[0]), str(pair[1])],
                 ["--rtol", "x", str(pair[0]), str(pair[1])], [str(pair[0])]):  # fmt: skip
        assert main(["diff", *args]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
        assert captured.err.startswith("tensorviz diff: error: ")


def test_a_malicious_file_is_compared_and_never_runs(tmp_path, pair):
    marker = tmp_path / "MARKER"
    torch.save({"state": Payload(marker)}, tmp_path / "evil.pt")
    result = subprocess.run(
        [sys.executable, "-m", "tensorviz", "diff", str(pair[0]), str(tmp_path / "evil.pt")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 1 and not marker.exists()  # it differs; the call was never made
    assert (
        result.stderr.startswith("tensorviz diff: note: B holds calls")
        and "system" in result.stderr
    )
    assert len(result.stderr.strip().splitlines()) == 1
    assert "touch" in result.stdout  # the call's argument is shown as B's value, not run


def test_a_changed_plain_value_is_named_as_a_non_tensor_value_in_chinese(tmp_path, capsys):
    from tensorviz.core import translation

    torch.save({"w": torch.zeros(2), "epoch": 3}, tmp_path / "a.pt")
    torch.save({"w": torch.zeros(2), "epoch": 4}, tmp_path / "b.pt")
    try:
        assert (
            main(["diff", str(tmp_path / "a.pt"), str(tmp_path / "b.pt"), "--lang", "zh_CN"]) == 1
        )
    finally:
        translation.set_language("en")
    out = capsys.readouterr().out
    assert "1 个非张量的值不同" in out  # not the vague 普通值 ("ordinary value")
    assert "epoch 的值：3 → 4" in out


def test_one_models_weights_in_five_containers_exit_0_pair_by_pair(tmp_path, capsys):
    from checkpoint_containers import TIED, five_containers

    paths = five_containers(tmp_path)
    names = list(paths)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert main(["diff", "--json", str(paths[a]), str(paths[b])]) == 0, (a, b)
            data = json.loads(capsys.readouterr().out)
            assert data["equal"] and data["counts"]["renamed"] == 0 and data["values"] == []
            keys = {t["key"] for t in data["tensors"]}
            assert "transformer.h.0.attn.c_proj.bias" in keys  # state-dict keys, no file names
            assert not any(".bin." in k or ".safetensors." in k for k in keys)
            if "sharded" in a:
                shards = {t["a"]["file"] for t in data["tensors"]}
                assert len(shards) == 2 and all("-of-00002" in s for s in shards)
            tied = [t for t in data["tensors"] if t["matched_by"] == "tied"]
            assert [t["key"] for t in tied] == [TIED] * len(tied)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # what torch.compile imports
def test_a_compiled_models_checkpoint_is_equal_except_its_prefix(tmp_path, capsys):
    from checkpoint_containers import gpt2_model

    model = gpt2_model()
    torch.save(torch.compile(model).state_dict(), tmp_path / "compiled.pt")
    torch.save(model.state_dict(), tmp_path / "eager.pt")
    paths = [str(tmp_path / "eager.pt"), str(tmp_path / "compiled.pt")]
    assert main(["diff", *paths]) == 0
    assert "Verdict: equal except key prefixes (_orig_mod. in B)." in capsys.readouterr().out
    assert main(["diff", "--strict-keys", *paths]) == 1
    assert "Verdict: they differ." in capsys.readouterr().out
