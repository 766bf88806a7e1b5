"""The Files area: open in a worker, the tree through the model, send to workspace, save, cancel."""

import html
import os

import pytest
import torch
from PySide6.QtCore import Qt

from tensorviz.core.files.inspection import inspect_file
from tensorviz.ui.files.files_panel import FilesPanel
from tensorviz.ui.files.save_dialog import SaveTensorsDialog
from tensorviz.ui.widgets import theme
from tensorviz.ui.window.main_window import MainWindow


class Payload:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


@pytest.fixture
def checkpoint(tmp_path):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(4, 4))
    model[1].weight = model[0].weight
    base = torch.arange(50.0)
    path = tmp_path / "ckpt.pt"
    torch.save({"model": model.state_dict(), "head": base[:5], "epoch": 2}, path)
    return str(path)


def open_and_wait(qtbot, panel, paths):
    with qtbot.waitSignal(panel.file_loaded, timeout=30_000):
        panel.show_queue(paths)
    qtbot.waitUntil(lambda: not panel.is_busy())


def test_opened_file_shows_its_tree_through_the_model(qtbot, panel, checkpoint):
    open_and_wait(qtbot, panel, [checkpoint])
    assert panel.open_paths() == [checkpoint]
    model = panel.model
    root = model.index(0, 0)
    assert model.data(root) == "(file)"
    names = [model.data(model.index(r, 0, root)) for r in range(model.rowCount(root))]
    assert names == ["model", "head", "epoch"]
    expected = inspect_file(checkpoint)
    assert len(panel.model.inspection.entries) == len(expected.entries) == 5
    head = model.index(1, 0, root)
    assert model.data(model.index(1, 1, root)) == "[5] f32"
    assert "saves its whole storage" in model.data(model.index(1, 3, root))
    assert model.data(head, Qt.ItemDataRole.BackgroundRole) is not None
    # the same file queued again (the main window sends its whole list) is not reopened
    panel.show_queue([checkpoint])
    assert not panel.is_busy() and panel.open_paths() == [checkpoint]


def test_details_and_send_to_workspace(qtbot, panel, checkpoint):
    open_and_wait(qtbot, panel, [checkpoint])
    panel.select_entry("['model']['1.weight']")
    assert "shared with ['model']['0.weight']" in html.unescape(panel.details.text())
    names = panel.send_to_workspace()
    assert names == ["model_1_weight"]
    entry = panel.workspace.entry(names[0])
    expected = torch.load(checkpoint, weights_only=True)["model"]["1.weight"]
    assert torch.equal(entry.tensor, expected)
    assert entry.provenance.op == "load"
    assert entry.provenance.code == f"torch.load({checkpoint!r}, weights_only=True)" + (
        "['model']['1.weight']"
    )
    panel.tabs.setCurrentWidget(panel.values_page)
    assert panel.value_view.summary is not None
    assert panel.value_view.summary.numel == expected.numel()


def test_statistics_in_a_worker_match_torch(qtbot, panel, checkpoint):
    open_and_wait(qtbot, panel, [checkpoint])
    with qtbot.waitSignal(panel.statistics_finished, timeout=30_000) as finished:
        panel.compute_statistics()
    assert finished.args == [False]
    loaded = torch.load(checkpoint, weights_only=True)
    text = panel.model.statistics_text(("head",))
    assert f"μ={loaded['head'].mean().item():.3f}" in text
    assert panel.progress.value() == panel.progress.maximum() == 5


def test_malicious_file_shows_its_call_in_red_and_never_runs(qtbot, panel, tmp_path):
    marker = tmp_path / "MARKER"
    evil = tmp_path / "evil.pt"
    torch.save({"layer.weight": Payload(marker), "w": torch.ones(2)}, evil,
               _use_new_zipfile_serialization=False)  # fmt: skip
    open_and_wait(qtbot, panel, [str(evil)])
    assert panel.error_panel.isHidden() and not panel.safety_notice.isHidden()
    assert "never made" in panel.safety_notice.text.text()
    assert "calls listed, never made" in panel.file_list.item(0).text() or (
        "call(s) listed, never made" in panel.file_list.item(0).text()
    )
    root = panel.model.index(0, 0)
    names = [panel.model.data(panel.model.index(r, 0, root)) for r in range(2)]
    call = panel.model.index(names.index("layer.weight"), 1, root)
    assert panel.model.data(call).startswith(f"would call {os.system.__module__}.system(")
    colour = panel.model.data(call, Qt.ItemDataRole.ForegroundRole).color().name()
    assert colour == theme.colour("error_text").name()  # the theme's red
    assert not marker.exists()


def test_bad_file_then_good_file(qtbot, panel, tmp_path, checkpoint):
    bad = tmp_path / "random.pt"
    bad.write_bytes(os.urandom(300))
    open_and_wait(qtbot, panel, [str(bad)])
    assert "not a tensor file" in panel.error_panel.body.text()
    open_and_wait(qtbot, panel, [str(bad), checkpoint])
    assert panel.error_panel.isHidden() and panel.model.rowCount() == 1
    panel.file_list.setCurrentRow(0)
    assert not panel.error_panel.isHidden() and panel.model.rowCount() == 0


def test_cancel_drops_a_file_still_opening(qtbot, panel, checkpoint):
    panel.show_queue([checkpoint])
    panel.cancel()
    qtbot.waitUntil(lambda: panel._pool.activeThreadCount() == 0)
    assert panel.open_paths() == [] and panel.model.inspection is None
    open_and_wait(qtbot, panel, [checkpoint])  # and it can be opened again
    assert panel.model.inspection is not None


def test_save_dialog_writes_pt_and_explains_safetensors_refusal(qtbot, panel, tmp_path):
    workspace = panel.workspace
    base = torch.arange(6.0).reshape(2, 3)
    from tensorviz.core.tensors.workspace import Provenance

    workspace.add_tensor("base", base, Provenance("arange", "torch.arange(6.)"))
    workspace.add_tensor("base_t", base.t(), Provenance("t", "base.t()", ("base",)))
    dialog = panel.open_save_dialog()
    assert isinstance(dialog, SaveTensorsDialog) and dialog.checked_names() == ["base", "base_t"]
    dialog.set_format(".safetensors")
    dialog.path.setText(str(tmp_path / "out.safetensors"))
    assert not dialog.save()
    assert "not contiguous" in dialog.message.text() and "clone" in dialog.message.text()
    assert dialog.fix_button.isVisibleTo(dialog)
    with qtbot.waitSignal(dialog.saved):
        assert dialog.save_fixed()
    saved = inspect_file(tmp_path / "out.safetensors")
    assert torch.equal(saved.tensor_at(("base_t",)), base.t())

    dialog = panel.open_save_dialog()
    dialog.path.setText(str(tmp_path / "out.pt"))
    assert dialog.save()
    loaded = torch.load(tmp_path / "out.pt", weights_only=True)
    assert loaded["base_t"].untyped_storage().data_ptr() == (
        loaded["base"].untyped_storage().data_ptr()
    )


def test_statistics_can_be_cancelled(qtbot, panel, checkpoint):
    open_and_wait(qtbot, panel, [checkpoint])
    with qtbot.waitSignal(panel.statistics_finished) as finished:
        panel.compute_statistics()
        panel.cancel()
    assert finished.args == [True]
    qtbot.waitUntil(lambda: not panel.is_busy())
    assert panel.statistics_button.isEnabled() and not panel.cancel_button.isEnabled()


def test_reload_reads_a_replaced_file_again(qtbot, panel, tmp_path):
    path = tmp_path / "changing.pt"
    torch.save({"a": torch.ones(2)}, path)
    open_and_wait(qtbot, panel, [str(path)])
    torch.save({"a": torch.ones(2), "b": torch.zeros(3, 3)}, path)
    with qtbot.waitSignal(panel.file_loaded):
        panel.reload()
    qtbot.waitUntil(lambda: not panel.is_busy())
    assert [n.key_text() for n in panel.model.inspection.entries] == ["['a']", "['b']"]
    path.unlink()
    with qtbot.waitSignal(panel.file_loaded):
        panel.reload()
    assert "no such file" in panel.error_panel.body.text()


def test_main_window_opens_files_in_the_files_area_on_the_shared_workspace(
    qtbot, window, checkpoint
):
    panel = window.panel("files")
    assert isinstance(panel, FilesPanel) and panel.workspace is window.context.workspace
    with qtbot.waitSignal(panel.file_loaded, timeout=30_000):
        window.open_paths([checkpoint])
    qtbot.waitUntil(lambda: not panel.is_busy())
    assert window.current_area() == "files" and panel.model.inspection is not None
    panel.select_entry("['head']")
    names = panel.send_to_workspace()
    assert torch.equal(window.context.workspace.tensor(names[0]), torch.arange(5.0))
    assert window.panel("layout").name == names[0]  # the Memory layout shows what was sent


def test_files_from_the_command_line_open_once_torch_has_loaded(qtbot, app_settings, checkpoint):
    main_window = MainWindow(app_settings)
    qtbot.addWidget(main_window)
    main_window.open_paths([checkpoint])  # as app.py does, before torch has loaded
    with qtbot.waitSignal(main_window.ready, timeout=60_000):
        main_window.show()
    panel = main_window.panel("files")
    qtbot.waitUntil(lambda: panel.model.inspection is not None, timeout=30_000)
    assert panel.open_paths() == [checkpoint]
    main_window.close()


def test_tree_model_passes_qt_model_tester(qtbot, qtmodeltester, checkpoint):
    from tensorviz.ui.files.file_tree_model import FileTreeModel

    model = FileTreeModel()
    model.set_inspection(inspect_file(checkpoint))
    qtmodeltester.check(model, force_py=True)


def test_keyboard_shortcut_sends_the_selection(qtbot, panel, checkpoint):
    open_and_wait(qtbot, panel, [checkpoint])
    panel.select_entry("['head']")
    panel.activateWindow()
    panel.tree.setFocus()
    qtbot.waitUntil(panel.tree.hasFocus)
    qtbot.keyClick(panel.tree, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert panel.workspace.names() == ["head"]


def test_a_file_truncated_while_open_is_refused_not_a_crash(qtbot, panel, checkpoint):
    open_and_wait(qtbot, panel, [checkpoint])
    panel.select_entry("['model']['1.weight']")
    with open(checkpoint, "r+b") as f:
        f.truncate(64)
    with qtbot.waitSignal(panel.status_message) as signal:
        assert panel.send_to_workspace() == []
    assert "changed on disk" in signal.args[0]
    assert len(panel.workspace) == 0
