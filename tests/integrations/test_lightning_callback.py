"""The Lightning callback inside a real `lightning.Trainer`, checked against torch: the run
folder has one step per optimizer step the trainer made, the last step's gradient norms are
the gradients Lightning handed the optimizer, and the loss is the one training_step returned."""

import pytest

lightning = pytest.importorskip("lightning")

import torch  # noqa: E402
from torch import nn  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402

from tensorviz.core.watch.run_reader import RunReader  # noqa: E402
from tensorviz.integrations.lightning_callback import TensorvizCallback  # noqa: E402


class TinyRegression(lightning.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
        self.losses = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = nn.functional.mse_loss(self.net(x), y)
        self.log("train_mse", loss, on_step=True, on_epoch=False)
        self.losses.append(loss.item())
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.05, momentum=0.9)


class GradientsBeforeEachStep(lightning.Callback):
    """Lightning's own place to look at gradients: after backward, before the optimizer step."""

    def __init__(self):
        self.norms = []

    def on_before_optimizer_step(self, trainer, pl_module, optimizer):
        self.norms.append(
            {name: p.grad.norm().item() for name, p in pl_module.named_parameters()}
        )  # fmt: skip


def _loader(batches=4, batch_size=8):
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(batches * batch_size, 4, generator=generator)
    y = x.sum(dim=1, keepdim=True) + 0.1 * torch.randn(len(x), 1, generator=generator)
    return DataLoader(TensorDataset(x, y), batch_size=batch_size)


def _trainer(tmp_path, callbacks, **options):
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
        **options,
    )


def test_a_fit_becomes_a_run_folder_with_torchs_own_numbers(tmp_path):
    torch.manual_seed(0)
    model = TinyRegression()
    watcher = TensorvizCallback(log_dir=tmp_path / "runs")
    gradients = GradientsBeforeEachStep()
    trainer = _trainer(tmp_path, [watcher, gradients])
    trainer.fit(model, _loader())

    assert trainer.global_step == 5  # 4 batches a epoch: the fit crossed into a second epoch
    run = RunReader(watcher.folder)
    rank = run.ranks[0]
    assert rank.steps == list(range(1, trainer.global_step + 1))
    assert rank.ended is not None and rank.ended["status"] == "finished"
    names = [name for name, _ in model.named_parameters()]
    assert sorted(rank.param_names) == sorted(names)  # net.0.weight ..., the module's own names
    last = rank.tables["grad_norm"].values[-1]
    for name in names:
        column = rank.tables["grad_norm"].index_of(name)
        assert last[column] == pytest.approx(gradients.norms[-1][name], rel=1e-5)
    assert rank.loss == pytest.approx(model.losses, rel=1e-6)
    mse = rank.scalars.column("train_mse")
    assert mse[-1] == pytest.approx(model.losses[-1], rel=1e-6)


def test_a_fit_that_raises_still_closes_its_run(tmp_path):
    class FailsAtThirdStep(TinyRegression):
        def training_step(self, batch, batch_idx):
            if self.global_step == 2:
                raise RuntimeError("the data went bad")
            return super().training_step(batch, batch_idx)

    watcher = TensorvizCallback(log_dir=tmp_path / "runs")
    trainer = _trainer(tmp_path, [watcher])
    with pytest.raises(RuntimeError, match="the data went bad"):
        trainer.fit(FailsAtThirdStep(), _loader())
    assert watcher.run is None  # closed by on_exception
    rank = RunReader(next((tmp_path / "runs").iterdir())).ranks[0]
    assert rank.steps == [1, 2]
    assert rank.ended is not None
