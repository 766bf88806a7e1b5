"""Values streamed from a file in blocks (value_blocks.py): the blocks, put together, are the
tensor as torch.load gives it; only a row-major run of bytes streams; a change on disk while
streaming is one sentence; a stream left early closes its file."""

import os

import pytest
import torch

from tensorviz.core.files.formats import save_tensors
from tensorviz.core.files.inspection import FileChangedError, ReadBuffer, inspect_file


def streamed(inspection, key: str, elements: int, buffer: ReadBuffer) -> torch.Tensor | None:
    side = inspection.tensor_blocks((key,), elements, buffer)
    if side is None:
        return None
    shape, dtype, blocks = side
    parts = [block.clone() for block in blocks]  # each block is valid only until the next
    assert all(p.numel() == elements for p in parts[:-1]) and parts[-1].numel() <= elements
    return torch.cat(parts).reshape(shape).to(dtype)


@pytest.mark.parametrize("suffix", [".pt", ".safetensors"])
def test_blocks_put_together_equal_torch_load(tmp_path, suffix):
    base = torch.randn(50, 40)
    tensors = {
        "w": base,
        "ids": torch.arange(1001, dtype=torch.int64),
        "half": torch.randn(33, 3).to(torch.bfloat16),
        "mask": torch.rand(77) > 0.5,
        "z": torch.randn(9, dtype=torch.complex64),
    }
    if suffix == ".pt":
        tensors["rows"] = base[10:20]  # a contiguous view at a storage offset
    path = tmp_path / f"f{suffix}"
    save_tensors(tensors, path)
    loaded = torch.load(path, weights_only=True) if suffix == ".pt" else None
    inspection = inspect_file(path)
    buffer = ReadBuffer()
    for key, tensor in tensors.items():
        expected = loaded[key] if loaded is not None else tensor
        value = streamed(inspection, key, 128, buffer)
        assert value is not None, key
        assert value.dtype == expected.dtype and torch.equal(value, expected), key
    assert buffer.take(0).untyped_storage().nbytes() <= 128 * 16  # a block, not a tensor


def test_a_saved_transposed_view_does_not_stream(tmp_path):
    base = torch.randn(6, 5)
    torch.save({"t": base.t(), "base": base}, tmp_path / "f.pt")
    inspection = inspect_file(tmp_path / "f.pt")
    assert inspection.tensor_blocks(("t",), 8, ReadBuffer()) is None  # read whole instead
    assert torch.equal(streamed(inspection, "base", 8, ReadBuffer()), base)


def test_a_file_truncated_while_streaming_is_one_sentence(tmp_path):
    torch.save({"w": torch.randn(4096)}, tmp_path / "f.pt")
    inspection = inspect_file(tmp_path / "f.pt")
    _shape, _dtype, blocks = inspection.tensor_blocks(("w",), 256, ReadBuffer())
    next(blocks)
    os.truncate(tmp_path / "f.pt", 2000)
    with pytest.raises(FileChangedError, match="f.pt changed on disk"):
        for _block in blocks:
            pass


def test_a_stream_left_early_closes_its_file(tmp_path):
    torch.save({"w": torch.randn(4096)}, tmp_path / "f.pt")
    inspection = inspect_file(tmp_path / "f.pt")
    before = len(os.listdir("/proc/self/fd"))
    _shape, _dtype, blocks = inspection.tensor_blocks(("w",), 256, ReadBuffer())
    next(blocks)
    assert len(os.listdir("/proc/self/fd")) == before + 1
    blocks.close()  # what a cancelled comparison does
    assert len(os.listdir("/proc/self/fd")) == before
