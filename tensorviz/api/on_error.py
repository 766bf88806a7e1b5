"""TENSORVIZ_ON_ERROR=1: an uncaught exception opens tensorviz on the frame that raised it — its
tensors in the Workbench and the error explained — after the usual traceback is printed.

The hook is installed at interpreter start by the `tensorviz_on_error.pth` file an install of
tensorviz puts into site-packages (it only reads the variable, so it costs nothing otherwise),
and when `import tensorviz` runs with the variable set. It never changes how the program
ends: the exit status is Python's own.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from pathlib import Path

VARIABLE = "TENSORVIZ_ON_ERROR"
_installed: list = []  # the excepthook that was there before ours


def asked() -> bool:
    return os.environ.get(VARIABLE, "").strip().lower() not in ("", "0", "false", "no", "off")


def install_if_asked() -> None:
    if asked():
        install()


def install() -> None:
    if _installed:
        return
    _installed.append(sys.excepthook)
    sys.excepthook = _on_uncaught


def _on_uncaught(kind, error, trace) -> None:
    _installed[0](kind, error, trace)  # the traceback first, as without tensorviz
    if issubclass(kind, KeyboardInterrupt | SystemExit) or trace is None:
        return
    try:
        open_on_error(error, raising_frame(trace))
    except Exception as failure:  # noqa: BLE001 — the hook must never hide the real error
        from tensorviz.core.translation import _

        print(_("tensorviz: could not open on the error ({failure})").format(failure=failure),
              file=sys.stderr)  # fmt: skip


def raising_frame(trace):
    """The innermost frame of the traceback in the program's own code (not torch's, nor the
    standard library's, nor tensorviz's); the innermost of all if none is."""
    frames = []
    while trace is not None:
        frames.append(trace.tb_frame)
        trace = trace.tb_next
    libraries = _library_folders()
    own = [f for f in frames if not _inside(f.f_code.co_filename, libraries)]
    return (own or frames)[-1]


def open_on_error(error: BaseException, frame) -> list[str] | None:
    from tensorviz.api.caller_names import call_site
    from tensorviz.api.calls import (
        api_workspace,
        present_collected,
        speak_the_terminals_language,
        window_problem,
    )
    from tensorviz.api.collected import collect, namespace_of
    from tensorviz.core.explain.errors import explain_error

    speak_the_terminals_language()
    problem = window_problem(VARIABLE)
    if problem:
        print(f"tensorviz: {problem}", file=sys.stderr)
        return None
    site = call_site(frame)
    workspace = api_workspace(create=True)
    collected = collect(workspace, namespace_of(frame), site, "error", complain=False)
    from tensorviz.api import viewer

    viewer.speak_the_windows_language()  # the explanation is made in the window's language
    explained = explain_error(error)
    return present_collected(workspace, collected, site, None, True, explained)


def _library_folders() -> list[str]:
    import tensorviz

    folders = {sysconfig.get_paths()[key] for key in ("stdlib", "purelib", "platlib")}
    folders.add(str(Path(tensorviz.__file__).parent))
    torch = sys.modules.get("torch")
    if torch is not None and getattr(torch, "__file__", None):
        folders.add(str(Path(torch.__file__).parent))
    return [str(Path(f).resolve()) for f in folders]


def _inside(filename: str, folders: list[str]) -> bool:
    if filename.startswith("<"):  # <stdin>, <string>: the user's own code
        return False
    resolved = str(Path(filename).resolve())
    return any(resolved.startswith(folder + os.sep) for folder in folders)
