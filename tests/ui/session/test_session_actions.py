"""File → Save Session / Open Session and the last session on start, in the real window: what
comes back is checked against the torch objects that went in."""

import torch
from PySide6.QtCore import QSettings

from tensorviz.core.session.session_reader import read_session
from tensorviz.core.tensors.workspace import Provenance
from tensorviz.core.training.data import TrainingConfig
from tensorviz.ui.window.app_settings import AppSettings
from tensorviz.ui.window.main_window import MainWindow


def ready(qtbot, settings_file):
    window = MainWindow(AppSettings(QSettings(settings_file, QSettings.Format.IniFormat)))
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.ready, timeout=60_000):
        window.show()
    return window


def fill(window):
    workspace = window.context.workspace
    base = torch.arange(12.0)
    workspace.add_tensor("base", base, Provenance("arange", "torch.arange(12.)"))
    workspace.add_tensor("grid", base.view(3, 4).t(), Provenance("t", "base.view(3, 4).t()",
                                                                  ("base",)))  # fmt: skip
    return workspace


def test_save_then_open_brings_back_tensors_script_and_training(qtbot, window, tmp_path):
    workspace = fill(window)
    window.panel("script").set_text("y = torch.ones(3)\n")
    window.panel("training").set_config(TrainingConfig(lr=0.05, epochs=42))
    path = str(tmp_path / "lesson.tvsession")
    with qtbot.waitSignal(window.sessions.session_saved, timeout=30_000):
        window.sessions.save_to(path)
    saved_names = workspace.names()
    workspace.delete("grid")
    window.panel("script").set_text("something else")
    with qtbot.waitSignal(window.sessions.session_opened, timeout=30_000):
        window.sessions.open_path(path)
    assert workspace.names() == saved_names
    grid, base = workspace.tensor("grid"), workspace.tensor("base")
    assert grid.stride() == (1, 4) and torch.equal(grid, torch.arange(12.0).view(3, 4).t())
    assert grid.untyped_storage().data_ptr() == base.untyped_storage().data_ptr()
    assert workspace.parents("grid") == ["base"]
    assert window.panel("script").text() == "y = torch.ones(3)\n"
    assert window.panel("training").config().lr == 0.05
    workspace.undo()  # one step takes the whole session back
    assert "grid" not in workspace and "base" in workspace


def test_a_hostile_session_is_refused_and_changes_nothing(qtbot, window, tmp_path):
    workspace = fill(window)
    before = dict(workspace.tensors())
    bad = tmp_path / "evil.tvsession"
    torch.save({"x": torch.ones(1)}, bad)  # a pickle in disguise: never unpickled
    with qtbot.waitSignal(window.sessions.session_failed, timeout=30_000) as blocker:
        window.open_paths([str(bad)])
    (message,) = blocker.args
    assert message == (
        "Cannot open evil.tvsession: it is not a tensorviz session (it has no manifest.json)."
    )
    assert window.notice_bar.label.text() == message
    assert workspace.tensors() == before
    assert all(workspace.tensor(n) is t for n, t in before.items())


def test_the_last_session_comes_back_on_start(qtbot, tmp_path):
    settings_file = str(tmp_path / "settings.ini")
    first = ready(qtbot, settings_file)
    fill(first)
    first.close()
    last = first.settings.last_session_path()
    assert last.parent == tmp_path and last.is_file()
    assert [e.name for e in read_session(last).entries] == first.context.workspace.names()
    second = ready(qtbot, settings_file)
    qtbot.waitUntil(lambda: "grid" in second.context.workspace, timeout=30_000)
    assert second.context.workspace.names() == first.context.workspace.names()
    second.close()


def test_restoring_can_be_switched_off(qtbot, tmp_path):
    settings_file = str(tmp_path / "settings.ini")
    first = ready(qtbot, settings_file)
    fill(first)
    first.sessions.restore_action.setChecked(False)
    first.close()
    assert not first.settings.last_session_path().exists()
    second = ready(qtbot, settings_file)
    assert not second.sessions.restore_action.isChecked()
    assert second.sessions.job is None  # nothing is being restored
    assert "grid" not in second.context.workspace  # the first-time examples instead
    second.close()
