"""`tensorviz watch SCRIPT.py [--log-dir DIR] [--every N] [--histograms-every N] [-- ARG ...]`:
run an unchanged training script as `python SCRIPT.py ARG ...` would (sys.argv, __file__,
sys.path[0], __main__), watching every model and optimizer it makes, into a run folder
(default runs/<date-time>/, said on stderr).

The exit status is the script's: 0 when it finished, N for sys.exit(N), 1 when it raised (the
traceback printed as python prints it; the run folder keeps every step before, and its ended
event says where it stopped), 130 on Ctrl+C, 2 for bad input (no such file, a syntax error).
`--json` prints {"run_folder", "exit_status", "steps"} after the script's own output."""

from __future__ import annotations

import argparse
import builtins
import sys
import traceback

from tensorviz.cli.arguments import PROG, CliInputError, Subcommand, print_json, read_script
from tensorviz.core.translation import _


def _steps(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            _("'{text}' is not a whole number of steps, 1 or more").format(text=text)
        )
    return value


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("script", metavar="SCRIPT.py", help=_("the training script to run"))
    parser.add_argument(
        "script_args", nargs="*", metavar="ARG",
        help=_("the script's own arguments (its sys.argv[1:]); after --, also words that look "
               "like options: SCRIPT.py -- --lr 0.1"),
    )  # fmt: skip
    parser.add_argument("--log-dir", metavar="DIR",
                        help=_("make the run folder under DIR (default: runs/)"))  # fmt: skip
    parser.add_argument("--every", type=_steps, default=1, metavar="N",
                        help=_("record the statistics every N steps (default 1)"))  # fmt: skip
    parser.add_argument("--histograms-every", type=_steps, default=50, metavar="N",
                        help=_("record histograms every N steps (default 50)"))  # fmt: skip
    parser.add_argument("--view", action="store_true",
                        help=_("open the viewer on the run in its own window"))  # fmt: skip


def _print_traceback(error: BaseException, filename: str) -> None:
    """As python prints it: from the script's own first frame on (not ours)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next
    traceback.print_exception(type(error), error, tb or error.__traceback__)


def _exit_status(error: SystemExit) -> int:
    code = error.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _run(args: argparse.Namespace) -> int:
    from tensorviz.core.script.script_setup import ScriptFile, python_setup

    source = read_script(args.script)
    script = ScriptFile(args.script, tuple(args.script_args))
    try:
        code = compile(source, script.code_filename, "exec", dont_inherit=True)
    except SyntaxError as error:
        raise CliInputError(
            _("{script}, line {line}: {message} (nothing ran)").format(
                script=args.script, line=error.lineno, message=error.msg
            )
        ) from None
    from tensorviz.core.watch.module_discovery import ModuleDiscovery
    from tensorviz.core.watch.recorder import WatchRun

    discovery = ModuleDiscovery()
    run = WatchRun(log_dir=args.log_dir, every=args.every, histograms_every=args.histograms_every,
                   command=[PROG, "watch", *sys.argv[2:]] if len(sys.argv) > 2 else None,
                   discovery=discovery)  # fmt: skip
    run.watch(optimizer=None)
    discovery.start()
    if args.view:
        from tensorviz.core.watch.viewer_launch import open_viewer

        open_viewer(run.folder)
    namespace = {"__name__": "__main__", "__builtins__": builtins, "__doc__": None,
                 "__package__": None, "__loader__": None}  # fmt: skip
    with python_setup(script, namespace, source) as globals_:
        try:
            exec(code, globals_)  # noqa: S102 (running the user's script is the point)
            status, ending = 0, None
        except SystemExit as error:
            status, ending = _exit_status(error), error
        except KeyboardInterrupt as error:
            _print_traceback(error, script.code_filename)
            status, ending = 130, error
        except BaseException as error:  # noqa: BLE001 (the script's error, printed as python does)
            _print_traceback(error, script.code_filename)
            status, ending = 1, error
        finally:
            discovery.stop()
    if ending is None:
        run.close()
    else:
        run._end_with(ending)
    if args.json:  # after the script's own output: where the run is and how it ended
        print_json({"run_folder": str(run.folder), "exit_status": status, "steps": run.steps})
    return status


# Marked here, translated where the registry shows it (the language is set after this import).
COMMAND = Subcommand(
    "watch",
    _("run your training script unchanged and record every model and optimizer it makes"),
    _add_arguments,
    _run,
    passes_arguments=True,
)
