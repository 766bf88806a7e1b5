"""`tensorviz inspect FILE [--json]`: the Files area's tree, headless. Never runs code from the
file: the same safe reader as the GUI (weights_only, unsafe globals refused)."""

from __future__ import annotations

import argparse
import sys

from tensorviz.cli.arguments import Subcommand, print_json


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a .pt/.pth/.bin, .safetensors, .npy or .npz file")


def _run_inspect(args: argparse.Namespace) -> int:
    from tensorviz.core.files.inspection import inspect_file
    from tensorviz.core.files.text import tree_lines

    inspection = inspect_file(args.file)
    if args.json:
        print_json(inspection.to_json())
    else:
        if inspection.error is None:
            print("\n".join(tree_lines(inspection)))
    if inspection.error is not None:
        print(f"tensorviz inspect: error: {inspection.error}", file=sys.stderr)
        return 2
    return 0


COMMAND = Subcommand(
    "inspect",
    "what a tensor file holds, read safely: tree, shapes, shared storages",
    _add_arguments,
    _run_inspect,
)
