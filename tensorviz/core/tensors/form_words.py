"""The words the Workbench's forms show around torch's own names, in the language in force.

Creations, operations and their parameters are named as torch names them (`zeros`, `dim`,
`keepdim`): code in every language. In Chinese a parameter's label puts the word beside the
name (维度 (dim)); groups, presets, choices and help texts are translated whole. Texts made once
at import (a spec's help, a note, an operation's doc) are marked with N_ so the catalogue holds
them, and translated where they are shown (`in_language(spec.help)`), so a switch of language
shows them in the new one.
"""

from __future__ import annotations

from tensorviz.core.translation import _, pgettext


def in_language(text: str) -> str:
    """A marked text in the language in force ("" stays "": gettext's "" is the header)."""
    return _(text) if text else ""


def parameter_label(name: str) -> str:
    """The label of a parameter: torch's name, beside its word where the language needs one."""
    labels = {
        "shape": pgettext("parameter", "shape"),
        "data": pgettext("parameter", "data"),
        "size": pgettext("parameter", "size"),
        "fill_value": pgettext("parameter", "fill_value"),
        "low": pgettext("parameter", "low"),
        "high": pgettext("parameter", "high"),
        "start": pgettext("parameter", "start"),
        "end": pgettext("parameter", "end"),
        "step": pgettext("parameter", "step"),
        "steps": pgettext("parameter", "steps"),
        "source": pgettext("parameter", "source"),
        "fill": pgettext("parameter", "fill"),
        "mode": pgettext("parameter", "mode"),
        "start_dim": pgettext("parameter", "start_dim"),
        "end_dim": pgettext("parameter", "end_dim"),
        "dim": pgettext("parameter", "dim"),
        "dim0": pgettext("parameter", "dim0"),
        "dim1": pgettext("parameter", "dim1"),
        "dims": pgettext("parameter", "dims"),
        "repeats": pgettext("parameter", "repeats"),
        "length": pgettext("parameter", "length"),
        "index": pgettext("parameter", "index"),
        "value": pgettext("parameter", "value"),
        "num_classes": pgettext("parameter", "num_classes"),
        "tensors": pgettext("parameter", "tensors"),
        "split_size": pgettext("parameter", "split_size"),
        "chunks": pgettext("parameter", "chunks"),
        "other": pgettext("parameter", "other"),
        "keepdim": pgettext("parameter", "keepdim"),
        "dtype": pgettext("parameter", "dtype"),
        "device": pgettext("parameter", "device"),
    }
    return labels.get(name, name)  # one letter (n) reads the same everywhere


def creation_label(name: str) -> str:
    """How the Create form lists a creation: torch's function names stay, presets are words."""
    labels = {
        "Tensor (legacy)": pgettext("creation", "Tensor (legacy)"),
        "from NumPy": pgettext("creation", "from NumPy"),
        "scalar torch.tensor(3)": pgettext("creation", "scalar torch.tensor(3)"),
        "image [1, 28, 28]": pgettext("creation", "image [1, 28, 28]"),
        "batch [64, 3, 32, 32]": pgettext("creation", "batch [64, 3, 32, 32]"),
        "text [8, 16, 32]": pgettext("creation", "text [8, 16, 32]"),
        "weights randn(256, 128) * 0.01": pgettext("creation", "weights randn(256, 128) * 0.01"),
        "labels randint(0, 10, (32,))": pgettext("creation", "labels randint(0, 10, (32,))"),
        "device lesson: ones(2, 3, 4) on meta": pgettext(
            "creation", "device lesson: ones(2, 3, 4) on meta"
        ),
    }
    return labels.get(name, name)


def group_label(group: str) -> str:
    """A heading of the Create or Apply list (a creation's group, an operation's category)."""
    labels = {
        "From data": pgettext("group", "From data"),
        "Filled": pgettext("group", "Filled"),
        "Random": pgettext("group", "Random"),
        "Ranges": pgettext("group", "Ranges"),
        "Like another": pgettext("group", "Like another"),
        "NumPy bridge": pgettext("group", "NumPy bridge"),
        "Presets": pgettext("group", "Presets"),
        "Shape & views": pgettext("group", "Shape & views"),
        "Indexing": pgettext("group", "Indexing"),
        "Join & split": pgettext("group", "Join & split"),
        "Arithmetic": pgettext("group", "Arithmetic"),
        "Matrix": pgettext("group", "Matrix"),
        "Reductions": pgettext("group", "Reductions"),
        "Type & device": pgettext("group", "Type & device"),
        "In place": pgettext("group", "In place"),
    }
    return labels.get(group, group)


def choice_label(choice: str) -> str:
    """One of a choice parameter's values as the form lists it (the value itself is passed)."""
    labels = {
        "tensor (copies)": pgettext("choice", "tensor (copies)"),
        "from_numpy (shares memory)": pgettext("choice", "from_numpy (shares memory)"),
    }
    return labels.get(choice, choice)


def provenance_label(op: str) -> str:
    """How the card names what made a tensor: torch's operation names stay (they are code), a
    creation is named as the Create form lists it, the app's own makers are words."""
    labels = {
        "duplicate": pgettext("provenance", "duplicate"),
        "training": pgettext("provenance", "training"),
        "training data": pgettext("provenance", "training data"),
        "load": pgettext("provenance", "load"),
    }
    return labels.get(op) or creation_label(op)
