"""`TensorvizCallback` for the transformers `Trainer`: `Trainer(...,
callbacks=[TensorvizCallback()])` watches the model and the optimizer the Trainer made.

    from tensorviz.integrations.transformers_callback import TensorvizCallback
    trainer = Trainer(model, args, train_dataset=data, callbacks=[TensorvizCallback()])

Every optimizer step becomes a step of the run folder (`tensorviz.watch()` does the recording,
through the torch optimizer inside accelerate's wrapper, and takes each step's loss from its
backward); what the Trainer logs every `logging_steps` (`learning_rate`, `grad_norm`, `epoch`,
…) goes to the run as the step's scalars, and its `loss` as the step's loss where it is one
step's loss (`logging_steps=1`), else as the scalar `logged_loss` (its mean over the steps since
the last log), so the loss curve stays one step per point. The run closes when training ends.
On several processes every rank writes its own stream into the same run folder. transformers is
imported with this module, never by `import tensorviz`.
"""

from __future__ import annotations

import torch
from transformers import TrainerCallback

from tensorviz.core.translation import _
from tensorviz.integrations.callback_run import CallbackRun
from tensorviz.integrations.logged_numbers import numeric_logs


def innermost_optimizer(optimizer):
    """The torch optimizer inside accelerate's `AcceleratedOptimizer` (itself an Optimizer
    subclass whose own step hooks never fire), whose step hooks fire on every real step."""
    seen = set()
    while id(optimizer) not in seen:
        seen.add(id(optimizer))
        inner = getattr(optimizer, "optimizer", None)
        if not isinstance(inner, torch.optim.Optimizer):
            break
        optimizer = inner
    return optimizer


class TensorvizCallback(TrainerCallback):
    """Records the training into a run folder; `folder` says where once training has begun."""

    def __init__(self, *, log_dir=None, every: int = 1, histograms_every: int = 50):
        self.log_dir = log_dir
        self.every = every
        self.histograms_every = histograms_every
        self.run: CallbackRun | None = None  # while the Trainer trains
        self.folder = None  # the run folder, kept after the run closed
        self._loss_logged_at = 0  # the global step of the Trainer's last logged loss

    def on_train_begin(self, args, state, control, model=None, optimizer=None, **kwargs):
        if self.run is not None:  # the last train() raised (the Trainer has no hook for that)
            self.run.end(RuntimeError(_("train() stopped before it ended")))
        optimizers = [innermost_optimizer(optimizer)] if optimizer is not None else []
        self.run = CallbackRun(
            model, optimizers, log_dir=self.log_dir, every=self.every,
            histograms_every=self.histograms_every,
        )  # fmt: skip
        self.folder = self.run.folder
        self._loss_logged_at = state.global_step

    def on_log(self, args, state, control, logs=None, **kwargs):
        if self.run is None:
            return
        scalars = numeric_logs(logs)
        loss = scalars.pop("loss", None)
        if loss is not None:
            steps = state.global_step - self._loss_logged_at
            self._loss_logged_at = state.global_step
            if steps != 1:  # the Trainer's mean over several steps: not one step's loss
                scalars["logged_loss"], loss = loss, None
        self.run.log(loss=loss, **scalars)

    def on_train_end(self, args, state, control, **kwargs):
        run, self.run = self.run, None
        if run is not None:
            run.end()
