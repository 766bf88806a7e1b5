"""Headless subcommands that share the core with the GUI: the registry.

`tensorviz` alone (or with file paths) starts the GUI, see app.py. `tensorviz SUBCOMMAND ...` runs
one of the commands listed here; each lives in its own module and imports only
`tensorviz.cli.arguments` (the shared helpers), never this registry.
"""

from __future__ import annotations

import os
import sys

from tensorviz.cli import env, forward, graph, inspect, run, train
from tensorviz.cli.arguments import PROG, CliInputError, OneLineErrorParser, Subcommand
from tensorviz.version import __version__

__all__ = ["PROG", "SUBCOMMANDS", "CliInputError", "OneLineErrorParser", "run_subcommand",
           "subcommand_help", "version_text"]  # fmt: skip

SUBCOMMANDS: dict[str, Subcommand] = {
    module.COMMAND.name: module.COMMAND for module in (env, graph, forward, inspect, run, train)
}


def subcommand_help() -> str:
    width = max(len(name) for name in SUBCOMMANDS)
    lines = [f"  {s.name.ljust(width)}  {s.summary}" for s in SUBCOMMANDS.values()]
    return "subcommands (each takes --help and --json):\n" + "\n".join(lines)


def _build_subparser(command: Subcommand) -> OneLineErrorParser:
    parser = OneLineErrorParser(prog=f"{PROG} {command.name}", description=command.summary)
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    command.add_arguments(parser)
    return parser


def run_subcommand(argv: list[str]) -> int:
    """Run `argv[0]` as a subcommand with the remaining arguments; returns the exit status."""
    command = SUBCOMMANDS[argv[0]]
    try:
        args = _build_subparser(command).parse_args(argv[1:])
        return command.run(args)
    except CliInputError as error:
        print(f"{PROG} {command.name}: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `tensorviz env | head`: the reader left; not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def version_text() -> str:
    return f"{PROG} {__version__}"
