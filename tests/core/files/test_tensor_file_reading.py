"""Tensor data of an open file is read with plain reads, never through its mmap: a file truncated
or replaced under us (a training script re-saving its checkpoint in place) is one sentence, never
SIGBUS. Risky reads run in a subprocess whose exit code must be 0."""

import os
import subprocess
import sys
import textwrap

import pytest
import torch

from tensorviz.core.files.formats import save_tensors
from tensorviz.core.files.inspection import FileChangedError, inspect_file


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
