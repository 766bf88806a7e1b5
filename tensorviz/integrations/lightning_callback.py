"""`TensorvizCallback` for Lightning: `Trainer(callbacks=[TensorvizCallback()])` watches the
LightningModule and the optimizers its `configure_optimizers` made, from fit start to fit end.

    from tensorviz.integrations.lightning_callback import TensorvizCallback
    trainer = lightning.Trainer(callbacks=[TensorvizCallback(histograms_every=100)])

Every optimizer step becomes a step of the run folder (`tensorviz.watch()` does the recording);
the callback adds the training loss and every number Lightning logged
(`trainer.callback_metrics`, what `self.log(...)` sent) as the step's scalars, and closes the run
when fit ends or raises. Under a distributed strategy every rank writes its own stream into the
same run folder. Lightning is imported with this module (`lightning.pytorch`, else the older
`pytorch_lightning`), never by `import tensorviz`.
"""

from __future__ import annotations

try:
    from lightning.pytorch import Callback
except ImportError:  # the standalone package of Lightning < 2 names it pytorch_lightning
    from pytorch_lightning import Callback

from tensorviz.integrations.logged_numbers import as_number, numeric_logs


class TensorvizCallback(Callback):
    """Records the fit into a run folder; `folder` says where once fit has started."""

    def __init__(self, *, log_dir=None, every: int = 1, histograms_every: int = 50):
        super().__init__()
        self.log_dir = log_dir
        self.every = every
        self.histograms_every = histograms_every
        self.run = None  # the WatchRun while the trainer runs
        self.folder = None  # its run folder, kept after the run closed
        self._logged_step = None

    def on_fit_start(self, trainer, pl_module) -> None:
        import tensorviz

        self.run = tensorviz.watch(
            pl_module,
            list(trainer.optimizers),
            log_dir=self.log_dir,
            every=self.every,
            histograms_every=self.histograms_every,
        )
        self.folder = self.run.folder
        self._logged_step = trainer.global_step

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx) -> None:
        # Once per optimizer step: with gradient accumulation several batches make one step.
        if self.run is None or trainer.global_step == self._logged_step:
            return
        self._logged_step = trainer.global_step
        loss = outputs.get("loss") if isinstance(outputs, dict) else outputs
        scalars = numeric_logs(trainer.callback_metrics)
        self.run.log(loss=as_number(loss) if loss is not None else None, **scalars)

    def on_fit_end(self, trainer, pl_module) -> None:
        self._close()

    def on_exception(self, trainer, pl_module, exception: BaseException) -> None:
        self._close(exception)

    def _close(self, exception: BaseException | None = None) -> None:
        run, self.run = self.run, None
        if run is None:
            return
        if exception is None:
            run.close()
        else:  # the run's own ending: "error" with the line, or "interrupted" for Ctrl+C
            run.__exit__(type(exception), exception, exception.__traceback__)
