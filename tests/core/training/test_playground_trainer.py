"""The playground's network and trainer against torch itself: the nn.Sequential a learner would
write, a plain loop written here, and autograd's own .grad."""

import math

import pytest
import torch
from torch import nn

from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.training.datasets import make_task_data
from tensorviz.core.training.network import build_network, hidden_outputs, input_features
from tensorviz.core.training.network_choices import task_defaults
from tensorviz.core.training.phased_loop import PHASES
from tensorviz.core.training.playground_report import describe_playground, gradient_verdict
from tensorviz.core.training.playground_trainer import PlaygroundTrainer, network_phase_codes
from tensorviz.core.training.remedies import apply_remedy


def config_of(task="circles", **changes):
    return TrainingConfig(**{**task_defaults(task), **changes})


def test_the_network_is_the_sequential_a_learner_writes():
    config = config_of(
        hidden_layers=(8, 4), activations=("relu", "none"), features=("x", "y", "xy"), dropout=0.2
    )
    torch.manual_seed(5)
    ours = build_network(config, classes=2)
    torch.manual_seed(5)
    theirs = nn.Sequential(
        nn.Linear(3, 8),
        nn.ReLU(),
        nn.Dropout(0.2),
        nn.Linear(8, 4),
        nn.Dropout(0.2),
        nn.Linear(4, 1),
    )
    assert [type(m) for m in ours] == [type(m) for m in theirs]
    assert all(
        torch.equal(a, b) for a, b in zip(ours.parameters(), theirs.parameters(), strict=True)
    )
    assert build_network(config.with_changes(loss="ce"), classes=2)[-1].out_features == 2


def test_input_features_are_the_columns_torch_computes():
    x = torch.randn(10, 2)
    features = ("x", "y", "x2", "y2", "xy", "sinx", "siny")
    a, b = x[:, 0], x[:, 1]
    expected = torch.stack([a, b, a * a, b * b, a * b, torch.sin(a), torch.sin(b)], dim=1)
    assert torch.equal(input_features(x, features), expected)


def test_hidden_outputs_are_each_layers_activation_output():
    config = config_of(hidden_layers=(5, 3), activations=("tanh", "none"), dropout=0.5)
    model = build_network(config, classes=2).eval()
    x = torch.randn(7, 2)
    with torch.no_grad():
        first = torch.tanh(model[0](x))
        second = model[3](first)
        outputs = hidden_outputs(model, x)
        assert [o.shape for o in outputs] == [(7, 5), (7, 3), (7, 1)]
        assert torch.equal(outputs[0], first) and torch.equal(outputs[1], second)
        assert torch.equal(outputs[2], model(x))


def plain_loop(config, epochs):
    """The playground's run as a learner writes it, with torch's own pieces."""
    data = make_task_data(config)
    torch.manual_seed(config.seed)
    model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1))
    optimizer = torch.optim.Adam(model.parameters(), lr=config.lr)
    loss_fn = nn.BCEWithLogitsLoss()
    x, y = data.x_train, data.y_train
    generator = torch.Generator().manual_seed(config.seed)
    losses = []
    for _ in range(epochs):
        total = 0.0
        order = torch.randperm(len(x), generator=generator)
        for start in range(0, len(x), config.batch_size):
            index = order[start : start + config.batch_size]
            loss = loss_fn(model(x[index]), y[index])
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            total += loss.item() * len(index) / len(x)
        losses.append(total)
    return model, losses


def test_a_run_equals_the_plain_loop_bit_for_bit():
    config = config_of(epochs=4)
    trainer = PlaygroundTrainer(config)
    history = trainer.run()
    model, losses = plain_loop(config, 4)
    assert [r.loss for r in history] == losses
    pairs = zip(trainer.model.parameters(), model.parameters(), strict=True)
    assert all(torch.equal(a, b) for a, b in pairs)


def test_phase_steps_walk_the_same_run_as_epoch_steps():
    config = config_of(epochs=2, batch_size=200)  # two mini-batches an epoch
    by_phase = PlaygroundTrainer(config)
    seen = [by_phase.step_phase() for _ in range(len(PHASES) * 4)]
    assert [r.phase for r in seen] == list(PHASES) * 4
    assert [(r.epoch, r.batch) for r in seen[::5]] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert seen[0].code == network_phase_codes(config)["forward"] == "output = model(x_batch)"
    by_epoch = PlaygroundTrainer(config)
    by_epoch.run()
    assert [r.loss for r in by_phase.history] == [r.loss for r in by_epoch.history]
    backward = seen[2].values
    assert set(backward) == {"‖W1.grad‖", "‖W2.grad‖", "‖W3.grad‖"}


def test_the_gradient_norms_are_autograds_own():
    config = config_of(epochs=1, batch_size=None)
    trainer = PlaygroundTrainer(config)
    for _ in range(3):  # forward, loss, backward
        trainer.step_phase()
    expected = [
        float(torch.linalg.vector_norm(layer.weight.grad.double())) for layer in trainer.layers
    ]
    assert list(trainer.gradient_norms()) == expected
    trainer.run()
    assert list(trainer.history[0].grad_norms) == expected


def test_eight_sigmoid_layers_make_the_gradient_vanish():
    config = config_of(
        hidden_layers=(8,) * 8, activations=("sigmoid",) * 8, epochs=1, batch_size=None
    )
    norms = PlaygroundTrainer(config).run()[0].grad_norms
    assert len(norms) == 9 and norms[0] < 1e-3 * norms[-1]
    assert gradient_verdict(norms)[0] == "vanishing"
    tanh = config.with_changes(hidden_layers=(8, 8), activations=("tanh", "tanh"))
    assert gradient_verdict(PlaygroundTrainer(tanh).run()[0].grad_norms)[0] == "healthy"


def test_circles_are_learned():
    history = PlaygroundTrainer(config_of(epochs=30)).run()
    assert history[-1].test_accuracy >= 0.95 and history[-1].loss < history[0].loss / 5


def test_regression_tasks_fit_their_function():
    history = PlaygroundTrainer(config_of("sin", epochs=40)).run()
    assert history[-1].test_accuracy is None and history[-1].test_loss < 0.1


def test_pictures_show_the_model_and_leave_the_run_untouched():
    config = config_of(epochs=3, dropout=0.3)
    watched = PlaygroundTrainer(config)
    for _ in range(3):
        watched.step_epoch()
        pictures = watched.pictures()
    plain = PlaygroundTrainer(config)
    plain.run()
    assert [r.loss for r in watched.history] == [r.loss for r in plain.history]
    assert pictures.score.shape == (100, 100) and [n.shape for n in pictures.neurons] == [
        (8, 32, 32),
        (8, 32, 32),
    ]
    model = watched.model.eval()
    corner = torch.tensor([[-6.0, -6.0], [6.0, 6.0]])
    with torch.no_grad():
        expected = torch.sigmoid(model(corner))[:, 0]
    # (a 2-row batch may round differently from the 10,000-row grid: float32 tolerance)
    assert pictures.score[[0, -1], [0, -1]] == pytest.approx(expected.numpy(), rel=1e-6)
    assert torch.equal(torch.from_numpy(pictures.weights[0]), model[0].weight.detach())
    info = describe_playground(PlaygroundTrainer(config))
    assert info.feature_maps.shape == (2, 32, 32) and info.model_text.startswith("Sequential(")


def test_a_diverging_run_stops_with_remedies_that_work():
    config = config_of("abs", update_style="sgd", lr=10.0, epochs=50, batch_size=None, momentum=0.9)
    trainer = PlaygroundTrainer(config)
    trainer.run()
    assert trainer.divergence is not None and trainer.epoch < 50
    assert not math.isfinite(trainer.divergence.value)
    keys = [r.key for r in trainer.divergence.remedies]
    assert keys == ["lower_lr", "clip_grad_norm"]
    fixed = PlaygroundTrainer(apply_remedy(config, trainer.divergence.remedies[1])).run()
    assert len(fixed) == 50 and math.isfinite(fixed[-1].loss)


@pytest.mark.parametrize("loss", ["mse", "ce"])
def test_other_losses_train(loss):
    history = PlaygroundTrainer(config_of("blobs", loss=loss, epochs=5)).run()
    assert history[-1].test_accuracy > 0.9


def test_torchs_own_error_stops_the_run_as_an_explanation():
    trainer = PlaygroundTrainer(config_of(epochs=3))
    trainer.model[0] = nn.Linear(5, 8)  # a layer that does not fit the 2 input features
    with pytest.raises(RuntimeError) as raised:
        trainer.model(trainer.x_train[:32])  # the first mini-batch's size
    assert trainer.step_epoch() is None and trainer.stopped and trainer.finished
    assert trainer.error.torch_message == str(raised.value)
    assert trainer.error.kind == "matmul_shape"
    assert trainer.history == [] and trainer.divergence is None
