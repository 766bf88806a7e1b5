"""`tensorviz train --task TASK …`: the Training area's playground network, headless — its
arguments, its configuration and its report (text, --json, --csv, --export-script)."""

from __future__ import annotations

import argparse
import math

from tensorviz.cli.arguments import CliInputError
from tensorviz.cli.training_output import run_and_report
from tensorviz.core.translation import _

NETWORK_FLAGS = ("layers", "activation", "features", "loss", "dropout", "l2", "test_fraction")


def add_network_arguments(parser: argparse.ArgumentParser) -> None:
    from tensorviz.core.training.network_choices import ACTIVATIONS, FEATURES, LOSSES, TASKS

    parser.add_argument(
        "--task",
        choices=tuple(TASKS),
        default="linear",
        help=_("linear: the tutorial's regression (default); any other trains a network"),
    )
    parser.add_argument("--layers", help=_("hidden layer widths, e.g. 8,8 (default 8,8)"))
    parser.add_argument(
        "--activation",
        help=_("one for every layer or one per layer, e.g. relu,tanh ({names})").format(
            names=", ".join(ACTIVATIONS)
        ),
    )
    parser.add_argument(
        "--features",
        help=_("input features, e.g. x,y,xy ({names})").format(names=", ".join(FEATURES)),
    )
    parser.add_argument("--loss", choices=tuple(LOSSES), help=_("default: bce (classes) or mse"))
    parser.add_argument("--dropout", type=float, help=_("nn.Dropout(p) after each layer (0)"))
    parser.add_argument("--l2", type=float, help=_("l2 · Σ ‖W‖² added to the loss (0)"))
    parser.add_argument("--test-fraction", type=float, help=_("share held out for testing (0.3)"))
    parser.add_argument(
        "--export-script", metavar="FILE", help=_("write the run as a standalone PyTorch script")
    )


def _numbers(text: str, flag: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise CliInputError(
            _("{flag} takes whole numbers separated by commas, not {text!r}").format(
                flag=flag, text=text
            )
        ) from None


def _names(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def network_config(args: argparse.Namespace, given: dict):
    """The TrainingConfig of a playground task: the task's defaults, then what was given (the
    shared flags in `given`, the network flags in args). Raises CliInputError."""
    from tensorviz.core.training.data import TrainingConfig, TrainingConfigError
    from tensorviz.core.training.network_choices import task_defaults

    fields = dict(task_defaults(args.task))
    fields.update(given)
    if fields.get("batch_size") == 0:
        fields["batch_size"] = None  # --batch-size 0: the full batch
    if args.layers is not None:
        fields["hidden_layers"] = _numbers(args.layers, "--layers")
    layers = len(fields.get("hidden_layers", TrainingConfig.hidden_layers))
    activations = _names(args.activation) if args.activation else ("tanh",)
    fields["activations"] = activations * layers if len(activations) == 1 else activations
    if args.features is not None:
        fields["features"] = _names(args.features)
    for flag in ("loss", "dropout", "l2", "test_fraction"):
        if getattr(args, flag) is not None:
            fields[flag] = getattr(args, flag)
    config = TrainingConfig(**fields)
    try:
        config.validate()
    except TrainingConfigError as error:
        raise CliInputError(str(error)) from None
    return config


def refuse_network_flags(args: argparse.Namespace) -> None:
    """The linear regression has no network: its flags are refused, naming the first."""
    for flag in (*NETWORK_FLAGS, "export_script"):
        if getattr(args, flag) is not None:
            name = "--" + flag.replace("_", "-")
            raise CliInputError(
                _("{flag} shapes a playground network; choose one with --task").format(flag=name)
            )


def run_network(args: argparse.Namespace, config) -> int:
    from tensorviz.core.training.data import TrainingConfigError
    from tensorviz.core.training.playground_report import write_network_history_csv
    from tensorviz.core.training.playground_trainer import PlaygroundTrainer
    from tensorviz.core.training.script_export import write_playground_script

    if args.export_script and (args.json or args.csv):
        raise CliInputError(_("--export-script writes the script only; drop --json and --csv"))
    try:
        if args.export_script:
            write_playground_script(args.export_script, config)
            print(
                _("wrote {file}: python {file} trains this very run").format(
                    file=args.export_script
                )
            )
            return 0
        trainer = PlaygroundTrainer(config)
    except TrainingConfigError as error:
        raise CliInputError(str(error)) from None
    except OSError as error:
        raise CliInputError(
            _("cannot write {file}: {reason}").format(
                file=args.export_script, reason=error.strerror or error
            )
        ) from None
    return run_and_report(args, trainer, _json_report, write_network_history_csv, _print_text)


def _finite(value):
    return value if value is None or math.isfinite(value) else None


def _json_report(trainer) -> dict:
    from tensorviz.core.training.playground_report import gradient_verdict

    history = trainer.history
    last = history[-1] if history else None
    return {
        "config": trainer.config.to_dict(),
        "model": repr(trainer.model),
        "history": [
            {
                "epoch": r.epoch,
                "loss": _finite(r.loss),
                "test_loss": _finite(r.test_loss),
                "test_accuracy": r.test_accuracy,
                "grad_norms": [_finite(n) for n in r.grad_norms],
            }
            for r in history
        ],
        "final": {
            "loss": _finite(last.loss) if last else None,
            "test_loss": _finite(last.test_loss) if last else None,
            "test_accuracy": last.test_accuracy if last else None,
        },
        "gradients": gradient_verdict(last.grad_norms)[0] if last else "",
    }


def _print_text(trainer) -> None:
    from tensorviz.core.training.playground_report import gradient_verdict

    c = trainer.config
    shape = "-".join(str(u) for u in trainer.layout.columns)
    print(_("data: {source}").format(source=trainer.data.source))
    print(
        _("model: {shape} network ({activations}), {style}, lr={lr:g}").format(
            shape=shape, activations=", ".join(c.activations), style=c.update_style, lr=c.lr
        )
    )
    every = max(1, c.epochs // 10)
    width = len(str(c.epochs))
    for r in trainer.history:
        if r.epoch % every == 0 or r is trainer.history[-1]:
            line = f"Epoch [{r.epoch:>{width}}/{c.epochs}], Loss: {r.loss:.4f}"
            if r.test_loss is not None:
                line += f", Test loss: {r.test_loss:.4f}"
            if r.test_accuracy is not None:
                line += f", Test accuracy: {r.test_accuracy:.1%}"
            print(line)
    if trainer.history:
        norms = trainer.history[-1].grad_norms
        headline = gradient_verdict(norms)[1]
        print(
            _("gradient norm per layer: {norms}").format(norms="  ".join(f"{n:.2e}" for n in norms))
        )
        if headline:
            print(headline)
