"""How a run hangs on the optimizers (part of WatchRun, recorder.py): per optimizer step pre- and
post-hooks, or torch's global optimizer hooks filtered to the optimizers that hold a watched
parameter (no optimizer named), or — `tensorviz watch` — every optimizer, its models found at
its first step. step(closure) has its closure wrapped, so that the statistics are read after
the closure's first call (forward and backward run inside step()); the update ratio is
measured in the post-hook against the weights copied in the pre-hook."""

from __future__ import annotations

from tensorviz.core.watch.optimizer_watch import WatchedOptimizer
from tensorviz.core.watch.step_measurement import update_ratios
from tensorviz.core.watch.watched_models import activation_sample


class OptimizerHooks:
    """Mixed into WatchRun; uses its _models, _optimizers, _by_id, _not_ours, _global_handles,
    _discovery, _pending, _schema_dirty, closed, _step_begins and _failed."""

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
        if self._discovery is not None:
            self._adopt_models_of(optimizer)
            return self._add_optimizer(optimizer)
        watched = {id(p.param) for p in self._models.all_params()}
        if any(id(p) in watched for group in optimizer.param_groups for p in group["params"]):
            return self._add_optimizer(optimizer)
        self._not_ours.add(optimizer)
        return None

    def _adopt_models_of(self, optimizer) -> None:
        """Watch the models that hold `optimizer`'s parameters, with their outputs of the
        forward that ran before this first step."""
        for root in self._discovery.roots_for(optimizer):
            if self._models.add(root):
                self._schema_dirty = True
                for index, entry in enumerate(self._models.modules):
                    output = self._discovery.early_output(entry.module)
                    sample = activation_sample(output) if output is not None else None
                    if sample is not None and index not in self._models.samples:
                        self._models.samples[index] = sample
            self._discovery.now_watched(root)

    def _pre_step(self, optimizer, args, kwargs):
        if self.closed:
            return None
        state = self._state_for(optimizer)
        if state is None:
            return None
        state.started = False  # a step() that raised never reached its post-hook
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
                ratio = update_ratios(params, before, rows, pending.numbers.arrays["weight_norm"])
                pending.numbers.arrays["update_ratio"] = ratio
        except Exception as error:  # noqa: BLE001 (training goes on; said once)
            self._failed(error)
