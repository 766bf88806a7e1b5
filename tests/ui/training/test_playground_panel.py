"""The training playground with qtbot: the run equals the core trainer, the live pictures are the
model's, the network is shaped in the form, the code is exported, and the worker is joined."""

import csv

import numpy as np
import pytest
import torch
from panel_driving import TIMEOUT
from PySide6.QtCore import QPointF
from PySide6.QtGui import QGuiApplication

from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.training.network_choices import task_defaults
from tensorviz.core.training.phased_loop import PHASES
from tensorviz.core.training.playground_report import rebuilt_model
from tensorviz.core.training.playground_trainer import PlaygroundTrainer
from tensorviz.core.training.script_export import playground_script
from tensorviz.ui.training import run_panel as run_panel_module
from tensorviz.ui.training import training_area as area_module
from tensorviz.ui.training.playground_panel import PlaygroundPanel
from tensorviz.ui.training.training_area import TrainingArea

SMALL = TrainingConfig(**{**task_defaults("circles"), "n": 200, "epochs": 15})


def ready(panel) -> bool:
    return panel.state == "ready" and panel.frame is not None


@pytest.fixture
def make_panel(qtbot):
    """PlaygroundPanel(initial=config), shown and ready; every one is shut down afterwards,
    its two threads joined, whether the test passed or not."""
    made = []

    def make(config: TrainingConfig) -> PlaygroundPanel:
        widget = PlaygroundPanel(["cpu"], initial=config)
        made.append(widget)
        qtbot.addWidget(widget)
        widget.resize(1100, 760)
        widget.show()
        qtbot.waitUntil(lambda: ready(widget), timeout=TIMEOUT)
        return widget

    yield make
    for widget in made:
        assert widget.shutdown()
        assert not widget.thread.is_running() and not widget.picture_thread.is_running()


@pytest.fixture
def panel(make_panel):
    return make_panel(SMALL)


@pytest.fixture
def area(qtbot):
    """The Training area, shown; its threads are joined afterwards, pass or fail."""
    widget = TrainingArea(["cpu"])
    qtbot.addWidget(widget)
    widget.resize(1100, 780)
    widget.show()
    yield widget
    assert widget.shutdown()


def edit(qtbot, panel, change) -> None:
    """Make a form edit (it resets the experiment) and wait for the new experiment."""
    change()
    qtbot.waitUntil(lambda: ready(panel), timeout=TIMEOUT)


def test_a_full_run_equals_the_core_trainer_and_the_pictures_show_its_model(qtbot, panel):
    panel.play()
    qtbot.waitUntil(lambda: panel.state == "finished", timeout=TIMEOUT)
    trainer = PlaygroundTrainer(SMALL)
    expected = trainer.run()
    assert [(r.loss, r.test_loss, r.grad_norms) for r in panel.history] == [
        (r.loss, r.test_loss, r.grad_norms) for r in expected
    ]
    qtbot.waitUntil(lambda: panel.frame.epoch == 15, timeout=TIMEOUT)
    state = trainer.model.state_dict()
    assert all(torch.equal(torch.from_numpy(panel.frame.state[k]), state[k]) for k in state)
    assert panel.frames_drawn >= 2 and panel.loss_plot.records.size == 15
    assert "test accuracy" in panel.summary.text()
    image = panel.boundary.image.image
    assert image.shape == (100, 100, 4) and image.dtype == np.uint8
    pictures = trainer.pictures()  # the boundary's colours follow the model's P(class 1)
    blue = image[..., 2].astype(int) - image[..., 0].astype(int)
    assert np.corrcoef(blue.ravel(), pictures.score.ravel())[0, 1] > 0.95


def test_hovering_a_tile_names_the_neuron(panel):
    view = panel.network_view
    x, y = panel.info.layout.origins[2][4] + panel.info.layout.tile / 2  # layer 2, neuron 5
    view._on_mouse_moved(view.plot.getPlotItem().vb.mapViewToScene(QPointF(x, y)))
    assert view.plot.toolTip().startswith("layer 2, neuron 5: Tanh")
    view._on_mouse_moved(view.plot.getPlotItem().vb.mapViewToScene(QPointF(-50.0, -50.0)))
    assert view.plot.toolTip() == ""


def test_step_phase_walks_the_networks_five_phases(qtbot, panel):
    edit(qtbot, panel, lambda: panel.form.batch_size.setValue(0))  # full batch
    for phase in PHASES:
        panel.step_phase()
        qtbot.waitUntil(lambda p=phase: panel.phase_view.current == p, timeout=TIMEOUT)
    assert panel.phase_view.codes["forward"].text() == "output = model(x_batch)"
    assert "‖W1.grad‖" in panel.phase_view.values["backward"].text()
    qtbot.waitUntil(lambda: len(panel.history) == 1, timeout=TIMEOUT)
    assert panel.gradient_plot.now.yData is not None


def test_the_network_is_shaped_in_the_form(qtbot, panel):
    editor = panel.form.network
    edit(qtbot, panel, editor.add_layer)
    assert panel.info.config.hidden_layers == (8, 8, 8)
    assert panel.info.layout.columns == (2, 8, 8, 8, 1)
    edit(qtbot, panel, lambda: editor.rows[0].units.setValue(3))
    edit(qtbot, panel, lambda: editor.remove_layer(editor.rows[1]))
    assert panel.info.config.hidden_layers == (3, 8)
    sigmoid = editor.all_activations.findData("sigmoid")
    edit(qtbot, panel, lambda: editor._on_all_activations_chosen(sigmoid))
    assert panel.info.config.activations == ("sigmoid", "sigmoid")
    edit(qtbot, panel, lambda: editor.feature_boxes["xy"].setChecked(True))
    assert panel.info.config.features == ("x", "y", "xy") and "nn.Linear(3, 3)" in panel.info.script
    while len(editor.rows) < 8:
        edit(qtbot, panel, editor.add_layer)
    assert not editor.add_button.isEnabled()
    edit(qtbot, panel, lambda: editor.remove_layer(editor.rows[0]))
    assert editor.add_button.isEnabled() and [r.label.text() for r in editor.rows][:2] == ["1", "2"]


def test_settings_that_cannot_train_keep_the_experiment(qtbot, panel):
    boxes = panel.form.network.feature_boxes
    boxes["x"].setChecked(False)  # a new experiment on y alone (maybe overtaken at once) …
    boxes["y"].setChecked(False)  # … and no feature at all: refused
    qtbot.waitUntil(lambda: panel.problem_view.isVisible(), timeout=TIMEOUT)
    assert "at least one input feature" in panel.problem_view.error_panel.explained.explanation
    assert panel.state == "ready"
    kept = panel.worker.trainer.config  # the experiment the worker kept is the one shown
    assert panel.info.config == kept and panel.form.config() == kept
    assert kept.features in (("y",), ("x", "y"))
    panel.step_epoch()
    qtbot.waitUntil(lambda: len(panel.history) == 1, timeout=TIMEOUT)
    assert panel.info.layout.columns[0] == len(kept.features)


def test_a_one_dimensional_task_draws_the_fitted_function(make_panel):
    widget = make_panel(TrainingConfig(**{**task_defaults("sin"), "epochs": 5}))
    assert not widget.form.network.feature_boxes["y"].isEnabled()
    x, y = widget.boundary.curve.getData()
    trainer = PlaygroundTrainer(widget.info.config)
    assert len(x) == 100 and np.array_equal(y, trainer.pictures().score)  # the untrained net
    ink = np.all(np.abs(widget.frame.network[..., :3].astype(int) - (31, 42, 68)) < 40, axis=-1)
    assert ink.sum() > 100  # each 1-D tile carries its neuron's curve


def test_copy_and_export_write_the_script_and_the_run(qtbot, panel, tmp_path, monkeypatch):
    panel.copy_script()
    assert QGuiApplication.clipboard().text() == playground_script(SMALL)
    target = tmp_path / "circles_playground.py"
    monkeypatch.setattr(
        run_panel_module.QFileDialog, "getSaveFileName", lambda *a: (str(target), "")
    )
    panel.bar.export_requested.emit("script")
    assert target.read_text() == playground_script(SMALL)
    panel.play()
    qtbot.waitUntil(lambda: panel.state == "finished", timeout=TIMEOUT)
    qtbot.waitUntil(lambda: panel.frame.epoch == 15, timeout=TIMEOUT)
    panel.export_csv(tmp_path / "loss.csv")
    rows = list(csv.DictReader((tmp_path / "loss.csv").open()))
    assert len(rows) == 15 and float(rows[-1]["loss"]) == panel.history[-1].loss
    panel.export_parameters(tmp_path / "model.pt")
    saved = torch.load(tmp_path / "model.pt", weights_only=True)
    model = rebuilt_model(TrainingConfig.from_dict(saved["config"]), panel.frame.state)
    assert all(torch.equal(saved["state_dict"][k], v) for k, v in model.state_dict().items())
    panel.export_png(str(tmp_path / "pictures.png"))
    assert (tmp_path / "pictures.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_divergence_offers_remedies_that_finish_the_run(qtbot, make_panel):
    config = TrainingConfig(**task_defaults("abs")).with_changes(
        update_style="sgd", lr=10.0, momentum=0.9, batch_size=None, epochs=40
    )
    widget = make_panel(config)
    widget.play()
    qtbot.waitUntil(lambda: widget.state == "stopped", timeout=TIMEOUT)
    assert set(widget.problem_view.buttons) == {"lower_lr", "clip_grad_norm"}
    widget.problem_view.buttons["clip_grad_norm"].click()
    qtbot.waitUntil(lambda: widget.state == "finished", timeout=TIMEOUT)
    assert widget.form.config().clip_grad_norm == 1.0 and len(widget.history) == 40


def test_the_area_keeps_the_regression_as_default_and_switches_tasks(qtbot, area):
    assert area.current is area.regression and area.config() == TrainingConfig()
    assert area.playground is None  # built on first use
    area.task.setCurrentIndex(area.task.findData("moons"))
    playground = area.playground
    qtbot.waitUntil(lambda: ready(playground), timeout=TIMEOUT)
    assert area.current is playground and area.config().task == "moons"
    area.show_task("spirals")
    qtbot.waitUntil(lambda: ready(playground) and playground.info.config.task == "spirals")
    assert area.config().n == 500 and area.config().hidden_layers == (8, 8)
    saved = area.config().with_changes(hidden_layers=(5,), activations=("relu",), epochs=7)
    area.set_config(TrainingConfig.from_dict(saved.to_dict()))
    qtbot.waitUntil(lambda: ready(playground) and playground.info.config == saved)
    assert area.task.currentData() == "spirals" and area.config() == saved
    area.show_task("linear")
    assert area.current is area.regression and area.config().task == "linear"
    assert area.shutdown()
    assert not area.regression.thread.is_running() and not playground.thread.is_running()
    assert not playground.picture_thread.is_running()


def test_your_own_data_asks_for_the_file_and_a_bad_one_changes_nothing(
    qtbot, area, tmp_path, monkeypatch
):
    good, bad = tmp_path / "mine.csv", tmp_path / "broken.csv"
    good.write_text("x,y\n" + "".join(f"{i / 10},{(i / 10) ** 2}\n" for i in range(-30, 31)))
    bad.write_text("x,y\n1,2\nthree,4\n")
    answers = iter([None, str(good), str(bad)])
    monkeypatch.setattr(area_module, "ask_data_path", lambda parent: next(answers))
    area.show_task("file")  # cancelled: still the regression
    assert area.current is area.regression and area.task.currentData() == "linear"
    area.show_task("file")
    playground = area.playground
    qtbot.waitUntil(lambda: ready(playground), timeout=TIMEOUT)
    assert playground.info.config.data_path == str(good) and playground.info.source == "mine.csv"
    assert len(playground.info.train) + len(playground.info.test) == 61
    area.show_task("moons")
    qtbot.waitUntil(lambda: ready(playground) and playground.info.config.task == "moons")
    area.show_task("file")  # a file that cannot be read: the moons stay, and the chooser too
    qtbot.waitUntil(lambda: playground.problem_view.isVisible(), timeout=TIMEOUT)
    assert "broken.csv line 3" in playground.problem_view.error_panel.explained.explanation
    assert playground.info.config.task == "moons" and area.task.currentData() == "moons"
