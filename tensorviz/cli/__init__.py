"""Headless subcommands that share the core with the GUI: the registry.

`tensorviz` alone (or with file paths) starts the GUI, see app.py. `tensorviz SUBCOMMAND ...` runs
one of the commands listed here; each lives in its own module and imports only
`tensorviz.cli.arguments` (the shared helpers), never this registry.
"""

from __future__ import annotations

import difflib
import os
import sys

from tensorviz.cli import diff, env, forward, graph, inspect, run, train, watch
from tensorviz.cli.arguments import (
    PROG,
    CliInputError,
    OneLineErrorParser,
    Subcommand,
    add_language_argument,
    error_line,
    language_asked,
)
from tensorviz.core import translation
from tensorviz.core.translation import _
from tensorviz.version import __version__

__all__ = ["PROG", "SUBCOMMANDS", "CliInputError", "OneLineErrorParser", "error_line",
           "language_asked", "run_subcommand", "subcommand_help", "unknown_word_problem",
           "version_text"]  # fmt: skip

SUBCOMMANDS: dict[str, Subcommand] = {
    module.COMMAND.name: module.COMMAND
    for module in (diff, env, forward, graph, inspect, run, train, watch)
}


def subcommand_help() -> str:
    width = max(len(name) for name in SUBCOMMANDS)
    lines = [f"  {s.name.ljust(width)}  {s.described()}" for s in SUBCOMMANDS.values()]
    return _("subcommands (each takes --help and --json):") + "\n" + "\n".join(lines)


def unknown_word_problem(words: list[str]) -> str | None:
    """`tensorviz diff a b` where no `diff` subcommand exists: the first word is no file either
    and has nothing of a path (no folder, no extension), so it was meant as a subcommand."""
    if not words:
        return None
    word = words[0]
    if word in SUBCOMMANDS or os.path.lexists(word) or os.sep in word or "." in word:
        return None
    close = difflib.get_close_matches(word, SUBCOMMANDS, n=1)
    problem = _(
        "no such file or subcommand: {word}. The subcommands are {names} (`{prog} --help` says "
        "what each does)."
    ).format(word=word, names=", ".join(SUBCOMMANDS), prog=PROG)
    if close:
        problem += _(" Did you mean `{line}`?").format(line=f"{PROG} {close[0]}")
    return problem


def _build_subparser(command: Subcommand) -> OneLineErrorParser:
    parser = OneLineErrorParser(prog=f"{PROG} {command.name}", description=command.described())
    parser.add_argument("--json", action="store_true", help=_("print machine-readable JSON"))
    add_language_argument(parser)
    command.add_arguments(parser)
    return parser


def run_subcommand(argv: list[str]) -> int:
    """Run `argv[0]` as a subcommand with the remaining arguments; returns the exit status."""
    command = SUBCOMMANDS[argv[0]]
    words, passed = argv[1:], []
    if command.passes_arguments and "--" in words:  # the script's own words, not ours
        cut = words.index("--")
        words, passed = words[:cut], words[cut + 1 :]
    translation.set_language(language_asked(words))  # --lang zh_CN, else LANG=zh_CN.UTF-8 …
    try:
        args = _build_subparser(command).parse_args(words)
        if command.passes_arguments:
            args.script_args = [*args.script_args, *passed]
        return command.run(args)
    except CliInputError as error:
        print(error_line(f"{PROG} {command.name}", error), file=sys.stderr)
        return 2
    except BrokenPipeError:  # `tensorviz env | head`: the reader left; not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def version_text() -> str:
    return f"{PROG} {__version__}"
