"""Saving tensors back: atomic writes, round trips that keep sharing, safetensors' refusals."""

import json
import os
import struct

import pytest
import torch

from tensorviz.core.files import formats as tensor_file_formats
from tensorviz.core.files.file_errors import TensorFileError
from tensorviz.core.files.formats import (
    made_safetensors_ready,
    safetensors_problems,
    save_tensors,
)
from tensorviz.core.files.inspection import inspect_file


def test_pt_round_trip_keeps_values_dtypes_strides_and_sharing(tmp_path):
    base = torch.arange(12, dtype=torch.float64).reshape(3, 4)
    tensors = {"base": base, "t": base.t(), "row": base[1], "ids": torch.arange(3)}
    path = tmp_path / "round.pt"
    assert save_tensors(tensors, path) == "torch-zip"
    result = inspect_file(path)
    assert result.error is None
    for name, tensor in tensors.items():
        loaded = result.tensor_at((name,))
        assert torch.equal(loaded, tensor) and loaded.dtype == tensor.dtype
        assert loaded.stride() == tensor.stride()
        assert loaded.storage_offset() == tensor.storage_offset()
    shared = result.shared_groups()
    assert len(shared) == 1 and set(shared[0].members) == {"['base']", "['t']", "['row']"}


def test_safetensors_round_trip_and_header_layout(tmp_path):
    tensors = {"w": torch.randn(3, 4), "b": torch.arange(4, dtype=torch.int64),
               "h": torch.randn(2).to(torch.bfloat16), "empty": torch.zeros(0, 3)}  # fmt: skip
    path = tmp_path / "m.safetensors"
    save_tensors(tensors, path)
    raw = path.read_bytes()
    (length,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + length])
    assert (8 + length) % 8 == 0
    assert header["w"]["dtype"] == "F32" and header["w"]["shape"] == [3, 4]
    start, end = header["w"]["data_offsets"]
    assert end - start == tensors["w"].nbytes
    result = inspect_file(path)
    for name, tensor in tensors.items():
        loaded = result.tensor_at((name,))
        assert loaded.dtype == tensor.dtype and torch.equal(loaded, tensor)


def test_safetensors_refuses_shared_and_non_contiguous_and_offers_the_fix(tmp_path):
    base = torch.arange(6.0).reshape(2, 3)
    tensors = {"base": base, "t": base.t()}
    problems = safetensors_problems(tensors)
    assert any("not contiguous" in p for p in problems)
    assert any("shares memory with base" in p for p in problems)
    path = tmp_path / "shared.safetensors"
    with pytest.raises(TensorFileError, match="clone"):
        save_tensors(tensors, path)
    assert not path.exists()
    save_tensors(made_safetensors_ready(tensors), path)
    result = inspect_file(path)
    assert torch.equal(result.tensor_at(("t",)), base.t())
    assert result.shared_groups() == []


def test_a_failure_mid_write_leaves_the_original_file_intact(tmp_path, monkeypatch):
    path = tmp_path / "keep.pt"
    torch.save({"old": torch.ones(3)}, path)
    before = path.read_bytes()

    def broken_save(obj, stream):
        stream.write(b"PK\x03\x04 half a file")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tensor_file_formats.torch, "save", broken_save)
    with pytest.raises(OSError):
        save_tensors({"new": torch.zeros(5)}, path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["keep.pt"]  # no temporary file left behind


def test_safetensors_with_a_long_header_is_not_taken_for_a_pickle(tmp_path):
    # a header of 128..255 bytes makes the file start with 0x80, like a pickle
    path = tmp_path / "long.safetensors"
    for length in range(40, 120):
        name = "n" * length
        save_tensors({name: torch.arange(3.0)}, path)
        if path.read_bytes()[0] == 0x80:
            break
    assert path.read_bytes()[:2] == b"\x80\x00"
    result = inspect_file(path)
    assert result.format == "safetensors" and torch.equal(
        result.tensor_at((name,)), torch.arange(3.0)
    )
