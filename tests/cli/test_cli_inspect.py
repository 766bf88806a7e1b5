"""`tensorviz inspect FILE [--json]`: the tree, the JSON contract, refusals with exit 2."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from tensorviz.app import main


class Payload:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_json_lists_entries_with_their_storages(tmp_path, capsys):
    base = torch.arange(12.0).reshape(3, 4)
    path = tmp_path / "ckpt.pt"
    torch.save({"model": {"a.weight": base, "b.weight": base.t()}, "step": 7}, path)
    assert main(["inspect", "--json", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "torch-zip" and data["safe"] and data["error"] is None
    assert data["unsafe_globals"] == []
    first, second = data["entries"]
    assert first["key"] == "['model']['a.weight']" and first["shape"] == [3, 4]
    assert second["stride"] == list(base.t().stride()) and second["dtype"] == "float32"
    assert first["storage_id"] == second["storage_id"]
    assert first["storage_nbytes"] == base.untyped_storage().nbytes() == first["nbytes"]


def test_text_tree(tmp_path, capsys):
    path = tmp_path / "m.pt"
    torch.save(torch.nn.Linear(4, 3).state_dict(), path)
    assert main(["inspect", str(path)]) == 0
    out = capsys.readouterr().out
    assert "weight  [3, 4] f32  48 B" in out and "2 tensors in 2 storages" in out


def test_malicious_file_is_listed_with_exit_3_and_never_runs(tmp_path):
    marker = tmp_path / "MARKER"
    path = tmp_path / "evil.pt"
    torch.save({"state": Payload(marker), "w": torch.ones(2)}, path)
    result = subprocess.run(
        [sys.executable, "-m", "tensorviz", "inspect", "--json", str(path)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 3
    data = json.loads(result.stdout)
    system = f"{os.system.__module__}.system"
    assert data["safe"] is False and data["unsafe_globals"] == [system]
    assert data["calls"][0]["callable"] == system and data["error"] is None
    call = data["tree"]["items"]["state"]
    assert call["kind"] == "call" and call["callable"] == system
    assert call["args"][0]["value"] == f"touch {marker}"
    assert [e["key"] for e in data["entries"]] == ["['w']"]
    stderr = result.stderr.strip().splitlines()
    assert len(stderr) == 1 and system in stderr[0] and "none was made" in stderr[0]
    assert not marker.exists()


def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "empty.pt").write_bytes(b"")
    for name in ("empty.pt", "missing.pt"):
        assert main(["inspect", str(tmp_path / name)]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and len(captured.err.strip().splitlines()) == 1


@pytest.mark.filterwarnings("ignore:The PyTorch API of nested tensors")
def test_sparse_and_nested_entries_are_listed_with_their_layout(tmp_path, capsys):
    """They once raised NotImplementedError out of inspection (no storage to share)."""
    path = tmp_path / "odd.pt"
    nested = torch.nested.nested_tensor([torch.ones(2), torch.ones(3)])
    torch.save({"sp": torch.eye(3).to_sparse(), "nt": nested, "w": torch.ones(2)}, path)
    assert main(["inspect", "--json", str(path)]) == 0
    entries = {e["key"]: e for e in json.loads(capsys.readouterr().out)["entries"]}
    sparse = torch.load(path, weights_only=True)["sp"]
    assert entries["['sp']"]["layout"] == "sparse_coo" and entries["['sp']"]["nnz"] == sparse._nnz()
    assert entries["['sp']"]["shape"] == list(sparse.shape) and entries["['sp']"]["stride"] is None
    assert entries["['nt']"]["layout"] == "nested" and entries["['nt']"]["storage_id"] is None
    assert entries["['w']"]["layout"] == "strided" and entries["['w']"]["storage_id"] == 0
    assert main(["inspect", str(path)]) == 0
    out = capsys.readouterr().out
    assert "[3, 3] f32 sparse_coo, nnz=3" in out and "no plain storage (nested)" in out


def test_nanogpt_checkpoint_shows_small_values_and_moments_by_parameter(tmp_path, capsys):
    sys.path.insert(0, str(Path(__file__).parents[1]))
    import training_checkpoints as checkpoints

    model, optimizer = checkpoints.nanogpt(tmp_path / "ckpt.pt", iters=2)
    loaded = torch.load(tmp_path / "ckpt.pt", weights_only=True)
    truth = checkpoints.parameter_names(model, optimizer)
    assert main(["inspect", str(tmp_path / "ckpt.pt")]) == 0
    lines = capsys.readouterr().out.splitlines()
    loss = loaded["best_val_loss"]
    assert loss.dim() == 0  # nanoGPT saves the estimate_loss() tensor itself
    assert f"  best_val_loss  [] f32  {loss.item():.5g}  4 B" in lines
    assert f"      13  dict, 3 tensors  for {truth[13]}  " in "\n".join(lines)
    step = loaded["optimizer"]["state"][13]["step"]
    assert f"        step  [] f32  {step.item():.1f}  4 B" in lines  # a float: 2.0, not 2

    assert main(["inspect", "--json", str(tmp_path / "ckpt.pt")]) == 0
    data = json.loads(capsys.readouterr().out)
    tree = data["tree"]["items"]
    assert tree["best_val_loss"]["value"] == loss.item() and tree["best_val_loss"]["shape"] == []
    moments = tree["optimizer"]["items"]["state"]["items"]
    for index, name in truth.items():
        assert moments[str(index)]["parameter"] == name
        assert moments[str(index)]["items"]["exp_avg_sq"]["parameter"] == name
    biases = {e["key"]: e for e in data["entries"] if e["key"].endswith(".ln_f.bias']")}
    (bias,) = biases.values()  # 16 elements: more than 8, shape only
    assert "value" not in bias and bias["state_key"] == "model.transformer.ln_f.bias"


def test_values_of_small_tensors_in_every_dtype(tmp_path, capsys):
    tensors = {
        "flag": torch.tensor(True),
        "count": torch.tensor(7),
        "half": torch.tensor(0.5).half(),
        "bf16": torch.tensor([1.25, -2.0]).bfloat16(),
        "grid": torch.arange(6.0).reshape(2, 3),
        "nan": torch.tensor([float("nan"), float("inf")]),
        "nine": torch.arange(9),
    }
    torch.save(tensors, tmp_path / "small.pt")
    assert main(["inspect", "--json", str(tmp_path / "small.pt")]) == 0
    entries = {e["key"]: e for e in json.loads(capsys.readouterr().out)["entries"]}
    for name, tensor in tensors.items():
        entry = entries[f"[{name!r}]"]
        if tensor.numel() > 8:
            assert "value" not in entry
        elif name == "nan":
            assert entry["value"] == ["nan", "inf"]
        else:
            assert entry["value"] == (tensor.float() if tensor.is_floating_point() else
                                      tensor).tolist()  # fmt: skip
    assert main(["inspect", str(tmp_path / "small.pt")]) == 0
    out = capsys.readouterr().out
    for line in ("flag  [] bool  True", "count  [] i64  7", "half  [] f16  0.5",
                 "bf16  [2] bf16  [1.25, -2.0]", "grid  [2, 3] f32  [[0.0, 1.0, 2.0], [3.0, 4.0, "
                 "5.0]]", "nan  [2] f32  [nan, inf]"):  # fmt: skip
        assert line in out, line
    assert "nine  [9] i64  72 B" in out


def test_keys_of_a_whole_model_and_a_torchscript_archive_are_their_state_dict_keys(
    tmp_path, capsys
):
    net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
    torch.save(net, tmp_path / "whole.pt")
    with pytest.warns(DeprecationWarning):
        torch.jit.script(net).save(str(tmp_path / "scripted.pt"))
    for name in ("whole.pt", "scripted.pt"):
        main(["inspect", "--json", str(tmp_path / name)])
        entries = json.loads(capsys.readouterr().out)["entries"]
        assert [e["state_key"] for e in entries] == list(net.state_dict()), name
