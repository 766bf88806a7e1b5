"""`tensorviz run SCRIPT.py [--json]`: the Script area, headless. The script runs exactly as the
Script area runs it (torch, nn, F and np already imported; the same runner, the same capture),
its output is printed in order, then every tensor it made — also inside containers and module
parameters — with shape, dtype, the line that made it and its grad_fn.

Exit 0 when the script finished, N when it called sys.exit(N), 1 when it raised (the traceback
trimmed to the script and the app's explanation on stderr), 2 for bad input (no such file, not
UTF-8 text, a syntax error)."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from tensorviz.cli.arguments import CliInputError, Subcommand, print_json


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("script", metavar="SCRIPT.py", help="the PyTorch code to run")


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
    from tensorviz.core.script.results import apply_script_result
    from tensorviz.core.script.run import ScriptRun
    from tensorviz.core.tensors.workspace import Workspace

    source = _read(args.script)
    runner = ScriptRun(source, {})
    result = runner.run()
    if result.status == "syntax_error":
        error = result.syntax_error
        raise CliInputError(f"{args.script}, line {error.line}: {error.message} (nothing ran)")
    chunks, _ = runner.output.drain(max_chars=2**62)
    workspace = Workspace()
    summary = apply_script_result(workspace, result, source)
    rows = captured_rows(workspace, summary)
    failure = result.failure
    if args.json:
        print_json(
            {"status": result.status, "duration_s": round(result.duration_s, 6),
             "output": [{"stream": s, "text": t} for s, t in chunks], "tensors": rows,
             "notes": summary.notes,
             "error": None if failure is None else {
                 "line": failure.line, "traceback": failure.traceback,
                 "title": failure.explained.title, "explanation": failure.explained.explanation,
                 "fix": failure.explained.fix}}
        )  # fmt: skip
    else:
        for stream, text in chunks:
            (sys.stderr if stream == "stderr" else sys.stdout).write(text)
        if rows:
            before = (
                f" before the error on line {summary.failed_line}" if summary.failed_line else ""
            )
            print(f"\n{len(rows)} tensor{'s' if len(rows) != 1 else ''} captured{before}:")
            print(_table(rows))
        for note in summary.notes:
            print(f"note: {note}")
        if failure is not None and failure.explained.kind == "exit":
            sys.stderr.write(failure.explained.title + "\n")
        elif failure is not None:
            sys.stderr.write(failure.traceback.rstrip() + "\n")
            if failure.torch_error:
                sys.stderr.write("\n" + failure.explained.text() + "\n")
    if result.status == "finished":
        return 0
    code = _exit_code(failure)
    return code if code is not None else 1


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
