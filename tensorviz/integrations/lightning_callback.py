"""`TensorvizCallback` for Lightning: `Trainer(callbacks=[TensorvizCallback()])` watches the
LightningModule and the optimizers its `configure_optimizers` made, from fit start to fit end.

    from tensorviz.integrations.lightning_callback import TensorvizCallback
    trainer = lightning.Trainer(callbacks=[TensorvizCallback(histograms_every=100)])

Every optimizer step becomes a step of the run folder (`tensorviz.watch()` does the recording;
Lightning's backward runs inside `optimizer.step(closure)`, and the gradients are read when the
closure returns); the callback adds the training loss and every number Lightning logged
(`trainer.callback_metrics`, what `self.log(...)` sent) as the step's scalars, and closes the run
when fit ends or raises. Under a distributed strategy every rank writes its own stream into the
same run folder. Lightning is imported with this module (`lightning.pytorch`, else the
standalone `pytorch_lightning`), never by `import tensorviz`.
"""

from __future__ import annotations

try:
    from lightning.pytorch import Callback
except ImportError:  # Lightning installed as the standalone pytorch_lightning package
    from pytorch_lightning import Callback

from tensorviz.integrations.callback_run import CallbackRun
from tensorviz.integrations.logged_numbers import as_number, numeric_logs


class TensorvizCallback(Callback):
    """Records the fit into a run folder; `folder` says where once fit has started."""

    def __init__(self, *, log_dir=None, every: int = 1, histograms_every: int = 50):
        super().__init__()
        self.log_dir = log_dir
        self.every = every
        self.histograms_every = histograms_every
        self.run: CallbackRun | None = None  # while the trainer fits
        self.folder = None  # the run folder, kept after the run closed
        self._logged_step = None

    def on_fit_start(self, trainer, pl_module) -> None:
        self.run = CallbackRun(
            pl_module, trainer.optimizers, log_dir=self.log_dir, every=self.every,
            histograms_every=self.histograms_every,
        )  # fmt: skip
        self.folder = self.run.folder
        self._logged_step = trainer.global_step

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx) -> None:
        # Once per optimizer step: with gradient accumulation several batches make one step.
        if self.run is None or trainer.global_step == self._logged_step:
            return
        self._logged_step = trainer.global_step
        returned = outputs.get("loss") if isinstance(outputs, dict) else outputs
        scalars = numeric_logs(trainer.callback_metrics)
        logged = scalars.pop("loss", None)  # self.log("loss", ...): the loss, not a scalar
        loss = as_number(returned) if returned is not None else logged
        self.run.log(loss=loss, **scalars)

    def on_fit_end(self, trainer, pl_module) -> None:
        self._end()

    def on_exception(self, trainer, pl_module, exception: BaseException) -> None:
        self._end(exception)

    def _end(self, exception: BaseException | None = None) -> None:
        run, self.run = self.run, None
        if run is not None:
            run.end(exception)
