"""`tensorviz.watch(model, optimizer)`: recording the user's own training in their process.

A step is one optimizer.step(). Its statistics are taken in the optimizer's step pre-hook (after
the closure, when step(closure) runs forward and backward inside), so a step's gradient norms
are the gradients step() is about to apply; the update ratio is measured in the post-hook at
sampled steps. Records go to a writer thread through a bounded queue (record_writer.py), so the
loop never waits on the disk. A step's frame is written when the next step begins (or the run
ends), so that `run.log(...)` after `optimizer.step()` lands on the step it follows.

Hook points for Pause / Step: `add_step_listener(fn)` — fn(StepMoment) on the user's thread at
each step boundary, after the statistics, before the update; `add_backward_listener(fn)` —
fn(loss) just before the real backward runs (the graph is still whole); `write_event(...)`.
"""

from __future__ import annotations

import datetime
import os
import sys
import traceback
import weakref
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from tensorviz.core.translation import _
from tensorviz.core.watch import loss_capture, run_ending
from tensorviz.core.watch.cpu_transfer import CpuBatch, add_groups, scatter
from tensorviz.core.watch.optimizer_watch import WatchedOptimizer, real_optimizer
from tensorviz.core.watch.parameter_statistics import update_norms, weights_copy
from tensorviz.core.watch.record_writer import RecordWriter
from tensorviz.core.watch.run_folder import choose_run_folder, rank_place
from tensorviz.core.watch.run_writer import RankStreamWriter, write_run_file
from tensorviz.core.watch.step_control import attach_gate
from tensorviz.core.watch.step_measurement import StepNumbers, measure_step
from tensorviz.core.watch.step_moment import StepMoment
from tensorviz.core.watch.watched_models import WatchedModels

_current: list = []  # the active run tensorviz.watch() adds to when called again


@dataclass
class _PendingStep:
    header: dict
    numbers: StepNumbers


def _positive(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise TypeError(
            _("tensorviz.watch: {name} must be a whole number of steps, 1 or more, not "
              "{value!r}.").format(name=name, value=value)
        )  # fmt: skip
    return value


def _as_list(value, what: str) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _detached(value):
    if isinstance(value, torch.Tensor):
        return value.detach()
    if isinstance(value, (tuple, list)):
        detached = [_detached(v) for v in value]
        return tuple(detached) if isinstance(value, tuple) else detached
    if isinstance(value, dict):
        return {k: _detached(v) for k, v in value.items()}
    return value


def checked_arguments(model, optimizer) -> tuple[list, list]:
    """(models, [(given, torch optimizer), ...]); TypeError (one sentence) for anything else."""
    models = _as_list(model, "model")
    optimizers = [(o, real_optimizer(o)) for o in _as_list(optimizer, "optimizer")]
    for candidate in models:
        if not isinstance(candidate, nn.Module):
            raise TypeError(
                _("tensorviz.watch takes torch.nn.Module models (or a list of them), not "
                  "{kind}.").format(kind=type(candidate).__name__)
            )  # fmt: skip
    for given, real in optimizers:
        if real is None:
            raise TypeError(
                _("tensorviz.watch takes torch.optim optimizers (or a list of them) as "
                  "optimizer, not {kind}.").format(kind=type(given).__name__)
            )  # fmt: skip
    return models, optimizers


class WatchRun:
    def __init__(self, *, log_dir=None, every=1, histograms_every=50, update_ratio_every=10,
                 command=None, announce=True):  # fmt: skip
        self.every = _positive("every", every)
        self.histograms_every = _positive("histograms_every", histograms_every)
        self.update_ratio_every = _positive("update_ratio_every", update_ratio_every)
        place = rank_place()
        self.rank, self.world_size = place.rank, place.world_size
        self.folder = choose_run_folder(log_dir, place)
        self._writer = RecordWriter(RankStreamWriter(self.folder, self.rank))
        if self.rank == 0:
            write_run_file(
                self.folder, name=self.folder.name,
                started=datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
                command=list(sys.argv if command is None else command),
                world_size=self.world_size, every=self.every,
                histograms_every=self.histograms_every,
            )  # fmt: skip
        self._models = WatchedModels(on_root_forward=self._on_forward)
        self._optimizers: list[WatchedOptimizer] = []
        self._by_id: dict[int, WatchedOptimizer] = {}
        self._not_ours: weakref.WeakSet = weakref.WeakSet()
        self._global_handles: list = []
        self._schema_version = 0
        self._schema_dirty = True
        self._loss = None  # the last scalar the loop called backward() on
        self._activity = False  # a forward or backward since the last step
        self._next_scalars: dict = {}
        self._next_loss: float | None = None
        self._pending: _PendingStep | None = None
        self._step_listeners: list = []
        self._backward_listeners: list = []
        self._said_first_non_finite = False
        self._failure: str | None = None
        self.closed = False
        self.write_event("started", pid=os.getpid(), rank=self.rank, world_size=self.world_size)
        self.step_gate = attach_gate(self)  # Pause / Step / Run to from a viewer (step_control)
        loss_capture.activate(self)
        run_ending.register(self)
        _current[:] = [self]
        if announce:
            print(_("tensorviz: recording this run into {folder}").format(folder=self.folder),
                  file=sys.stderr)  # fmt: skip

    # ---- what the user calls ----------------------------------------------------------------

    def watch(self, model=None, optimizer=None) -> WatchRun:
        """Watch more models (a module or a list) and optimizers; no optimizer: every optimizer
        that holds a watched parameter (torch's global optimizer hooks)."""
        models, optimizers = checked_arguments(model, optimizer)
        for candidate in models:
            self._schema_dirty |= self._models.add(candidate)
        if optimizer is None:
            self._watch_every_optimizer()
        for _given, real in optimizers:
            self._add_optimizer(real)
        self._not_ours = weakref.WeakSet()
        self._refresh_schema()
        return self

    def log(self, loss=None, **scalars) -> None:
        """Add the loss and scalars of your own to the step just taken (or, when a forward or
        backward ran since, to the step about to come)."""
        values = {}
        for name, value in scalars.items():
            values[name] = self._number(name, value)
        loss_value = None if loss is None else self._number("loss", loss)
        if self._pending is not None and not self._activity:
            self._pending.header["scalars"].update(values)
            if loss_value is not None:
                self._pending.header["loss"] = loss_value
        else:
            self._next_scalars.update(values)
            if loss_value is not None:
                self._next_loss = loss_value

    @staticmethod
    def _number(name: str, value) -> float:
        try:
            return float(value)
        except (TypeError, ValueError, RuntimeError):
            raise TypeError(
                _("run.log: {name} must be a number (or a one-value tensor), not "
                  "{kind}.").format(name=name, kind=type(value).__name__)
            ) from None  # fmt: skip

    def add_step_listener(self, listener):
        self._step_listeners.append(listener)
        return listener

    def remove_step_listener(self, listener) -> None:
        if listener in self._step_listeners:
            self._step_listeners.remove(listener)

    def add_backward_listener(self, listener):
        self._backward_listeners.append(listener)
        return listener

    def remove_backward_listener(self, listener) -> None:
        if listener in self._backward_listeners:
            self._backward_listeners.remove(listener)

    def write_event(self, name: str, **fields) -> None:
        self._writer.put_waiting(("event", name, fields))

    @property
    def dropped(self) -> int:
        return self._writer.dropped

    @property
    def steps(self) -> list[int]:
        """Steps taken so far, per optimizer."""
        return [state.step for state in self._optimizers]

    def inspect_paused(self) -> bool:
        """Open the step the loop is paused at in a tensorviz window (its batch, outputs, loss,
        parameters, gradients and the loss's autograd graph); False when nothing is paused."""
        return self.step_gate.inspect_paused()

    def close(self) -> None:
        self._finish("finished")

    def __enter__(self) -> WatchRun:
        return self

    def __exit__(self, kind, value, tb) -> None:
        if value is None:
            self.close()
        else:
            self._end_with(value)

    # ---- optimizers -------------------------------------------------------------------------

    def _add_optimizer(self, optimizer) -> WatchedOptimizer:
        state = self._by_id.get(id(optimizer))
        if state is not None and state.optimizer is optimizer:
            return state
        state = WatchedOptimizer(optimizer, len(self._optimizers))
        self._optimizers.append(state)
        self._by_id[id(optimizer)] = state
        if not self._global_handles:
            state.handles = [optimizer.register_step_pre_hook(self._pre_step),
                             optimizer.register_step_post_hook(self._post_step)]  # fmt: skip
            watched = {id(p.param) for p in self._models.all_params()}
            for g, group in enumerate(optimizer.param_groups):
                for j, param in enumerate(group["params"]):
                    if id(param) not in watched:
                        self._models.add_extra(f"optimizer{state.index}.group{g}.{j}", param)
        self._schema_dirty = True
        return state

    def _watch_every_optimizer(self) -> None:
        if self._global_handles:
            return
        for state in self._optimizers:
            state.remove_hooks()
        from torch.optim.optimizer import (
            register_optimizer_step_post_hook,
            register_optimizer_step_pre_hook,
        )

        self._global_handles = [register_optimizer_step_pre_hook(self._pre_step),
                                register_optimizer_step_post_hook(self._post_step)]  # fmt: skip

    def _state_for(self, optimizer) -> WatchedOptimizer | None:
        state = self._by_id.get(id(optimizer))
        if state is not None and state.optimizer is optimizer:
            return state
        if not self._global_handles or optimizer in self._not_ours:
            return None
        watched = {id(p.param) for p in self._models.all_params()}
        if any(id(p) in watched for group in optimizer.param_groups for p in group["params"]):
            return self._add_optimizer(optimizer)
        self._not_ours.add(optimizer)
        return None

    def _pre_step(self, optimizer, args, kwargs):
        if self.closed:
            return None
        state = self._state_for(optimizer)
        if state is None:
            return None
        # torch passes step()'s own arguments: args[0] is the optimizer, then the closure
        start = 1 if args and args[0] is optimizer else 0
        closure = args[start] if len(args) > start else kwargs.get("closure")
        if callable(closure):
            wrapped = self._closure_for(state, closure)
            if len(args) > start:
                return (*args[:start], wrapped, *args[start + 1 :]), kwargs
            return args, dict(kwargs, closure=wrapped)
        self._step_begins(state, None)
        return None

    def _closure_for(self, state: WatchedOptimizer, closure):
        """step(closure) runs forward and backward inside step(): the statistics are read when
        the closure's first call returns (LBFGS calls it again during its line search)."""

        def closure_then_statistics(*args, **kwargs):
            result = closure(*args, **kwargs)
            if not state.started:
                self._step_begins(state, result)
            return result

        return closure_then_statistics

    def _post_step(self, optimizer, args, kwargs) -> None:
        state = self._by_id.get(id(optimizer))
        if state is None or state.optimizer is not optimizer or not state.started:
            return
        state.started = False
        if state.update is None:
            return
        pending, rows, params, before = state.update
        state.update = None
        try:
            if pending is self._pending:
                groups = update_norms(params, before)
                batch = CpuBatch()
                add_groups(batch, groups)
                delta = scatter(len(self._models.params), groups, batch.fetch(), rows)
                with np.errstate(divide="ignore", invalid="ignore"):
                    ratio = delta / pending.numbers.arrays["weight_norm"]
                pending.numbers.arrays["update_ratio"] = ratio.astype(np.float32)
        except Exception as error:  # noqa: BLE001 (training goes on; said once)
            self._failed(error)

    # ---- the step ---------------------------------------------------------------------------

    def _step_begins(self, state: WatchedOptimizer, closure_result) -> None:
        self._write_pending()
        state.step += 1
        state.started = True
        step = state.step
        loss = self._loss if self._loss is not None else closure_result
        try:
            self._refresh_schema()
            if (step - 1) % self.every == 0:
                self._measure(state, step, loss)
        except Exception as error:  # noqa: BLE001 (training goes on; said once)
            self._failed(error)
        self._activity = False
        self._loss = None
        if self._step_listeners:
            self._tell_listeners(state, step, loss)

    def _measure(self, state: WatchedOptimizer, step: int, loss) -> None:
        positions = {id(p.param): i for i, p in enumerate(self._models.params)}
        rows = state.rows_for(self._schema_version, positions)
        numbers = measure_step(
            self._models, rows, loss, with_histograms=(step - 1) % self.histograms_every == 0
        )
        loss_value = self._next_loss if self._next_loss is not None else numbers.loss
        header = {"step": step, "optimizer": state.index, "schema": self._schema_version,
                  "time": datetime.datetime.now().timestamp(), "loss": loss_value,
                  "scalars": dict(self._next_scalars),
                  "non_finite": numbers.non_finite}  # fmt: skip
        self._next_scalars, self._next_loss = {}, None
        self._pending = _PendingStep(header, numbers)
        if (step - 1) % self.update_ratio_every == 0:
            params = list(state.params)
            state.update = (self._pending, rows, params, weights_copy(params))

    def _write_pending(self) -> None:
        pending, self._pending = self._pending, None
        if pending is None:
            return
        numbers = pending.numbers
        header = dict(pending.header, dropped=self._writer.dropped)
        self._writer.put(("step", header, numbers.arrays))
        if numbers.histogram_counts is not None and len(numbers.histogram_tensors):
            histogram_header = {"step": header["step"], "optimizer": header["optimizer"],
                                "bins": int(numbers.histogram_counts.shape[1]),
                                "tensors": numbers.histogram_tensors}  # fmt: skip
            self._writer.put(("histograms", histogram_header, numbers.histogram_counts))
        if numbers.non_finite and not self._said_first_non_finite:
            self._said_first_non_finite = True
            names = [p.name for p in self._models.params]
            grads = sorted(int(i) for i in numbers.non_finite.get("grad", {}))
            self.write_event(
                "note", what="first_non_finite", step=header["step"],
                optimizer=header["optimizer"],
                grad=names[grads[0]] if grads else None, activation=numbers.first_activation,
            )  # fmt: skip

    def _refresh_schema(self) -> None:
        changed = self._models.rescan()
        if not (changed or self._schema_dirty):
            return
        self._schema_dirty = False
        self._schema_version += 1
        holder: dict[int, int] = {}
        for state in reversed(self._optimizers):
            for param in state.all_params():
                holder[id(param)] = state.index
        self._writer.put_waiting(("schema", {
            "schema": self._schema_version,
            "params": [{"name": p.name, "shape": list(p.param.shape),
                        "dtype": str(p.param.dtype).removeprefix("torch."), "module": p.module,
                        "optimizer": holder.get(id(p.param))} for p in self._models.params],
            "modules": [{"name": m.name, "type": type(m.module).__name__, "kind": m.kind}
                        for m in self._models.modules],
        }))  # fmt: skip

    def _tell_listeners(self, state: WatchedOptimizer, step: int, loss) -> None:
        roots = self._models.roots
        pending = self._pending
        moment = StepMoment(
            self, step, state.index, state.optimizer, loss, [r.module for r in roots],
            [_detached(r.inputs) for r in roots], [_detached(r.output) for r in roots],
            {"header": pending.header, "arrays": pending.numbers.arrays} if pending else {},
        )  # fmt: skip
        for listener in list(self._step_listeners):
            try:
                listener(moment)
            except Exception as error:  # noqa: BLE001 (a listener's bug never stops training)
                self._failed(error)

    def _on_backward(self, loss) -> None:
        self._loss = loss
        self._activity = True
        for listener in list(self._backward_listeners):
            try:
                listener(loss)
            except Exception as error:  # noqa: BLE001
                self._failed(error)

    def _on_forward(self) -> None:
        self._activity = True

    def _failed(self, error: BaseException) -> None:
        if self._failure is None:
            self._failure = f"{type(error).__name__}: {error}"
            print(_("tensorviz: watching stopped measuring a step ({error}); training goes "
                    "on.").format(error=self._failure), file=sys.stderr)  # fmt: skip
            self.write_event("note", what="recorder_error", error=self._failure,
                             traceback="".join(traceback.format_exception(error)))  # fmt: skip

    # ---- the end ----------------------------------------------------------------------------

    def _end_with(self, error: BaseException) -> None:
        if isinstance(error, KeyboardInterrupt):
            self._finish("interrupted")
        elif isinstance(error, SystemExit) and error.code in (None, 0):
            self._finish("finished")
        else:
            self._finish("error", f"{type(error).__name__}: {error}".splitlines()[0],
                         "".join(traceback.format_exception(error)))  # fmt: skip

    def _finish(self, status: str, error: str | None = None, trace: str | None = None) -> None:
        if self.closed:
            return
        self.closed = True
        self._write_pending()
        self._models.remove_hooks()
        for state in self._optimizers:
            state.remove_hooks()
        for handle in self._global_handles:
            handle.remove()
        loss_capture.deactivate(self)
        run_ending.unregister(self)
        if _current and _current[0] is self:
            _current.clear()
        steps = self.steps
        self.write_event("ended", status=status, step=max(steps, default=0), steps=steps,
                         error=error, traceback=trace, dropped=self._writer.dropped)  # fmt: skip
        self._writer.close()


def current_run() -> WatchRun | None:
    return _current[0] if _current else None
