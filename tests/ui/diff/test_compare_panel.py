"""The Compare area on real checkpoint pairs: the table grouped by layer and sorted by relative
change, its filters, the bar chart per layer, A/B/A−B values on double-click (against torch),
cancel, a file that cannot be opened, and workers joined on shutdown."""

import threading

import numpy
import pytest
import torch
from PySide6.QtCore import Qt

from tensorviz.core.diff.summaries import layer_changes
from tensorviz.ui.diff.compare_jobs import CompareRequest, SideRequest
from tensorviz.ui.diff.compare_panel import ComparePanel
from tensorviz.ui.diff.comparison_table_model import RELATIVE_COLUMN


@pytest.fixture
def panel(qtbot):
    compare_panel = ComparePanel()
    qtbot.addWidget(compare_panel)
    compare_panel.resize(1200, 700)
    compare_panel.show()
    yield compare_panel
    compare_panel.shutdown()
    assert not compare_panel.is_busy()


@pytest.fixture
def pair(tmp_path):
    torch.manual_seed(0)
    a = {f"blocks.{i}.{name}": torch.randn(6, 5) for i in range(4) for name in ("w", "v")}
    a["head.weight"] = torch.randn(3, 5)
    b = {k: v.clone() for k, v in a.items()}
    for i, scale in ((1, 1e-3), (3, 1e-1)):
        b[f"blocks.{i}.w"] += scale * torch.randn(6, 5)
    b["blocks.0.v"] = b["blocks.0.v"] * 1.01
    b["new.bias"] = torch.zeros(2)
    del b["head.weight"]
    torch.save(a, tmp_path / "a.pt")
    torch.save(b, tmp_path / "b.pt")
    return tmp_path / "a.pt", tmp_path / "b.pt", a, b


def run(qtbot, panel, path_a, path_b):
    with qtbot.waitSignal(panel.comparison_finished, timeout=30_000) as blocker:
        panel.compare_paths(str(path_a), str(path_b))
    return blocker.args[0]


def shown_pairs(panel):
    rows = range(panel.model.rowCount())
    return [panel.model.pair(r) for r in rows if panel.model.pair(r) is not None]


def test_table_is_grouped_by_layer_and_sorted_by_relative_change(qtbot, panel, pair):
    comparison = run(qtbot, panel, *pair[:2])
    headers = panel.model.header_rows()
    assert headers[0] == 0 and panel.table.columnSpan(0, 0) == panel.model.columnCount()
    first_layer = panel.model.data(panel.model.index(0, 0))
    assert first_layer.startswith("blocks.3: 2 tensors, 1 changed")  # the largest change first
    pairs = shown_pairs(panel)
    assert len(pairs) == len(comparison.pairs) == 10
    panel.group_box.setChecked(False)
    figures = [p.relative_change or 0.0 for p in shown_pairs(panel)]
    assert figures == sorted(figures, reverse=True) and panel.model.header_rows() == []
    a, b = pair[2]["blocks.3.w"].double(), pair[3]["blocks.3.w"].double()
    top = shown_pairs(panel)[0]
    assert top.key == "blocks.3.w"
    expected = (torch.linalg.vector_norm(b - a) / torch.linalg.vector_norm(a)).item()
    assert top.relative_change == pytest.approx(expected, rel=1e-12)
    assert panel.model.headerData(RELATIVE_COLUMN, Qt.Orientation.Horizontal) == "‖Δ‖/‖A‖"


def test_filters_show_what_they_name(qtbot, panel, pair):
    run(qtbot, panel, *pair[:2])
    expected = {"changed": {"blocks.1.w", "blocks.3.w", "blocks.0.v"},
                "only_a": {"head.weight"}, "only_b": {"new.bias"}}  # fmt: skip
    for name, keys in expected.items():
        panel.filter_buttons[name].click()
        assert {p.key for p in shown_pairs(panel)} == keys
        assert panel.filter_buttons[name].text().endswith(f"({len(keys)})")
    panel.filter_buttons["unchanged"].click()
    assert all(p.status == "unchanged" for p in shown_pairs(panel)) and len(shown_pairs(panel)) == 5
    panel.filter_buttons["all"].click()
    panel.search.setText("blocks.2")
    assert {p.key for p in shown_pairs(panel)} == {"blocks.2.w", "blocks.2.v"}
    assert not panel.filter_buttons["not_compared"].isVisible()


def test_chart_has_one_bar_per_layer_with_its_relative_change(qtbot, panel, pair):
    comparison = run(qtbot, panel, *pair[:2])
    layers = layer_changes(comparison)
    assert panel.chart.names == [layer.name for layer in layers]
    expected = [0.0 if layer.relative is None else layer.relative * 100 for layer in layers]
    assert numpy.allclose(panel.chart.heights, expected)
    with qtbot.waitSignal(panel.chart.layer_clicked) as clicked:
        panel.chart.layer_clicked.emit("blocks.2")
    assert clicked.args == ["blocks.2"]
    row = panel.table.currentIndex().row()
    assert panel.model.data(panel.model.index(row, 0)).startswith("blocks.2")


def test_double_click_shows_a_b_and_their_difference(qtbot, panel, pair):
    run(qtbot, panel, *pair[:2])
    panel.group_box.setChecked(False)
    dialog = panel.open_pair(0)  # blocks.3.w, the largest change
    qtbot.waitUntil(lambda: dialog.a is not None, timeout=10_000)
    a, b = pair[2]["blocks.3.w"], pair[3]["blocks.3.w"]
    assert torch.equal(dialog.a, a) and torch.equal(dialog.b, b)
    shown = [model.values() for model in dialog.models]
    assert numpy.array_equal(shown[0], a.numpy()) and numpy.array_equal(shown[1], b.numpy())
    assert numpy.array_equal(shown[2], (a.double() - b.double()).numpy())
    assert dialog.image.image.shape == (6, 5)
    low, high = dialog.colour_bar.levels()
    assert low == -high == -float((a.double() - b.double()).abs().max())
    dialog.close()


def test_only_one_side_has_no_values_to_show(qtbot, panel, pair):
    run(qtbot, panel, *pair[:2])
    panel.filter_buttons["only_a"].click()
    with qtbot.waitSignal(panel.status_message) as message:
        assert panel.open_pair(1) is None
    assert message.args == ["head.weight is only in A."]


def test_cancel_keeps_what_was_compared(qtbot, panel, pair, monkeypatch):
    gate = threading.Event()
    original = SideRequest.side

    def gated_side(self):
        side = original(self)
        for key, entry in list(side.tensors.items()):

            def read(entry=entry):
                gate.wait(10)
                return entry.read()

            side.tensors[key] = type(entry)(entry.key, entry.file_key, entry.info, read)
        return side

    monkeypatch.setattr(SideRequest, "side", gated_side)
    with qtbot.waitSignal(panel.comparison_finished, timeout=30_000) as blocker:
        panel.compare_paths(str(pair[0]), str(pair[1]))
        qtbot.waitUntil(lambda: "blocks.0.w" in panel.progress_label.text(), timeout=10_000)
        assert panel.cancel_button.isEnabled()
        panel.cancel_button.click()
        gate.set()
    comparison = blocker.args[0]
    assert comparison.cancelled and panel.summary_label.text().startswith("<b>Cancelled")
    assert sum(p.status != "not_compared" for p in comparison.pairs if p.b and p.a) <= 1
    assert not panel.cancel_button.isEnabled()


def test_a_file_that_cannot_be_opened_is_one_sentence_and_changes_nothing(qtbot, panel, pair):
    comparison = run(qtbot, panel, *pair[:2])
    (pair[0].parent / "empty.pt").write_bytes(b"")
    with qtbot.waitSignal(panel.status_message, timeout=30_000) as message:
        panel.compare_paths(str(pair[0]), str(pair[0].parent / "empty.pt"))
    assert "empty" in message.args[0]
    qtbot.waitUntil(lambda: not panel.is_busy())
    assert panel.comparison is comparison and panel.model.rowCount() > 0
    assert "empty" in panel.summary_label.text()


def test_two_entries_of_one_file(qtbot, panel, pair):
    from tensorviz.core.files.inspection import inspect_file

    inspection = inspect_file(pair[0])
    w0, w3 = (next(n for n in inspection.entries if n.key_text() == f"['blocks.{i}.w']")
              for i in (0, 3))  # fmt: skip
    with qtbot.waitSignal(panel.comparison_finished, timeout=30_000) as blocker:
        panel.compare(CompareRequest(SideRequest(str(pair[0]), inspection, w0),
                                     SideRequest(str(pair[0]), inspection, w3)))  # fmt: skip
    (row,) = blocker.args[0].pairs
    assert row.matched_by == "picked" and row.status == "changed"
    assert "a.pt › blocks.0.w" in panel.sides_label.text()


def test_a_pair_without_plain_values_says_why(qtbot, panel, tmp_path):
    for name in ("a.pt", "b.pt"):
        torch.save({"sparse": torch.eye(3).to_sparse(), "w": torch.ones(2)}, tmp_path / name)
    comparison = run(qtbot, panel, tmp_path / "a.pt", tmp_path / "b.pt")
    assert panel.filter_buttons["not_compared"].isVisible()  # one pair was not compared
    panel.filter_buttons["not_compared"].click()
    (row,) = [r for r in range(panel.model.rowCount()) if panel.model.pair(r) is not None]
    with qtbot.waitSignal(panel.status_message) as message:
        assert panel.open_pair(row) is None
    assert "sparse_coo" in message.args[0] and not comparison.equal


def test_one_models_weights_in_five_containers_are_equal_in_the_compare_area(
    qtbot, panel, tmp_path
):
    import itertools
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[2]))
    from checkpoint_containers import five_containers

    paths = five_containers(tmp_path)
    for a, b in itertools.combinations(paths, 2):
        comparison = run(qtbot, panel, paths[a], paths[b])
        assert comparison.equal, (a, b)
        assert "Verdict: equal." in panel.summary_label.text(), (a, b)
        assert panel.model.count("renamed") == 0 and panel.model.count("changed") == 0
    sharded = run(qtbot, panel, paths["bin-sharded"], paths["safetensors-sharded"])
    row = next(r for r in range(panel.model.rowCount()) if panel.model.pair(r) is not None)
    tip = panel.model.data(panel.model.index(row, 0), Qt.ItemDataRole.ToolTipRole)
    pair = panel.model.pair(row)
    assert f"A in {pair.a.source}, B in {pair.b.source}" in tip and "-of-00002" in pair.a.source
    assert sharded.equal
