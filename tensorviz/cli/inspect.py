"""`tensorviz inspect PATH [--json]`: the Files area's tree, headless, for a file, a checkpoint
folder or an index file. Never runs code from the file: the same non-executing reader as the GUI.

Exit codes: 0 read and harmless; 2 cannot be read (one line on stderr); 3 read, but the file holds
calls that a plain torch.load(weights_only=False) would make (named on stderr, listed in the JSON)
— so the command also serves as a scanner in CI."""

from __future__ import annotations

import argparse
import sys

from tensorviz.cli.arguments import Subcommand, error_line, print_json
from tensorviz.core.translation import N_, _

EXIT_UNREADABLE, EXIT_RUNS_CODE = 2, 3


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        help=_(
            "a .pt/.pth/.bin/.ckpt, .safetensors, .npy or .npz file, a TorchScript archive, an "
            "*.index.json, a checkpoint folder or a torch.distributed.checkpoint folder"
        ),
    )


def _run_inspect(args: argparse.Namespace) -> int:
    from tensorviz.core.files.inspection import inspect_file
    from tensorviz.core.files.quoting import one_line
    from tensorviz.core.files.text import tree_lines

    inspection = inspect_file(args.file)
    if args.json:
        print_json(inspection.to_json())
    elif inspection.error is None:
        print("\n".join(tree_lines(inspection)))
    if inspection.error is not None:
        print(error_line("tensorviz inspect", one_line(inspection.error)), file=sys.stderr)
        return EXIT_UNREADABLE
    if inspection.calls:
        texts = inspection.safety.call_texts(80)
        shown = "; ".join(texts[:3])
        if len(texts) > 3:
            shown = _("{calls}; and {n} more").format(calls=shown, n=len(texts) - 3)
        message = _(
            "{file} holds {n} call(s) that torch.load(weights_only=False) would make: "
            "{calls} (none was made)"
        ).format(file=args.file, n=len(texts), calls=shown)
        warning = _("warning: {message}").format(message=one_line(message, 600))
        print(f"tensorviz inspect: {warning}", file=sys.stderr)
        return EXIT_RUNS_CODE
    return 0


COMMAND = Subcommand(
    "inspect",
    N_("what a checkpoint holds, read without running it: tree, values, shared storages, calls"),
    _add_arguments,
    _run_inspect,
)
