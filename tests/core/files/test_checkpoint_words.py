"""What the reader says is true and usable: the safe_globals lines it offers really load the file
with torch.load(weights_only=True); safetensors entries torch cannot hold do not sink the rest;
a missing or cut shard is named and the rest shown; JSON carries the whole tree; torch's
warnings never reach stderr; text from a file is quoted escaped and short."""

from __future__ import annotations

import argparse
import datetime
import json
import pathlib
import struct

import checkpoint_corpus as corpus
import numpy as np
import pytest
import safetensors.torch
import torch

from tensorviz.app import main
from tensorviz.core.files.inspection import inspect_file
from tensorviz.core.files.tree import walk

# torch.load's own notes on protocols and deprecations when the tests ask it
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def test_the_offered_safe_globals_lines_load_the_file(tmp_path):
    path = tmp_path / "args.pt"
    torch.save({"w": torch.ones(2), "args": argparse.Namespace(lr=0.1, out=pathlib.Path("/o")),
                "best": np.float64(0.5), "hist": np.arange(3.0),
                "when": datetime.datetime(2024, 1, 2)}, path)  # fmt: skip
    result = inspect_file(path)
    assert any("refuses it" in s for s in result.safety_sentences())
    with pytest.raises(Exception, match="Weights only load failed"):
        torch.load(path, weights_only=True)  # torch itself refuses, as we say
    code = result.safety.safe_globals_code(result.path)
    assert code is not None and "safe_globals([" in code
    scope: dict = {}
    exec(code, scope)  # the user's own code, exactly as we print it
    expected = torch.load(path, weights_only=False)
    loaded = scope["checkpoint"]
    assert loaded["args"] == expected["args"] and loaded["when"] == expected["when"]
    assert loaded["best"] == expected["best"] and (loaded["hist"] == expected["hist"]).all()


def test_no_lines_are_offered_where_torch_refuses_even_with_them(tmp_path):
    path = corpus.tutorial(tmp_path, 2)  # a defaultdict: torch's unpickler sets no items on it
    result = inspect_file(path)
    assert result.safety.safe_globals_code(result.path) is None
    refusal = result.safety.torch_refusal()
    assert refusal and "defaultdict" in refusal
    assert any("Even with torch.serialization.safe_globals" in s for s in result.safety_sentences())


@pytest.mark.parametrize("protocol", [3, 4, 5])
def test_newer_protocols_are_read_and_the_words_say_weights_only_cannot(tmp_path, protocol):
    path = corpus.tutorial(tmp_path, protocol)  # protocol 3 writes bytes with BINBYTES
    result = inspect_file(path)
    assert result.error is None and result.safety.safe_globals_code(result.path) is None
    words = f"cannot read this pickle at all (protocol {protocol})"
    assert any(words in s for s in result.safety_sentences())
    with pytest.raises(Exception, match="Weights only load failed"):
        torch.load(path, weights_only=True)


def test_a_dtype_torch_cannot_hold_is_listed_and_the_rest_read(tmp_path):
    header = {
        "__metadata__": {"producer": "quantizer"},
        "f6": {"dtype": "F6_E2M3", "shape": [4], "data_offsets": [0, 3]},
        "w": {"dtype": "F32", "shape": [2], "data_offsets": [3, 11]},
    }
    text = json.dumps(header).encode()
    data = bytes(3) + struct.pack("<2f", 1.5, -2.0)
    path = tmp_path / "mixed.safetensors"
    path.write_bytes(struct.pack("<Q", len(text)) + text + data)
    result = inspect_file(path)
    assert result.error is None and result.metadata == {"producer": "quantizer"}
    assert torch.equal(result.tensor_at(("w",)), torch.tensor([1.5, -2.0]))
    f6 = next(n for n in walk(result.root) if n.name == "f6")
    assert (
        f6.kind == "value" and "F6_E2M3" in f6.value_text and "torch has no dtype" in f6.value_text
    )
    assert any("F6_E2M3, which torch cannot hold" in note for note in result.notes)
    meta = next(n for n in walk(result.root) if n.name == "producer")
    assert meta.value == "quantizer"


def test_saving_safetensors_goes_through_the_library(tmp_path):
    from tensorviz.core.files.formats import save_tensors

    tensors = {"a": torch.randn(2, 3).to(torch.float8_e5m2), "b": torch.arange(3).to(torch.uint32)}
    path = tmp_path / "out.safetensors"
    save_tensors(tensors, path)
    loaded = safetensors.torch.load_file(str(path))
    assert torch.equal(loaded["a"].view(torch.uint8), tensors["a"].view(torch.uint8))
    assert loaded["b"].dtype == torch.uint32 and loaded["b"].tolist() == [0, 1, 2]


@pytest.mark.parametrize("damage", ["missing", "truncated"])
def test_a_missing_or_cut_shard_is_named_and_the_rest_shown(tmp_path, damage):
    folder = corpus.save_pretrained(tmp_path, sharded=True)
    index = folder / "model.safetensors.index.json"
    weight_map = json.loads(index.read_text())["weight_map"]
    second = sorted(set(weight_map.values()))[1]
    if damage == "missing":
        (folder / second).unlink()
    else:
        (folder / second).write_bytes((folder / second).read_bytes()[:100])
    result = inspect_file(index)
    assert result.error is None
    assert any(second in note for note in result.notes)
    missing = [n for n in walk(result.root) if n.kind == "missing"]
    assert len(missing) == sum(v == second for v in weight_map.values())
    first = sorted(set(weight_map.values()))[0]
    assert len(result.entries) == sum(v == first for v in weight_map.values())
    assert all(n.source == first for n in result.entries)


def test_json_carries_plain_values_objects_modules_and_metadata(tmp_path, capsys):
    path = corpus.tutorial(tmp_path, 2)
    assert main(["inspect", "--json", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    tree = data["tree"]["items"]
    assert tree["epoch"] == {"kind": "value", "text": "7", "type": "int", "value": 7}
    args = tree["args"]
    assert args["kind"] == "object" and args["class"] == "argparse.Namespace"
    assert args["state"]["batch_size"]["value"] == 32
    assert tree["best_acc"]["type"] == "numpy.float64" and tree["best_acc"]["value"] == 0.875
    assert data["refused_by_weights_only"] and data["calls"] == []
    assert data["safe_globals_code"] is None  # torch refuses its defaultdict even then
    whole = corpus.whole_model(tmp_path)
    assert main(["inspect", "--json", str(whole)]) == 0
    model = json.loads(capsys.readouterr().out)["tree"]
    assert model["kind"] == "module" and model["class"].endswith("TinyGPT")
    assert model["state"]["lm_head"]["state"]["weight"]["kind"] == "tensor"


@pytest.mark.filterwarnings("ignore")
def test_torch_warnings_never_reach_stderr_on_success(tmp_path, capfd):
    sparse = tmp_path / "sparse.pt"
    torch.save({"s": torch.eye(3).to_sparse(), "q": torch.quantize_per_tensor(
        torch.randn(3), 0.1, 0, torch.quint8)}, sparse)  # fmt: skip
    folder = corpus.distributed(tmp_path)
    capfd.readouterr()
    for path in (sparse, folder, corpus.tutorial(tmp_path, 4)):
        assert main(["inspect", str(path)]) == 0
        out, err = capfd.readouterr()
        assert err == "" and out


def test_text_from_a_file_is_quoted_escaped_and_short(tmp_path, capfd):
    name = "\x1b[2J\x00" + "x" * 30_000
    header = {name: {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}}
    text = json.dumps(header).encode()
    path = tmp_path / "hostile.safetensors"
    path.write_bytes(struct.pack("<Q", len(text)) + text + bytes(8))
    assert main(["inspect", str(path)]) == 2
    _out, err = capfd.readouterr()
    (line,) = err.splitlines()
    assert "\x1b" not in line and "\x00" not in line and len(line) < 700
    assert "\\x1b[2J\\x00xxx" in line


class ModelCheckpoint:
    """A callback class: older Lightning keyed callback state by the class itself."""


def test_state_keyed_by_a_class_names_the_class(tmp_path):
    path = tmp_path / "old.ckpt"
    torch.save({"callbacks": {ModelCheckpoint: {"best_model_score": torch.tensor(0.5)}}}, path)
    result = inspect_file(path)
    assert result.error is None and result.calls == []
    (score,) = result.entries
    key = score.access[1]
    assert key.qualified_name == f"{ModelCheckpoint.__module__}.ModelCheckpoint"
    assert score.parent.name == key.qualified_name
    assert torch.equal(result.tensor_at(score.access), torch.tensor(0.5))
