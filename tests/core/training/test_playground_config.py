"""TrainingConfig with the playground's fields: a plain dict both ways, and one clear sentence
for every network setting that cannot be trained."""

import json
from dataclasses import fields

import pytest

from tensorviz.core.training.data import TrainingConfig, TrainingConfigError
from tensorviz.core.training.network_choices import TASKS, task_defaults


def test_the_default_is_still_the_tutorials_linear_regression():
    config = TrainingConfig()
    assert config.task == "linear" and config.update_style == "manual"
    assert (config.seed, config.n, config.lr, config.epochs) == (42, 100, 0.01, 500)
    config.validate()


def test_every_field_survives_a_json_round_trip():
    config = TrainingConfig(
        task="spirals",
        hidden_layers=(16, 8, 4),
        activations=("relu", "gelu", "none"),
        features=("x", "y", "x2", "y2", "xy", "sinx", "siny"),
        loss="ce",
        update_style="sgd",
        momentum=0.9,
        weight_decay=0.001,
        dropout=0.25,
        l2=0.003,
        test_fraction=0.5,
        batch_size=16,
        clip_grad_norm=2.0,
        forget_zero_grad=True,
    )
    config.validate()
    data = json.loads(json.dumps(config.to_dict()))
    assert set(data) == {f.name for f in fields(TrainingConfig)}
    assert TrainingConfig.from_dict(data) == config


def test_an_older_dict_without_the_new_fields_still_loads():
    old = {"seed": 3, "n": 40, "lr": 0.02, "update_style": "sgd", "data_path": None}
    assert TrainingConfig.from_dict(old) == TrainingConfig(
        seed=3, n=40, lr=0.02, update_style="sgd"
    )


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ({"lr": "fast"}, "'lr'"),
        ({"n": True}, "'n'"),
        ({"n": 2.5}, "'n'"),
        ({"hidden_layers": 8}, "'hidden_layers'"),
        ({"activations": ["tanh", 3]}, "'activations'"),
        ({"colour": "red"}, "'colour'"),
    ],
)
def test_a_bad_dict_is_refused_naming_the_setting(data, named):
    with pytest.raises(TrainingConfigError, match=named):
        TrainingConfig.from_dict(data)


def network(**changes):
    return TrainingConfig(**{**task_defaults("circles"), **changes})


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"task": "mandelbrot"}, "unknown task"),
        ({"update_style": "manual"}, "optim.SGD or optim.Adam"),
        ({"hidden_layers": (), "activations": ()}, "1 to 8 hidden layers"),
        ({"hidden_layers": (8,) * 9, "activations": ("tanh",) * 9}, "1 to 8 hidden layers"),
        ({"hidden_layers": (65, 8)}, "1 to 64 units"),
        ({"hidden_layers": (0, 8)}, "1 to 64 units"),
        ({"activations": ("tanh",)}, "one activation per hidden layer"),
        ({"activations": ("tanh", "swish")}, "activations are"),
        ({"features": ()}, "at least one input feature"),
        ({"features": ("x", "z")}, "unknown feature 'z'"),
        ({"features": ("x", "x")}, "once"),
        ({"loss": "hinge"}, "loss must be one of"),
        ({"dropout": 1.0}, "dropout"),
        ({"l2": -1.0}, "L2"),
        ({"test_fraction": 0.95}, "test fraction"),
        ({"data_path": "points.csv"}, "'file' task"),
        ({"normalise_x": True}, "normalising x"),
    ],
)
def test_each_bad_network_setting_gets_one_sentence(changes, words):
    with pytest.raises(TrainingConfigError, match=words):
        network(**changes).validate()


def test_one_dimensional_tasks_refuse_y_features_and_class_losses():
    sin = TrainingConfig(**task_defaults("sin"))
    sin.validate()
    with pytest.raises(TrainingConfigError, match="features are x, x2 and sinx"):
        sin.with_changes(features=("x", "y")).validate()
    with pytest.raises(TrainingConfigError, match="regression: its loss is mse"):
        sin.with_changes(loss="bce").validate()
    with pytest.raises(TrainingConfigError, match="needs a data file"):
        TrainingConfig(**task_defaults("file")).validate()


@pytest.mark.parametrize("task", [key for key in TASKS if key not in ("linear", "file")])
def test_every_task_default_is_trainable(task):
    TrainingConfig(**task_defaults(task)).validate()
