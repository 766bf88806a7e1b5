"""`tensorviz.watch(model, optimizer)`: recording the user's own training in their process.

A step is one optimizer.step(). Its statistics are taken in the optimizer's step pre-hook (after
the closure, when step(closure) runs forward and backward inside), so a step's gradient norms
are the gradients step() is about to apply; the update ratio is measured in the post-hook at
sampled steps. Encoded records go to a writer thread through a bounded deque (record_writer.py),
so the loop never waits on the disk. A step's frame is written when the next step begins (or the run
ends), so that `run.log(...)` after `optimizer.step()` lands on the step it follows.

Hook points for Pause / Step: `add_step_listener(fn)` — fn(StepMoment) on the user's thread at
each step boundary, after the statistics, before the update; `add_backward_listener(fn)` —
fn(loss) just before the real backward runs (the graph is still whole); `write_event(...)`.
"""

from __future__ import annotations

import datetime
import os
import sys
import time
import traceback
import weakref
from dataclasses import dataclass

from tensorviz.core.translation import _
from tensorviz.core.watch import loss_capture, run_ending
from tensorviz.core.watch.activation_job import ActivationJob
from tensorviz.core.watch.optimizer_hooks import OptimizerHooks
from tensorviz.core.watch.optimizer_watch import WatchedOptimizer
from tensorviz.core.watch.parameter_statistics import weights_copy
from tensorviz.core.watch.record_writer import RecordWriter
from tensorviz.core.watch.run_folder import choose_run_folder, rank_place
from tensorviz.core.watch.run_writer import RankStreamWriter, write_run_file
from tensorviz.core.watch.step_control import attach_gate
from tensorviz.core.watch.step_measurement import (
    StepNumbers,
    measure_step,
    step_records,
    suspicious,
)
from tensorviz.core.watch.step_moment import StepMoment, detached
from tensorviz.core.watch.watch_arguments import checked_arguments, positive_steps
from tensorviz.core.watch.watched_models import WatchedModels

_current: list = []  # the active run tensorviz.watch() adds to when called again


@dataclass
class _PendingStep:
    header: dict
    numbers: StepNumbers
    params: list  # the schema's parameters when it was measured (for names)


class WatchRun(OptimizerHooks):
    def __init__(self, *, log_dir=None, every=1, histograms_every=50, update_ratio_every=10,
                 command=None, announce=True, discovery=None):  # fmt: skip
        self.every = positive_steps("every", every)
        self.histograms_every = positive_steps("histograms_every", histograms_every)
        self.update_ratio_every = positive_steps("update_ratio_every", update_ratio_every)
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
        self._discovery = discovery  # tensorviz watch SCRIPT.py: models found at their step
        self._optimizers: list[WatchedOptimizer] = []
        self._by_id: dict[int, WatchedOptimizer] = {}
        self._not_ours: weakref.WeakSet = weakref.WeakSet()
        self._global_handles: list = []
        self._schema_version = 0
        self._schema_dirty = True
        self._positions: dict[int, int] = {}  # id(parameter) → schema position (per schema)
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
        self._models.keep_root_io = True
        return listener

    def remove_step_listener(self, listener) -> None:
        if listener in self._step_listeners:
            self._step_listeners.remove(listener)
        self._models.keep_root_io = bool(self._step_listeners)

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
        self._models.sampling = any(s.step % self.every == 0 for s in self._optimizers)
        if self._step_listeners:
            self._tell_listeners(state, step, loss)

    def _measure(self, state: WatchedOptimizer, step: int, loss) -> None:
        rows = state.rows_for(self._schema_version, self._positions)
        with_histograms = (step - 1) % self.histograms_every == 0
        numbers = measure_step(self._models, rows, loss, with_histograms=with_histograms)
        self._hand_over_activations(numbers, with_histograms)
        loss_value = self._next_loss if self._next_loss is not None else numbers.loss
        header = {"step": step, "optimizer": state.index, "schema": self._schema_version,
                  "time": round(time.time(), 3), "loss": loss_value,
                  "scalars": dict(self._next_scalars)}  # fmt: skip
        self._next_scalars, self._next_loss = {}, None
        self._pending = _PendingStep(header, numbers, self._models.params)
        if (step - 1) % self.update_ratio_every == 0:
            params = list(state.params)
            state.update = (self._pending, rows, params, weights_copy(params))

    def _hand_over_activations(self, numbers: StepNumbers, with_histograms: bool) -> None:
        samples = self._models.samples
        if not samples:
            return
        job = ActivationJob(
            dict(samples), [m.kind for m in self._models.modules],
            [m.name for m in self._models.modules], with_histograms=with_histograms,
            search_whole=suspicious(numbers),
        )  # fmt: skip
        job.run()
        numbers.activations = job

    def _write_pending(self) -> None:
        pending, self._pending = self._pending, None
        if pending is None:
            return
        header = pending.header
        if not header["scalars"]:
            del header["scalars"]
        if self._writer.dropped:
            header["dropped"] = self._writer.dropped
        records = self._records_of(pending)
        if header["optimizer"] == 0:
            del header["optimizer"]  # the first optimizer's index is left out (readers: 0)
        for record in records:
            self._writer.put(record)

    def _records_of(self, pending: _PendingStep) -> list[tuple]:
        """The step's frames, and the note of the first NaN/inf."""
        numbers = pending.numbers
        records = step_records(pending.header, numbers)
        non_finite = records[0][1].get("non_finite")
        if non_finite and not self._said_first_non_finite:
            self._said_first_non_finite = True
            grads = sorted(int(i) for i in non_finite.get("grad", {}))
            job = numbers.activations
            records.append(("event", "note", {
                "what": "first_non_finite", "step": pending.header["step"],
                "optimizer": pending.header["optimizer"],
                "grad": pending.params[grads[0]].name if grads else None,
                "activation": job.first_module if job is not None else None,
            }))  # fmt: skip
        return records

    def _refresh_schema(self) -> None:
        changed = self._models.rescan()
        if not (changed or self._schema_dirty):
            return
        self._schema_dirty = False
        self._schema_version += 1
        self._positions = {id(p.param): i for i, p in enumerate(self._models.params)}
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
        statistics = {}
        if pending is not None:
            arrays = dict(pending.numbers.arrays)
            job = pending.numbers.activations
            if job is not None and job.done:
                arrays.update(job.arrays)
            statistics = {"header": pending.header, "arrays": arrays,
                          "params": [p.name for p in pending.params],
                          "modules": [m.name for m in self._models.modules]}  # fmt: skip
        moment = StepMoment(
            self, step, state.index, state.optimizer, loss, [r.module for r in roots],
            [detached(r.inputs) for r in roots], [detached(r.output) for r in roots], statistics,
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
        if self._discovery is not None:
            self._discovery.stop()
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
