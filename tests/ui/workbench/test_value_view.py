"""The Values part of the Workbench: the lazy table model and the ValueView, against torch."""

import math

import numpy
import pytest
import torch
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel

from tensorviz.ui.workbench.value_table_model import TensorTableModel
from tensorviz.ui.workbench.value_view import BACKGROUND_THRESHOLD, ValueView

DISPLAY, TOOLTIP = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole


def sample_tensors():
    generator = torch.Generator().manual_seed(7)
    floats = torch.randn(3, 4, 5, generator=generator)
    floats[0, 1, 2] = math.nan
    floats[1, 2, 3] = -math.inf
    return {
        "0-d": (torch.tensor(2.5), None, None, {}),
        "1-d int": (torch.arange(-3, 7), None, None, {}),
        "2-d float": (floats[0], None, None, {}),
        "3-d float": (floats, 2, 0, {1: 3}),
        "bool": (torch.randn(4, 3, generator=generator) > 0, None, None, {}),
        "complex": (torch.randn(2, 3, dtype=torch.complex64, generator=generator), None, None, {}),
        "bfloat16": (floats.to(torch.bfloat16), 0, 1, {2: 4}),
        "float16 transposed": (floats.to(torch.float16).transpose(0, 2), None, None, {0: 1}),
        "uint8 expanded": (torch.arange(5, dtype=torch.uint8).expand(4, 2, 5), None, None, {}),
        "empty": (torch.zeros(0, 3), None, None, {}),
        "requires-grad 1-d slice": (floats.clone().requires_grad_(), 1, None, {0: 2}),
    }


def parse_cell(text):
    if text in ("True", "False"):
        return text == "True"
    if text.endswith("j"):
        return complex(text)
    return float(text) if any(c in text for c in ".ena") else int(text)


def assert_cells_equal_torch(model, tensor, row_dim, col_dim, fixed):
    """Every cell's text is tensor[index].item() to the 4 significant digits shown."""
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            index = [fixed.get(d, 0) for d in range(tensor.dim())]
            if row_dim is not None:
                index[row_dim] = row
            if col_dim is not None:
                index[col_dim] = column
            expected = tensor.detach()[tuple(index)].item()
            shown = parse_cell(model.data(model.index(row, column), DISPLAY))
            if isinstance(expected, bool | int):
                assert shown == expected
            else:
                assert shown == pytest.approx(expected, rel=1e-3, abs=1e-12, nan_ok=True)


@pytest.mark.parametrize("case", list(sample_tensors()))
def test_model_passes_qt_model_tester_and_shows_torch_values(qtmodeltester, case):
    tensor, row_dim, col_dim, fixed = sample_tensors()[case]
    model = TensorTableModel()
    model.set_tensor(tensor, row_dim, col_dim, fixed)
    qtmodeltester.check(model)
    if row_dim is None and col_dim is None:
        row_dim, col_dim = model.shown_dims()
    expected_rows = tensor.shape[row_dim] if row_dim is not None else 1
    expected_columns = tensor.shape[col_dim] if col_dim is not None else 1
    assert (model.rowCount(), model.columnCount()) == (expected_rows, expected_columns)
    assert_cells_equal_torch(model, tensor, row_dim, col_dim, fixed)
    model.set_tensor(torch.ones(2, 2))  # a reset the tester watches too
    model.set_tensor(None)
    assert model.rowCount() == model.columnCount() == 0


def test_formatting_and_tooltips_name_the_original_index():
    x = torch.arange(24.0).reshape(2, 3, 4)
    model = TensorTableModel()
    model.set_tensor(x, 1, None, {0: 1, 2: 2}, name="x")
    assert model.data(model.index(0, 0), TOOLTIP) == "x[1, :, 2] → x[1, 0, 2] = 14.0"
    model.set_tensor(x, 2, 0, {1: 1}, name="x")  # rows from dim 2, columns from dim 0
    assert model.data(model.index(3, 1), TOOLTIP) == "x[:, 1, :] → x[1, 1, 3] = 19.0"
    assert model.headerData(3, Qt.Orientation.Vertical) == "3"
    model.set_tensor(torch.tensor([1 / 3, math.nan, math.inf, 12345678.0]))
    texts = [model.data(model.index(row, 0)) for row in range(4)]
    assert texts == ["0.3333", "nan", "inf", "1.235e+07"]
    model.set_tensor(torch.tensor([[1 - 2j, True]]).to(torch.complex64))
    assert model.data(model.index(0, 0)) == "1-2j"
    model.set_tensor(torch.tensor(True), name="flag")
    assert model.data(model.index(0, 0)) == "True"
    assert model.data(model.index(0, 0), TOOLTIP) == "flag = True"


def test_model_reads_a_contiguous_float32_slice_without_copying():
    tensor = torch.randn(4, 5)
    model = TensorTableModel()
    model.set_tensor(tensor)
    assert model.values().ctypes.data == tensor.data_ptr()


@pytest.fixture
def value_view(qtbot):
    view = ValueView()
    qtbot.addWidget(view)
    view.resize(900, 500)
    yield view
    view.shutdown()
    assert not view.is_computing()


def test_big_tensor_statistics_come_from_a_worker(qtbot, value_view):
    tensor = torch.randn(4096, 4096)
    with qtbot.waitSignal(value_view.statistics_ready, timeout=60_000) as blocker:
        value_view.set_tensor(tensor, "big")
        assert "computing statistics…" in value_view.summary_label.text()
    summary = blocker.args[0]
    assert summary.min == tensor.min().item() and summary.max == tensor.max().item()
    assert summary.shape == (4096, 4096)
    assert value_view.summary_label.text() == "big = " + summary.text()
    assert value_view.model.rowCount() == value_view.model.columnCount() == 4096

    def histogram_total():
        counts = value_view.histogram_curve.getData()[1]
        return 0 if counts is None else int(counts.sum())

    qtbot.waitUntil(lambda: histogram_total() == tensor.numel(), timeout=60_000)


def test_switching_tensors_quickly_drops_stale_results(qtbot, value_view):
    received = []
    value_view.statistics_ready.connect(received.append)
    side = int(math.isqrt(BACKGROUND_THRESHOLD)) + 10
    for rows in (side, side + 1, side + 2):
        value_view.set_tensor(torch.randn(rows, side))
    qtbot.waitUntil(lambda: bool(received) and not value_view.is_computing(), timeout=60_000)
    QApplication.processEvents()  # deliver anything a stale worker might still have queued
    assert [summary.shape for summary in received] == [(side + 2, side)]
    small = torch.arange(6.0)
    value_view.set_tensor(torch.randn(side + 3, side))
    value_view.set_tensor(small)  # small tensors are summarised at once
    qtbot.waitUntil(lambda: not value_view.is_computing(), timeout=60_000)
    QApplication.processEvents()
    assert [summary.shape for summary in received[1:]] == [(6,)]
    assert value_view.summary.max == small.max().item()


def test_dim_controls_change_the_slice(qtbot, value_view):
    tensor = torch.randn(3, 4, 5)
    with qtbot.waitSignal(value_view.statistics_ready):
        value_view.set_tensor(tensor, "t")
    labels = [label.text() for label in value_view.dim_controls.findChildren(QLabel)]
    assert "dim 0 (size 3)" in labels
    assert value_view.shown_dims() == (1, 2) and list(value_view.index_spin_boxes) == [0]
    value_view.index_spin_boxes[0].setValue(2)
    assert_cells_equal_torch(value_view.model, tensor, 1, 2, {0: 2})
    value_view.row_dim_combo.setCurrentIndex(0)
    assert value_view.shown_dims() == (0, 2) and list(value_view.index_spin_boxes) == [1]
    value_view.index_spin_boxes[1].setValue(3)
    assert_cells_equal_torch(value_view.model, tensor, 0, 2, {1: 3})
    value_view.col_dim_combo.setCurrentIndex(0)  # taking the rows' dim swaps rows and columns
    assert value_view.shown_dims() == (2, 0)
    assert value_view.row_dim_combo.currentIndex() == 2
    assert_cells_equal_torch(value_view.model, tensor, 2, 0, {1: 3})
    numpy.testing.assert_array_equal(value_view.model.values(), tensor[:, 3, :].T.numpy())


def test_histogram_and_heatmap_show_the_data(qtbot, value_view):
    tensor = torch.randn(6, 7)
    tensor[2, 3] = math.nan
    with qtbot.waitSignal(value_view.statistics_ready):
        value_view.set_tensor(tensor)
    edges, counts = value_view.histogram_curve.getData()
    assert counts.sum() == torch.isfinite(tensor).sum().item() and len(edges) == len(counts) + 1
    value_view.show()
    value_view.charts.setCurrentWidget(value_view.heatmap_plot)
    image = value_view.heatmap_image.image
    numpy.testing.assert_array_equal(image, tensor.numpy())  # NaN stays NaN (drawn blank)
    assert value_view.index_spin_boxes == {}  # a 2-d tensor has no fixed dims
    value_view.set_tensor(torch.zeros(2, 3, 4))
    value_view.index_spin_boxes[0].setValue(1)
    assert value_view.heatmap_image.image.shape == (3, 4)


@pytest.mark.parametrize(
    "tensor", [None, torch.tensor(1.5), torch.arange(4), torch.zeros(0, 5), torch.zeros(2, 0, 3)]
)
def test_small_and_odd_tensors_show_without_errors(qtbot, value_view, tensor):
    value_view.show()
    value_view.charts.setCurrentWidget(value_view.heatmap_plot)
    value_view.set_tensor(tensor, "v")
    expected_controls = tensor is not None and tensor.dim() >= 2
    assert value_view.dim_controls.isVisibleTo(value_view) == expected_controls
    if tensor is not None:
        assert value_view.summary_label.text().startswith("v = tensor[")


def test_closing_joins_the_worker(qtbot, value_view):
    value_view.set_tensor(torch.randn(BACKGROUND_THRESHOLD + 1))
    value_view.close()
    assert not value_view.is_computing()


def test_heatmap_of_a_huge_expanded_slice_is_sampled_not_materialised():
    from tensorviz.ui.workbench.value_view import HEATMAP_MAX_SIDE, heatmap_values

    huge = torch.arange(3.0).reshape(3, 1).expand(3, 10**7).numpy()  # a stride-0 numpy view
    image, levels = heatmap_values(huge)
    assert image.shape[0] == 3 and image.shape[1] <= HEATMAP_MAX_SIDE
    assert levels == (0.0, 2.0)
