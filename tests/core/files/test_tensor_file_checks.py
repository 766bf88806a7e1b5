"""Malformed safetensors headers are refused with one sentence naming the entry and the problem
(as the safetensors format requires), and NumPy files torch cannot take as they are: a foreign
byte order is converted with a note, non-numeric arrays of an .npz are skipped and listed."""

import json
import struct

import numpy as np
import pytest
import torch

from tensorviz.core.files.inspection import inspect_file


def write_safetensors(path, header, data=b""):
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + data)


def f32(shape, offsets):
    return {"dtype": "F32", "shape": shape, "data_offsets": offsets}


MALFORMED = [
    ({"a": f32([2], [-8, 0])}, "'a' has data_offsets [-8, 0]: they must be two non-negative"),
    ({"a": f32([-1], [8, 4])}, "'a' has shape [-1]: it must be a list of non-negative integers"),
    ({"a": f32([1.5], [0, 4])}, "'a' has shape [1.5]"),
    ({"a": f32([True], [0, 4])}, "'a' has shape [true]"),
    ({"a": f32([2], [8, 4])}, "'a' has data_offsets [8, 4] outside the file's 16 bytes of data"),
    ({"a": f32([2], [8, 24])}, "'a' has data_offsets [8, 24] outside the file's 16 bytes"),
    ({"a": f32([3], [0, 8])}, "'a' has shape [3] of F32, which needs 12 bytes, but its data_of"),
    ({"a": f32([2], [0, 8]), "b": f32([2], [4, 12])}, "entries 'a' and 'b' overlap"),
    ({"a": "x"}, "'a' is not an object with dtype, shape and data_offsets"),
    ({"a": {"dtype": "F32", "shape": [2]}}, "'a' is not an object with dtype, shape and data_o"),
    (
        {"a": {**f32([2], [0, 8]), "dtype": "Q9"}},
        "'a' has dtype \"Q9\", which the safetensors format does not",
    ),
    ({"a": f32([2], [0, 8, 9])}, "'a' has data_offsets [0, 8, 9]: they must be two"),
    ({"__metadata__": {"n": 1}, "a": f32([2], [0, 8])}, "__metadata__ must map strings to str"),
]


@pytest.mark.parametrize(("header", "problem"), MALFORMED)
def test_malformed_safetensors_header_is_one_sentence(tmp_path, header, problem):
    path = tmp_path / "bad.safetensors"
    write_safetensors(path, header, bytes(16))
    result = inspect_file(path)
    assert result.error is not None and problem in result.error, result.error
    assert result.error.startswith("The safetensors ") and result.error.endswith(".")
    assert "\n" not in result.error and result.root is None


def test_well_formed_safetensors_with_metadata_and_empty_entry_load(tmp_path):
    data = np.arange(4, dtype=np.float32).tobytes() + np.arange(2, dtype=np.int64).tobytes()
    header = {
        "__metadata__": {"format": "pt"},
        "w": f32([2, 2], [0, 16]),
        "ids": {"dtype": "I64", "shape": [2], "data_offsets": [16, 32]},
        "none": f32([0, 3], [32, 32]),
    }
    path = tmp_path / "ok.safetensors"
    write_safetensors(path, header, data)
    result = inspect_file(path)
    assert result.error is None
    assert torch.equal(result.tensor_at(("w",)), torch.arange(4.0).reshape(2, 2))
    assert torch.equal(result.tensor_at(("ids",)), torch.arange(2))
    assert result.tensor_at(("none",)).shape == (0, 3)


def test_big_endian_npy_is_converted_with_a_note(tmp_path):
    array = np.arange(6, dtype=">f4").reshape(2, 3)
    np.save(tmp_path / "be.npy", array)
    result = inspect_file(tmp_path / "be.npy")
    assert result.error is None
    assert torch.equal(result.tensor_at(()), torch.from_numpy(array.astype("<f4")))
    assert any("big-endian: converted to this machine's byte order" in n for n in result.notes)


def test_npz_loads_its_numeric_arrays_and_lists_the_skipped_ones(tmp_path):
    np.savez(tmp_path / "mix.npz", a=np.ones(2), names=np.array(["x", "y"]), b=np.arange(3))
    result = inspect_file(tmp_path / "mix.npz")
    assert result.error is None and [n.name for n in result.entries] == ["a", "b"]
    assert torch.equal(result.tensor_at(("b",)), torch.from_numpy(np.arange(3)))
    assert "Skipped 1 array(s): 'names' holds text (<U1), which a torch tensor cannot hold." in (
        result.notes
    )


def test_npz_with_nothing_numeric_and_npy_of_text_are_one_sentence(tmp_path):
    np.savez(tmp_path / "text.npz", s=np.array(["x"]), d=np.zeros(1, dtype="M8[s]"))
    result = inspect_file(tmp_path / "text.npz")
    assert result.error == (
        "No array of this .npz can be a tensor: 's' holds text (<U1), which a torch tensor "
        "cannot hold; 'd' holds dates (<M8[s]), which a torch tensor cannot hold."
    )
    np.save(tmp_path / "s.npy", np.array([b"ab"]))
    result = inspect_file(tmp_path / "s.npy")
    assert result.error == "The array holds bytes (|S2), which a torch tensor cannot hold."
