"""Every checkpoint of the corpus opens with every tensor listed — shape, dtype, strides and shared
storages equal to torch's own load of the same file — and every plain value equal to torch's;
nothing is ever called; the weights_only words are what torch itself does."""

from __future__ import annotations

import math
import warnings

import checkpoint_corpus as corpus
import numpy as np
import pytest
import torch

from tensorviz.core.files.inspection import inspect_file
from tensorviz.core.files.tree import walk

pytestmark = pytest.mark.filterwarnings("ignore")  # torch's own deprecations while writing

CASES = {
    "tutorial-p2": lambda p: corpus.tutorial(p, 2),
    "tutorial-p3": lambda p: corpus.tutorial(p, 3),
    "tutorial-p4": lambda p: corpus.tutorial(p, 4),
    "tutorial-p5": lambda p: corpus.tutorial(p, 5),
    "tutorial-legacy": lambda p: corpus.tutorial(p, 2, legacy=True),
    "lightning": corpus.lightning,
    "whole-model": corpus.whole_model,
    "torchscript": corpus.torchscript,
    "dtypes-pt": lambda p: corpus.dtypes(p, ".pt"),
    "dtypes-safetensors": lambda p: corpus.dtypes(p, ".safetensors"),
    "pretrained": lambda p: corpus.save_pretrained(p, sharded=False),
    "sharded-index": lambda p: corpus.save_pretrained(p, True) / "model.safetensors.index.json",
    "sharded-folder": lambda p: corpus.save_pretrained(p, sharded=True),
    "sharded-bin-index": lambda p: corpus.save_pretrained(p, True, True)
    / "pytorch_model.bin.index.json",
    "trainer-checkpoint": corpus.trainer_checkpoint,
    "distributed": corpus.distributed,
}  # fmt: skip


@pytest.fixture(params=list(CASES), scope="module")
def opened(request, tmp_path_factory):
    path = CASES[request.param](tmp_path_factory.mktemp(request.param))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        inspection = inspect_file(path)
        reference = corpus.reference_root(path, inspection)
    return path, inspection, reference


def test_it_opens_harmlessly(opened):
    _path, inspection, _reference = opened
    assert inspection.error is None, inspection.error
    assert inspection.calls == [] and inspection.safe
    assert inspection.entries


def test_every_tensor_equals_torchs(opened):
    _path, inspection, reference = opened
    for node in inspection.entries:
        key, real = node.key_text(), corpus.resolve(reference, node.access)
        assert isinstance(real, torch.Tensor), key
        info = node.tensor
        assert info.shape == tuple(real.shape) and info.dtype == str(real.dtype)[6:], key
        assert info.stride == real.stride() and info.storage_offset == real.storage_offset()
        ours = inspection.tensor_at(node.access)
        assert ours.dtype == real.dtype and ours.shape == real.shape
        assert torch.equal(_bits(ours), _bits(real)), key


def test_shared_storages_are_torchs(opened):
    _path, inspection, reference = opened
    plain = [n for n in inspection.entries if n.tensor.storage_nbytes]
    reals = [corpus.resolve(reference, n.access) for n in plain]
    for a, real_a in zip(plain, reals, strict=True):
        for b, real_b in zip(plain, reals, strict=True):
            same_ours = a.tensor.storage_id == b.tensor.storage_id
            same_torch = real_a.untyped_storage().data_ptr() == real_b.untyped_storage().data_ptr()
            if a.source == b.source:  # one file: sharing is per file
                assert same_ours == same_torch, (a.key_text(), b.key_text())


def test_every_tensor_torch_has_is_listed(opened):
    _path, inspection, reference = opened
    if inspection.format in ("folder", "dcp", "index"):
        return  # compared entry by entry above; a folder has no single object to walk
    assert len(inspection.entries) == len(list(_tensors(reference)))


def test_plain_values_equal_torchs(opened):
    _path, inspection, reference = opened
    for node in walk(inspection.root):
        if node.kind != "value" or node.value is None and node.value_text != "None":
            continue
        real = corpus.resolve(reference, node.access)
        assert _same(node.value, real), (node.key_text(), node.value, real)


def _same(ours, real) -> bool:
    if isinstance(real, np.ndarray):
        return (
            isinstance(ours, np.ndarray) and ours.dtype == real.dtype and np.array_equal(ours, real)
        )
    if isinstance(real, float) and math.isnan(real):
        return math.isnan(ours)
    return type(ours) is type(real) and ours == real or ours == real and not isinstance(real, bool)


def _tensors(obj, seen=None):
    seen = seen if seen is not None else set()
    if isinstance(obj, torch.Tensor):
        yield obj  # every path to it, as the tree lists every path (tied weights twice)
        return
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if False:
        pass
    elif isinstance(obj, torch.nn.Module):
        for part in ("_parameters", "_buffers", "_modules"):
            for value in vars(obj)[part].values():
                if value is not None:
                    yield from _tensors(value, seen)
    elif isinstance(obj, dict):
        for value in obj.values():
            yield from _tensors(value, seen)
    elif isinstance(obj, list | tuple):
        for value in obj:
            yield from _tensors(value, seen)
    elif hasattr(obj, "__dict__") and not isinstance(obj, type):
        yield from _tensors(vars(obj), seen)


def _bits(tensor: torch.Tensor) -> torch.Tensor:
    """Values to compare exactly: one-byte floats (FP8) as their bytes (equal has no FP8 kernel)."""
    return tensor.view(torch.uint8) if tensor.dtype.itemsize == 1 else tensor
