"""Session files round-trip every workspace tensor as torch had it (values, dtype, device,
strides, offsets, storage sharing, grads), with names, history and provenance; a hostile or
damaged file is refused with one sentence, and nothing of it runs."""

import json
import zipfile

import numpy as np
import pytest
import torch

from tensorviz.core.session.session_format import SessionCancelledError, SessionFileError
from tensorviz.core.session.session_reader import read_session
from tensorviz.core.session.session_writer import SessionContents, write_session
from tensorviz.core.tensors.workspace import Provenance, Workspace
from tensorviz.core.training.data import TrainingConfig


def sample_workspace() -> Workspace:
    ws = Workspace()
    x = torch.arange(24.0).reshape(2, 3, 4)
    ws.add_tensor("x", x, Provenance("arange", "torch.arange(24.).reshape(2, 3, 4)"))
    ws.add_tensor("x_t", x.transpose(0, 1), Provenance("transpose", "x.transpose(0, 1)", ("x",),
                                                        {"dim0": "0", "dim1": "1"}))  # fmt: skip
    ws.add_tensor("row", x[1, 2], Provenance("index", "x[1, 2]", ("x",)))
    ws.add_tensor("wide", torch.ones(3, 1).expand(3, 5), Provenance("expand", "expand"))
    ws.add_tensor("as_int", x.view(torch.int32), Provenance("view", "x.view(torch.int32)", ("x",)))
    w = torch.tensor([2.0], requires_grad=True)
    (w**2).sum().backward()
    ws.add_tensor("w", w, Provenance("tensor", "torch.tensor([2.], requires_grad=True)"))
    ws.add_tensor("y", w * 3, Provenance("mul", "w * 3", ("w",)))
    arr = np.arange(6.0)
    made = Provenance("from_numpy", "torch.from_numpy(arr)")
    ws.add_tensor("shared", torch.from_numpy(arr), made, numpy_array=arr)
    copied = np.ones(2)
    ws.add_tensor("copied", torch.tensor(copied), Provenance("tensor", "torch.tensor(arr)"),
                  numpy_array=copied, notes=("a note",))  # fmt: skip
    for dtype in (torch.bfloat16, torch.float8_e4m3fn, torch.uint16, torch.complex128, torch.bool):
        name = f"d_{str(dtype).removeprefix('torch.')}"
        ws.add_tensor(name, torch.arange(5).to(dtype)[1:], Provenance("to", f"to({dtype})"))
    ws.add_tensor("m", torch.empty(64, 32, device="meta").t(), Provenance("empty", "meta"))
    ws.add_tensor("empty", torch.zeros(0, 3), Provenance("zeros", "torch.zeros(0, 3)"))
    ws.rename("x", "source")  # history survives a rename: kept by uid, not by name
    return ws


@pytest.fixture
def saved(tmp_path):
    ws = sample_workspace()
    path = tmp_path / "s.tvsession"
    config = TrainingConfig(lr=0.05, batch_size=10, clip_grad_norm=1.0)
    written = write_session(path, SessionContents(list(ws), "x = torch.ones(2)\n", config))
    return ws, path, written


def reopened(path) -> Workspace:
    ws = Workspace()
    ws.replace_all(read_session(path).entries, "open")
    return ws


def test_every_tensor_comes_back_as_torch_had_it(saved):
    before, path, written = saved
    assert written.notes == [] and written.tensors == len(before)
    after = reopened(path)
    assert after.names() == before.names()
    for name in before.names():
        a, b = before.tensor(name), after.tensor(name)
        assert (a.dtype, a.shape, a.stride(), a.storage_offset(), a.device) == (
            b.dtype, b.shape, b.stride(), b.storage_offset(), b.device
        ), name  # fmt: skip
        assert a.untyped_storage().nbytes() == b.untyped_storage().nbytes(), name
        if a.device.type != "meta":
            assert bytes(a.untyped_storage()) == bytes(b.untyped_storage()), name


def test_storage_sharing_survives_and_writes_reach_every_view(saved):
    before, path, _ = saved
    after = reopened(path)
    for name in after.names():
        assert after.sharing(name) == before.sharing(name), name
    after.tensor("row").fill_(-1.0)
    assert torch.equal(after.tensor("source")[1, 2], torch.full((4,), -1.0))
    assert after.tensor("x_t")[2, 1, 0].item() == -1.0


def test_names_history_provenance_and_autograd_state(saved):
    before, path, _ = saved
    loaded = read_session(path)
    after = reopened(path)
    assert after.parents("x_t") == ["source"] and after.parents("row") == ["source"]
    for name in before.names():
        assert after.entry(name).provenance == before.entry(name).provenance
    w = after.tensor("w")
    assert w.requires_grad and w.is_leaf and torch.equal(w.grad, torch.tensor([4.0]))
    y = after.tensor("y")
    assert y.grad_fn is None and not y.requires_grad
    assert "MulBackward0" in after.entry("y").notes[-1]
    assert after.entry("copied").notes[0] == "a note"
    assert loaded.script_text == "x = torch.ones(2)\n"
    assert loaded.training == TrainingConfig(lr=0.05, batch_size=10, clip_grad_norm=1.0)


def test_numpy_arrays_keep_sharing_or_copying(saved):
    _, path, _ = saved
    after = reopened(path)
    shared = after.entry("shared")
    assert np.shares_memory(shared.numpy_array, shared.tensor.numpy())
    copied = after.entry("copied")
    assert not np.shares_memory(copied.numpy_array, copied.tensor.numpy())
    assert np.array_equal(copied.numpy_array, np.ones(2))


def test_the_file_is_a_documented_zip_of_json_and_safetensors(saved):
    import safetensors.torch

    _, path, _ = saved
    with zipfile.ZipFile(path) as archive:
        manifest = json.loads(archive.read("manifest.json"))
        shard = safetensors.torch.load(archive.read("storages-00000.safetensors"))
    assert manifest["format"] == "tensorviz-session" and manifest["format_version"] == 1
    view = next(t for t in manifest["tensors"] if t["name"] == "x_t")["tensor"]
    assert view["stride"] == [4, 12, 1] and view["shape"] == [3, 2, 4]
    storage = manifest["storages"][view["storage"]]
    assert torch.equal(shard[storage["key"]], torch.arange(24.0))  # readable by safetensors


def test_a_cancelled_or_failed_write_leaves_the_old_file(tmp_path):
    path = tmp_path / "s.tvsession"
    ws = sample_workspace()
    write_session(path, SessionContents(list(ws)))
    old = path.read_bytes()
    with pytest.raises(SessionCancelledError):
        write_session(path, SessionContents(list(ws)), cancelled=lambda: True)
    assert path.read_bytes() == old
    assert [p.name for p in tmp_path.iterdir()] == ["s.tvsession"]  # no temporary left


def test_sparse_tensors_are_named_as_left_out(tmp_path):
    ws = Workspace()
    ws.add_tensor("s", torch.eye(3).to_sparse(), Provenance("to_sparse", "to_sparse()"))
    ws.add_tensor("d", torch.eye(3), Provenance("eye", "torch.eye(3)"))
    written = write_session(tmp_path / "s.tvsession", SessionContents(list(ws)))
    assert written.notes == ["s was left out: a sparse_coo tensor (only strided ones are kept)."]
    assert [e.name for e in read_session(tmp_path / "s.tvsession").entries] == ["d"]


def test_save_session_from_the_api(tmp_path):
    import tensorviz

    x = torch.arange(6.0).reshape(2, 3)
    model = torch.nn.Linear(3, 2)
    path = tensorviz.save_session(tmp_path / "api.tvsession", x, x.T, model=model, script="1")
    entries = {e.name: e for e in read_session(path).entries}
    assert set(entries) == {"x", "x_T", "model_weight", "model_bias"}
    assert entries["x_T"].tensor.untyped_storage().data_ptr() == (
        entries["x"].tensor.untyped_storage().data_ptr()
    )
    assert torch.equal(entries["model_weight"].tensor, model.weight)
    assert entries["model_weight"].tensor.requires_grad


# --- hostile and damaged files ------------------------------------------------------------------


def rewrite(path, change):
    """Rewrite the session with `change(manifest)` applied to its manifest."""
    with zipfile.ZipFile(path) as archive:
        members = {n: archive.read(n) for n in archive.namelist()}
    manifest = json.loads(members["manifest.json"])
    change(manifest)
    members["manifest.json"] = json.dumps(manifest).encode()
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)


def refused(path) -> str:
    with pytest.raises(SessionFileError) as caught:
        read_session(path)
    message = str(caught.value)
    assert message.startswith(f"Cannot open {path.name}: ") and message.count("\n") == 0
    return message


def first_tensor(manifest, name="x_t"):
    return next(t for t in manifest["tensors"] if t["name"] == name)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda m: m.update(format="pickle"), "not a tensorviz session"),
        (lambda m: m.update(format_version=99), "format 99"),
        (lambda m: first_tensor(m).update(name="__import__('os')"), "cannot be named so"),
        (lambda m: first_tensor(m).update(name="source"), "another tensor has too"),
        (lambda m: first_tensor(m)["tensor"].update(storage_offset=10**6), "reaches byte"),
        (lambda m: first_tensor(m)["tensor"].update(stride=[4, -12, 1]), "integers ≥ 0"),
        (lambda m: first_tensor(m)["tensor"].update(dtype="os.system"), "torch does not have"),
        (lambda m: first_tensor(m)["tensor"].update(storage=999), "refers to storage 999"),
        (lambda m: m["storages"][0].update(device="evil:0"), "does not know"),
        (lambda m: m["storages"][0].update(nbytes=4), "manifest says 4 bytes"),
        (lambda m: m["storages"][0].update(shard="../../etc/passwd"), "not a storage shard"),
        (lambda m: first_tensor(m, "source").update(requires_grad="yes"), "not bool"),
        (lambda m: m["training"].update(lr=-1), "Training configuration is invalid"),
        (lambda m: m["training"].update(run="os.system('x')"), "unknown training setting 'run'"),
        (lambda m: m.update(tensors={"x": 1}), "not list"),
    ],
)
def test_a_damaged_manifest_is_refused_with_one_sentence(saved, change, says):
    _, path, _ = saved
    rewrite(path, change)
    assert says in refused(path)


def test_files_that_are_no_session_are_refused(tmp_path):
    text = tmp_path / "notes.tvsession"
    text.write_text("hello")
    assert "not a zip file" in refused(text)
    pickled = tmp_path / "model.tvsession"
    torch.save({"w": torch.ones(2)}, pickled)  # torch.save writes a zip: still no session
    assert "has no manifest.json" in refused(pickled)


def test_damaged_storage_bytes_are_refused(saved):
    _, path, _ = saved
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("storages-00000.safetensors")
    data[info.header_offset + 200] ^= 0xFF  # inside the shard's stored bytes: the CRC fails
    path.write_bytes(bytes(data))
    assert "damaged" in refused(path) or "not valid safetensors" in refused(path)


def test_a_shard_that_is_not_safetensors_is_refused(saved):
    _, path, _ = saved
    with zipfile.ZipFile(path) as archive:
        members = {n: archive.read(n) for n in archive.namelist()}
    members["storages-00000.safetensors"] = b"\x10\x00\x00\x00\x00\x00\x00\x00{not json}   "
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    assert "storages-00000.safetensors is not valid safetensors" in refused(path)
