"""Entry point: argument parsing, QApplication creation, main window start; nothing else.

`tensorviz [FILE ...]` starts the GUI; `tensorviz SUBCOMMAND ...` runs a headless command from
tensorviz/cli/. torch is not imported here: the window paints first and torch loads in a worker.
`--lang zh_CN|en` picks the window's language for one run (and the language of these lines);
without it, `--help` and the errors here speak the terminal's (LANG), the window View →
Language's, else the system's.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time

from tensorviz.core.gc_pause import gc_paused

# The cli imports torch: about a million objects, all alive until exit. The cyclic collector's
# full collections would walk every one of them and free nothing (0.1 s each on this machine).
with gc_paused():
    from tensorviz import cli
    from tensorviz.core import translation
    from tensorviz.core.translation import _

_START = time.perf_counter()


def build_parser() -> argparse.ArgumentParser:
    parser = cli.OneLineErrorParser(
        prog=cli.PROG,
        description=_(
            "See PyTorch: tensors, strides and storage, autograd graphs and training. "
            "Without a subcommand, starts the desktop app and queues FILEs for the Files area."
        ),
        epilog=cli.subcommand_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help=_("tensor files to open"))
    parser.add_argument(
        "--version",
        action="version",
        version=cli.version_text(),
        help=_("show program's version number and exit"),
    )
    parser.add_argument(
        "--lang",
        choices=tuple(translation.LANGUAGES),
        help=_(
            "the language of the window for this run: en (English) or zh_CN (简体中文); "
            "default: View → Language, else the system's"
        ),
    )
    parser.add_argument(
        "--quit-after-ready",
        action="store_true",
        help=_("quit once the window has painted and torch has loaded (smoke tests, benchmarks)"),
    )
    parser.add_argument(
        "--report-startup",
        action="store_true",
        help=_("print 'first-paint SECONDS' and 'ready SECONDS' to stdout as they happen"),
    )
    return parser


def pyside_problem() -> str | None:
    """PySide6 6.12.0 aborts CPython 3.11 (None refcount bug); say so instead of crashing later."""
    import PySide6

    if sys.version_info < (3, 12) and PySide6.__version__.startswith("6.12."):
        return _(
            "PySide6 {pyside} crashes Python {python} (a None reference-count bug). Install "
            "PySide6-Essentials<6.12 or use Python 3.12+; `make run` sets this up for you."
        ).format(pyside=PySide6.__version__, python=sys.version.split()[0])
    return None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    argv = subcommand_first(argv)
    if argv and argv[0] in cli.SUBCOMMANDS:
        gc.freeze()  # what is imported now lives until exit: later collections skip it
        register_painters()
        return cli.run_subcommand(argv)
    translation.set_language(cli.language_asked(argv))
    try:
        args = build_parser().parse_args(argv)
    except cli.CliInputError as error:
        print(cli.error_line(cli.PROG, error), file=sys.stderr)
        return 2
    if problem := cli.unknown_word_problem(args.files) or pyside_problem() or no_display():
        print(cli.error_line(cli.PROG, problem), file=sys.stderr)
        return 2
    return run_gui(args)


def subcommand_first(argv: list[str]) -> list[str]:
    """`tensorviz --lang zh_CN run x.py` (the global option before the subcommand, as in
    `git -C DIR log`) is `tensorviz run --lang zh_CN x.py`; any other command line as it is."""
    index, options = 0, []
    while index < len(argv):
        word = argv[index]
        if word == "--lang" and index + 1 < len(argv):
            options += argv[index : index + 2]
            index += 2
        elif word.startswith("--lang="):
            options.append(word)
            index += 1
        else:
            break
    if options and index < len(argv) and argv[index] in cli.SUBCOMMANDS:
        return [argv[index], *options, *argv[index + 1 :]]
    return argv


def no_display() -> str | None:
    """Qt aborts the process (SIGABRT) when it finds no display: say so before it tries."""
    from tensorviz.ui.window.application import display_problem

    problem = display_problem()
    if problem is None:
        return None
    headless = ", ".join(cli.SUBCOMMANDS)
    return _(
        "no display to open the window on ({problem}). Run tensorviz in a desktop session, "
        "over `ssh -X`, or as `xvfb-run {prog} ...`; the subcommands ({headless}) need none."
    ).format(problem=problem, prog=cli.PROG, headless=headless)


def register_painters() -> None:
    """The CLI's PNG/SVG pictures are painted by the GUI's own scenes; the CLI never imports the
    ui, so this entry point, which composes both, hands it the painters (imported when used)."""
    from tensorviz.cli.pictures import register_painter

    def paint_autograd_graph(graph, path) -> None:
        from tensorviz.ui.autograd.graph_export import write_graph_picture

        write_graph_picture(graph, path)

    def paint_architecture(architecture, path) -> None:
        from tensorviz.ui.forward.architecture_export import write_architecture_picture

        write_architecture_picture(architecture, path)

    register_painter("autograd_graph", paint_autograd_graph)
    register_painter("architecture", paint_architecture)


def run_gui(args: argparse.Namespace) -> int:
    from PySide6.QtCore import Qt

    from tensorviz.ui.window.app_settings import AppSettings
    from tensorviz.ui.window.application import create_application
    from tensorviz.ui.window.main_window import MainWindow

    app = create_application()
    window = MainWindow(AppSettings(), language=args.lang)
    if args.report_startup:
        window.first_painted.connect(lambda: _report("first-paint"))
        window.ready.connect(lambda: _report("ready"))
    if args.quit_after_ready:
        window.ready.connect(window.close, Qt.ConnectionType.QueuedConnection)
    # The app is its window: once it has closed (workers joined), leave the event loop. Waiting
    # for Qt's last-window-closed alone left 1 start in ~8 running on after the close (seen with
    # --quit-after-ready and a reused settings folder: bench/startup.py never finished).
    window.closed.connect(app.quit, Qt.ConnectionType.QueuedConnection)
    window.show()
    if args.files:
        _queued, problems = window.open_paths(args.files)
        for problem in problems:
            print(f"{cli.PROG}: {problem.message()}", file=sys.stderr)
    return app.exec()


def _report(event: str) -> None:
    print(f"{event} {time.perf_counter() - _START:.3f}", flush=True)
