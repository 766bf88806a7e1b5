"""What must not raise: a model with no parameters, only frozen ones, sparse gradients, half
precision, the meta device; the wrong kind of argument is one TypeError sentence; the first
NaN is named (the step, the first gradient and the first module output that held it)."""

import numpy as np
import pytest
import torch
from torch import nn

import tensorviz
from tests.core.watch.watch_helpers import column, read_back, watched


def _steps(model, optimizer, make_input, steps=2):
    for _ in range(steps):
        optimizer.zero_grad()
        out = model(make_input())
        out.float().sum().backward()
        optimizer.step()


def test_a_model_without_parameters(tmp_path):
    model = nn.Sequential(nn.ReLU(), nn.Tanh())
    extra = nn.Parameter(torch.ones(3))
    optimizer = torch.optim.SGD([extra], lr=0.1)
    run = watched(tmp_path, model, optimizer)
    for _ in range(2):
        optimizer.zero_grad()
        (model(torch.randn(3)) * extra).sum().backward()
        optimizer.step()
    run.close()
    series = read_back(run)
    assert series.steps == [1, 2]
    assert series.param_names == ["optimizer0.group0.0"]  # held by the optimizer only


def test_only_frozen_parameters(tmp_path):
    model = nn.Linear(3, 2).requires_grad_(False)
    optimizer = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1)
    run = watched(tmp_path, model, optimizer)
    model(torch.randn(2, 3))
    optimizer.step()
    run.close()
    assert read_back(run).steps == [1]


def test_sparse_gradients(tmp_path):
    torch.manual_seed(0)
    model = nn.Embedding(10, 4, sparse=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    run = watched(tmp_path, model, optimizer, histograms_every=1)
    grads = []
    optimizer.register_step_pre_hook(lambda *_: grads.append(model.weight.grad.to_dense().norm()))
    _steps(model, optimizer, lambda: torch.tensor([1, 2, 2, 5]))
    run.close()
    np.testing.assert_allclose(column(read_back(run), "grad_norm", "weight"), grads, rtol=1e-5)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_half_precision_parameters(tmp_path, dtype):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU()).to(dtype)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    run = watched(tmp_path, model, optimizer, histograms_every=1)
    grads = []
    optimizer.register_step_pre_hook(lambda *_: grads.append(model[0].weight.grad.float().norm()))
    _steps(model, optimizer, lambda: torch.randn(2, 3, dtype=dtype))
    run.close()
    series = read_back(run)
    np.testing.assert_allclose(column(series, "grad_norm", "0.weight"), grads, rtol=1e-3)
    assert series.param_info["0.weight"]["dtype"] == str(dtype).removeprefix("torch.")
    assert len(series.histograms) == 2


def test_parameters_on_meta(tmp_path):
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU()).to("meta")
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    run = watched(tmp_path, model, optimizer, histograms_every=1)
    _steps(model, optimizer, lambda: torch.randn(2, 3, device="meta"))
    run.close()
    series = read_back(run)
    assert series.steps == [1, 2]
    assert np.isnan(column(series, "grad_norm", "0.weight")).all()
    assert series.non_finite == []


@pytest.mark.parametrize("given", ["model", 3, [nn.Linear(1, 1), "x"]])
def test_not_a_module_is_one_sentence(tmp_path, given):
    with pytest.raises(TypeError, match="takes torch.nn.Module models"):
        tensorviz.watch(given, log_dir=tmp_path)


def test_not_an_optimizer_is_one_sentence(tmp_path):
    with pytest.raises(TypeError, match="torch.optim optimizers"):
        tensorviz.watch(nn.Linear(1, 1), optimizer=object(), log_dir=tmp_path)


@pytest.mark.parametrize("option", ["every", "histograms_every"])
def test_bad_every_is_one_sentence(tmp_path, option):
    with pytest.raises(TypeError, match=option):
        tensorviz.watch(nn.Linear(1, 1), log_dir=tmp_path, **{option: 0})


def test_the_first_non_finite_value_is_named(tmp_path):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    run = watched(tmp_path, model, optimizer)
    for step in range(3):
        x = torch.randn(2, 3)
        if step == 1:
            x[0, 0] = float("nan")
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()
    run.close()
    series = read_back(run)
    bad = {(f["step"], f["what"], f["name"]) for f in series.non_finite}
    assert (2, "activation", "0") in bad and (2, "grad", "0.weight") in bad
    assert all(step >= 2 for step, _what, _name in bad)
    note = next(e for e in series.events if e.get("what") == "first_non_finite")
    assert (note["step"], note["activation"], note["grad"]) == (2, "0", "0.weight")
    assert np.isnan(series.loss[1])
