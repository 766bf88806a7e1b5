"""A GPU tensor's histogram is counted where it lives (torch.histc): only the bins are copied
to the CPU. The device path is checked on CPU tensors against numpy.histogram itself, and
reached through histogram() with a patched device check; a real GPU runs it when present."""

import numpy
import pytest
import torch

from tensorviz.core.tensors import summary
from tensorviz.core.tensors.summary import histogram, histogram_on_device


@pytest.mark.parametrize(
    "tensor",
    [
        torch.arange(64, dtype=torch.float32) + 0.25,  # no value on a bin edge
        torch.tensor([3.0, 3.0, 3.0]),  # all equal: numpy widens the range by 0.5
        torch.tensor([1.0, float("nan"), 2.0, float("inf"), 1.5]),  # only finite values count
        torch.tensor([True, False, True]),
        torch.complex(torch.tensor([3.0, 0.0]), torch.tensor([4.0, 1.0])),  # |x|
    ],
)
def test_device_bins_are_numpys_bins(tensor):
    counts, edges = histogram_on_device(tensor, 8)
    expected_counts, expected_edges = numpy.histogram(
        summary.finite_values_as_numpy(tensor), bins=8
    )
    assert numpy.array_equal(counts, expected_counts)
    assert numpy.allclose(edges, expected_edges)


def test_histogram_takes_the_device_path_off_the_cpu(monkeypatch):
    taken = []
    real = summary.histogram_on_device

    def spy(tensor, bins):
        taken.append(tensor.device)
        return real(tensor, bins)

    class FakeDevice:
        type = "cuda"

    monkeypatch.setattr(summary, "histogram_on_device", spy)
    tensor = torch.ones(3, 1).expand(3, 4)  # repeated elements are counted once, times 4
    monkeypatch.setattr(torch.Tensor, "device", property(lambda self: FakeDevice()))
    counts, _ = histogram(tensor, 4)
    monkeypatch.undo()
    assert len(taken) == 1 and counts.sum() == 12


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_a_cuda_histogram_matches_the_cpu_one():
    tensor = torch.randn(1000)
    on_gpu, _ = histogram(tensor.cuda(), 16)
    on_cpu, _ = histogram(tensor, 16)
    assert numpy.abs(on_gpu - on_cpu).sum() <= 2  # float rounding at a bin edge at most
