"""The loops people write: step(closure) (LBFGS, Lightning), two models with two optimizers (a
GAN), parameters unfrozen later, wrappers (DataParallel, torch.compile), no optimizer named
(every optimizer that holds the model's parameters), histograms against torch.histc."""

import numpy as np
import torch
from torch import nn

import tensorviz
from tests.core.watch.watch_helpers import BeforeStep, column, read_back, watched


def _model(seed=0):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))


def test_closure_statistics_are_read_after_the_closure_ran(tmp_path):
    model = _model()
    optimizer = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=4)
    run = watched(tmp_path, model, optimizer)
    x, y = torch.randn(8, 3), torch.randn(8, 1)
    first_grads, losses = [], []

    def closure():
        optimizer.zero_grad()
        loss = (model(x) - y).pow(2).mean()
        loss.backward()
        if len(first_grads) == len(losses):
            first_grads.append({n: p.grad.clone() for n, p in model.named_parameters()})
        return loss

    for _ in range(2):
        losses.append(optimizer.step(closure).item())
        first_grads[:] = first_grads[: len(losses)]
    run.close()
    series = read_back(run)
    assert series.steps == [1, 2]
    np.testing.assert_allclose(series.loss, losses, rtol=1e-6)
    for name in ("0.weight", "2.bias"):
        expected = [g[name].norm().item() for g in first_grads]
        np.testing.assert_allclose(column(series, "grad_norm", name), expected, rtol=1e-5)


def test_two_models_two_optimizers_count_their_own_steps(tmp_path):
    generator, critic = _model(1), _model(2)
    g_opt = torch.optim.SGD(generator.parameters(), lr=0.1)
    c_opt = torch.optim.Adam(critic.parameters(), lr=0.01)
    run = watched(tmp_path, [generator, critic], [g_opt, c_opt])
    g_before, c_before = BeforeStep(g_opt, generator), BeforeStep(c_opt, critic)
    for _ in range(3):
        c_opt.zero_grad()
        critic(torch.randn(5, 3)).mean().backward()
        c_opt.step()
        g_opt.zero_grad()
        generator(torch.randn(5, 3)).mean().backward()
        g_opt.step()
    run.close()
    series = read_back(run)
    assert series.optimizers == [1, 0, 1, 0, 1, 0] and series.steps == [1, 1, 2, 2, 3, 3]
    names = series.param_names
    assert "0.weight" in names and "Sequential.0.weight" in names
    grad = column(series, "grad_norm", "Sequential.0.weight")
    np.testing.assert_allclose(grad[0::2], [g["0.weight"].norm() for g in c_before.grads],
                               rtol=1e-5)  # fmt: skip
    assert np.isnan(grad[1::2]).all()  # the generator's steps leave the critic's cells empty
    expected = [g["0.weight"].norm() for g in g_before.grads]
    np.testing.assert_allclose(column(series, "grad_norm", "0.weight")[1::2], expected, rtol=1e-5)


def test_parameters_unfrozen_later_join_a_new_schema(tmp_path):
    model = _model()
    model[0].requires_grad_(False)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    run = watched(tmp_path, model, optimizer)
    for step in range(4):
        if step == 2:
            model[0].requires_grad_(True)
        optimizer.zero_grad()
        model(torch.randn(2, 3)).sum().backward()
        optimizer.step()
    run.close()
    series = read_back(run)
    assert len(series.schemas) == 2
    first, later = (series.schemas[v]["params"] for v in sorted(series.schemas))
    assert [p["name"] for p in first] == ["2.weight", "2.bias"]
    assert {p["name"] for p in later} == {"0.weight", "0.bias", "2.weight", "2.bias"}
    grad = column(series, "grad_norm", "0.weight")
    assert np.isnan(grad[:2]).all() and np.isfinite(grad[2:]).all()


def test_wrappers_are_seen_through_for_names(tmp_path):
    model = _model()
    wrapped = nn.DataParallel(model)
    optimizer = torch.optim.SGD(wrapped.parameters(), lr=0.1)
    run = watched(tmp_path, wrapped, optimizer)
    wrapped(torch.randn(2, 3)).sum().backward()
    optimizer.step()
    run.close()
    series = read_back(run)
    assert series.param_names == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert series.module_names == ["0", "1", "2"]
    assert np.isfinite(column(series, "act_mean", "1")).all()


def test_torch_compile_wrapper_names(tmp_path):
    model = _model()
    compiled = torch.compile(model, backend="eager")
    optimizer = torch.optim.SGD(compiled.parameters(), lr=0.1)
    run = watched(tmp_path, compiled, optimizer)
    for _ in range(2):
        optimizer.zero_grad()
        compiled(torch.randn(2, 3)).sum().backward()
        optimizer.step()
    run.close()
    series = read_back(run)
    assert series.param_names == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert series.steps == [1, 2]


def test_no_optimizer_named_watches_the_ones_holding_the_model(tmp_path):
    model, other = _model(), _model(3)
    mine = torch.optim.SGD(model.parameters(), lr=0.1)
    theirs = torch.optim.SGD(other.parameters(), lr=0.1)
    run = watched(tmp_path, model)
    for optimizer, net in ((mine, model), (theirs, other), (mine, model)):
        optimizer.zero_grad()
        net(torch.randn(2, 3)).sum().backward()
        optimizer.step()
    run.close()
    from torch.optim.optimizer import _global_optimizer_pre_hooks

    assert not _global_optimizer_pre_hooks  # removed at close
    series = read_back(run)
    assert series.steps == [1, 2] and series.optimizers == [0, 0]


def test_calling_watch_again_adds_to_the_active_run(tmp_path):
    first, second = _model(), _model(1)
    run = watched(tmp_path, first, torch.optim.SGD(first.parameters(), lr=0.1))
    again = tensorviz.watch(second, torch.optim.SGD(second.parameters(), lr=0.1))
    assert again is run
    run.close()
    assert tensorviz.watch is not None and run.closed


def test_histograms_are_torch_histc_of_the_same_values(tmp_path):
    model = _model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    run = watched(tmp_path, model, optimizer, histograms_every=2)
    before = BeforeStep(optimizer, model)
    outputs = {}
    for index, layer in enumerate(model):
        layer.register_forward_hook(
            lambda _m, _a, out, key=str(index): outputs.__setitem__(key, out.detach().clone())
        )
    kept = []
    optimizer.register_step_pre_hook(lambda *_: kept.append(dict(outputs)))
    for _ in range(3):
        optimizer.zero_grad()
        model(torch.randn(6, 3)).sum().backward()
        optimizer.step()
    run.close()
    series = read_back(run)
    assert [h.step for h in series.histograms] == [1, 3]
    for record, index in zip(series.histograms, (0, 2), strict=True):
        values = {("weight", n): w for n, w in before.weights[index].items()}
        values |= {("grad", n): g for n, g in before.grads[index].items()}
        values |= {("activation", n): out for n, out in kept[index].items()}
        assert len(record.tensors) == len(values)
        for (kind, name, low, high), counts in zip(record.tensors, record.counts, strict=True):
            tensor = values[(kind, name)].float()
            assert low <= tensor.min().item() and high >= tensor.max().item()
            expected = torch.histc(tensor, bins=32, min=low, max=high)
            np.testing.assert_array_equal(counts, expected.numpy())


def test_step_listener_of_a_closure_optimizer_comes_after_the_closure(tmp_path):
    model = _model()
    optimizer = torch.optim.LBFGS(model.parameters(), lr=0.1, max_iter=2)
    run = watched(tmp_path, model, optimizer)
    seen = []
    run.add_step_listener(
        lambda moment: seen.append(
            (moment.step, moment.loss is not None, model[0].weight.grad is not None)
        )  # fmt: skip
    )
    x = torch.randn(4, 3)

    def closure():
        optimizer.zero_grad()
        loss = model(x).pow(2).mean()
        loss.backward()
        return loss

    optimizer.step(closure)
    optimizer.step(closure)
    run.close()
    assert seen == [(1, True, True), (2, True, True)]


def test_models_nobody_named_are_found_at_their_optimizers_first_step(tmp_path):
    from tensorviz.core.watch.module_discovery import ModuleDiscovery
    from tensorviz.core.watch.recorder import WatchRun

    discovery = ModuleDiscovery()
    run = WatchRun(log_dir=tmp_path, discovery=discovery, announce=False).watch()
    discovery.start()
    generator, critic = _model(1), nn.DataParallel(_model(2))
    g_opt = torch.optim.SGD(generator.parameters(), lr=0.1)
    c_opt = torch.optim.SGD(critic.parameters(), lr=0.1)
    for optimizer, net in ((g_opt, generator), (c_opt, critic), (g_opt, generator)):
        optimizer.zero_grad()
        net(torch.randn(2, 3)).sum().backward()
        optimizer.step()
    run.close()
    series = read_back(run)
    assert series.optimizers == [0, 1, 0] and series.steps == [1, 1, 2]
    assert "0.weight" in series.param_names and "Sequential.0.weight" in series.param_names
    mean = column(series, "act_mean", "Sequential.1")  # the critic's first step has its forward
    assert np.isfinite(mean[1])
