"""What `tensorviz train` does with a trainer, for the linear regression and the playground
networks alike: run it, print the report the flags ask for (--json, --csv FILE or text), and
say on stderr why it stopped early (exit 1)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from tensorviz.cli.arguments import CliInputError, print_json
from tensorviz.core.translation import _, ngettext


def run_and_report(
    args: argparse.Namespace,
    trainer,
    json_report: Callable[[object], dict],
    write_csv: Callable[[str, list], None],
    print_text: Callable[[object], None],
) -> int:
    history = trainer.run()
    if args.json:
        print_json(json_report(trainer))
    elif args.csv:
        try:
            write_csv(args.csv, history)
        except OSError as error:
            raise CliInputError(
                _("cannot write {file}: {reason}").format(
                    file=args.csv, reason=error.strerror or error
                )
            ) from None
        print(
            ngettext(
                "wrote {count} epoch to {file}", "wrote {count} epochs to {file}", len(history)
            ).format(count=len(history), file=args.csv)
        )
    else:
        print_text(trainer)
    return report_stop(trainer)


def report_stop(trainer) -> int:
    """1 (with one line on stderr) if training diverged or torch refused a step, else 0."""
    if trainer.divergence is not None:
        separator = _("; ")  # a list's separator: Chinese uses its own semicolon
        remedies = separator.join(r.label for r in trainer.divergence.remedies)
        message = _("{problem} — try: {remedies}").format(
            problem=trainer.divergence.message(), remedies=remedies
        )
        print(f"tensorviz train: {message}", file=sys.stderr)
        return 1
    if trainer.error is not None:
        print(f"tensorviz train: {trainer.error.torch_message}", file=sys.stderr)
        return 1
    return 0
