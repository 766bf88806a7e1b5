"""The Lightning callback inside a real `lightning.Trainer`, checked against torch: the run
folder has one step per optimizer step the trainer made, the last step's gradient norms are
the gradients Lightning handed the optimizer, and the loss is the one training_step returned.

Lightning is imported inside the tests (≈2.5 s), so collecting the suite never pays for it."""

from types import SimpleNamespace

import pytest
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from tensorviz.core.watch.run_reader import RunReader


def _lightning_kit():
    """lightning itself and two classes built on it, imported only by the tests that run."""
    import lightning

    class TinyRegression(lightning.LightningModule):
        def __init__(self, fail_at_step=None):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
            self.losses = []
            self.fail_at_step = fail_at_step

        def training_step(self, batch, batch_idx):
            if self.global_step == self.fail_at_step:
                raise RuntimeError("the data went bad")
            x, y = batch
            loss = nn.functional.mse_loss(self.net(x), y)
            self.log("train_mse", loss, on_step=True, on_epoch=False)
            self.log("loss", loss)  # the name the run's own loss has
            self.losses.append(loss.item())
            return loss

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.05, momentum=0.9)

    class GradientsBeforeEachStep(lightning.Callback):
        """Lightning's own place to read gradients: after backward, before the optimizer
        changes anything (in Lightning the backward runs inside optimizer.step's closure)."""

        def __init__(self):
            self.norms = []

        def on_before_optimizer_step(self, trainer, pl_module, optimizer):
            self.norms.append(
                {name: p.grad.norm().item() for name, p in pl_module.named_parameters()}
            )  # fmt: skip

    return SimpleNamespace(
        lightning=lightning, TinyRegression=TinyRegression,
        GradientsBeforeEachStep=GradientsBeforeEachStep,
    )  # fmt: skip


def _loader(batches=4, batch_size=8):
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(batches * batch_size, 4, generator=generator)
    y = x.sum(dim=1, keepdim=True) + 0.1 * torch.randn(len(x), 1, generator=generator)
    return DataLoader(TensorDataset(x, y), batch_size=batch_size)


def _trainer(lightning, tmp_path, callbacks):
    return lightning.Trainer(
        max_steps=5,
        accelerator="cpu",
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        log_every_n_steps=1,
        default_root_dir=tmp_path,
        callbacks=callbacks,
    )


def test_a_fit_becomes_a_run_folder_with_torchs_own_numbers(tmp_path):
    from tensorviz.integrations.lightning_callback import TensorvizCallback

    kit = _lightning_kit()
    torch.manual_seed(0)
    model = kit.TinyRegression()
    watcher = TensorvizCallback(log_dir=tmp_path / "runs")
    gradients = kit.GradientsBeforeEachStep()
    trainer = _trainer(kit.lightning, tmp_path, [watcher, gradients])
    trainer.fit(model, _loader())

    assert trainer.global_step == 5  # 4 batches an epoch: the fit went into a second epoch
    rank = RunReader(watcher.folder).ranks[0]
    assert rank.steps == list(range(1, trainer.global_step + 1))
    assert rank.ended is not None and rank.ended["status"] == "finished"
    names = [name for name, _ in model.named_parameters()]
    assert sorted(rank.param_names) == sorted(names)  # net.0.weight ..., the module's own names
    last = rank.tables["grad_norm"].values[-1]
    for name in names:
        column = rank.tables["grad_norm"].index_of(name)
        assert last[column] == pytest.approx(gradients.norms[-1][name], rel=1e-5)
    assert rank.loss == pytest.approx(model.losses, rel=1e-6)
    assert rank.scalars.column("train_mse") == pytest.approx(model.losses, rel=1e-6)
    assert "loss" not in rank.scalars.names


def test_a_fit_that_raises_still_closes_its_run(tmp_path):
    from tensorviz.integrations.lightning_callback import TensorvizCallback

    kit = _lightning_kit()
    watcher = TensorvizCallback(log_dir=tmp_path / "runs")
    trainer = _trainer(kit.lightning, tmp_path, [watcher])
    with pytest.raises(RuntimeError, match="the data went bad"):
        trainer.fit(kit.TinyRegression(fail_at_step=2), _loader())
    assert watcher.run is None  # closed by on_exception
    (folder,) = (tmp_path / "runs").iterdir()
    rank = RunReader(folder).ranks[0]
    assert rank.steps == [1, 2]
    assert rank.ended["status"] == "error"
    assert rank.ended["error"] == "RuntimeError: the data went bad"


def test_a_run_already_recording_is_added_to_and_left_open(tmp_path):
    """Under `tensorviz watch SCRIPT.py` (or the user's own tensorviz.watch) the callback adds
    the trainer's model to that run and leaves closing it to its owner."""
    import tensorviz
    from tensorviz.integrations.lightning_callback import TensorvizCallback

    kit = _lightning_kit()
    helper = nn.Linear(2, 2)
    with tensorviz.watch(helper, log_dir=tmp_path / "runs") as outer:
        watcher = TensorvizCallback(log_dir=tmp_path / "elsewhere")
        model = kit.TinyRegression()
        _trainer(kit.lightning, tmp_path, [watcher]).fit(model, _loader())
        assert watcher.folder == outer.folder and not outer.closed
    rank = RunReader(outer.folder).ranks[0]
    assert rank.steps == [1, 2, 3, 4, 5]
    # a second root model's names are prefixed with its class (the recorder's naming)
    assert rank.param_names[:2] == ["weight", "bias"]
    assert "TinyRegression.net.0.weight" in rank.param_names
    assert rank.ended["status"] == "finished"
