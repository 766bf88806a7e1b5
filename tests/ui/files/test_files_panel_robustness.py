"""The Files area never stays busy and never crashes: odd tensor layouts open, a job that fails
reports one sentence, and a file truncated while Statistics runs stops them with a message."""

import warnings

import pytest
import torch

from tensorviz.ui.files import file_jobs

pytestmark = pytest.mark.filterwarnings("ignore:TypedStorage is deprecated")


def open_and_wait(qtbot, panel, path):
    with qtbot.waitSignal(panel.file_loaded, timeout=30_000):
        panel.show_queue([str(path)])
    qtbot.waitUntil(lambda: not panel.is_busy())


def texts(panel):
    """Every row of the tree as its column texts."""
    model, rows = panel.model, []

    def walk(parent):
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            rows.append([model.data(model.index(row, c, parent)) for c in range(4)])
            walk(index)

    walk(model.index(-1, -1))
    return rows


def test_sparse_and_nested_tensors_open_with_their_layout(qtbot, panel, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = torch.nested.nested_tensor([torch.ones(2), torch.ones(3)])
    path = tmp_path / "odd.pt"
    torch.save({"sp": torch.eye(3).to_sparse(), "nt": nested, "w": torch.ones(2)}, path)
    open_and_wait(qtbot, panel, path)
    inspection = panel.inspections[str(path)]
    assert inspection.error is None and "no plain storage" in panel.notes.text()
    rows = {row[0]: row for row in texts(panel)}
    assert rows["sp"][1] == "[3, 3] f32 sparse_coo, nnz=3"
    assert rows["sp"][3] == "no plain storage (sparse_coo)"
    assert rows["nt"][1] == "[2, *] f32 nested"
    panel.select_entry("['sp']")
    assert "sparse_coo" in panel.details.text() and "nnz" in panel.details.text()
    with qtbot.waitSignal(panel.status_message) as message:
        assert panel.send_to_workspace() == []
    assert message.args[0].startswith("Not sent: ['sp'] — a sparse_coo tensor")
    with qtbot.waitSignal(panel.statistics_finished, timeout=30_000) as finished:
        panel.compute_statistics()
    assert finished.args == [False]
    assert panel.model.statistics_text(("sp",)).startswith("not available: a sparse_coo tensor")
    assert "μ=1.000" in panel.model.statistics_text(("w",))


def test_an_open_job_that_raises_reports_a_sentence_not_endless_opening(
    qtbot, panel, tmp_path, monkeypatch
):
    def broken(_path):
        raise RuntimeError("a bug in inspection\nwith a second line")

    monkeypatch.setattr(file_jobs, "inspect_file", broken)
    path = tmp_path / "a.pt"
    torch.save(torch.ones(2), path)
    open_and_wait(qtbot, panel, path)
    assert panel.inspections[str(path)].error == (
        "Opening failed unexpectedly (RuntimeError: a bug in inspection)."
    )
    assert panel.file_list.item(0).text() == "⚠ a.pt — cannot open"
    assert not panel.progress.isVisible()


def test_a_file_truncated_while_statistics_run_stops_them_with_a_message(qtbot, panel, tmp_path):
    path = tmp_path / "ckpt.pt"
    torch.save({f"t{i}": torch.randn(200, 200) for i in range(4)}, path)
    open_and_wait(qtbot, panel, path)
    inspection = panel.model.inspection
    with open(path, "r+b") as f:
        f.truncate(1000)  # a training script re-saving in place, just after the check below
    inspection.changed_on_disk = lambda: None
    messages = []
    panel.status_message.connect(messages.append)
    with qtbot.waitSignal(panel.statistics_finished, timeout=30_000):
        panel.compute_statistics()
    assert messages == [
        "Statistics stopped: ckpt.pt changed on disk since it was opened; "
        "reopen it to read its data."
    ]
    assert not panel.is_busy() and panel.statistics_button.isEnabled()


def test_a_statistics_job_that_raises_ends_the_busy_state(qtbot, panel, tmp_path):
    path = tmp_path / "ckpt.pt"
    torch.save({"a": torch.ones(3)}, path)
    open_and_wait(qtbot, panel, path)

    def broken(_access):
        raise MemoryError("no room")

    panel.model.inspection.tensor_at = broken
    with qtbot.waitSignal(panel.status_message, timeout=30_000) as message:
        panel.compute_statistics()
    assert message.args[0] == "Statistics failed unexpectedly (MemoryError: no room)."
    qtbot.waitUntil(lambda: not panel.is_busy())
    assert not panel.progress.isVisible() and panel.statistics_button.isEnabled()


def test_big_values_are_read_by_a_worker_and_a_newer_selection_wins(
    qtbot, panel, tmp_path, monkeypatch
):
    from tensorviz.ui.files import values_loader

    monkeypatch.setattr(values_loader, "READ_IN_BACKGROUND", -1)  # every read goes to the worker
    path = tmp_path / "two.pt"
    first, second = torch.arange(6.0).reshape(2, 3), torch.full((4,), 7.0)
    torch.save({"first": first, "second": second}, path)
    open_and_wait(qtbot, panel, path)
    panel.tabs.setCurrentWidget(panel.values_page)
    panel.select_entry("['first']")
    panel.select_entry("['second']")  # before the first read lands: it must be dropped
    qtbot.waitUntil(lambda: not panel.values_loader.is_reading(), timeout=10_000)
    qtbot.waitUntil(lambda: not panel.is_busy())
    assert panel.value_view.summary is not None
    assert panel.value_view.summary.shape == tuple(second.shape)
    assert panel.value_view.summary.max == float(second.max())
