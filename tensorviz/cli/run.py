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
import sys
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tensorviz.cli.arguments import PROG, CliInputError, Subcommand, print_json, read_script
from tensorviz.core.script.output import MAX_KEPT_CHARS  # no torch: --help stays instant
from tensorviz.core.translation import _, ngettext

if TYPE_CHECKING:
    from tensorviz.core.script.limits import LimitedRun


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("script", metavar="SCRIPT.py", help=_("the PyTorch code to run"))
    parser.add_argument(
        "script_args",
        nargs="*",
        metavar="ARG",
        help=_(
            "the script's own arguments (its sys.argv[1:], as with python SCRIPT.py ARG ...); "
            "after --, also words that look like options: SCRIPT.py -- --lr 0.1"
        ),
    )
    parser.add_argument(
        "--timeout",
        type=_seconds,
        metavar="SECONDS",
        help=_("stop the script after this many seconds (exit status 124)"),
    )


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("'{text}' is not a number of seconds").format(text=text)
        ) from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(
            _("the timeout must be a positive number, not {text}").format(text=text)
        )
    return value


def captured_rows(workspace, summary, capture=None) -> list[dict]:
    """One row per captured tensor, as the Captured list shows it; with the run's capture, the
    script's NumPy arrays that read the tensor's memory (`A = X.numpy()`) too."""
    from tensorviz.core.script.capture import arrays_sharing

    rows = []
    for row in summary.rows:
        tensor = workspace.tensor(row.name)
        grad_fn = type(tensor.grad_fn).__name__ if tensor.grad_fn is not None else None
        arrays = arrays_sharing(capture, tensor) if capture is not None else []
        rows.append(
            {"name": row.name, "path": row.path, "line": row.line, "status": row.status,
             "shape": list(tensor.shape), "dtype": str(tensor.dtype).removeprefix("torch."),
             "requires_grad": tensor.requires_grad, "grad_fn": grad_fn,
             "before_error": row.before_error,
             "shares_storage_with": [n for n in workspace.sharing(row.name) if n != row.name],
             "numpy_arrays_sharing_memory": arrays}
        )  # fmt: skip
    return rows


def _sharing_cell(row: dict) -> str:
    arrays = [_("{name} (NumPy)").format(name=n) for n in row["numpy_arrays_sharing_memory"]]
    return ", ".join([*row["shares_storage_with"], *arrays])


def _columns(text: str) -> int:
    """How many terminal columns `text` takes: a Chinese character takes two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _table(rows: list[dict]) -> str:
    header = (_("name"), _("shape"), "dtype", _("line"), "grad_fn", _("shares storage with"))
    cells = [
        (r["name"], str(r["shape"]), r["dtype"], str(r["line"] or ""), r["grad_fn"] or "",
         _sharing_cell(r))
        for r in rows
    ]  # fmt: skip
    widths = [max(_columns(c[i]) for c in [header, *cells]) for i in range(len(header))]
    return "\n".join(
        "  ".join(
            text + " " * (width - _columns(text)) for text, width in zip(line, widths, strict=True)
        ).rstrip()
        for line in [header, *cells]
    )


def _run_script(args: argparse.Namespace) -> int:
    from tensorviz.core.script.limits import run_with_limits
    from tensorviz.core.script.results import apply_script_result
    from tensorviz.core.script.run import ScriptRun
    from tensorviz.core.script.script_setup import ScriptFile
    from tensorviz.core.tensors.workspace import Workspace

    source = read_script(args.script)
    runner = ScriptRun(source, {}, script_file=ScriptFile(args.script, tuple(args.script_args)))
    limited = run_with_limits(runner, args.timeout)
    result = limited.result
    if result is not None and result.status == "syntax_error":
        error = result.syntax_error
        raise CliInputError(
            _("{script}, line {line}: {message} (nothing ran)").format(
                script=args.script, line=error.line, message=error.message
            )
        )
    chunks, _unused = runner.output.drain(max_chars=2**62)
    workspace = Workspace()
    summary = apply_script_result(workspace, result, source) if result is not None else None
    report = _Report(
        limited,
        chunks,
        runner.output.total_dropped,
        captured_rows(workspace, summary, result.capture) if summary is not None else [],
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
                _(
                    "{dropped} characters of output were dropped: the run keeps the newest {kept}."
                ).format(dropped=f"{self.dropped:,}", kept=f"{MAX_KEPT_CHARS:,}")
            )
        if threads := self.limited.threads_left:
            self.notes.append(
                ngettext(
                    "the script left {count} thread running ({names}); tensorviz exits without "
                    "waiting for it.",
                    "the script left {count} threads running ({names}); tensorviz exits without "
                    "waiting for them.",
                    len(threads),
                ).format(count=len(threads), names=", ".join(t.name for t in threads))
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
            gap = _("… {count} characters of earlier output dropped …")
            sys.stderr.write(gap.format(count=f"{self.dropped:,}") + "\n")
        for stream, text in self.chunks:
            (sys.stderr if stream == "stderr" else sys.stdout).write(text)
        if self.rows:  # apart from what the script printed, if it printed anything
            printed = any(text for _stream, text in self.chunks)
            print(("\n" if printed else "") + _captured_heading(len(self.rows), self.failed_line))
            print(_table(self.rows))
        for note in self.notes:
            print(_("note: {note}").format(note=note))
        if self.stop_text:
            sys.stderr.write(f"{PROG} run: {self.stop_text}\n")
        elif failure is not None and failure.explained.kind == "exit":
            sys.stderr.write(failure.explained.title + "\n")
        elif failure is not None:
            sys.stderr.write(failure.traceback.rstrip() + "\n")
            if failure.torch_error:
                sys.stderr.write("\n" + failure.explained.text() + "\n")


def _captured_heading(count: int, failed_line: int) -> str:
    if failed_line:
        return ngettext(
            "{count} tensor captured before the error on line {line}:",
            "{count} tensors captured before the error on line {line}:",
            count,
        ).format(count=count, line=failed_line)
    return ngettext("{count} tensor captured:", "{count} tensors captured:", count).format(
        count=count
    )


def _stopped_how(stopped_by: str, line: int) -> str:
    if stopped_by == "timeout" and line:
        return _("stopped after the {seconds} s timeout at line {line}")
    if stopped_by == "timeout":
        return _("stopped after the {seconds} s timeout")
    if line:
        return _("interrupted (Ctrl+C) at line {line}")
    return _("interrupted (Ctrl+C)")


def _stop_text(limited, timeout_s: float | None, line_now: int) -> str:
    """What a timeout or Ctrl+C stopped, in one line ("" when neither did)."""
    if not limited.stopped_by:
        return ""
    result = limited.result
    line = (result.line if result is not None else 0) or line_now
    seconds = f"{timeout_s:g}" if timeout_s is not None else ""
    how = _stopped_how(limited.stopped_by, line).format(seconds=seconds, line=line)
    if result is None:
        return _(
            "{stopped}; a torch call that cannot be interrupted was still running, so it was left"
        ).format(stopped=how)
    return _("{stopped}; what the script made is discarded").format(stopped=how)


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
    return None if failure is None else failure.exit_code


# Marked here, translated where the registry shows it (the language is set after this import).
COMMAND = Subcommand(
    "run",
    _("run a PyTorch script as the Script area does; list every tensor it made"),
    _add_arguments,
    _run_script,
    passes_arguments=True,
)
