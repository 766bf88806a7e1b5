"""Headless subcommands that share the core with the GUI.

`tensorviz` alone (or with file paths) starts the GUI, see app.py. `tensorviz SUBCOMMAND ...` runs
one of the commands registered here. Conventions every subcommand follows:
  * `--json` prints machine-readable output;
  * exit 0 on success;
  * exit 2 with a single line on stderr for bad input (never a traceback).
Heavy modules (torch) are imported inside each command, so `--help` and `--version` stay instant.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass

import tensorviz

PROG = "tensorviz"


class CliInputError(Exception):
    """Bad input to a subcommand: reported as one line on stderr with exit status 2."""


class OneLineErrorParser(argparse.ArgumentParser):
    """argparse prints usage plus message; we promise a single line and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise CliInputError(message)


@dataclass(frozen=True)
class Subcommand:
    name: str
    summary: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


SUBCOMMANDS: dict[str, Subcommand] = {}


def subcommand(name: str, summary: str, add_arguments=lambda parser: None):
    """Register `run(args) -> exit status` as `tensorviz NAME`."""

    def register(run: Callable[[argparse.Namespace], int]):
        SUBCOMMANDS[name] = Subcommand(name, summary, add_arguments, run)
        return run

    return register


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


def print_json(data) -> None:
    json.dump(data, sys.stdout, indent=2, default=str)
    sys.stdout.write("\n")


# --- env -----------------------------------------------------------------------------------------


@subcommand(
    "env", "versions, devices (CUDA, MPS), default dtype and threads, as torch reports them"
)
def _run_env(args: argparse.Namespace) -> int:
    from tensorviz.core.environment import collect_environment

    report = collect_environment()
    if args.json:
        print_json(report.to_dict())
        return 0
    rows = report.rows()
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"{label.ljust(width)}  {value}")
    return 0


def version_text() -> str:
    return f"{PROG} {tensorviz.__version__}"


from tensorviz import (  # noqa: E402 — each module registers its subcommand
    cli_graph,  # noqa: F401 — `tensorviz graph`
    cli_inspect,  # noqa: F401 — `tensorviz inspect`
    cli_run,  # noqa: F401 — `tensorviz run`
    cli_train,  # noqa: F401 — `tensorviz train`
)
