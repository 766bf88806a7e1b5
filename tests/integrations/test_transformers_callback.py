"""The transformers callback inside a real `Trainer` with a tiny GPT-2 built from its config
(no download), checked against torch: one step per optimizer step the Trainer made, the last
step's gradient norms equal p.grad just before `optimizer.step()` (our own pre-hook on the
torch optimizer inside accelerate's wrapper), the loss is the one the Trainer logged.

transformers is imported inside the test (≈2.5 s), so collecting the suite never pays for it."""

import numpy as np
import pytest
import torch

from tensorviz.core.watch.run_reader import RunReader


class TokenRows(torch.utils.data.Dataset):
    def __init__(self, rows=20, length=12, vocabulary=50):
        generator = torch.Generator().manual_seed(0)
        self.ids = torch.randint(0, vocabulary, (rows, length), generator=generator)

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, index):
        return {"input_ids": self.ids[index], "labels": self.ids[index]}


def _gradients_before_each_step(transformers, innermost_optimizer):
    class GradientsBeforeEachStep(transformers.TrainerCallback):
        """Puts a step pre-hook of our own on the torch optimizer the Trainer made."""

        def __init__(self):
            self.norms = []

        def on_train_begin(self, args, state, control, model=None, optimizer=None, **kwargs):
            def read(optimizer, args, kwargs):
                self.norms.append(
                    {name: p.grad.norm().item() for name, p in model.named_parameters()
                     if p.grad is not None}
                )  # fmt: skip

            innermost_optimizer(optimizer).register_step_pre_hook(read)

    return GradientsBeforeEachStep()


def _train(tmp_path, **arguments):
    import transformers

    from tensorviz.integrations.transformers_callback import TensorvizCallback, innermost_optimizer

    torch.manual_seed(0)
    config = transformers.GPT2Config(
        vocab_size=50, n_positions=16, n_embd=16, n_layer=1, n_head=2, resid_pdrop=0.0,
        embd_pdrop=0.0, attn_pdrop=0.0,
    )  # fmt: skip
    model = transformers.GPT2LMHeadModel(config)
    watcher = TensorvizCallback(log_dir=tmp_path / "runs")
    gradients = _gradients_before_each_step(transformers, innermost_optimizer)
    args = transformers.TrainingArguments(
        output_dir=str(tmp_path / "out"), max_steps=5, per_device_train_batch_size=4,
        learning_rate=1e-3, report_to=[], use_cpu=True, save_strategy="no", disable_tqdm=True,
        dataloader_num_workers=0, seed=0, **arguments,
    )  # fmt: skip
    trainer = transformers.Trainer(
        model=model, args=args, train_dataset=TokenRows(), callbacks=[watcher, gradients]
    )
    trainer.train()
    return trainer, RunReader(watcher.folder).ranks[0], gradients


def test_a_trainer_run_becomes_a_run_folder_with_torchs_own_numbers(tmp_path):
    trainer, rank, gradients = _train(tmp_path, logging_steps=1)
    assert trainer.state.global_step == 5
    assert rank.steps == list(range(1, trainer.state.global_step + 1))
    assert rank.ended is not None and rank.ended["status"] == "finished"
    assert "transformer.h.0.attn.c_attn.weight" in rank.param_names
    last = rank.tables["grad_norm"].values[-1]
    assert len(gradients.norms) == 5
    for name, norm in gradients.norms[-1].items():
        assert last[rank.tables["grad_norm"].index_of(name)] == pytest.approx(norm, rel=1e-5)
    logged = [entry for entry in trainer.state.log_history if "loss" in entry]
    assert len(logged) == 5
    assert rank.loss == pytest.approx([entry["loss"] for entry in logged], rel=1e-6)
    assert rank.scalars.column("learning_rate") == pytest.approx(
        [entry["learning_rate"] for entry in logged]
    )


def test_a_loss_logged_over_several_steps_is_no_steps_loss(tmp_path):
    trainer, rank, _ = _train(tmp_path, logging_steps=2)
    logged = [entry for entry in trainer.state.log_history if "loss" in entry]
    assert [entry["step"] for entry in logged] == [2, 4]
    # each step keeps the loss its own backward had; the Trainer's 2-step means are beside it
    assert not np.isnan(rank.loss).any()
    means = rank.scalars.column("logged_loss")
    assert means[[1, 3]] == pytest.approx([entry["loss"] for entry in logged], rel=1e-6)
    assert means[[1, 3]] == pytest.approx(
        [np.mean(rank.loss[0:2]), np.mean(rank.loss[2:4])], rel=1e-5
    )
