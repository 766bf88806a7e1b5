"""Shared pieces of the recorder tests: a run under tmp_path, read back with RunReader, and a
test's own step pre-hook that keeps what torch holds just before optimizer.step()."""

from __future__ import annotations

import torch

import tensorviz
from tensorviz.core.watch.run_reader import RunReader


def watched(tmp_path, model, optimizer=None, **options):
    options.setdefault("update_ratio_every", 1)
    return tensorviz.watch(model, optimizer, log_dir=tmp_path, **options)


def read_back(run):
    reader = RunReader(run.folder)
    assert reader.problems == []
    return reader.ranks[0]


class BeforeStep:
    """Registered after watch(): gradients and weights exactly as step() finds them."""

    def __init__(self, optimizer, model):
        self.model = model
        self.grads: list[dict[str, torch.Tensor]] = []
        self.weights: list[dict[str, torch.Tensor]] = []
        optimizer.register_step_pre_hook(self._before)

    def _before(self, _optimizer, _args, _kwargs):
        named = dict(self.model.named_parameters())
        self.grads.append({n: p.grad.clone() for n, p in named.items() if p.grad is not None})
        self.weights.append({n: p.detach().clone() for n, p in named.items()})


def column(series, table: str, name: str):
    return series.tables[table].column(name)
