"""The playground run as a standalone, readable PyTorch script ("Copy as PyTorch", "Export
script…", `tensorviz train --export-script FILE`).

The script makes the same data (the task's generator is copied in by its source text), the same
nn.Sequential from the same seed, and runs the same loop as PlaygroundTrainer, so `python
script.py` reproduces the app's run bit for bit on the same device and torch version:
`python script.py out.pt` saves the trained state_dict and the loss history to compare.
"""

from __future__ import annotations

import inspect
import textwrap

import numpy as np
import torch

from tensorviz.core.atomic_files import write_text_atomically
from tensorviz.core.training.data import TrainingConfig, TrainingConfigError, load_xy
from tensorviz.core.training.datasets import GENERATORS, TaskData, split_sizes
from tensorviz.core.training.network import layer_specs
from tensorviz.core.training.network_choices import FEATURES, LOSSES, TASKS, is_network_task
from tensorviz.version import __version__

MAX_EMBEDDED_SAMPLES = 20_000  # the user's own data is written into the script, value by value


def playground_script(config: TrainingConfig, data: TaskData | None = None) -> str:
    """The script of `config` (a playground task). data: the run's TaskData when it is at hand
    (the user's file is then not read again). Raises TrainingConfigError when the configuration
    cannot be trained (the same message the trainer gives)."""
    config.validate()
    if not is_network_task(config.task):
        raise TrainingConfigError(
            "the script export writes a playground network; the linear regression's loop is "
            "the tutorial's own (Script area: Examples)"
        )
    if config.task == "file":
        loaded = data.loaded if data is not None else load_xy(config.data_path)
        n = len(loaded[0])
    else:
        loaded, n = None, config.n
    split = split_sizes(n, config.test_fraction)
    parts = [
        _header(config) + "\n\n" + _settings(config),
        _data(config, loaded),
        _features(config),
        _model(config),
        _loop(config, split),
        _ending(),
    ]
    return "\n\n\n".join(part.strip("\n") for part in parts) + "\n"


def write_playground_script(path, config: TrainingConfig) -> None:
    write_text_atomically(path, playground_script(config))


def script_file_name(config: TrainingConfig) -> str:
    return f"{config.task}_playground.py"


def _header(config: TrainingConfig) -> str:
    task = TASKS[config.task]
    classes = 2 if task.kind == "classification" else 0
    outputs = layer_specs(config, classes)[-1][1][1]
    shape = "-".join(str(u) for u in (len(config.features), *config.hidden_layers, outputs))
    return f'''"""{task.label}: {task.description}, learned by a {shape} network.

Exported by tensorviz {__version__} (torch {torch.__version__}) from its playground.
Run it with plain Python: it trains exactly what the app trained, bit for bit on the
same device and torch version. `python {script_file_name(config)} out.pt` also saves
the trained state_dict and the loss history to out.pt.
"""

import math
import sys

import numpy as np
import torch
from torch import nn'''


def _settings(config: TrainingConfig) -> str:
    batch = config.batch_size
    lines = [
        "# Settings",
        f"SEED = {config.seed!r}",
        f"N = {config.n!r}  # samples" if config.task != "file" else "",
        f"NOISE = {config.noise!r}" if config.task != "file" else "",
        f"TEST_FRACTION = {config.test_fraction!r}  # held out of training",
        f"EPOCHS = {config.epochs!r}",
        f"BATCH_SIZE = {batch!r}" + ("  # full batch" if batch is None else ""),
        f"LR = {config.lr!r}",
        f"MOMENTUM = {config.momentum!r}" if config.update_style == "sgd" else "",
        f"WEIGHT_DECAY = {config.weight_decay!r}",
        f"L2 = {config.l2!r}  # l2 · Σ ‖W‖² added to the loss" if config.l2 > 0 else "",
        f"CLIP = {config.clip_grad_norm!r}  # max gradient norm"
        if config.clip_grad_norm is not None
        else "",
        f'DEVICE = "{config.device}"',
    ]
    return "\n".join(line for line in lines if line)


def _data(config: TrainingConfig, loaded) -> str:
    if loaded is not None:
        made = _embedded_data(config, *loaded)
    else:
        generator = GENERATORS[config.task]
        made = (
            f"{inspect.getsource(generator).rstrip()}\n\n\n"
            "rng = np.random.default_rng(SEED)\n"
            f"points, targets = {generator.__name__}(N, NOISE, rng)"
        )
    if config.loss == "ce":
        targets = "y = torch.from_numpy(targets).long()  # class indices, as CrossEntropyLoss wants"
    else:
        targets = "y = torch.from_numpy(targets).float().reshape(-1, 1)"
    return f"""# Data: the task's generator, seeded
{made}
n = len(points)
n_test = min(int(round(n * TEST_FRACTION)), n - 1)
order = rng.permutation(n)
test, train = order[:n_test], order[n_test:]
x = torch.from_numpy(points).float()
{targets}"""


def _embedded_data(config: TrainingConfig, points: np.ndarray, targets: np.ndarray) -> str:
    if len(points) > MAX_EMBEDDED_SAMPLES:
        raise TrainingConfigError(
            f"{len(points):,} samples are too many to write into a script "
            f"(at most {MAX_EMBEDDED_SAMPLES:,})"
        )
    lines = [
        "rng = np.random.default_rng(SEED)",
        f"# Your data, as tensorviz read it from {config.data_path}",
        f"points = {_array_text(points)}.reshape(-1, 1)",
        f"targets = {_array_text(targets)}.reshape(-1, 1)",
    ]
    if config.normalise_x:
        lines.append("points = (points - points.mean()) / points.std()  # x normalised")
    return "\n".join(lines)


def _array_text(values: np.ndarray) -> str:
    numbers = ", ".join(repr(float(v)) for v in values.reshape(-1))  # repr: exact float64
    wrapped = textwrap.fill(numbers, width=92, initial_indent="    ", subsequent_indent="    ")
    return f"np.array([\n{wrapped},\n])"


def _features(config: TrainingConfig) -> str:
    two_d = TASKS[config.task].dims == 2
    names = ", ".join(FEATURES[name].label for name in config.features)
    columns = ", ".join(FEATURES[name].code for name in config.features)
    split = "a, b = x[:, 0:1], x[:, 1:2]" if two_d else "a = x[:, 0:1]"
    return f'''# Inputs: the features of each point
def input_features(x):
    """The network's input columns: {names}."""
    {split}
    return torch.cat([{columns}], dim=1)


device = torch.device(DEVICE)
x_train, y_train = input_features(x[train]).to(device), y[train].to(device)
x_test, y_test = input_features(x[test]).to(device), y[test].to(device)'''


def _model(config: TrainingConfig) -> str:
    classes = 2 if TASKS[config.task].kind == "classification" else 0
    modules = "\n".join(
        f"    nn.{name}({', '.join(repr(a) for a in args)}),"
        for name, args in layer_specs(config, classes)
    )
    if config.update_style == "sgd":
        optimizer = (
            "torch.optim.SGD(\n    model.parameters(), lr=LR, momentum=MOMENTUM, "
            "weight_decay=WEIGHT_DECAY\n)"
        )
    else:
        optimizer = "torch.optim.Adam(model.parameters(), lr=LR, weight_decay=WEIGHT_DECAY)"
    return f"""# The model, its initial weights drawn from the seed
torch.manual_seed(SEED)
model = nn.Sequential(
{modules}
).to(device)
loss_fn = nn.{LOSSES[config.loss][1]}()
optimizer = {optimizer}"""


def _step(config: TrainingConfig) -> str:
    """One update on x_batch, y_batch: the five phases the app steps through."""
    lines = ["output = model(x_batch)  # forward", "loss = loss_fn(output, y_batch)  # loss"]
    if config.l2 > 0:
        lines += [
            "weights = (layer.weight for layer in model if isinstance(layer, nn.Linear))",
            "objective = loss + L2 * sum((w * w).sum() for w in weights)",
            "objective.backward()  # backward",
        ]
    else:
        lines.append("loss.backward()  # backward")
    if config.clip_grad_norm is not None:
        lines.append("torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)")
    lines.append("optimizer.step()  # update")
    if config.forget_zero_grad:
        lines.append("# optimizer.zero_grad() forgotten on purpose: .grad keeps accumulating")
    else:
        lines.append("optimizer.zero_grad()  # zero grad")
    lines.append("epoch_loss += loss.item() * len(y_batch) / n_train")
    return "\n".join(lines)


def _loop(config: TrainingConfig, split: tuple[int, int]) -> str:
    if config.batch_size is None or config.batch_size >= split[0]:
        batches = "x_batch, y_batch = x_train, y_train  # full batch\n" + _step(config)
    else:
        batches = (
            "order = torch.randperm(n_train, generator=generator).to(device)\n"
            "for start in range(0, n_train, BATCH_SIZE):\n"
            "    index = order[start : start + BATCH_SIZE]\n"
            "    x_batch, y_batch = x_train[index], y_train[index]\n"
            + textwrap.indent(_step(config), "    ")
        )
    test = _test(config) if split[1] else ""  # no sample held out: no test
    report = 'f"Epoch [{epoch}/{EPOCHS}], Loss: {epoch_loss:.4f}"'
    if test:
        report += '\n            f", Test loss: {test_loss:.4f}"'
        if TASKS[config.task].kind == "classification":
            report += '\n            f", Test accuracy: {accuracy:.1%}"'
    report = f"\n            {report}\n        " if test else report
    return f"""# Training
generator = torch.Generator().manual_seed(SEED)  # shuffles the mini-batches
n_train = len(x_train)
report_every = max(1, EPOCHS // 10)
losses, test_losses = [], []
for epoch in range(1, EPOCHS + 1):
    epoch_loss = 0.0
{textwrap.indent(batches, "    ")}
{textwrap.indent(test, "    ")}
    losses.append(epoch_loss)
    if epoch % report_every == 0 or epoch == EPOCHS:
        print({report})
    if not math.isfinite(epoch_loss):
        print(f"the loss became {{epoch_loss}} at epoch {{epoch}}: lower LR")
        break"""


def _test(config: TrainingConfig) -> str:
    lines = [
        "model.eval()  # no dropout while testing",
        "with torch.no_grad():",
        "    output = model(x_test)",
        "    test_loss = loss_fn(output, y_test).item()",
    ]
    if TASKS[config.task].kind == "classification":
        if config.loss == "ce":
            predicted = "output.argmax(dim=1)"
        else:
            threshold = "0.0" if config.loss == "bce" else "0.5"
            predicted = f"(output[:, 0] > {threshold}).long()"
        lines += [
            f"    predicted = {predicted}",
            "    hits = predicted == y_test.reshape(-1).long()",
            "    accuracy = hits.double().mean().item()",
        ]
    lines += ["model.train()", "test_losses.append(test_loss)"]
    return "\n".join(lines)


def _ending() -> str:
    return """print(f"final loss {epoch_loss!r}")
# python this_script.py out.pt: the trained parameters and the loss history
if len(sys.argv) > 1:
    saved = {"state_dict": model.state_dict(), "losses": losses}
    saved["test_losses"] = test_losses
    torch.save(saved, sys.argv[1])
    print(f"saved {sys.argv[1]}")"""
