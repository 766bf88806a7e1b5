"""`tensorviz diff A B [--json] [--atol F --rtol F] [--only-changed] [--strict-keys]`: two
checkpoints compared tensor by tensor, with git-diff exit codes so a CI job can ask "is the
exported checkpoint still the trained one?": 0 equal (within tolerance), 1 they differ, 2 bad
input (one line on stderr). Tensors pair by their state-dict keys, however each side stores them
(a folder, shards, a file); keys that differ by torch's wrappers alone (`module.` of DDP,
`_orig_mod.` of torch.compile) are the same weights — "equal except key prefixes", exit 0 —
unless --strict-keys. Files are read by the Files area's safe reader: nothing in them ever runs."""

from __future__ import annotations

import argparse
import math
import sys

from tensorviz.cli.arguments import CliInputError, Subcommand, print_json
from tensorviz.core.translation import N_, _


def _tolerance(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("not a number: {text}").format(text=repr(text))
        ) from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(
            _("must be a finite number >= 0, not {text}").format(text=text)
        )
    return value


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "a", help=_("the reference checkpoint (.pt/.pth/.bin/.ckpt, .safetensors…)")
    )
    parser.add_argument("b", help=_("the checkpoint compared with it"))
    parser.add_argument(
        "--atol",
        type=_tolerance,
        default=0.0,
        help=_("absolute tolerance: |b - a| <= atol + rtol*|a| is equal"),
    )
    parser.add_argument("--rtol", type=_tolerance, default=0.0, help=_("relative tolerance"))
    parser.add_argument(
        "--only-changed", action="store_true", help=_("leave out tensors that are unchanged")
    )
    parser.add_argument(
        "--strict-keys",
        action="store_true",
        help=_(
            "keys that differ only by torch's wrappers (module., _orig_mod.) make the "
            "checkpoints differ (exit 1)"
        ),
    )


def _run_diff(args: argparse.Namespace) -> int:
    from tensorviz.core.diff.comparison import compare_sides
    from tensorviz.core.diff.report import comparison_json, report_lines
    from tensorviz.core.diff.sides import SideError, side_of_file

    sides = []
    for which, path in (("A", args.a), ("B", args.b)):
        try:
            sides.append(side_of_file(path))
        except SideError as problem:
            raise CliInputError(f"{which}: {problem}") from None
    for which, side in zip("AB", sides, strict=True):
        if side.calls:  # compared all the same: nothing in a file ever runs
            note = _(
                "note: {side} holds calls a plain torch.load(weights_only=False) would make: "
                "{calls} (none was made)"
            ).format(side=which, calls=", ".join(side.calls))
            print(f"tensorviz diff: {note}", file=sys.stderr)
    comparison = compare_sides(*sides, atol=args.atol, rtol=args.rtol,
                               strict_keys=args.strict_keys)  # fmt: skip
    if args.json:
        print_json(comparison_json(comparison, args.only_changed))
    else:
        print("\n".join(report_lines(comparison, args.only_changed)))
    if comparison.error is not None:
        raise CliInputError(comparison.error)
    return 0 if comparison.equal else 1


COMMAND = Subcommand(
    "diff",
    N_("two checkpoints compared tensor by tensor; exit 0 equal, 1 differ, 2 bad input"),
    _add_arguments,
    _run_diff,
)
