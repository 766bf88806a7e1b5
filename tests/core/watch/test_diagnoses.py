"""Each diagnosis against what torch really does: real models trained a few steps, their
statistics written as docs/run_format.md says (recorded_loops.py), read back and diagnosed."""

import numpy as np
import pytest
import torch
from recorded_loops import mlp, record_loop, regression_batches
from torch import nn

from tensorviz.core.watch.diagnoses import KINDS, Diagnosis, diagnose
from tensorviz.core.watch.run_reader import RunReader


def _diagnosed(folder, model, optimizer, steps=12, *, batch=None, loss=nn.functional.mse_loss):
    saw = record_loop(folder, model, optimizer, batch or regression_batches(16, 4), loss, steps)
    series = RunReader(folder).ranks[0]
    return {d.kind: d for d in diagnose(series)}, series, saw


def _weight_scaled(model, factor):
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.mul_(factor)
    return model


@pytest.mark.parametrize(
    ("activation", "optimizer", "lr"),
    [(nn.ReLU, torch.optim.Adam, 1e-3), (nn.ReLU, torch.optim.SGD, 0.05),
     (nn.Tanh, torch.optim.SGD, 0.05), (nn.GELU, torch.optim.AdamW, 3e-3)],
)  # fmt: skip
def test_a_healthy_net_has_no_diagnosis(tmp_path, activation, optimizer, lr):
    model = mlp([16, 64, 64, 64, 4], activation)
    found, _, _ = _diagnosed(tmp_path, model, optimizer(model.parameters(), lr=lr), steps=30)
    assert found == {}


def test_deep_sigmoid_mlp_has_vanishing_gradients_in_its_first_layers(tmp_path):
    model = mlp([16] + [32] * 9 + [4], nn.Sigmoid)
    found, series, saw = _diagnosed(tmp_path, model, torch.optim.SGD(model.parameters(), lr=0.1))
    vanishing = found["vanishing_gradients"]
    assert isinstance(vanishing, Diagnosis) and vanishing.step == 1 and vanishing.row == 0
    # torch's own gradients: the first layer's are orders below the last layer's
    first = saw.grads[0]["0.weight"].pow(2).mean().sqrt()
    last = saw.grads[0]["18.weight"].pow(2).mean().sqrt()
    assert first < 1e-2 * last
    assert vanishing.names[:2] == ("0.weight", "0.bias")
    assert "18.weight" not in vanishing.names
    assert vanishing.title.startswith("vanishing gradients in layers 0–")
    assert "from step 1" in vanishing.title
    assert "ReLU" in vanishing.remedy


def test_huge_learning_rate_explodes_then_becomes_non_finite(tmp_path):
    model = mlp([16, 64, 64, 64, 4], nn.ReLU)
    found, series, saw = _diagnosed(tmp_path, model, torch.optim.SGD(model.parameters(), lr=10))
    assert {"exploding_gradients", "non_finite", "update_ratio_high"} <= set(found)
    exploding, broken = found["exploding_gradients"], found["non_finite"]
    assert exploding.step < broken.step
    torch_first = saw.first_non_finite_grad()
    assert torch_first is not None
    # the loss or a gradient went first; either way no earlier step than torch saw
    assert broken.step <= torch_first[0]
    assert "clip" in exploding.remedy.lower()


def test_huge_initial_weights_explode_from_the_first_step(tmp_path):
    model = _weight_scaled(mlp([16, 64, 64, 64, 64, 4], nn.ReLU), 8.0)
    found, _, saw = _diagnosed(tmp_path, model, torch.optim.SGD(model.parameters(), lr=1e-3))
    assert found["exploding_gradients"].step == 1
    norms = [float(g.norm()) for g in saw.grads[0].values()]
    assert max(norms) > 1e4


def test_nan_in_the_batch_names_the_step_and_the_first_module(tmp_path):
    model = mlp([16, 32, 4], nn.ReLU)
    batches = regression_batches(16, 4)

    def poisoned(step):
        x, y = batches(step)
        if step == 7:
            x[0, 0] = float("nan")
        return x, y

    found, series, saw = _diagnosed(
        tmp_path, model, torch.optim.SGD(model.parameters(), lr=0.01), batch=poisoned
    )
    broken = found["non_finite"]
    # torch's own detection: the first step whose gradients are not all finite, and the first
    # module (forward order) whose output is not finite
    step, names = saw.first_non_finite_grad()
    assert broken.step == step == 7 and broken.row == 6
    outputs = saw.outputs[step - 1]
    first_module = next(n for n, out in outputs.items() if not torch.isfinite(out).all())
    assert broken.names[0] == first_module == "0"
    assert set(names) <= set(broken.names)
    assert "the output of 0" in broken.title and "step 7" in broken.title


def test_log_of_zero_gives_non_finite_gradients_at_the_first_step(tmp_path):
    model = mlp([16, 32, 4], nn.ReLU)

    def log_zero(output, target):
        return torch.log(output - output).mean()

    found, _, saw = _diagnosed(tmp_path, model, torch.optim.SGD(model.parameters(), lr=0.01),
                               loss=log_zero, steps=3)  # fmt: skip
    broken = found["non_finite"]
    step, names = saw.first_non_finite_grad()
    assert broken.step == step == 1
    assert broken.names == tuple(names)  # every gradient, in parameter order
    assert "the gradient of 0.weight" in broken.title


def test_relu_net_with_a_large_negative_bias_has_dead_units(tmp_path):
    model = mlp([16, 64, 64, 4], nn.ReLU)
    with torch.no_grad():
        model[2].bias.fill_(-10.0)
    found, _, saw = _diagnosed(tmp_path, model, torch.optim.SGD(model.parameters(), lr=0.01))
    dead = found["dead_units"]
    assert dead.names == ("3",) and dead.step == 1
    assert bool((saw.outputs[0]["3"] == 0).all())
    assert "LeakyReLU" in dead.remedy


def test_tanh_net_with_huge_weights_saturates(tmp_path):
    model = mlp([16, 64, 64, 4], nn.Tanh)
    with torch.no_grad():
        model[0].weight.mul_(30)
        model[2].weight.mul_(30)
    found, _, saw = _diagnosed(tmp_path, model, torch.optim.SGD(model.parameters(), lr=0.01))
    saturated = found["saturated_units"]
    assert saturated.names == ("1", "3")
    assert float((saw.outputs[0]["1"].abs() > 0.99).float().mean()) >= 0.5


@pytest.mark.parametrize(("lr", "kind"), [(10.0, "update_ratio_high"), (1e-7, "update_ratio_low")])
def test_learning_rate_far_off_shows_in_the_update_ratio(tmp_path, lr, kind):
    model = mlp([16, 64, 64, 4], nn.ReLU)
    found, series, _ = _diagnosed(tmp_path, model, torch.optim.SGD(model.parameters(), lr=lr),
                                  steps=6)  # fmt: skip
    assert kind in found
    ratios = series.tables["update_ratio"].values
    median = float(np.nanmedian(ratios[0]))
    assert (median > 1e-1) if kind == "update_ratio_high" else (median < 1e-5)
    assert all(name.endswith("weight") for name in found[kind].names)


def test_every_kind_is_named():
    assert len(KINDS) == 7 and "update_ratio_low" in KINDS
