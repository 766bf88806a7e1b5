"""Tensor data of an open file is read with plain reads, never through its mmap: a file truncated
or replaced under us (a training script re-saving its checkpoint in place) is one sentence, never
SIGBUS. Risky reads run in a subprocess whose exit code must be 0."""

import os
import subprocess
import sys
import textwrap
import zipfile

import numpy as np
import pytest
import torch

from tensorviz.core.files.formats import save_tensors
from tensorviz.core.files.inspection import FileChangedError, ReadBuffer, inspect_file


def run_isolated(script: str) -> subprocess.CompletedProcess:
    """A crash (SIGBUS) kills only the child; the test sees its exit code."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("suffix", [".pt", ".safetensors"])
def test_truncated_after_every_check_passed_is_a_sentence_not_sigbus(tmp_path, suffix):
    """The race the reviewer hit: the file is cut short after the checks said it was unchanged.
    The checks are switched off here so the read itself meets the truncated file."""
    path = tmp_path / f"ckpt{suffix}"
    result = run_isolated(
        f"""
        import torch
        from tensorviz.core.files import value_reading as tensor_file_reading
        from tensorviz.core.files.formats import save_tensors
        from tensorviz.core.files.inspection import FileChangedError, inspect_file

        path = {str(path)!r}
        save_tensors({{"a": torch.randn(512, 512), "b": torch.randn(512, 512)}}, path)
        inspection = inspect_file(path)
        assert inspection.error is None and inspection.file_offsets
        with open(path, "r+b") as f:
            f.truncate(4096)
        tensor_file_reading._check = lambda *args: None  # as if truncated just after the check
        inspection.changed_on_disk = lambda: None
        for key in ("a", "b"):
            try:
                inspection.tensor_at((key,)).sum()
            except FileChangedError as changed:
                print("MESSAGE:", changed)
        """
    )
    assert result.returncode == 0, result.stderr
    assert f"MESSAGE: ckpt{suffix} changed on disk while its data was read" in result.stdout


def test_truncated_file_is_refused_by_the_stamp_check(tmp_path):
    path = tmp_path / "ckpt.pt"
    torch.save({"a": torch.randn(300, 300)}, path)
    inspection = inspect_file(path)
    with open(path, "r+b") as f:
        f.truncate(100)
    with pytest.raises(FileChangedError, match="ckpt.pt changed on disk since it was opened"):
        inspection.tensor_at(("a",))


def test_replaced_file_is_refused_even_with_the_same_size(tmp_path):
    path = tmp_path / "ckpt.pt"
    torch.save({"a": torch.zeros(100)}, path)
    inspection = inspect_file(path)
    other = tmp_path / "other.pt"
    torch.save({"a": torch.ones(100)}, other)
    os.replace(other, path)  # atomic re-save: a new inode under the same name
    with pytest.raises(FileChangedError, match="reopen it"):
        inspection.tensors_in_memory([("a",)])


@pytest.mark.parametrize("suffix", [".pt", ".safetensors"])
def test_reads_equal_torch_and_never_share_the_mapping(tmp_path, suffix):
    base = torch.arange(60.0).reshape(6, 10)
    tensors = {"base": base, "other": torch.arange(7, dtype=torch.int16)}
    if suffix == ".pt":
        tensors |= {"t": base.t(), "row": base[3], "empty": torch.empty(0, 4)}
    path = tmp_path / f"f{suffix}"
    save_tensors(tensors, path)
    inspection = inspect_file(path)
    assert inspection.error is None
    assert len(inspection.file_offsets) == len(inspection.storages)  # each storage placed
    keys = list(tensors)
    copies = inspection.tensors_in_memory([(k,) for k in keys])
    for key, copy in zip(keys, copies, strict=True):
        assert torch.equal(copy, tensors[key]) and copy.stride() == tensors[key].stride()
        mapped = inspection.loaded[key]
        if mapped.numel():
            assert copy.untyped_storage().data_ptr() != mapped.untyped_storage().data_ptr()
    if suffix == ".pt":  # one read per storage: the views share the copy of their base
        ptrs = {c.untyped_storage().data_ptr() for c in copies[:1] + copies[2:4]}
        assert len(ptrs) == 1


@pytest.mark.parametrize("suffix", [".pt", ".safetensors"])
def test_values_read_into_one_reused_buffer_equal_torch(tmp_path, suffix):
    """A ReadBuffer is filled read after read (the comparison's pairs): each value equals torch's
    while it is the latest, and a smaller one reuses the same memory."""
    tensors = {"big": torch.randn(64, 32), "other": torch.arange(7, dtype=torch.int16)}
    if suffix == ".pt":
        tensors |= {"t": tensors["big"].t(), "row": tensors["big"][3]}
    path = tmp_path / f"f{suffix}"
    save_tensors(tensors, path)
    inspection = inspect_file(path)
    buffer = ReadBuffer()
    small = inspection.tensor_at(("other",), into=buffer)
    assert torch.equal(small, tensors["other"])
    del small
    memory = None
    for key in ["big", *tensors]:
        value = inspection.tensor_at((key,), into=buffer)
        assert torch.equal(value, tensors[key]) and value.stride() == tensors[key].stride()
        memory = memory or value.untyped_storage().data_ptr()
        assert value.untyped_storage().data_ptr() == memory  # grown once, for "big"
        del value


def test_a_big_endian_checkpoint_read_into_a_buffer_equals_torch_load(tmp_path):
    """Storages saved big-endian are swapped on reading, in memory of their own (the buffer holds
    13 bytes when the int16 storage is read: a whole-storage swap of it would fail)."""
    tensors = {
        "u": torch.arange(13, dtype=torch.uint8),
        "w": torch.randn(3, 4),
        "i": torch.arange(5, dtype=torch.int16),
    }
    little, big = tmp_path / "little.pt", tmp_path / "big.pt"
    torch.save(tensors, little)
    sizes = {"data/1": 4, "data/2": 2}  # torch.save numbers the storages in pickling order
    with zipfile.ZipFile(little) as source, zipfile.ZipFile(big, "w") as target:
        for info in source.infolist():
            data = source.read(info.filename)
            part = info.filename.split("/", 1)[1]
            if part == "byteorder":
                data = b"big"
            elif part in sizes:
                data = np.frombuffer(data, dtype=f"u{sizes[part]}").byteswap().tobytes()
            target.writestr(info.filename, data)
    expected = torch.load(big, weights_only=True)
    assert all(torch.equal(expected[k], tensors[k]) for k in tensors)  # torch swapped them back
    inspection = inspect_file(big)
    buffer = ReadBuffer()
    for key in ("u", "i", "w"):
        assert torch.equal(inspection.tensor_at((key,), into=buffer), expected[key])
