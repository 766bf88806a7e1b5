"""Reading tensor files: every format, the tree, shared storages, safety and bad input.
Every file is generated here with torch / numpy themselves; answers are compared with torch."""

import json
import os
import struct

import numpy as np
import pytest
import torch

from tensorviz.core.files.inspection import inspect_file, value_at
from tensorviz.core.files.stand_ins import Attr
from tensorviz.core.files.text import load_code, tree_lines
from tensorviz.core.files.tree import walk


class Payload:
    """Unpickling this would run a shell command that creates a marker file."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def tiny_model() -> torch.nn.Module:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Embedding(5, 3), torch.nn.Linear(3, 5))
    model[1].weight = model[0].weight  # tied weights, as in language models
    return model


def entry(inspection, key):
    return next(n for n in inspection.entries if n.key_text() == key)


def test_state_dict_tree_is_grouped_by_prefix_and_matches_torch(tmp_path):
    path = tmp_path / "model.pt"
    state = tiny_model().state_dict()
    torch.save(state, path)
    result = inspect_file(path)
    assert result.error is None and result.format == "torch-zip" and result.safe
    assert result.file_offsets  # every storage placed in the file, none read while opening
    assert [child.name for child in result.root.children] == ["0", "1"]
    assert [c.name for c in result.root.children[1].children] == ["weight", "bias"]
    expected = torch.load(path, weights_only=True)
    for key, tensor in expected.items():
        node = entry(result, repr([key])[1:-1].join("[]"))
        assert node.tensor.shape == tuple(tensor.shape)
        assert node.tensor.stride == tuple(tensor.stride())
        assert node.tensor.dtype == str(tensor.dtype).removeprefix("torch.")
        assert node.tensor.nbytes == tensor.nbytes
        assert torch.equal(result.tensor_at(node.access), tensor)


def test_tied_weights_are_one_shared_storage_counted_once(tmp_path):
    path = tmp_path / "tied.pt"
    torch.save(tiny_model().state_dict(), path)
    result = inspect_file(path)
    shared = result.shared_groups()
    assert len(shared) == 1
    assert set(shared[0].members) == {"['0.weight']", "['1.weight']"}
    loaded = torch.load(path, weights_only=True)
    assert loaded["0.weight"].untyped_storage().data_ptr() == (
        loaded["1.weight"].untyped_storage().data_ptr()
    )
    unique = {t.untyped_storage().data_ptr(): t.untyped_storage().nbytes() for t in loaded.values()}
    assert result.root.total_bytes == sum(unique.values())


def test_a_view_saved_alone_saves_its_whole_storage(tmp_path):
    base = torch.arange(100.0)
    path = tmp_path / "view.pt"
    torch.save({"head": base[:10], "checkpoint": {"epoch": 3, "lr": 0.1, "name": "run"}}, path)
    result = inspect_file(path)
    node = entry(result, "['head']")
    group = result.storages[node.tensor.storage_id]
    assert group.nbytes == base.untyped_storage().nbytes()
    assert group.wasted_bytes == base.nbytes - base[:10].nbytes
    text = "\n".join(tree_lines(result))
    assert "saves its whole storage" in text and "360 B unused" in text
    values = {c.name: c.value_text for c in result.root.children[1].children}
    assert values == {"epoch": "3", "lr": "0.1", "name": "'run'"}


def test_views_saved_with_their_base_share_it_with_offsets(tmp_path):
    base = torch.arange(12.0).reshape(3, 4)
    path = tmp_path / "views.pt"
    torch.save([base, base.t(), base[1]], path)
    result = inspect_file(path)
    assert len(result.storages) == 1 and len(result.storages[0].members) == 3
    assert result.storages[0].wasted_bytes == 0
    assert entry(result, "[1]").tensor.stride == (1, 4)
    assert entry(result, "[2]").tensor.storage_offset == 4
    assert result.root.kind == "list" and result.root.total_bytes == base.nbytes


def test_huge_non_tensor_values_are_summarised_not_expanded(tmp_path):
    path = tmp_path / "big_values.pt"
    torch.save({"ids": list(range(20_000)), "text": "x" * 5000, "w": torch.ones(1)}, path)
    result = inspect_file(path)
    values = {child.name: child.value_text for child in result.root.children}
    assert values["ids"] == "list of 20,000 numbers: 0, 1, 2, 3, 4, 5, …"
    assert values["text"].endswith("(5,000 long)") and len(values["text"]) < 260


def test_legacy_format_opens_without_mmap_with_a_note(tmp_path):
    path = tmp_path / "legacy.pt"
    state = tiny_model().state_dict()
    torch.save(state, path, _use_new_zipfile_serialization=False)
    result = inspect_file(path)
    assert result.error is None and result.format == "torch-legacy"
    assert any("Legacy" in note for note in result.notes)
    assert len(result.shared_groups()) == 1
    assert torch.equal(result.tensor_at(("1.bias",)), state["1.bias"])


@pytest.mark.parametrize(
    "wrap",
    [lambda p: p, lambda p: {"layer.weight": torch.ones(2), "layer.extra": p}, lambda p: [p]],
    ids=["direct", "in-state-dict", "in-list"],
)
@pytest.mark.parametrize("legacy", [False, True], ids=["zip", "legacy"])
def test_a_malicious_pickle_is_listed_as_a_call_and_never_runs(tmp_path, wrap, legacy):
    marker = tmp_path / "MARKER"
    path = tmp_path / "evil.pt"
    torch.save(wrap(Payload(marker)), path, _use_new_zipfile_serialization=not legacy)
    result = inspect_file(path)
    assert result.error is None and not result.safe and not marker.exists()
    assert result.unsafe_globals == [f"{os.system.__module__}.system"]  # posix.system
    (call,) = result.calls
    assert call.callable_name == f"{os.system.__module__}.system"
    assert call.args == (f"touch {marker}",) and "shell command" in call.danger
    calls = [n for n in walk(result.root) if n.kind == "call"]
    assert len(calls) == 1 and calls[0].value_text.startswith("would call ")
    assert any("would make 1 call" in line for line in result.safety_sentences())
    if isinstance(wrap(1), dict):  # the rest of the file is still shown
        assert torch.equal(result.tensor_at(("layer.weight",)), torch.ones(2))


@pytest.mark.parametrize("protocol", [2, 4, 5])
def test_a_plain_pickle_with_a_payload_is_refused_too(tmp_path, protocol):
    import pickle

    marker = tmp_path / "MARKER"
    path = tmp_path / "plain.pt"
    path.write_bytes(pickle.dumps({"w": Payload(marker)}, protocol=protocol))
    result = inspect_file(path)
    assert result.unsafe_globals == [f"{os.system.__module__}.system"] and not result.safe
    assert not marker.exists()


def test_numpy_files(tmp_path):
    array = np.arange(6, dtype=np.int32).reshape(2, 3)
    np.save(tmp_path / "a.npy", array)
    np.savez(tmp_path / "b.npz", x=array, y=np.ones(4))
    single = inspect_file(tmp_path / "a.npy")
    assert single.format == "npy" and single.root.kind == "tensor"
    assert np.array_equal(single.loaded.numpy(), array)
    assert load_code(single, ()) == f"torch.from_numpy(np.load({str(tmp_path / 'a.npy')!r}))"
    archive = inspect_file(tmp_path / "b.npz")
    assert archive.format == "npz" and [n.name for n in archive.entries] == ["x", "y"]
    assert archive.entries[1].tensor.dtype == "float64"


def test_numpy_object_arrays_are_refused(tmp_path):
    np.save(tmp_path / "objects.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    result = inspect_file(tmp_path / "objects.npy")
    assert result.error and "pickle" in result.error and result.root is None


def handmade_safetensors(path, tensors):
    """The format written byte by byte: u64 header length, JSON header, raw little-endian data."""
    header, blobs, offset = {"__metadata__": {"by": "test"}}, [], 0
    codes = {np.float32: "F32", np.int64: "I64"}
    for name, array in tensors.items():
        data = array.tobytes()
        header[name] = {
            "dtype": codes[array.dtype.type],
            "shape": list(array.shape),
            "data_offsets": [offset, offset + len(data)],
        }
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def test_safetensors_written_by_hand_are_read_exactly(tmp_path):
    arrays = {"w": np.random.default_rng(0).random((3, 4), dtype=np.float32),
              "ids": np.arange(5, dtype=np.int64)}  # fmt: skip
    handmade_safetensors(tmp_path / "m.safetensors", arrays)
    result = inspect_file(tmp_path / "m.safetensors")
    assert result.error is None and result.format == "safetensors"
    for name, array in arrays.items():
        assert np.array_equal(result.tensor_at((name,)).numpy(), array)
        assert value_at(result.loaded, (name,)).device.type == "meta"  # listed from the header


def test_content_decides_the_format_not_the_extension(tmp_path):
    path = tmp_path / "weights.npy"
    torch.save({"a": torch.ones(2)}, path)
    result = inspect_file(path)
    assert result.format == "torch-zip" and result.error is None
    assert any("Named .npy" in note for note in result.notes)


def bad_inputs(tmp_path):
    good = tmp_path / "good.pt"
    torch.save({"w": torch.randn(100, 100)}, good)
    data = good.read_bytes()
    (tmp_path / "empty.pt").write_bytes(b"")
    (tmp_path / "truncated.pt").write_bytes(data[: len(data) // 2])
    (tmp_path / "random.pt").write_bytes(np.random.default_rng(1).bytes(4096))
    (tmp_path / "text.pt").write_text("hello, I am not a tensor\n")
    (tmp_path / "folder.pt").mkdir()
    legacy = tmp_path / "legacy_cut.pt"
    torch.save({"w": torch.randn(10)}, legacy, _use_new_zipfile_serialization=False)
    legacy.write_bytes(legacy.read_bytes()[:40])
    return {
        "empty.pt": "empty",
        "truncated.pt": "truncated",
        "random.pt": "not a tensor file",
        "text.pt": "not a tensor file",
        "folder.pt": "folder",
        "legacy_cut.pt": "truncated",
        "missing.pt": "no such file",
    }


def test_bad_input_gets_one_clear_sentence(tmp_path):
    for name, words in bad_inputs(tmp_path).items():
        result = inspect_file(tmp_path / name)
        assert result.root is None, name
        assert words in result.error, (name, result.error)
        assert "\n" not in result.error and "Traceback" not in result.error


def test_read_errors_become_one_sentence(tmp_path, monkeypatch):
    from tensorviz.core.files import inspection as tensor_files
    from tensorviz.core.files import open_requests

    path = tmp_path / "locked.pt"
    torch.save(torch.ones(2), path)
    monkeypatch.setattr(open_requests.os, "access", lambda *_args: False)
    assert "permission denied" in inspect_file(path).error
    monkeypatch.undo()

    def failing_read(_path):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(tensor_files, "detect_format", failing_read)
    assert inspect_file(path).error == "The file could not be read: Input/output error."


def test_non_utf8_file_name(tmp_path):
    name = os.fsdecode(b"caf\xe9.pt")  # a Latin-1 name, not valid UTF-8
    path = os.path.join(os.fsdecode(tmp_path), name)
    torch.save(torch.arange(3), path)
    result = inspect_file(path)
    assert result.error is None and torch.equal(result.tensor_at(()), torch.arange(3))


def test_a_file_truncated_while_open_is_never_read(tmp_path):
    """Reading mmapped data of a truncated file would kill the process (SIGBUS)."""
    from tensorviz.core.files.inspection import FileChangedError

    path = tmp_path / "big.pt"
    torch.save({"a": torch.randn(300, 300)}, path)
    inspection = inspect_file(path)
    assert inspection.changed_on_disk() is None
    with open(path, "r+b") as f:
        f.truncate(100)
    assert "changed on disk" in inspection.changed_on_disk()
    with pytest.raises(FileChangedError):
        inspection.tensor_at(("a",))
    path.unlink()
    assert "deleted or moved" in inspection.changed_on_disk()


def test_tensors_in_memory_keep_sharing_and_leave_the_file(tmp_path):
    path = tmp_path / "tied.pt"
    weight = torch.randn(4, 3)
    torch.save({"enc": weight, "dec": weight, "view": weight[1]}, path)
    inspection = inspect_file(path)
    enc, dec, view = inspection.tensors_in_memory([("enc",), ("dec",), ("view",)])
    assert torch.equal(enc, weight) and torch.equal(view, weight[1])
    assert enc.untyped_storage().data_ptr() == dec.untyped_storage().data_ptr()
    assert view.untyped_storage().data_ptr() == enc.untyped_storage().data_ptr()
    original = inspection.tensor_at(("enc",))
    assert enc.untyped_storage().data_ptr() != original.untyped_storage().data_ptr()


class Traced(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(2, 2)
        self.register_buffer("offset", torch.ones(2))

    def forward(self, x):
        return self.lin(x) + self.offset + torch.tensor([5.0, 6.0])


@pytest.mark.filterwarnings("ignore")
def test_torchscript_parameters_buffers_constants_and_code_without_jit_load(tmp_path):
    path = tmp_path / "traced.pt"
    module = Traced()
    torch.jit.trace(module, torch.randn(1, 2)).save(str(path))
    result = inspect_file(path)
    assert result.format == "torchscript" and result.error is None and result.calls == []
    assert torch.equal(result.tensor_at(("module", Attr("lin"), Attr("weight"))), module.lin.weight)
    assert torch.equal(result.tensor_at(("module", Attr("offset"))), module.offset)
    (constant,) = [n for n in result.entries if n.access[0] == "constants"]
    assert torch.equal(result.tensor_at(constant.access), torch.tensor([5.0, 6.0]))
    code = [n for n in walk(result.root) if n.kind == "text"]
    assert code and any("def forward" in n.value for n in code)
    loaded = torch.jit.load(str(path))  # torch's own view of the same archive
    assert torch.equal(loaded.lin.weight, result.tensor_at(("module", Attr("lin"), Attr("weight"))))
