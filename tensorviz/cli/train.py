"""`tensorviz train`: the Training area's trainers, headless.

tensorviz train [--epochs N --lr F --optimizer manual|sgd|adam --momentum F --device D
                 --seed S --n N --noise F] [--json | --csv FILE | --tutorial]
tensorviz train --task circles --layers 8,8 --activation tanh [...] [--json | --csv FILE |
                 --export-script FILE]       (a playground network: train_playground.py)
"""

from __future__ import annotations

import argparse
import math
import unicodedata

from tensorviz.cli.arguments import N_, CliInputError, Subcommand
from tensorviz.cli.train_playground import (
    add_network_arguments,
    network_config,
    refuse_network_flags,
    run_network,
)
from tensorviz.cli.training_output import report_stop, run_and_report
from tensorviz.core.translation import _

HISTORY_FIELDS = ("epoch", "loss", "w", "b", "grad_w", "grad_b")


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    # Defaults are the linear regression's; a playground --task has its own (None: not given).
    parser.add_argument("--epochs", type=int, help=_("epochs (default 500; a network: 300)"))
    parser.add_argument("--lr", type=float, help=_("learning rate (default 0.01; a network: 0.03)"))
    parser.add_argument(
        "--optimizer",
        choices=("manual", "sgd", "adam"),
        help=_("update style (default manual; a network: adam)"),
    )
    parser.add_argument("--momentum", type=float, default=0.0, help=_("SGD momentum (default 0)"))
    parser.add_argument("--weight-decay", type=float, default=0.0, help=_("sgd/adam weight decay"))
    parser.add_argument(
        "--batch-size", type=int, help=_("mini-batch size (default full; a network: 32, 0 = full)")
    )
    parser.add_argument("--device", default="cpu", help=_("cpu, cuda, cuda:N or mps (default cpu)"))
    parser.add_argument("--seed", type=int, default=42, help=_("numpy and torch seed (default 42)"))
    parser.add_argument("--n", type=int, help=_("number of samples (default 100; a network: 500)"))
    parser.add_argument(
        "--noise", type=float, help=_("noise std (default 2; a network: its task's)")
    )
    parser.add_argument("--data", metavar="FILE", help=_("your own x, y from a .csv or .pt file"))
    parser.add_argument("--csv", metavar="FILE", help=_("write the loss history as CSV to FILE"))
    parser.add_argument(
        "--tutorial",
        action="store_true",
        help=_("print the tutorial's table: Epoch [100/500], Loss: … every 100 epochs"),
    )
    add_network_arguments(parser)


def _finite_or_none(value: float) -> float | None:
    return value if math.isfinite(value) else None


SHARED_FLAGS = {  # flag → TrainingConfig field, for both the regression and the networks
    "seed": "seed",
    "n": "n",
    "noise": "noise",
    "lr": "lr",
    "epochs": "epochs",
    "batch_size": "batch_size",
    "optimizer": "update_style",
    "momentum": "momentum",
    "weight_decay": "weight_decay",
    "device": "device",
    "data": "data_path",
}


def _config(args: argparse.Namespace):
    from tensorviz.core.training.data import TrainingConfig, TrainingConfigError

    given = {
        field: getattr(args, flag)
        for flag, field in SHARED_FLAGS.items()
        if getattr(args, flag) is not None
    }
    if args.task != "linear":
        return network_config(args, given)
    refuse_network_flags(args)
    config = TrainingConfig(**given)
    try:
        config.validate()
    except TrainingConfigError as error:
        raise CliInputError(str(error)) from None
    return config


def _check_device(device: str) -> None:
    import torch

    kind = torch.device(device).type
    if kind == "cuda" and not torch.cuda.is_available():
        raise CliInputError(
            _("device {device!r} asked for, but torch sees no CUDA device").format(device=device)
        )
    if kind == "cuda" and torch.device(device).index is not None:
        if torch.device(device).index >= torch.cuda.device_count():
            raise CliInputError(
                _("no device {device!r}: torch sees {count}").format(
                    device=device, count=torch.cuda.device_count()
                )
            )
    if kind == "mps" and not torch.backends.mps.is_available():
        raise CliInputError(_("device 'mps' asked for, but torch reports MPS unavailable"))


def _run_train(args: argparse.Namespace) -> int:
    if sum(map(bool, (args.json, args.csv, args.tutorial))) > 1:
        raise CliInputError(_("choose one of --json, --csv and --tutorial"))
    config = _config(args)
    _check_device(config.device)
    if config.task != "linear":
        if args.tutorial:
            raise CliInputError(_("--tutorial prints the linear regression's table; drop --task"))
        return run_network(args, config)
    from tensorviz.core.training.data import TrainingConfigError
    from tensorviz.core.training.report import write_history_csv
    from tensorviz.core.training.trainer import Trainer

    try:
        trainer = Trainer(config)
    except TrainingConfigError as error:
        raise CliInputError(str(error)) from None
    if args.tutorial:
        trainer.run()
        _print_tutorial(trainer)
        return report_stop(trainer)
    return run_and_report(args, trainer, _json_report, write_history_csv, _print_text)


def _json_report(trainer) -> dict:
    history = trainer.history
    last = history[-1] if history else None
    ls_w, ls_b = trainer.least_squares
    return {
        "config": trainer.config.to_dict(),
        "history": [
            {
                name: _finite_or_none(getattr(r, name)) if name != "epoch" else r.epoch
                for name in HISTORY_FIELDS
            }
            for r in history
        ],
        "final": {
            "w": _finite_or_none(last.w) if last else None,
            "b": _finite_or_none(last.b) if last else None,
            "loss": _finite_or_none(last.loss) if last else None,
        },
        "least_squares": {"w": ls_w, "b": ls_b},
    }


def _print_text(trainer) -> None:
    c = trainer.config
    every = max(1, c.epochs // 5)
    print(
        _("data: {source}, n={n}; {style}, lr={lr:g}").format(
            source=trainer.data.source, n=trainer.data.n, style=c.update_style, lr=c.lr
        )
    )
    for record in trainer.history:
        if record.epoch % every == 0 or record is trainer.history[-1]:
            epoch = f"Epoch {record.epoch:>{len(str(c.epochs))}}/{c.epochs}"
            print(
                _(
                    "{epoch}  loss {loss:.4f}  w {w:.4f}  b {b:.4f}  "
                    "dL/dw {grad:+.4g} (by hand {hand:+.4g})"
                ).format(
                    epoch=epoch,
                    loss=record.loss,
                    w=record.w,
                    b=record.b,
                    grad=record.grad_w,
                    hand=record.hand_grad_w,
                )
            )
    if trainer.history:
        last = trainer.history[-1]
        ls_w, ls_b = trainer.least_squares
        true = trainer.data
        rows = [(_("learned"), last.w, last.b)]
        if true.true_w is not None:
            rows.append((_("true"), true.true_w, true.true_b))
        rows.append((_("least squares"), ls_w, ls_b))
        width = max(_display_width(name) for name, *_unused in rows) + 2
        for name, w, b in rows:
            padding = " " * (width - _display_width(name))
            print(f"{name}{padding}w = {w:.4f}  b = {b:.4f}")


def _display_width(text: str) -> int:
    """Columns a terminal gives text: a CJK character takes two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _print_tutorial(trainer) -> None:
    from tensorviz.core.training.report import tutorial_table

    for line in tutorial_table(trainer.history, trainer.config.epochs):
        print(line)
    if trainer.history:
        last = trainer.history[-1]
        print(f"w = {last.w:.4f}, b = {last.b:.4f}")


COMMAND = Subcommand(
    "train",
    N_(
        "the reference linear regression (y = 2.5x + 1.8 + noise), or a network on a "
        "playground task (--task circles), trained with real torch"
    ),
    _add_arguments,
    _run_train,
)
