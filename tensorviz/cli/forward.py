"""`tensorviz forward SCRIPT.py --model NAME --input NAME [--depth N] [--json] [-o FILE]`: the
Architecture area's picture, headless.

The script runs as `python SCRIPT.py` would; then `model(input)` is recorded module by module
(an input that is a tuple or list is passed as several arguments, a dict as keyword arguments).
A preset name (`tensorviz forward transformer`) records a preset instead. Prints one line per
module call down to --depth (repeated blocks folded: `h.0 … h.11 · GPT2Block × 12`); `--json`
prints {"title", "meta", "modules": [{"name", "class", "parent", "params", ...}], "calls": [{"id",
"module", "class", "parent", "depth", "inputs", "outputs"}], "nodes", "edges" (source, target,
shape, dtype), "folds": [{"class", "count", "modules"}], "error"?}. `-o` writes .dot (one cluster
per open frame), .svg or .png (the app's own scene, painted offscreen), atomically. A forward
that raises is still printed up to the failing op; the exit status is then 1.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from tensorviz.cli.arguments import N_, CliInputError, Subcommand, print_json
from tensorviz.cli.graph import OUTPUT_SUFFIXES, ScriptFailedError, run_script, wrong_suffix
from tensorviz.cli.pictures import paint
from tensorviz.core.translation import _


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    from tensorviz.core.forward.presets import PRESETS

    parser.add_argument(
        "source",
        metavar="SCRIPT.py|PRESET",
        help=_("a script, or one of: {presets}").format(presets=", ".join(PRESETS)),
    )
    parser.add_argument(
        "--model", metavar="NAME", help=_("the script's variable holding the model")
    )
    parser.add_argument(
        "--input", metavar="NAME", help=_("the script's variable holding its input")
    )
    parser.add_argument(
        "--depth",
        type=int,
        metavar="N",
        help=_("open modules N levels deep (0: the model as one box)"),
    )
    parser.add_argument(
        "-o", "--output", metavar="FILE", help=_("also write FILE.dot, .svg or .png")
    )


def _script_subject(args: argparse.Namespace):
    import torch

    from tensorviz.core.forward.presets import ForwardSubject

    source = args.source
    if not (args.model and args.input):
        message = _(
            "name the model and its input: tensorviz forward {source} --model NAME --input NAME"
        )
        raise CliInputError(message.format(source=source))
    namespace = run_script(source)
    for name in (args.model, args.input):
        if name not in namespace:
            message = _("{script} defines no variable '{name}' at module level")
            raise CliInputError(message.format(script=source, name=name))
    model, value = namespace[args.model], namespace[args.input]
    if not callable(model):
        message = _("{name} is not a model: its type is {kind}")
        raise CliInputError(message.format(name=args.model, kind=type(model).__name__))
    modules = {k: v for k, v in namespace.items() if isinstance(v, torch.nn.Module)}
    modules.pop(args.model, None)
    if isinstance(value, dict):
        call_args, kwargs = (), value
    elif isinstance(value, (tuple, list)):
        call_args, kwargs = tuple(value), {}
    else:
        call_args, kwargs = (value,), {}
    title = f"{args.model}({args.input})"
    return ForwardSubject(model, call_args, title, modules), kwargs


def _subject(args: argparse.Namespace):
    from tensorviz.core.forward.presets import PRESETS

    source = args.source
    if source.lower().endswith(".py"):
        if not os.path.isfile(source):
            raise CliInputError(_("no such script: {source}").format(source=source))
        return _script_subject(args)
    if args.model or args.input:
        raise CliInputError(_("--model and --input name variables of a SCRIPT.py, not of a preset"))
    if source not in PRESETS:
        message = _("unknown preset '{key}' (choose from {known})")
        raise CliInputError(message.format(key=source, known=", ".join(PRESETS)))
    return PRESETS[source].build(), {}


def _write(architecture, picture, output: str) -> None:
    from tensorviz.core.atomic_files import write_text_atomically
    from tensorviz.core.forward.architecture_dot import architecture_dot

    path = Path(output)
    if not path.parent.is_dir():
        message = _("cannot write {output}: no folder {folder}")
        raise CliInputError(message.format(output=output, folder=path.parent))
    try:
        if path.suffix.lower() == ".dot":
            write_text_atomically(path, architecture_dot(picture))
        else:
            paint("architecture", architecture, path)
    except OSError as error:
        message = _("cannot write {output}: {reason}")
        raise CliInputError(message.format(output=output, reason=error.strerror or error)) from None


def _run_forward(args: argparse.Namespace) -> int:
    from tensorviz.core.forward.architecture import Architecture
    from tensorviz.core.forward.architecture_text import architecture_lines
    from tensorviz.core.forward.recording import record_forward

    if args.output and Path(args.output).suffix.lower() not in OUTPUT_SUFFIXES:
        suffix = Path(args.output).suffix or args.output
        raise CliInputError(wrong_suffix(suffix))
    if args.depth is not None and args.depth < 0:
        raise CliInputError(_("--depth is 0 or more (0: the model as one box)"))
    try:
        subject, kwargs = _subject(args)
    except ScriptFailedError:
        return 1
    record = record_forward(subject.target, subject.args, kwargs, subject.title, subject.modules)
    architecture = Architecture(record)
    if args.depth is not None:
        architecture.set_depth(min(args.depth, architecture.max_depth))
    picture = architecture.arrange()
    if args.output:
        _write(architecture, picture, args.output)
    if args.json:
        data = record.to_json(architecture.folds)
        data["depth"] = architecture.state.depth
        print_json(data)
    else:
        print("\n".join(architecture_lines(architecture)))
    if record.error is not None:
        print(record.error.text(), file=sys.stderr)
        return 1
    return 0


COMMAND = Subcommand(
    "forward",
    N_("a model's forward, module by module (repeats folded): tree, JSON, export"),
    _add_arguments,
    _run_forward,
)
