import pytest
import torch
from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
from PySide6.QtGui import QDropEvent, QKeySequence

from tensorviz.ui.window.areas import AREAS
from tensorviz.ui.window.main_window import MainWindow


def test_one_area_per_capability_built_or_saying_what_will_come(window):
    from tensorviz.ui.window.placeholder_panel import PlaceholderPanel
    from tensorviz.ui.workbench.workbench_panel import WorkbenchPanel

    titles = window.navigation.titles()
    assert titles == [
        "Workbench",
        "Script",
        "Memory layout",
        "Architecture",
        "Autograd graph",
        "Training",
        "Runs",
        "Files",
        "Compare",
    ]
    for area in AREAS:
        window.show_area(area.key)
        panel = window.panel(area.key)
        assert window.stack.currentWidget() is panel
        assert window.current_area() == area.key
        if area.built:
            assert not isinstance(panel, PlaceholderPanel)
        else:  # the placeholder says what will come
            assert isinstance(panel, PlaceholderPanel) and panel.area.coming
    assert isinstance(window.panel("workbench"), WorkbenchPanel)
    assert window.panel("workbench").workspace is window.context.workspace


def test_view_shortcuts_switch_areas(window, qtbot):
    actions = window.area_actions.actions()
    for row, action in enumerate(actions):
        assert action.shortcut() == QKeySequence(f"Ctrl+{row + 1}")
        action.trigger()
        assert window.stack.currentIndex() == row
        assert action.isChecked()


def test_file_menu_has_open_recent_and_quit(window):
    file_menu = window.menuBar().actions()[0].menu()
    by_text = {a.text().replace("&", ""): a for a in file_menu.actions()}
    assert by_text["Open…"].shortcut() == QKeySequence.keyBindings(QKeySequence.StandardKey.Open)[0]
    assert by_text["Quit"].shortcut() == QKeySequence("Ctrl+Q")
    assert "Open Recent" in by_text


def test_status_bar_reports_torch_once_loaded(window):
    assert window.environment.torch_version == torch.__version__
    assert torch.__version__ in window.torch_status.text()
    assert not window.torch_busy.isVisible()


def test_opening_a_file_queues_it_for_files_area_and_remembers_it(window, tmp_path, qtbot):
    f = tmp_path / "weights.pt"
    torch.save({"w": torch.arange(6.0)}, f)
    with qtbot.waitSignal(window.files_queued) as signal:
        queued, problems = window.open_paths([str(f)])
    assert signal.args == [[str(f.resolve())]] and queued == [str(f.resolve())] and not problems
    assert window.current_area() == "files"
    panel = window.panel("files")
    assert panel.open_paths() == queued  # listed at once, read in a worker
    qtbot.waitUntil(lambda: not panel.is_busy())
    assert window.settings.recent_files()[0] == str(f.resolve())
    window._rebuild_recent_menu()
    assert any("weights.pt" in a.text() for a in window.recent_menu.actions())


def test_missing_path_gets_a_clear_message_and_changes_nothing(window, tmp_path):
    area_before = window.current_area()
    queued, problems = window.open_paths([str(tmp_path / "gone.pt")])
    assert queued == [] and len(problems) == 1
    assert not window.notice_bar.isHidden()
    assert "gone.pt" in window.notice_bar.label.text()
    assert "no such file" in window.notice_bar.label.text()
    assert window.current_area() == area_before and window.queued_files == []
    window.notice_bar.dismiss()
    assert window.notice_bar.isHidden()


def test_recent_file_that_vanished_is_explained_and_dropped(window, tmp_path):
    f = tmp_path / "old.pt"
    f.write_bytes(b"x")
    window.open_paths([str(f)])
    f.unlink()
    window.open_paths([str(f.resolve())])
    assert str(f.resolve()) not in window.settings.recent_files()
    assert "old.pt" in window.notice_bar.label.text()


def test_drop_of_files_opens_them(window, tmp_path):
    f = tmp_path / "dropped.npy"
    f.write_bytes(b"x")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(f))])
    event = QDropEvent(
        QPoint(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    window.dropEvent(event)
    assert window.queued_files == [str(f.resolve())]


def test_geometry_area_and_recent_files_persist(qtbot, app_settings, tmp_path):
    f = tmp_path / "kept.pt"
    f.write_bytes(b"x")
    first = MainWindow(app_settings)
    qtbot.addWidget(first)
    with qtbot.waitSignal(first.ready, timeout=60_000):
        first.show()
    for area in AREAS:  # areas are built on first visit; the minimum size covers them all
        first.show_area(area.key)
    # A size inside the offscreen screen (800×600): the window must fit a small screen.
    first.layout().activate()
    minimum = first.minimumSizeHint()
    size = (max(760, minimum.width()), max(560, minimum.height()))
    first.resize(*size)
    assert (first.width(), first.height()) == size
    first.show_area("training")
    first.open_paths([str(f)])  # switches to Files
    first.show_area("graph")
    first.close()

    second = MainWindow(app_settings)
    qtbot.addWidget(second)
    assert second.current_area() == "graph"
    assert (second.width(), second.height()) == size
    assert second.settings.recent_files() == [str(f.resolve())]


@pytest.mark.parametrize("loaded_first", [True, False])
def test_about_shows_the_environment_torch_reports(qtbot, app_settings, loaded_first):
    window = MainWindow(app_settings)
    qtbot.addWidget(window)
    if loaded_first:
        with qtbot.waitSignal(window.ready, timeout=60_000):
            window.show()
    about = window.show_about()
    if not loaded_first:  # opened while torch may still be loading: fills in when it arrives
        with qtbot.waitSignal(window.ready, timeout=60_000):
            window.show()
    rows = dict(about.rows())
    assert rows["torch"] == torch.__version__
    assert rows["CUDA available"].startswith("yes" if torch.cuda.is_available() else "no")
    assert rows["Default dtype"] == str(torch.get_default_dtype())
    assert str(torch.get_num_threads()) in rows["Threads"]
    assert "Qt runtime" in rows and "tensorviz" in rows
    about.copy_button.click()
    from PySide6.QtGui import QGuiApplication

    assert torch.__version__ in QGuiApplication.clipboard().text()
    window.close()


def test_workbench_selection_drives_the_memory_layout(window):
    workbench, layout = window.panel("workbench"), window.panel("layout")
    workbench.select("x")
    assert layout.picker.currentData() == "x"
    workbench.select("x_t")
    assert layout.picker.currentData() == "x_t"


def test_edit_undo_undoes_the_last_workbench_step(window):
    workbench = window.panel("workbench")
    workbench.duplicate_selected()
    count = len(workbench.workspace)
    window.show_area("workbench")
    window.undo_action.trigger()
    assert len(workbench.workspace) == count - 1


def test_edit_redo_puts_back_what_undo_took(window):
    workbench = window.panel("workbench")
    window.show_area("workbench")
    copy = workbench.workspace.duplicate("x")
    window.undo_action.trigger()
    assert copy not in workbench.workspace and workbench.redo_button.isEnabled()
    assert [k.toString() for k in window.redo_action.shortcuts()] == ["Ctrl+Shift+Z", "Ctrl+Y"]
    window.redo_action.trigger()
    assert copy in workbench.workspace and not workbench.redo_button.isEnabled()


def test_training_loss_graph_opens_in_the_autograd_area(window, qtbot):
    training, graph = window.panel("training").regression, window.panel("graph")
    qtbot.waitUntil(lambda: getattr(training, "info", None) is not None, timeout=30_000)
    training.bar.graph_button.click()
    workspace = window.context.workspace
    assert window.current_area() == "graph"
    loss = workspace.tensor("train_loss")
    w, b = workspace.tensor("train_w"), workspace.tensor("train_b")
    expected = ((workspace.tensor("train_x") * w + b - workspace.tensor("train_y")) ** 2).mean()
    assert torch.equal(loss, expected) and type(loss.grad_fn).__name__ == "MeanBackward0"
    assert workspace.lineage("train_loss")[-1] == "train_loss"
    assert set(workspace.parents("train_y_pred")) == {"train_x", "train_w", "train_b"}
    assert "train_loss" in graph.graph_tensor_names()


def test_the_playground_models_graph_opens_in_the_autograd_area(window, qtbot):
    area, graph = window.panel("training"), window.panel("graph")
    window.show_area("training")
    area.show_task("xor")
    panel = area.playground
    qtbot.waitUntil(lambda: panel.state == "ready" and panel.frame is not None, timeout=30_000)
    panel.bar.graph_button.click()
    workspace = window.context.workspace
    assert window.current_area() == "graph"
    loss = workspace.tensor("net_loss")
    model = torch.nn.Sequential(
        torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 8), torch.nn.Tanh()
    )
    model.append(torch.nn.Linear(8, 1))
    with torch.no_grad():
        for index in (0, 2, 4):
            model[index].weight.copy_(workspace.tensor(f"net_{index}_weight"))
            model[index].bias.copy_(workspace.tensor(f"net_{index}_bias"))
    expected = torch.nn.BCEWithLogitsLoss()(
        model(workspace.tensor("net_x")), workspace.tensor("net_y")
    )
    assert torch.equal(loss, expected) and loss.grad_fn is not None
    assert workspace.tensor("net_0_weight").requires_grad
    assert "net_loss" in graph.graph_tensor_names()
    assert area.shutdown()


def test_a_narrow_window_shows_the_areas_as_icons_only(qtbot, window):
    window.resize(1280, 800)
    qtbot.waitUntil(lambda: not window.navigation.compact)
    wide = window.navigation.width()
    window.resize(900, 600)
    qtbot.waitUntil(lambda: window.navigation.compact)
    assert window.navigation.width() < wide
    assert all(not window.navigation.item(r).text() for r in range(window.navigation.count()))
    assert window.navigation.titles()[0] == "Workbench"  # still there, as tooltips say
    assert window.navigation.item(0).toolTip().startswith("Workbench")
    window.resize(1280, 800)
    qtbot.waitUntil(lambda: not window.navigation.compact)
    assert window.navigation.item(0).text() == "Workbench"
