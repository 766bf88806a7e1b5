"""The Training area with qtbot: the Play/Pause/Step/Reset state machine, phases, pitfalls,
remedies, exports, and a worker thread that is always stopped and joined."""

import csv

import pytest
import torch
from panel_driving import TIMEOUT, configure
from PySide6.QtCore import Qt

from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.training.trainer import PHASES, Trainer
from tensorviz.ui.training.training_area import TrainingArea
from tensorviz.ui.training.training_panel import TrainingPanel
from tensorviz.ui.training.training_worker import FULL_SPEED


def test_full_run_equals_the_core_trainer(qtbot, panel):
    configure(qtbot, panel, epochs=120)
    panel.play()
    assert panel.state == "running" and panel.play_button.text().endswith("Pause")
    qtbot.waitUntil(lambda: panel.state == "finished", timeout=TIMEOUT)
    expected = Trainer(TrainingConfig(epochs=120)).run()
    assert [(r.w, r.b, r.loss) for r in panel.history] == [(r.w, r.b, r.loss) for r in expected]
    assert panel.plots.records.size == 120
    assert not panel.bar.epoch_button.isEnabled() and not panel.play_button.isEnabled()
    assert panel.results_view.heading.text().endswith("final")


def test_play_pause_step_reset_state_machine(qtbot, panel):
    configure(qtbot, panel, epochs=100_000)
    panel.play()
    qtbot.waitUntil(lambda: len(panel.history) > 0, timeout=TIMEOUT)
    panel.toggle_play()
    assert panel.state == "paused" and panel.bar.epoch_button.isEnabled()
    # The pause flushes what the worker had run; then each step adds exactly one epoch.
    qtbot.waitUntil(lambda: panel.history[-1].epoch == panel.worker.trainer.epoch)
    paused_at = panel.history[-1].epoch
    for step in (1, 2):
        panel.step_epoch()
        qtbot.waitUntil(lambda s=step: panel.history[-1].epoch == paused_at + s, timeout=TIMEOUT)
    assert [r.epoch for r in panel.history] == list(range(1, paused_at + 3))
    panel.reset()
    assert panel.state == "loading" and panel.history == []
    qtbot.waitUntil(lambda: panel.state == "ready", timeout=TIMEOUT)
    assert panel.plots.records.size == 0 and panel.play_button.isEnabled()


def test_step_phase_highlights_each_phase_with_its_values(qtbot, panel):
    seen = []
    for phase in PHASES:
        panel.step_phase()  # (no waitSignal on the worker's signals: they fire in its thread)
        qtbot.waitUntil(lambda p=phase: panel.phase_view.current == p, timeout=TIMEOUT)
        seen.append(panel.last_phase)
        assert panel.phase_view.values[phase].isVisible()
    assert [r.phase for r in seen] == list(PHASES)
    trainer = Trainer(TrainingConfig())
    trainer.step_phase(), trainer.step_phase()
    assert seen[1].values["loss"] == trainer.last_phase.values["loss"]
    assert f"{seen[1].values['loss']:.6g}" in panel.phase_view.values["loss"].text()
    qtbot.waitUntil(lambda: len(panel.history) == 1, timeout=TIMEOUT)  # zero_grad ends epoch 1
    assert panel.gradient_view.cells["auto_w"].text() == f"{panel.history[0].grad_w:+.6g}"
    assert "agree" in panel.gradient_view.verdict.text()


def test_slow_motion_plays_phase_by_phase(qtbot, panel):
    panel.bar.speed.setValue(0)
    panel.play()
    qtbot.waitUntil(lambda: panel.phase_view.current == "loss", timeout=TIMEOUT)
    panel.pause()
    panel.bar.speed.setValue(FULL_SPEED)


def test_divergence_is_explained_and_a_remedy_applies_in_one_click(qtbot, panel):
    configure(qtbot, panel, lr=0.1)
    panel.play()
    qtbot.waitUntil(lambda: panel.state == "stopped", timeout=TIMEOUT)
    assert panel.history[-1].epoch == 25
    assert (
        panel.problem_view.isVisible() and "epoch 25" in panel.problem_view.error_panel.title.text()
    )
    assert set(panel.problem_view.buttons) == {"lower_lr", "normalise_x", "clip_grad_norm"}
    qtbot.mouseClick(panel.problem_view.buttons["clip_grad_norm"], Qt.MouseButton.LeftButton)
    assert panel.form.clip.isChecked() and panel.form.config().clip_grad_norm == 1.0
    qtbot.waitUntil(lambda: panel.state == "finished", timeout=TIMEOUT)
    assert not panel.problem_view.isVisible() and len(panel.history) == 500


def test_update_without_no_grad_shows_torchs_error(qtbot, panel):
    configure(qtbot, panel, no_grad_pitfall=True)
    panel.step_epoch()
    qtbot.waitUntil(lambda: panel.state == "stopped", timeout=TIMEOUT)
    w = torch.randn(1, requires_grad=True)
    with pytest.raises(RuntimeError) as raised:
        w -= 1.0
    assert panel.problem_view.error_panel.explained.torch_message == str(raised.value)
    panel.apply_remedy("use_no_grad")
    assert not panel.form.no_grad_pitfall.isChecked()
    qtbot.waitUntil(lambda: panel.state in ("running", "finished"), timeout=TIMEOUT)


def test_forget_zero_grad_shows_the_gradients_disagree(qtbot, panel):
    configure(qtbot, panel, forget_zero_grad=True, epochs=3)
    panel.play()
    qtbot.waitUntil(lambda: panel.state == "finished", timeout=TIMEOUT)
    assert "differ" in panel.gradient_view.verdict.text()


def test_keyboard_shortcuts(qtbot, panel):
    panel.setFocus()
    qtbot.keyClick(panel, Qt.Key.Key_Right)
    qtbot.waitUntil(lambda: len(panel.history) == 1, timeout=TIMEOUT)
    qtbot.keyClick(panel, Qt.Key.Key_N)
    qtbot.waitUntil(lambda: panel.phase_view.current == "forward", timeout=TIMEOUT)
    qtbot.keyClick(panel, Qt.Key.Key_Space)
    assert panel.state == "running"
    qtbot.keyClick(panel, Qt.Key.Key_Space)
    assert panel.state == "paused"


def test_exports_write_valid_files(qtbot, panel, tmp_path):
    configure(qtbot, panel, epochs=40)
    panel.play()
    qtbot.waitUntil(lambda: panel.state == "finished", timeout=TIMEOUT)
    panel.export_csv(tmp_path / "loss.csv")
    rows = list(csv.DictReader((tmp_path / "loss.csv").open()))
    assert len(rows) == 40 and float(rows[-1]["loss"]) == panel.history[-1].loss
    panel.export_png(str(tmp_path / "plots.png"))
    assert (tmp_path / "plots.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    panel.export_parameters(tmp_path / "params.pt")
    saved = torch.load(tmp_path / "params.pt", weights_only=True)
    assert saved["w"].item() == panel.history[-1].w and saved["epoch"] == 40
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loss.csv", "params.pt", "plots.png"]


def test_shutdown_mid_run_joins_the_worker(qtbot):
    widget = TrainingPanel(["cpu"])
    qtbot.addWidget(widget)
    qtbot.waitUntil(lambda: widget.state == "ready", timeout=TIMEOUT)
    widget.form.epochs.setValue(1_000_000)
    qtbot.waitUntil(lambda: widget.state == "ready", timeout=TIMEOUT)
    widget.play()
    qtbot.waitUntil(lambda: len(widget.history) > 0, timeout=TIMEOUT)
    widget.shutdown()
    assert not widget.thread.is_running()


def test_training_area_is_built_in_the_main_window_and_closes_mid_run(qtbot, window):
    area = window.panel("training")
    panel = area.regression
    assert isinstance(area, TrainingArea) and isinstance(panel, TrainingPanel)
    window.show_area("training")
    qtbot.waitUntil(lambda: panel.state == "ready", timeout=TIMEOUT)
    panel.form.epochs.setValue(1_000_000)
    qtbot.waitUntil(lambda: panel.state == "ready", timeout=TIMEOUT)
    panel.play()
    qtbot.waitUntil(lambda: len(panel.history) > 0, timeout=TIMEOUT)
    area.show_task("circles")  # the playground runs too
    playground = area.playground
    qtbot.waitUntil(lambda: playground.state == "ready", timeout=TIMEOUT)
    playground.form.epochs.setValue(1_000_000)
    qtbot.waitUntil(lambda: playground.state == "ready", timeout=TIMEOUT)
    playground.play()
    qtbot.waitUntil(lambda: len(playground.history) > 0, timeout=TIMEOUT)
    window.close()
    assert not panel.thread.is_running() and not playground.thread.is_running()


def test_the_tutorial_table_fills_in_as_training_runs(qtbot, panel):
    from tensorviz.core.training.report import tutorial_table

    configure(qtbot, panel, epochs=300)
    assert not panel.results_view.tutorial.isVisible()
    panel.play()
    qtbot.waitUntil(lambda: panel.state == "finished", timeout=TIMEOUT)
    shown = panel.results_view.tutorial.toPlainText().splitlines()
    assert shown == tutorial_table(panel.history, 300) and len(shown) == 3
    assert shown[-1].startswith("Epoch [300/300], Loss: ")
    configure(qtbot, panel, epochs=200)  # a new experiment starts a new table
    assert panel.results_view.tutorial.toPlainText() == ""


def test_a_long_runs_tutorial_lines_are_all_kept_in_a_few_lines_of_room(qtbot, panel):
    """100,000 epochs print 1,000 tutorial lines: every one is kept (selectable, scrolled to),
    the newest in view, and the results never grow taller than a few lines (a label holding
    them all grew a line every 100 epochs and was laid out whole again on every batch)."""
    results = panel.results_view
    lines = [f"Epoch [{e}/100000], Loss: {1 / e:.4f}" for e in range(100, 100_001, 100)]
    heights = []
    for start in range(0, len(lines), 50):  # in batches, as the worker sends them
        results.add_tutorial_lines(lines[start : start + 50])
        heights.append(results.tutorial.height())
    assert results.tutorial.toPlainText().splitlines() == lines
    spacing = results.tutorial.fontMetrics().lineSpacing()
    assert max(heights) == heights[0] < (results.tutorial.VISIBLE_LINES + 1) * spacing
    bar = results.tutorial.verticalScrollBar()
    assert bar.maximum() > 0 and bar.value() == bar.maximum()  # the last line is the one seen
