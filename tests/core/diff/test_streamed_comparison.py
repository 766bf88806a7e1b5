"""Pairs streamed from their files block by block: the figures are torch's own, each side's
buffer holds one block (not a tensor), cancel stops inside a tensor and closes the files, a
file rewritten while it streams stops the comparison with one sentence."""

import os

import pytest
import torch

from tensorviz.core.diff import tensor_difference
from tensorviz.core.diff.comparison import compare_sides
from tensorviz.core.diff.sides import side_of_file
from tensorviz.core.files import value_reading

BLOCK = 4 * 256  # elements: small blocks, so every tensor below streams in several


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    monkeypatch.setattr(tensor_difference, "CHUNK_ELEMENTS", 256)
    monkeypatch.setattr(tensor_difference, "BLOCK_CHUNKS", 4)


@pytest.fixture
def largest_take(monkeypatch):
    """The most bytes any ReadBuffer was asked for."""
    most = [0]
    take = value_reading.ReadBuffer.take

    def watched(self, nbytes):
        most[0] = max(most[0], nbytes)
        return take(self, nbytes)

    monkeypatch.setattr(value_reading.ReadBuffer, "take", watched)
    return most


def write_pair(tmp_path, suffix=".pt"):
    torch.manual_seed(0)
    a = {"big": torch.randn(100, 70), "ids": torch.arange(5000), "same": torch.randn(3000)}
    b = {"big": a["big"] + 1e-3 * torch.randn(100, 70), "ids": a["ids"].clone(),
         "same": a["same"].clone()}  # fmt: skip
    b["ids"][4321] = -1
    torch.save(a, tmp_path / f"a{suffix}")
    torch.save(b, tmp_path / f"b{suffix}")
    return a, b


def test_streamed_figures_equal_torch_and_buffers_hold_one_block(tmp_path, largest_take):
    a, b = write_pair(tmp_path)
    comparison = compare_sides(side_of_file(tmp_path / "a.pt"), side_of_file(tmp_path / "b.pt"))
    found = {pair.key: pair for pair in comparison.pairs}
    big = found["big"].values
    wa, wb = a["big"].double(), b["big"].double()
    assert big.max_abs == (wb - wa).abs().max().item()
    relative = torch.linalg.vector_norm(wb - wa) / torch.linalg.vector_norm(wa)
    assert big.relative == pytest.approx(relative.item(), rel=1e-12)
    assert big.changed == int((a["big"] != b["big"]).sum())
    assert found["ids"].values.changed == 1 and found["ids"].bitwise_equal is False
    assert found["same"].bitwise_equal is True and found["same"].status == "unchanged"
    same = a["same"].double()
    assert found["same"].values.sum_sq_a == pytest.approx(float(same @ same), rel=1e-12)
    assert 0 < largest_take[0] <= BLOCK * 8  # int64: 8 bytes an element; a tensor is 7000+


def test_cancel_inside_a_streamed_tensor_closes_both_files(tmp_path):
    write_pair(tmp_path)
    side_a, side_b = side_of_file(tmp_path / "a.pt"), side_of_file(tmp_path / "b.pt")
    open_files = len(os.listdir("/proc/self/fd"))
    asked = []

    def should_stop() -> bool:
        asked.append(len(os.listdir("/proc/self/fd")))
        return len(asked) > 6  # inside "big" (28 chunks)

    comparison = compare_sides(side_a, side_b, should_stop=should_stop)
    assert comparison.cancelled and not comparison.equal
    assert max(asked) == open_files + 2  # both files were open while streaming
    assert len(os.listdir("/proc/self/fd")) == open_files
    assert all(pair.values is None for pair in comparison.pairs)


def test_a_file_rewritten_while_it_streams_is_one_sentence(tmp_path):
    write_pair(tmp_path)
    side_a, side_b = side_of_file(tmp_path / "a.pt"), side_of_file(tmp_path / "b.pt")
    asked = [0]

    def should_stop() -> bool:
        asked[0] += 1
        if asked[0] == 3:  # a training run re-saves its checkpoint in place, shorter
            torch.save({"other": torch.zeros(1)}, tmp_path / "b.pt")
        return False

    comparison = compare_sides(side_a, side_b, should_stop=should_stop)
    assert "b.pt changed on disk" in comparison.error and not comparison.equal
