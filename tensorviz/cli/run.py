"""`tensorviz run SCRIPT.py [--json]`: the Script area, headless. The script runs exactly as the
Script area runs it (torch, nn, F and np already imported; the same runner, the same capture),
its output is printed in order, then every tensor it made — also inside containers and module
parameters — with shape, dtype, the line that made it and its grad_fn.

Exit 0 when the script finished, N when it called sys.exit(N), 1 when it raised (the traceback
trimmed to the script and the app's explanation on stderr), 2 for bad input (no such file, not
UTF-8 text, a syntax error), 124 when `--timeout SECONDS` stopped it, 130 on Ctrl+C. Output
beyond the newest megabyte kept is counted and said; threads the script leaves running are named,
and the command exits without waiting for them."""

from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tensorviz.cli.arguments import PROG, CliInputError, Subcommand, print_json
from tensorviz.core.script.output import MAX_KEPT_CHARS  # no torch: --help stays instant

if TYPE_CHECKING:
    from tensorviz.core.script.limits import LimitedRun


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("script", metavar="SCRIPT.py", help="the PyTorch code to run")
    parser.add_argument(
        "--timeout",
        type=_seconds,
        metavar="SECONDS",
        help="stop the script after this many seconds (exit status 124)",
    )


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of seconds") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"the timeout must be a positive number, not {text}")
    return value


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliInputError(f"there is no file {path}") from None
    except IsADirectoryError:
        raise CliInputError(f"{path} is a folder, not a script") from None
    except UnicodeDecodeError:
        raise CliInputError(f"{path} is not UTF-8 text") from None
    except OSError as error:
        raise CliInputError(f"{path} cannot be read: {error.strerror}") from None


def captured_rows(workspace, summary) -> list[dict]:
    """One row per captured tensor, as the Captured list shows it."""
    rows = []
    for row in summary.rows:
        tensor = workspace.tensor(row.name)
        grad_fn = type(tensor.grad_fn).__name__ if tensor.grad_fn is not None else None
        rows.append(
            {"name": row.name, "path": row.path, "line": row.line, "status": row.status,
             "shape": list(tensor.shape), "dtype": str(tensor.dtype).removeprefix("torch."),
             "requires_grad": tensor.requires_grad, "grad_fn": grad_fn,
             "before_error": row.before_error,
             "shares_storage_with": [n for n in workspace.sharing(row.name) if n != row.name]}
        )  # fmt: skip
    return rows


def _table(rows: list[dict]) -> str:
    header = ("name", "shape", "dtype", "line", "grad_fn", "shares storage with")
    cells = [
        (r["name"], str(r["shape"]), r["dtype"], str(r["line"] or ""), r["grad_fn"] or "",
         ", ".join(r["shares_storage_with"]))
        for r in rows
    ]  # fmt: skip
    widths = [max(len(c[i]) for c in [header, *cells]) for i in range(len(header))]
    return "\n".join(
        "  ".join(text.ljust(width) for text, width in zip(line, widths, strict=True)).rstrip()
        for line in [header, *cells]
    )


def _run_script(args: argparse.Namespace) -> int:
    from tensorviz.core.script.limits import run_with_limits
    from tensorviz.core.script.results import apply_script_result
    from tensorviz.core.script.run import ScriptRun
    from tensorviz.core.tensors.workspace import Workspace

    source = _read(args.script)
    runner = ScriptRun(source, {})
    limited = run_with_limits(runner, args.timeout)
    result = limited.result
    if result is not None and result.status == "syntax_error":
        error = result.syntax_error
        raise CliInputError(f"{args.script}, line {error.line}: {error.message} (nothing ran)")
    chunks, _ = runner.output.drain(max_chars=2**62)
    workspace = Workspace()
    summary = apply_script_result(workspace, result, source) if result is not None else None
    report = _Report(
        limited,
        chunks,
        runner.output.total_dropped,
        captured_rows(workspace, summary) if summary is not None else [],
        list(summary.notes) if summary is not None else [],
        _stop_text(limited, args.timeout, runner.progress()[0]),
        summary.failed_line if summary is not None else 0,
    )
    if args.json:
        report.print_json(args.timeout)
    else:
        report.print_text()
    code = _status_code(limited, report.failure)
    if result is None or limited.non_daemon_threads_left:
        _exit_now(code)  # Python would wait at exit for a thread that may never end
    return code


@dataclass
class _Report:
    limited: LimitedRun
    chunks: list[tuple[str, str]]
    dropped: int  # characters of output beyond the newest MAX_KEPT_CHARS
    rows: list[dict]
    notes: list[str]
    stop_text: str  # what a timeout or Ctrl+C stopped ("" when neither did)
    failed_line: int = 0  # > 0: the rows are what existed before the error on this line

    def __post_init__(self) -> None:
        result = self.limited.result
        self.failure = result.failure if result is not None else None
        if self.dropped:
            self.notes.append(
                f"{self.dropped:,} characters of output were dropped: the run keeps the newest "
                f"{MAX_KEPT_CHARS:,}."
            )
        if threads := self.limited.threads_left:
            many = len(threads) > 1
            self.notes.append(
                f"the script left {len(threads)} thread{'s' if many else ''} running "
                f"({', '.join(t.name for t in threads)}); tensorviz exits without waiting for "
                f"{'them' if many else 'it'}."
            )

    def print_json(self, timeout_s: float | None) -> None:
        result, failure = self.limited.result, self.failure
        status = {"timeout": "timed_out", "interrupt": "interrupted"}.get(self.limited.stopped_by)
        print_json(
            {"status": status or (result.status if result else "stopped"),
             "duration_s": round(result.duration_s, 6) if result else None,
             "output": [{"stream": s, "text": t} for s, t in self.chunks],
             "output_dropped_chars": self.dropped, "tensors": self.rows, "notes": self.notes,
             "timeout_s": timeout_s, "stopped": self.stop_text or None,
             "threads_left": [t.name for t in self.limited.threads_left],
             "error": None if failure is None else {
                 "line": failure.line, "traceback": failure.traceback,
                 "kind": failure.explained.kind, "title": failure.explained.title,
                 "explanation": failure.explained.explanation, "fix": failure.explained.fix}}
        )  # fmt: skip

    def print_text(self) -> None:
        failure = self.failure
        if self.dropped:  # where the gap is: before the oldest text kept
            sys.stderr.write(f"… {self.dropped:,} characters of earlier output dropped …\n")
        for stream, text in self.chunks:
            (sys.stderr if stream == "stderr" else sys.stdout).write(text)
        if self.rows:
            before = f" before the error on line {self.failed_line}" if self.failed_line else ""
            count = len(self.rows)
            print(f"\n{count} tensor{'s' if count != 1 else ''} captured{before}:")
            print(_table(self.rows))
        for note in self.notes:
            print(f"note: {note}")
        if self.stop_text:
            sys.stderr.write(f"{PROG} run: {self.stop_text}\n")
        elif failure is not None and failure.explained.kind == "exit":
            sys.stderr.write(failure.explained.title + "\n")
        elif failure is not None:
            sys.stderr.write(failure.traceback.rstrip() + "\n")
            if failure.torch_error:
                sys.stderr.write("\n" + failure.explained.text() + "\n")


def _stop_text(limited, timeout_s: float | None, line_now: int) -> str:
    """What a timeout or Ctrl+C stopped, in one line ("" when neither did)."""
    if not limited.stopped_by:
        return ""
    result = limited.result
    line = (result.line if result is not None else 0) or line_now
    at = f" at line {line}" if line else ""
    why = (
        f"stopped after the {timeout_s:g} s timeout{at}"
        if limited.stopped_by == "timeout"
        else f"interrupted (Ctrl+C){at}"
    )
    if result is None:
        return f"{why}; a torch call that cannot be interrupted was still running, so it was left"
    return f"{why}; what the script made is discarded"


def _status_code(limited, failure) -> int:
    if limited.stopped_by == "timeout":
        return 124  # as GNU timeout exits
    if limited.stopped_by == "interrupt":
        return 130  # as a shell reports Ctrl+C
    if limited.result is not None and limited.result.status == "finished":
        return 0
    code = _exit_code(failure)
    return code if code is not None else 1


def _exit_now(code: int) -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _exit_code(failure) -> int | None:
    """The status the script asked for with sys.exit(N), as `python SCRIPT.py` would exit."""
    if failure is None or failure.explained.kind != "exit":
        return None
    found = re.search(r"exit\((-?\d+)\)", failure.explained.title)
    return int(found[1]) % 256 if found else 1


COMMAND = Subcommand(
    "run",
    "run a PyTorch script as the Script area does; list every tensor it made",
    _add_arguments,
    _run_script,
)
