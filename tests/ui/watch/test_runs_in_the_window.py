"""The Runs area in the window: a run folder given to File → Open / the command line / a drop
opens there (not in the Files area), and the area speaks Chinese with a run open."""

import sys
from pathlib import Path

from conftest import TIMEOUT

from tensorviz.core.watch.example_run import deep_sigmoid_mlp, record_training

sys.path.insert(0, str(Path(__file__).parents[1] / "window"))
from test_every_text_translated import leftover_english, visible_texts  # noqa: E402


def _run(tmp_path):
    folder = tmp_path / "runs" / "2026-12-02-020000"
    record_training(folder, deep_sigmoid_mlp(depth=3, width=4), steps=8)
    return folder


def test_a_run_folder_opens_in_the_runs_area(window, qtbot, tmp_path):
    folder = _run(tmp_path)
    queued, problems = window.open_paths([str(folder / "run.json")])
    assert (queued, problems) == ([], [])
    assert window.current_area() == "runs" and not window.queued_files
    panel = window.panel("runs")
    assert panel.folder == folder.resolve()
    qtbot.waitUntil(lambda: panel.state is not None and panel.state.kind == "finished",
                    timeout=TIMEOUT)  # fmt: skip
    assert panel.siblings.currentText() == folder.name
    assert window.menus.run_action.shortcut().toString() == "Ctrl+Shift+U"


def test_the_runs_area_speaks_chinese_with_a_run_open(window, qtbot, tmp_path):
    folder = _run(tmp_path)
    window.open_paths([str(folder)])
    panel = window.panel("runs")
    qtbot.waitUntil(lambda: panel.state is not None and panel.state.kind == "finished",
                    timeout=TIMEOUT)  # fmt: skip
    window.language_menu.choices["zh_CN"].trigger()
    try:
        qtbot.waitUntil(lambda: panel.open_button.text() == "打开运行文件夹…", timeout=TIMEOUT)
        panel.redraw()
        assert "已完成" in panel.status.text()
        left = [(where, text) for where, text in visible_texts(panel)
                if leftover_english(text) and folder.name not in text]  # fmt: skip
        assert left == []
        titles = [panel.loss_plot.box.title.text(), panel.ratio_plot.box.title.text()]
        assert "每步的损失" in titles[0] and "更新比例" in titles[1]
        assert "步" in panel.heatmap.plot.getAxis("bottom").labelText
    finally:
        window.language_menu.choices["en"].trigger()


def test_a_run_folder_named_before_torch_has_loaded_opens_once_it_has(qtbot, app_settings,
                                                                      tmp_path):  # fmt: skip
    from tensorviz.ui.window.main_window import MainWindow

    folder = _run(tmp_path)
    window = MainWindow(app_settings)
    qtbot.addWidget(window)
    window.show()
    window.open_paths([str(folder)])  # as `tensorviz RUN_DIR` does, right after show()
    qtbot.waitUntil(window.is_ready, timeout=60_000)
    panel = window.panel("runs")
    qtbot.waitUntil(lambda: panel.folder == folder.resolve(), timeout=TIMEOUT)
    assert window.current_area() == "runs"
    window.close()
    assert not panel.follower.is_following()


def test_each_followed_run_gets_its_own_step_controls(window, qtbot, tmp_path):
    from tensorviz.ui.watch.step_control_bar import StepControlBar

    first, second = _run(tmp_path), tmp_path / "runs" / "2026-12-02-030000"
    record_training(second, deep_sigmoid_mlp(depth=3, width=4), steps=4)
    window.open_paths([str(first)])
    panel = window.panel("runs")
    bars = panel.findChildren(StepControlBar)
    assert [bar.folder for bar in bars] == [first.resolve()]
    qtbot.waitUntil(lambda: panel.state is not None and panel.state.kind == "finished",
                    timeout=TIMEOUT)  # fmt: skip
    qtbot.waitUntil(lambda: not bars[0].pause_button.isEnabled(), timeout=TIMEOUT)  # finished
    window.open_paths([str(second)])

    def shown_bars():
        return [b.folder for b in panel.findChildren(StepControlBar) if not b.isHidden()]

    qtbot.waitUntil(lambda: shown_bars() == [second.resolve()], timeout=TIMEOUT)
