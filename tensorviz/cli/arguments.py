"""What every subcommand shares: the one-line error, the argument parser that raises it, the
subcommand record and JSON printing. Subcommand modules import this, never the registry.

Conventions every subcommand follows:
  * `--json` prints machine-readable output;
  * exit 0 on success;
  * exit 2 with a single line on stderr for bad input (never a traceback).
Heavy modules (torch) are imported inside each command, so `--help` and `--version` stay instant.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass

from tensorviz.core import translation
from tensorviz.core.translation import N_, _

PROG = "tensorviz"


# argparse's own words (the usage line, the headings, -h's help, its errors) go through the
# `_` of the argparse module, which reads the standard domain that has no Chinese. These are
# its msgids (Python 3.11-3.13); `OneLineErrorParser` points argparse's `_` at our catalogue,
# so `--help` and the one-line errors speak the language in force (a msgid another Python
# spells differently simply stays English).
ARGPARSE_TEXTS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("expected one argument"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
)


class HeadingsInTheirLanguage(argparse.HelpFormatter):
    """argparse ends each heading of --help with an ASCII colon ("options:"); a Chinese heading
    takes the full-width one ("选项："), as every other Chinese label of the app does."""

    def start_section(self, heading: str | None) -> None:
        self._headings = [*getattr(self, "_headings", []), heading]
        super().start_section(heading)

    def format_help(self) -> str:
        text = super().format_help()
        for heading in getattr(self, "_headings", []):
            if heading and any("\u4e00" <= ch <= "\u9fff" for ch in heading):
                text = text.replace(f"{heading}:\n", f"{heading}：\n")
        return text


class CliInputError(Exception):
    """Bad input to a subcommand: reported as one line on stderr with exit status 2."""


class OneLineErrorParser(argparse.ArgumentParser):
    """argparse prints usage plus message; we promise a single line and exit status 2. Its own
    words come from our catalogue (ARGPARSE_TEXTS)."""

    def __init__(self, *args, **kwargs) -> None:
        argparse._ = translation._  # (looked up when argparse formats, so it follows set_language)
        kwargs.setdefault("formatter_class", HeadingsInTheirLanguage)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise CliInputError(message)


def language_asked(argv: list[str]) -> str:
    """The language of what a command prints: `--lang X` (also `--lang=X`) if given and known,
    else the terminal's, as gettext reads LANGUAGE / LC_ALL / LC_MESSAGES / LANG. Read before
    argparse runs, so `--help` and argparse's own errors speak it too."""
    for index, word in enumerate(argv):
        value = word.partition("=")[2] if word.startswith("--lang=") else None
        if word == "--lang" and index + 1 < len(argv):
            value = argv[index + 1]
        if value and (known := translation.normalize_language(value)):
            return known
    return translation.language_from_environment()


def add_language_argument(parser: argparse.ArgumentParser) -> None:
    """`--lang en|zh_CN` for a subcommand: the language of its lines (language_asked reads it)."""
    parser.add_argument(
        "--lang",
        choices=tuple(translation.LANGUAGES),
        help=_("the language of what is printed: en (English) or zh_CN (简体中文); default: LANG"),
    )


def error_line(prog: str, error) -> str:
    """The one line on stderr for bad input: `tensorviz diff: error: ...`."""
    return _("{prog}: error: {message}").format(prog=prog, message=error)


@dataclass(frozen=True)
class Subcommand:
    """`tensorviz NAME ...`: `run(args)` returns the exit status.

    `summary` is marked `_("...")` where it is written (the catalogue gets it) and shown
    through `described()`, which translates it again when it is shown: a module imported before
    the language was chosen still shows its summary in the language in force."""

    name: str
    summary: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    # `tensorviz run SCRIPT.py --timeout 5 -- --lr 3`: every word after the first `--` goes to
    # the script untouched, as args.script_args (argparse cannot take `--` after an option)
    passes_arguments: bool = False

    def described(self) -> str:
        return _(self.summary)


def print_json(data) -> None:
    json.dump(data, sys.stdout, indent=2, default=str)
    sys.stdout.write("\n")


def read_script(path: str) -> str:
    """A script's text for `run` and `watch`, or CliInputError with one line saying why not."""
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except FileNotFoundError:
        raise CliInputError(_("there is no file {path}").format(path=path)) from None
    except IsADirectoryError:
        raise CliInputError(_("{path} is a folder, not a script").format(path=path)) from None
    except UnicodeDecodeError:
        raise CliInputError(_("{path} is not UTF-8 text").format(path=path)) from None
    except OSError as error:
        raise CliInputError(
            _("{path} cannot be read: {reason}").format(path=path, reason=error.strerror)
        ) from None
