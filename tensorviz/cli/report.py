"""`tensorviz report RUN_DIR [--json]`: a run folder (written by `tensorviz watch` or
`tensorviz.watch()`) read headless — its steps, where it stopped, the diagnoses with what to do,
the ranks that differ. The same figures the Runs area shows. Exit 0; exit 2 with one line for a
path that is no run folder. Reading runs nothing: the folder holds JSON and numbers only."""

from __future__ import annotations

import argparse

from tensorviz.cli.arguments import CliInputError, Subcommand, print_json
from tensorviz.core.translation import N_, _


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_dir", help=_("a run folder (runs/<date-time>/, holding run.json)"))


def _run_report(args: argparse.Namespace) -> int:
    from tensorviz.core.watch.run_reader import NotARunFolderError, RunReader
    from tensorviz.core.watch.run_report import report_lines, run_report

    try:
        reader = RunReader(args.run_dir)
    except NotARunFolderError as problem:
        raise CliInputError(str(problem)) from None
    reader.refresh(final=True)  # a report is read after the fact: a cut tail is damage
    report = run_report(reader)
    if args.json:
        print_json(report)
    else:
        print("\n".join(report_lines(report)))
    return 0


COMMAND = Subcommand(
    "report",
    N_("a training run folder headless: steps, where it stopped, diagnoses and what to do"),
    _add_arguments,
    _run_report,
)
