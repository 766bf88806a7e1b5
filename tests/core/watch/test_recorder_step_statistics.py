"""A step's numbers against torch's own: gradient norms as step() finds them, weight norms,
update ratios measured by the test, activation numbers of the module outputs, the loss taken
from backward() and run.log's scalars on the step they follow."""

import numpy as np
import pytest
import torch
from torch import nn

from tests.core.watch.watch_helpers import BeforeStep, column, read_back, watched


@pytest.fixture
def mlp():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(5, 7), nn.ReLU(), nn.Linear(7, 6), nn.Tanh(), nn.Linear(6, 1),
                         nn.Sigmoid())  # fmt: skip


def _train(model, optimizer, steps=4, run=None):
    for step in range(steps):
        loss = (model(torch.randn(9, 5)) - 0.3).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if run is not None:
            run.log(lr=0.1 * step)


def test_grad_and_weight_norms_are_torch_norms_just_before_step(tmp_path, mlp):
    optimizer = torch.optim.Adam(mlp.parameters(), lr=0.05)
    run = watched(tmp_path, mlp, optimizer)
    before = BeforeStep(optimizer, mlp)
    _train(mlp, optimizer, steps=4)
    run.close()
    series = read_back(run)
    assert series.steps == [1, 2, 3, 4]
    for name in dict(mlp.named_parameters()):
        expected = [g[name].norm().item() for g in before.grads]
        np.testing.assert_allclose(column(series, "grad_norm", name), expected, rtol=1e-5)
        expected = [w[name].norm().item() for w in before.weights]
        np.testing.assert_allclose(column(series, "weight_norm", name), expected, rtol=1e-5)


def test_update_ratio_is_the_change_over_the_weight(tmp_path, mlp):
    optimizer = torch.optim.SGD(mlp.parameters(), lr=0.2, momentum=0.9)
    run = watched(tmp_path, mlp, optimizer)
    before = BeforeStep(optimizer, mlp)
    _train(mlp, optimizer, steps=3)
    after = {n: p.detach().clone() for n, p in mlp.named_parameters()}
    run.close()
    series = read_back(run)
    weights = [*before.weights, after]
    for name in after:
        expected = [(weights[i + 1][name] - weights[i][name]).norm() / weights[i][name].norm()
                    for i in range(3)]  # fmt: skip
        np.testing.assert_allclose(column(series, "update_ratio", name), expected, rtol=1e-4)


def test_update_ratio_only_at_sampled_steps(tmp_path, mlp):
    optimizer = torch.optim.SGD(mlp.parameters(), lr=0.1)
    run = watched(tmp_path, mlp, optimizer, update_ratio_every=2)
    _train(mlp, optimizer, steps=4)
    run.close()
    ratio = column(read_back(run), "update_ratio", "0.weight")
    assert np.isfinite(ratio[[0, 2]]).all() and np.isnan(ratio[[1, 3]]).all()


def test_activation_numbers_are_the_outputs_numbers(tmp_path, mlp):
    optimizer = torch.optim.SGD(mlp.parameters(), lr=0.1)
    run = watched(tmp_path, mlp, optimizer)
    last = {}
    for index, layer in enumerate(mlp):
        layer.register_forward_hook(
            lambda _m, _a, out, key=str(index): last.__setitem__(key, out.detach().clone())
        )
    seen = []
    optimizer.register_step_pre_hook(lambda *_: seen.append(dict(last)))
    _train(mlp, optimizer, steps=3)
    run.close()
    series = read_back(run)
    assert series.module_names == ["0", "1", "2", "3", "4", "5"]
    kinds = {m["name"]: m["kind"] for m in series.module_info.values()}
    assert kinds == {"0": "other", "1": "relu", "2": "other", "3": "tanh", "4": "other",
                     "5": "sigmoid"}  # fmt: skip
    fraction = {
        "relu": lambda y: (y == 0).float().mean(),
        "tanh": lambda y: (y.abs() > 0.99).float().mean(),
        "sigmoid": lambda y: ((y < 0.01) | (y > 0.99)).float().mean(),
    }
    for name, kind in kinds.items():  # the module columns are stored as float16: rtol 1e-3
        outs = [step[name] for step in seen]
        np.testing.assert_allclose(column(series, "act_mean", name),
                                   [o.mean() for o in outs], rtol=1e-3, atol=1e-6)  # fmt: skip
        np.testing.assert_allclose(column(series, "act_std", name), [o.std() for o in outs],
                                   rtol=1e-3)  # fmt: skip
        got = column(series, "act_fraction", name)
        if kind == "other":
            assert np.isnan(got).all()
        else:
            np.testing.assert_allclose(got, [fraction[kind](o) for o in outs], rtol=1e-3)


def test_loss_taken_from_backward_and_scalars_land_on_their_step(tmp_path, mlp):
    optimizer = torch.optim.SGD(mlp.parameters(), lr=0.1)
    run = watched(tmp_path, mlp, optimizer)
    losses = []
    for step in range(3):
        loss = mlp(torch.randn(4, 5)).sum()
        losses.append(loss.item())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        run.log(lr=0.5 * step)
    run.close()
    series = read_back(run)
    np.testing.assert_allclose(series.loss, losses, rtol=1e-6)
    np.testing.assert_allclose(series.scalars.column("lr"), [0.0, 0.5, 1.0])


def test_log_before_step_goes_to_the_coming_step_and_loss_from_log_wins(tmp_path, mlp):
    optimizer = torch.optim.SGD(mlp.parameters(), lr=0.1)
    run = watched(tmp_path, mlp, optimizer)
    for step in range(2):
        loss = mlp(torch.randn(4, 5)).sum()
        optimizer.zero_grad()
        loss.backward()
        run.log(loss=10.0 + step, tokens=step)
        optimizer.step()
    run.close()
    series = read_back(run)
    assert series.loss == [10.0, 11.0]
    np.testing.assert_array_equal(series.scalars.column("tokens"), [0, 1])


def test_every_records_every_nth_step(tmp_path, mlp):
    optimizer = torch.optim.SGD(mlp.parameters(), lr=0.1)
    run = watched(tmp_path, mlp, optimizer, every=2)
    _train(mlp, optimizer, steps=5)
    run.close()
    assert read_back(run).steps == [1, 3, 5]


def test_listeners_see_the_step_before_the_update(tmp_path, mlp):
    optimizer = torch.optim.SGD(mlp.parameters(), lr=0.1)
    run = watched(tmp_path, mlp, optimizer)
    moments, backwards = [], []

    def at_step(moment):
        weight = mlp[0].weight
        arrays = dict(zip(moment.statistics["modules"], moment.statistics["arrays"]["act_mean"],
                          strict=True))  # fmt: skip
        assert np.isfinite(arrays["1"]) and "0.weight" in moment.statistics["params"]
        moments.append((moment.step, moment.optimizer_index, moment.loss.item(),
                        moment.statistics["header"]["step"], weight.detach().clone(),
                        moment.inputs[0][0].shape, moment.outputs[0].shape))  # fmt: skip

    run.add_step_listener(at_step)
    run.add_backward_listener(lambda loss: backwards.append(loss.grad_fn is not None))
    loss = mlp(torch.randn(3, 5)).sum()
    optimizer.zero_grad()
    loss.backward()
    weight_before = mlp[0].weight.detach().clone()
    optimizer.step()
    run.close()
    step, index, seen_loss, header_step, weight_seen, input_shape, output_shape = moments[0]
    assert (step, index, header_step) == (1, 0, 1)
    assert seen_loss == pytest.approx(loss.item())
    assert torch.equal(weight_seen, weight_before)  # not yet updated
    assert input_shape == (3, 5) and output_shape == (3, 1)
    assert backwards == [True]


def test_backward_is_torch_own_again_after_close(tmp_path, mlp):
    original = torch.Tensor.backward, torch.autograd.backward
    run = watched(tmp_path, mlp, torch.optim.SGD(mlp.parameters(), lr=0.1))
    assert torch.Tensor.backward is not original[0]
    run.close()
    assert (torch.Tensor.backward, torch.autograd.backward) == original
