"""The functions `import tensorviz` offers: show, breakpoint, graph and save_session.

Importing this module loads neither Qt nor torch: a call imports what it needs, and Qt only
when a window opens. Every call works on the caller's very objects (never copies) and keeps one
workspace for the whole process, so a second call adds to what the first one showed.
"""

from __future__ import annotations

import sys
import threading
from dataclasses import replace
from pathlib import Path

_state: dict = {}  # "workspace": the API's Workspace, made on the first call


def show(*tensors, block: bool | None = None, **named):
    """Open tensorviz on your own live tensors.

    ``tensorviz.show(x, w.T, loss=loss, model=model)`` puts into the Workbench:

    - each positional tensor under the name you wrote for it (``x``, ``w_T``), each keyword
      under its keyword (``loss``);
    - every parameter and buffer of an ``nn.Module`` under its dotted name
      (``model.fc.weight`` becomes ``model_fc_weight``), and the tensors inside lists, tuples
      and dicts.

    They are your objects, not copies: a view stays a view of your tensor (the Memory layout
    shows it sharing storage with the others), and an in-place operation in the app changes
    your tensor too. A tensor with a ``grad_fn`` can be opened in the Autograd graph area
    (or call ``tensorviz.graph(loss)``). Tensors on a GPU stay there; only the values that are
    drawn are copied to the CPU.

    ``block``: None (the default) blocks in a plain script until the window is closed, and
    returns at once in IPython/Jupyter with a Qt event loop (``%gui qt``, switched on if
    needed), where the window stays live and later calls add to it. A second call after the
    window was closed opens it again on the same workspace. ``block=False`` elsewhere needs a
    Qt event loop that runs (your own application's). A tensor cannot be passed as the keyword
    ``block``.

    Without a display (``DISPLAY`` unset, e.g. over SSH) nothing opens: one line on stderr
    says so, and ``tensorviz.save_session(path, ...)`` is the way to take the tensors to a
    machine that has one. Returns the workspace names shown (None when no window opened).
    """
    frame = sys._getframe(1)
    return _open("show", frame, tensors, named, block)


def breakpoint(*, block: bool | None = None):
    """Open tensorviz on every tensor and ``nn.Module`` among the caller's local and global
    variables at this line (like the built-in ``breakpoint()`` opens pdb); the program goes on
    when the window is closed. See ``show`` for ``block``, names and displays."""
    frame = sys._getframe(1)
    return _open("breakpoint", frame, (), None, block)


def graph(tensor, *, block: bool | None = None):
    """Open tensorviz straight on the autograd graph of ``tensor`` (e.g. the loss before
    ``backward()``): the backward nodes torch recorded in ``grad_fn``, steppable node by node.
    See ``show`` for ``block`` and displays."""
    frame = sys._getframe(1)
    return _open("graph", frame, (tensor,), {}, block)


def save_session(path, *tensors, script: str | None = None, **named) -> Path:
    """Write tensors to a session file that ``tensorviz PATH`` (or File → Open Session) opens,
    on this machine or another — the way to the picture where no window can open.

    Names as in ``show``; with no tensors at all, every tensor and module among the caller's
    variables (as ``breakpoint``). Values, dtypes, devices, strides and storage sharing are
    kept; ``script`` is put into the Script area. The file is a zip of JSON and safetensors
    (docs/session_format.md), written atomically. Returns the path written."""
    from tensorviz.api.caller_names import call_site
    from tensorviz.api.collected import collect, label_arguments, namespace_of
    from tensorviz.core.session.session_writer import SessionContents, write_session
    from tensorviz.core.tensors.workspace import Workspace

    frame = sys._getframe(1)
    site = call_site(frame)
    site = replace(site, positional=site.positional[1:])  # (the first one is the path)
    workspace = Workspace()
    if tensors or named:
        values = label_arguments(site, frame, tensors, named)
        collect(workspace, values, site, "save_session")
    else:
        collect(workspace, namespace_of(frame), site, "save_session", complain=False)
    target = Path(path)
    write_session(target, SessionContents(list(workspace), script_text=script))
    return target


def _open(call: str, frame, tensors: tuple, named: dict | None, block: bool | None):
    from tensorviz.api.caller_names import call_site

    site = call_site(frame)
    problem = window_problem(f"tensorviz.{call}()")
    if problem:
        print(f"tensorviz: {problem}", file=sys.stderr)
        return None
    from tensorviz.api.collected import collect, label_arguments, namespace_of

    workspace = api_workspace(create=True)
    if named is None:  # breakpoint(): everything the line can see
        collected = collect(workspace, namespace_of(frame), site, call, complain=False)
    else:
        collected = collect(workspace, label_arguments(site, frame, tensors, named), site, call)
    focus_graph = collected.names[0] if call == "graph" and collected.names else None
    return present_collected(workspace, collected, site, focus_graph, block, None)


def present_collected(workspace, collected, site, graph, block, error):
    from tensorviz.api import viewer

    if block is None:
        block = not viewer.notebook_has_qt_loop()
    headline = _headline(collected, site, block, error is not None)
    print(f"tensorviz: {headline}", file=sys.stderr, flush=True)
    focus = viewer.Focus(collected.names, headline, collected.notes, graph, collected.modules)
    focus.error = error
    viewer.present(workspace, focus, block)
    return list(collected.names)


def _headline(collected, site, block: bool, failed: bool) -> str:
    count = len(collected.names)
    listed = ", ".join(collected.names[:6]) + ("…" if count > 6 else "")
    what = f"{count} tensor{'s' if count != 1 else ''}" + (f" ({listed})" if count else "")
    where = site.where()
    verb = "stopped with an error at" if failed else "from"
    tail = " — close the window to go on" if block and not failed else ""
    return f"{what} {verb} {where}; your own objects, not copies{tail}"


def window_problem(what: str) -> str | None:
    """Why no window can open for `what` ("tensorviz.show()"), in one line; None if it can."""
    if threading.current_thread() is not threading.main_thread():
        return (
            f"{what} opens a window only from the main thread (Qt windows live there); "
            "use tensorviz.save_session(path, ...) from other threads."
        )
    from tensorviz.ui.window.application import display_problem

    problem = display_problem()
    if problem is None:
        return None
    return (
        f"no display to open a window on ({problem}), so {what} shows nothing. "
        "Run where a desktop is (or over ssh -X), or write the tensors with "
        "tensorviz.save_session('tensors.tvsession', ...) and open that file with "
        "`tensorviz tensors.tvsession` where there is one."
    )


def api_workspace(create: bool = False):
    """The workspace every call of this process adds to (None before the first call, unless
    `create`)."""
    if create and "workspace" not in _state:
        from tensorviz.core.tensors.workspace import Workspace

        _state["workspace"] = Workspace()
    return _state.get("workspace")


def forget_workspace() -> None:
    """Start the next call on an empty workspace (tests; a notebook that wants a fresh start)."""
    _state.pop("workspace", None)
