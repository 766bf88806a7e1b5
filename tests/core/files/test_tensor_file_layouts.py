"""Files with sparse, nested, quantized and meta tensors: inspected without a traceback, each entry
with what torch can tell about it, and no storage-sharing facts where there is no plain storage.
Every file is made here with torch; answers are compared with torch.load of the same file."""

import json
import warnings

import pytest
import torch

from tensorviz.core.files import inspection as tensor_files
from tensorviz.core.files.inspection import inspect_file
from tensorviz.core.files.text import sharing_text, tree_lines

# torch.load of a sparse tensor goes through its deprecated TypedStorage: not our warning
pytestmark = pytest.mark.filterwarnings("ignore:TypedStorage is deprecated")


def entry(inspection, key):
    return next(n for n in inspection.entries if n.key_text() == key)


@pytest.fixture
def odd_layouts(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nested / sparse csr are "prototype" / "beta" in torch
        plain = torch.arange(6.0)
        tensors = {
            "coo": torch.eye(3).to_sparse(),
            "csr": torch.eye(3).to_sparse_csr(),
            "csc": torch.eye(3).to_sparse_csc(),
            "bsr": torch.eye(4).to_sparse_bsr((2, 2)),
            "nested": torch.nested.nested_tensor([torch.ones(2), torch.ones(3)]),
            "jagged": torch.nested.nested_tensor(
                [torch.ones(2, 4), torch.ones(3, 4)], layout=torch.jagged
            ),
            "quantized": torch.quantize_per_tensor(torch.randn(4), 0.1, 0, torch.quint8),
            "meta": torch.empty(2, 3, device="meta"),
            "plain": plain,
            "view": plain[2:4],
        }
    path = tmp_path / "layouts.pt"
    torch.save(tensors, path)
    return path


def test_sparse_and_nested_entries_are_described_not_raised(odd_layouts):
    result = inspect_file(odd_layouts)
    assert result.error is None
    expected = torch.load(odd_layouts, weights_only=True)
    for key in ("coo", "csr", "csc", "bsr"):
        info = entry(result, f"['{key}']").tensor
        assert info.layout == str(expected[key].layout).removeprefix("torch.")
        assert info.shape == tuple(expected[key].shape)
        assert info.nnz == expected[key]._nnz()
        assert info.dtype == "float32" and info.storage_id is None and info.stride is None
        assert not info.plain and "no strided storage" in info.problem
    nested = entry(result, "['nested']").tensor
    assert nested.layout == "nested" and nested.shape == (2, "*") and nested.nnz is None
    jagged = entry(result, "['jagged']").tensor
    assert jagged.layout == "nested" and jagged.shape[0] == 2 and jagged.shape[2] == 4
    assert any("no plain storage" in note for note in result.notes)


def test_plain_entries_beside_them_keep_their_sharing(odd_layouts):
    result = inspect_file(odd_layouts)
    assert [set(g.members) for g in result.shared_groups()] == [{"['plain']", "['view']"}]
    plain = entry(result, "['plain']")
    assert plain.tensor.plain and "shared with ['view']" in sharing_text(plain, result)
    assert sharing_text(entry(result, "['coo']"), result) == "no plain storage (sparse_coo)"
    text = "\n".join(tree_lines(result))
    assert "sparse_csr, nnz=3" in text
    data = json.loads(json.dumps(result.to_json()))
    coo = next(e for e in data["entries"] if e["key"] == "['coo']")
    assert coo["layout"] == "sparse_coo" and coo["nnz"] == 3 and coo["storage_id"] is None


def test_quantized_and_meta_entries(odd_layouts):
    result = inspect_file(odd_layouts)
    expected = torch.load(odd_layouts, weights_only=True)
    quantized = entry(result, "['quantized']").tensor
    assert quantized.dtype == "quint8" and quantized.storage_id is not None
    assert not quantized.plain and "dequantize" in quantized.problem
    # read back (through a plain, non-mmap load of the same open file) it equals torch's
    copy = result.tensor_at(("quantized",))
    assert torch.equal(copy.int_repr(), expected["quantized"].int_repr())
    meta = entry(result, "['meta']").tensor
    assert meta.device == "meta" and meta.shape == (2, 3) and meta.storage_id is None
    assert "meta" in meta.text()


def test_sparse_entries_read_back_equal_torch(odd_layouts):
    result = inspect_file(odd_layouts)
    expected = torch.load(odd_layouts, weights_only=True)
    coo, csr = result.tensors_in_memory([("coo",), ("csr",)])
    assert torch.equal(coo.to_dense(), expected["coo"].to_dense())
    assert torch.equal(csr.to_dense(), expected["csr"].to_dense())


def test_a_description_that_fails_is_one_sentence_not_a_traceback(tmp_path, monkeypatch):
    path = tmp_path / "a.pt"
    torch.save({"a": torch.ones(2)}, path)

    def broken(*_args):
        raise RuntimeError("Internal error: something torch cannot do\nsecond line")

    monkeypatch.setattr(tensor_files, "share_storages", broken)
    result = inspect_file(path)
    assert result.error == (
        "The file loaded, but its contents could not be described: "
        "RuntimeError: Internal error: something torch cannot do"
    )
    assert result.root is None and result.entries == []
