"""`tensorviz env [--json]`: versions, devices, default dtype and threads, as torch reports them."""

from __future__ import annotations

import argparse

from tensorviz.cli.arguments import Subcommand, print_json


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


COMMAND = Subcommand(
    "env",
    "versions, devices (CUDA, MPS), default dtype and threads, as torch reports them",
    lambda parser: None,
    _run_env,
)
