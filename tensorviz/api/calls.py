"""The functions `import tensorviz` offers: show, breakpoint, graph, architecture, tag_modules
and save_session.

Importing this module loads neither Qt nor torch: a call imports what it needs, and Qt only
when a window opens. Every call works on the caller's very objects (never copies) and keeps one
workspace for the whole process, so a second call adds to what the first one showed.

What a call prints on stderr speaks the window's language (View → Language, else the
system's); where no window can open, the terminal's (LANG, as the CLI).
"""

from __future__ import annotations

import sys
import threading
from dataclasses import replace
from pathlib import Path

from tensorviz.api.offscreen import offscreen_problem
from tensorviz.core import translation
from tensorviz.core.translation import _

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
    (or call ``tensorviz.graph(loss)``). A module's layers need an input to be recorded: the
    line printed for it says so, and ``tensorviz.architecture(model, x)`` draws them. Tensors
    on a GPU stay there; only the values that are drawn are copied to the CPU.

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


def architecture(model, *inputs, block: bool | None = None):
    """Open tensorviz's Architecture area on ``model(*inputs)``: the forward is run once (in
    the window's worker, on your very model and inputs) and recorded module by module — every
    module call and torch op, the shapes between them, repeated blocks folded — as the Script
    area's "Architecture of model(x)" does.

    ``model`` is an ``nn.Module`` (or a function that calls modules); ``inputs`` are passed to
    it positionally, as you would call it. The model's parameters and the inputs also join the
    Workbench under their names, as with ``show``. A forward that raises is drawn up to the op
    that raised, with torch's message explained. Models on the meta device record their
    shapes with no memory. See ``show`` for ``block``, names and displays.
    """
    if not callable(model) or _is_tensor(model):
        raise TypeError(
            _(
                "tensorviz.architecture() takes the model first (an nn.Module or a function), "
                "then its inputs: tensorviz.architecture(model, x); got {kind}"
            ).format(kind=type(model).__name__)
        )
    frame = sys._getframe(1)
    return _open("architecture", frame, (model, *inputs), {}, block)


def tag_modules():
    """Remember which ``nn.Module`` made each backward node, for the forwards run inside::

        with tensorviz.tag_modules():
            loss = loss_fn(model(x), y)
        tensorviz.graph(loss)   # "group by nn.Module" works; search finds "h.5.attn"

    The Autograd graph area can then collapse the graph module by module (``transformer.h.5``,
    blocks in a ``ModuleList`` too) and find nodes by dotted module names. The block costs one
    hook call per module call and changes nothing else; it also works as a decorator
    (``@tensorviz.tag_modules()`` on a training step). Forwards the app runs itself (the
    Script area, ``tensorviz.architecture``) are tagged without it. Tags live on the graph's
    nodes (``grad_fn.metadata``) and go with them."""
    from tensorviz.core.forward.module_tags import tagging_modules

    return tagging_modules()


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


def _is_tensor(value) -> bool:
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, torch.Tensor)


def _open(call: str, frame, tensors: tuple, named: dict | None, block: bool | None):
    from tensorviz.api.caller_names import call_site

    speak_the_terminals_language()
    site = call_site(frame)
    problem = window_problem(f"tensorviz.{call}()")
    if problem:
        print(f"tensorviz: {problem}", file=sys.stderr)
        return None
    from tensorviz.api.collected import collect, label_arguments, namespace_of

    workspace = api_workspace(create=True)
    recording = None
    if named is None:  # breakpoint(): everything the line can see
        collected = collect(workspace, namespace_of(frame), site, call, complain=False)
    else:
        labelled = label_arguments(site, frame, tensors, named)
        if call == "architecture":
            recording = _recording(site, list(labelled), tensors)
        collected = collect(workspace, labelled, site, call)
    focus_graph = collected.names[0] if call == "graph" and collected.names else None
    if focus_graph is not None and (hint := _untagged_graph_hint(tensors[0])):
        collected.notes.append(hint)
        print(f"tensorviz: {hint}", file=sys.stderr, flush=True)
    return present_collected(workspace, collected, site, focus_graph, block, None, recording)


def _recording(site, labels: list[str], values: tuple):
    """What architecture() asked for: (name, model, inputs, "model(x, mask)") as written."""
    from tensorviz.api import viewer

    written = site.positional
    texts = [(written[i] if i < len(written) else None) or label for i, label in enumerate(labels)]
    call_text = f"{texts[0]}({', '.join(texts[1:])})"
    return viewer.Recording(labels[0], values[0], tuple(values[1:]), call_text)


def present_collected(workspace, collected, site, graph, block, error, recording=None):
    from tensorviz.api import viewer

    if block is None:
        block = not viewer.notebook_has_qt_loop()
    viewer.speak_the_windows_language()
    headline = _headline(collected, site, block, error is not None, recording)
    print(f"tensorviz: {headline}", file=sys.stderr, flush=True)
    notes = list(collected.notes)
    if recording is None and collected.modules:
        hint = _architecture_hint(collected.modules)
        print(f"tensorviz: {hint}", file=sys.stderr, flush=True)
        notes.append(hint)
    focus = viewer.Focus(collected.names, headline, notes, graph, recording, error)
    viewer.present(workspace, focus, block)
    return list(collected.names)


def _headline(collected, site, block: bool, failed: bool, recording=None) -> str:
    count = len(collected.names)
    listed = ", ".join(collected.names[:6]) + ("…" if count > 6 else "")
    what = _("no tensors")
    if count:
        what = translation.ngettext(
            "{count} tensor ({listed})", "{count} tensors ({listed})", count
        ).format(count=count, listed=listed)
    if failed:
        text = _("{what} stopped with an error at {where}; your own objects, not copies")
    elif recording is not None:
        text = _(
            "the architecture of {call} from {where}, recorded in the Architecture area; "
            "{what} in the Workbench, your own objects, not copies"
        )
    else:
        text = _("{what} from {where}; your own objects, not copies")
    text = text.format(what=what, where=site.where(), call=recording.text if recording else "")
    if block and not failed:
        text = _("{headline} — close the window to go on").format(headline=text)
    return text


def _untagged_graph_hint(tensor) -> str | None:
    """What to do to group a graph by module when its forward ran without tags but read
    nn.Parameters (a model's forward); None when there is nothing to say."""
    from tensorviz.core.forward.module_tags import graph_module_tags

    tagged, parameters = graph_module_tags(tensor)
    if tagged or not parameters:
        return None
    return _(
        "the graph's nodes do not say which nn.Module made them: run the forward inside "
        "`with tensorviz.tag_modules():` to group the graph by module and search it by "
        "module names (h.5.attn)"
    )


def _architecture_hint(modules: dict) -> str:
    name = next(iter(modules))
    return _(
        "{name} is an nn.Module: its parameters are in the Workbench; "
        "tensorviz.architecture({name}, x) draws its layers in the Architecture area, run on "
        "an input x of yours"
    ).format(name=name)


def speak_the_terminals_language() -> None:
    """Before any window exists, the API speaks the language of the terminal it runs in (as
    the CLI does); once a window has chosen one, that one."""
    if not _state.get("language"):
        _state["language"] = translation.set_language(translation.language_from_environment())


def window_problem(what: str) -> str | None:
    """Why no window can open for `what` ("tensorviz.show()"), in one line; None if it can."""
    if threading.current_thread() is not threading.main_thread():
        return _(
            "{what} opens a window only from the main thread (Qt windows live there); "
            "use tensorviz.save_session(path, ...) from other threads."
        ).format(what=what)
    from tensorviz.ui.window.application import display_problem

    problem = offscreen_problem() or display_problem()
    if problem is None:
        return None
    return _(
        "no display to open a window on ({problem}), so {what} shows nothing. "
        "Run where a desktop is (or over ssh -X), or write the tensors with "
        "tensorviz.save_session('tensors.tvsession', ...) and open that file with "
        "`tensorviz tensors.tvsession` where there is one."
    ).format(problem=problem, what=what)


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
