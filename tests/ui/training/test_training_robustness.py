"""Regressions from review: a long epoch is interruptible (Reset, close) and shows its progress;
bad data files leave the previous experiment as it was; a remedy offered really works;
constant x never feeds NaN to the plots; the area stays readable at the window's minimum size."""

import numpy as np
import pytest
import torch
from panel_driving import TIMEOUT, configure

from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.training.trainer import Trainer

INTERRUPT_TIMEOUT = 5_000  # a bound for the wait, not a measured time: the epoch takes minutes


def start_long_epoch(qtbot, panel):
    """An epoch of 100,000 single-sample updates (minutes), stepped and under way."""
    configure(qtbot, panel, n=100_000, batch_size=1)
    panel.step_epoch()
    qtbot.waitUntil(lambda: panel.batch_progress is not None, timeout=TIMEOUT)
    assert "batch" in panel.progress.text() and "/ 100,000 of epoch 1" in panel.progress.text()


def test_reset_interrupts_a_long_epoch(qtbot, panel):
    start_long_epoch(qtbot, panel)
    panel.reset()
    qtbot.waitUntil(lambda: panel.state == "ready", timeout=INTERRUPT_TIMEOUT)
    trainer = panel.worker.trainer
    assert trainer.epoch == 0 and not trainer.started and panel.history == []
    assert "batch" not in panel.progress.text()


def test_close_interrupts_a_long_epoch(qtbot, panel):
    start_long_epoch(qtbot, panel)
    assert panel.shutdown()  # joined within the bounded wait
    assert not panel.thread.is_running()


def test_pause_interrupts_a_long_epoch_while_playing(qtbot, panel):
    configure(qtbot, panel, n=100_000, batch_size=1)
    panel.play()
    qtbot.waitUntil(lambda: panel.batch_progress is not None, timeout=TIMEOUT)
    panel.pause()
    done = panel.worker.trainer.batch_progress[0]
    qtbot.waitUntil(lambda: panel.worker.trainer.batch_progress[0] == done, timeout=TIMEOUT)
    assert 0 < done < 100_000 and panel.worker.trainer.epoch == 0  # left part-way


def test_a_batch_size_too_small_for_n_is_refused_and_the_form_restored(qtbot, panel):
    configure(qtbot, panel, n=1_000_000)
    panel.form.batch_size.setValue(1)
    qtbot.waitUntil(lambda: panel.problem_view.isVisible(), timeout=TIMEOUT)
    assert panel.state == "ready" and panel.form.batch_size.value() == 0  # full batch again
    assert "batch size of at least 10" in panel.problem_view.error_panel.explained.explanation


def _bad_files(tmp_path):
    (tmp_path / "random.pt").write_bytes(np.random.default_rng(0).bytes(4096))
    torch.save({"x": torch.ones(3), "y": "hi"}, tmp_path / "ystr.pt")
    (tmp_path / "huge.csv").write_text("1e200,1\n2e200,3\n")
    return [tmp_path / name for name in ("random.pt", "ystr.pt", "huge.csv")]


def test_bad_data_files_leave_the_previous_experiment_as_it_was(qtbot, panel, tmp_path):
    configure(qtbot, panel, epochs=40)
    for _ in range(3):
        panel.step_epoch()
    qtbot.waitUntil(lambda: len(panel.history) == 3, timeout=TIMEOUT)
    before = [(r.epoch, r.w, r.b) for r in panel.history]
    for path in _bad_files(tmp_path):
        panel.form.set_data_path(str(path))
        qtbot.waitUntil(lambda: panel.problem_view.isVisible(), timeout=TIMEOUT)
        qtbot.waitUntil(lambda: len(panel.history) == 3, timeout=TIMEOUT)
        explained = panel.problem_view.error_panel.explained
        assert path.name in explained.explanation and "\n" not in explained.explanation
        assert panel.state == "paused" and panel.form.config().data_path is None
        assert [(r.epoch, r.w, r.b) for r in panel.history] == before
        assert panel.plots.records.size == 3 and "preparing" not in panel.progress.text()
    panel.step_epoch()  # the kept experiment goes on where it was
    qtbot.waitUntil(lambda: len(panel.history) == 4, timeout=TIMEOUT)
    expected = Trainer(TrainingConfig(epochs=40)).run()[:4]
    assert [(r.w, r.b) for r in panel.history] == [(r.w, r.b) for r in expected]


def test_lower_lr_remedy_trains_to_the_end(qtbot, panel):
    configure(qtbot, panel, lr=0.5)
    panel.play()
    qtbot.waitUntil(lambda: panel.state == "stopped", timeout=TIMEOUT)
    assert panel.problem_view.error_panel.explained.torch_message == ""
    panel.problem_view.buttons["lower_lr"].click()
    assert panel.form.lr.value() == pytest.approx(0.01)
    qtbot.waitUntil(lambda: panel.state == "finished", timeout=TIMEOUT)
    assert len(panel.history) == 500 and np.isfinite(panel.history[-1].loss)


def test_gradient_norm_is_finite_where_the_gradients_are(qtbot, panel):
    configure(qtbot, panel, lr=0.5)
    panel.play()
    qtbot.waitUntil(lambda: panel.state == "stopped", timeout=TIMEOUT)
    assert "|grad| = 1.004e+20" in panel.gradient_view.verdict.text()


def test_constant_x_draws_finite_lines_and_explains_least_squares(qtbot, panel, tmp_path):
    path = tmp_path / "constx.csv"
    path.write_text("x,y\n1,2\n1,2\n1,2\n")
    panel.form.set_data_path(str(path))
    qtbot.waitUntil(lambda: panel.state == "ready" and panel.info.source == "constx.csv")
    assert panel.results_view.note.isVisibleTo(panel) and "x is constant" in (
        panel.results_view.note.text()
    )
    assert panel.results_view.cells["lstsq_w"].text() != "nan"
    panel.play()
    qtbot.waitUntil(lambda: panel.state == "finished", timeout=TIMEOUT)
    x, y = panel.plots.fit_line.getData()
    assert len(x) == 2 and x[0] < x[1] and np.isfinite(y).all()
    w_x, w_y = panel.plots.w_curve.getData()
    assert len(w_x) == 500 and np.isfinite(w_y).all()
    assert panel.plots.ls_w_line.isVisible() and np.isfinite(panel.plots.ls_w_line.value())


def _fits(label) -> bool:
    """The label's whole text is shown (one line wide enough, or wrapped within its height)."""
    lines = label.text().splitlines() or [""]
    metrics = label.fontMetrics()
    if label.wordWrap():
        return label.heightForWidth(label.width()) <= label.height()
    return max(metrics.horizontalAdvance(line) for line in lines) <= label.contentsRect().width()


@pytest.mark.parametrize("size", [(793, 581), (1280, 800)])  # the app's minimum, a usual size
def test_the_area_is_readable_at_the_minimum_and_a_usual_size(qtbot, window, size):
    panel = window.panel("training").regression
    window.show_area("training")
    qtbot.waitUntil(lambda: panel.state == "ready", timeout=TIMEOUT)
    panel.form.forget_zero_grad.setChecked(True)
    qtbot.waitUntil(lambda: panel.state == "ready", timeout=TIMEOUT)
    panel.play()
    qtbot.waitUntil(lambda: panel.state == "finished", timeout=TIMEOUT)
    window.resize(*size)
    qtbot.waitUntil(lambda: window.width() == size[0])
    qtbot.waitUntil(lambda: _fits(panel.progress))
    if size[0] < 800:
        assert window.minimumSizeHint().width() <= size[0]  # the area does not widen the window
        assert panel.bar.compact and panel.phase_view.parentWidget().stacked
    form_scroll = panel.form.parentWidget().parentWidget().parentWidget()
    assert form_scroll.viewport().width() >= panel.form.minimumSizeHint().width()
    for code in panel.phase_view.codes.values():
        assert _fits(code), code.text()
    assert _fits(panel.gradient_view.verdict), panel.gradient_view.verdict.text()
    assert _fits(panel.results_view.loss)
