"""`tensorviz env [--json]`: versions, devices, default dtype and threads, as torch reports them."""

from __future__ import annotations

import argparse
import unicodedata

from tensorviz.cli.arguments import Subcommand, print_json
from tensorviz.core.translation import _


def display_width(text: str) -> int:
    """Columns a terminal gives `text`: a CJK character takes two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _run_env(args: argparse.Namespace) -> int:
    from tensorviz.core.environment import collect_environment

    report = collect_environment()
    if args.json:
        print_json(report.to_dict())
        return 0
    rows = report.rows()
    width = max(display_width(label) for label, _value in rows)
    for label, value in rows:
        print(f"{label}{' ' * (width - display_width(label))}  {value}")
    return 0


COMMAND = Subcommand(
    "env",
    _("versions, devices (CUDA, MPS), default dtype and threads, as torch reports them"),
    lambda parser: None,
    _run_env,
)
