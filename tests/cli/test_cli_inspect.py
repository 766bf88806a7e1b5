"""`tensorviz inspect FILE [--json]`: the tree, the JSON contract, refusals with exit 2."""

import json
import os
import subprocess
import sys

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
    torch.save(torch.nn.Linear(2, 3).state_dict(), path)
    assert main(["inspect", str(path)]) == 0
    out = capsys.readouterr().out
    assert "weight  [3, 2] f32  24 B" in out and "2 tensors in 2 storages" in out


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
