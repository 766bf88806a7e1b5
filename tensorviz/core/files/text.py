"""The words the CLI prints and the Files area shows for a file's contents (one source for both):
sizes, a node's summary, its sharing, the Python line that loads an entry, the tree as text."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from tensorviz.core.explain.errors import ExplainedError
from tensorviz.core.files.inspection import FileInspection, Node, access_text
from tensorviz.core.files.quoting import one_line, quoted
from tensorviz.core.files.small_values import small_values, value_words
from tensorviz.core.files.stand_ins import STEPS
from tensorviz.core.translation import _, ngettext

if TYPE_CHECKING:  # imported where used: the workspace brings networkx (12 MB resident), and
    # the checkpoint comparison, which needs this module's words, stays within its memory goal
    from tensorviz.core.tensors.workspace import Workspace, WorkspaceEntry

NO_BYTES = ("value", "call", "global", "missing", "text")


def joined(parts: list[str], items: bool = False) -> str:
    """The parts of one line with the language's separator: '; ' (', ' between items) in
    English, the catalogue's full-width '；' / '，' in a Chinese sentence."""
    return (_(", ") if items else _("; ")).join(parts)


def format_bytes(n: int) -> str:
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


def node_summary(node: Node) -> str:
    """Shape and dtype of a tensor, the value of a plain value, the size of a container, an
    object's class, the call a plain torch.load would make."""
    if node.kind == "tensor":
        return node.tensor.text()
    if node.kind in ("value", "call", "global", "missing", "text"):
        return quoted(node.value_text, 200, quote=False)
    n = node.tensor_count
    if node.kind == "module":
        text = ngettext("{cls} module, {n} tensor", "{cls} module, {n} tensors", n)
        return text.format(cls=short_class(node.class_name), n=n)
    if node.kind == "object":
        text = ngettext("{cls} object, {n} tensor", "{cls} object, {n} tensors", n)
        return text.format(cls=node.class_name, n=n)
    what = node.value_text if node.kind == "file" else container_word(node.kind)
    return ngettext("{what}, {n} tensor", "{what}, {n} tensors", n).format(what=what, n=n)


def container_word(kind: str) -> str:
    """dict, list and tuple are Python's own words; a state dict's prefix group is ours."""
    return _("prefix group") if kind == "group" else kind


def short_class(name: str) -> str:
    """torch.nn.modules.linear.Linear → Linear; a TorchScript __torch__.M → M."""
    return name.rpartition(".")[2] or name


def sharing_text(node: Node, inspection: FileInspection) -> str:
    """'shares storage #1 with ['b']' and/or 'saves its whole storage: 360 B wasted'."""
    if node.tensor is None:
        return ""
    if node.tensor.storage_id is None:
        layout = node.tensor.layout
        return _("no plain storage ({layout})").format(layout=layout) if layout != "strided" else ""
    group = inspection.storages[node.tensor.storage_id]
    parts = []
    others = [m for m in group.members if m != node.key_text()]
    if others:
        parts.append(
            _("storage #{id} shared with {others}").format(
                id=group.storage_id, others=", ".join(others)
            )
        )
    if group.wasted_bytes > 0 and node.tensor.storage_nbytes > node.tensor.nbytes:
        unused = format_bytes(group.wasted_bytes)
        parts.append(_("saves its whole storage: {size} unused").format(size=unused))
    return joined(parts)


def tree_lines(inspection: FileInspection) -> list[str]:
    """The tree as indented text lines (what `tensorviz inspect` prints): tensors of at most 8
    elements with their values, read from the file."""
    lines = [inspection.path, _("format: {label}").format(label=inspection.format_label)]
    lines += [_("note: {note}").format(note=one_line(note, 2000)) for note in inspection.notes]
    lines += [
        _("weights_only: {sentence}").format(sentence=line)
        for line in inspection.safety_sentences()
    ]
    if inspection.root is None:
        return lines
    values = small_values(inspection)

    def walk(node: Node, depth: int) -> None:
        share = sharing_text(node, inspection)
        size = format_bytes(node.total_bytes) if node.kind not in NO_BYTES else ""
        text = f"{'  ' * depth}{quoted(node.name, 120, quote=False)}  {node_summary(node)}"
        if id(node) in values:
            text += f"  {value_words(values[id(node)])}"
        if node.parameter and (node.parent is None or node.parent.parameter != node.parameter):
            text += "  " + _("for {parameter}").format(parameter=node.parameter)
        source = node.source and f"({node.source})"
        parts = (text, size, share and f"[{share}]", source)
        lines.append("  ".join(part for part in parts if part))
        for child in node.children:
            walk(child, depth + 1)

    walk(inspection.root, 0)
    shared = inspection.shared_groups()
    total = sum(g.nbytes for g in inspection.storages)
    lines.append(
        _(
            "{tensors} tensors in {storages} storages, {size}; {shared} storages shared between "
            "entries"
        ).format(
            tensors=len(inspection.entries),
            storages=len(inspection.storages),
            size=format_bytes(total),
            shared=len(shared),
        )
    )
    return lines


def load_code(inspection: FileInspection, access: tuple) -> str:
    """The Python line that gives the same entry, for the workspace's provenance."""
    path, fmt = inspection.path, inspection.format
    shard = inspection.entry_sources.get(tuple(access), "")
    if fmt == "folder" and access and isinstance(access[0], str):
        path, access = os.path.join(path, access[0]), tuple(access[1:])
        fmt = _format_by_name(path)
    if fmt == "index" and shard:
        path, fmt = os.path.join(os.path.dirname(path), shard.rpartition("/")[2]), None
        fmt = _format_by_name(path)
    if fmt == "dcp":
        folder = path if os.path.isdir(path) else os.path.dirname(path)
        return (f"dcp_to_torch_save({folder!r}, 'checkpoint.pt'); torch.load('checkpoint.pt')"
                f"{access_text(access)}")  # fmt: skip
    if fmt == "npy":
        return f"torch.from_numpy(np.load({path!r}))"
    if fmt == "npz":
        return f"torch.from_numpy(np.load({path!r}){access_text(access)})"
    if fmt == "safetensors":
        return f"safetensors.torch.load_file({path!r}){access_text(access)}"
    if fmt == "torchscript":
        comment = _("runs the archive's code")
        return f"torch.jit.load({path!r}){access_text(access[1:])}  # {comment}"
    if inspection.safety.refused_globals:
        comment = _("runs the file's code: only for a file you trust")
        return f"torch.load({path!r}, weights_only=False){access_text(access)}  # {comment}"
    return f"torch.load({path!r}, weights_only=True){access_text(access)}"


def _format_by_name(path: str) -> str:
    if path.endswith(".safetensors"):
        return "safetensors"
    if path.endswith((".npy", ".npz")):
        return path[-3:]
    return "torch-zip"


def workspace_entries(
    workspace: Workspace, inspection: FileInspection, nodes: list[Node]
) -> tuple[list[WorkspaceEntry], str]:
    """Workspace entries for these tensor nodes (copies read from the file, sharing kept, named
    after their keys, with the line that loads them), and a sentence on any left out."""
    from tensorviz.core.tensors.workspace import Provenance, WorkspaceEntry

    plain = [n for n in nodes if n.tensor is not None and n.tensor.plain]
    skipped = [n for n in nodes if n not in plain]
    why = ""
    if skipped:
        keys = ", ".join(n.key_text() or _("(the file)") for n in skipped)
        why = _("Not sent: {keys} — {problem}.").format(
            keys=keys, problem=skipped[0].tensor.problem
        )
    tensors = inspection.tensors_in_memory([node.access for node in plain])  # FileChangedError
    entries, used = [], set()
    for node, tensor in zip(plain, tensors, strict=True):
        words = "_".join(map(_step_word, node.access)) or Path(inspection.path).stem
        name = workspace.suggest_name(words)
        base, n = name, 1
        while name in used:
            n += 1
            name = workspace.suggest_name(f"{base}_{n}")
        used.add(name)
        provenance = Provenance("load", load_code(inspection, node.access))
        entries.append(WorkspaceEntry(name, tensor, provenance))
    return entries, why


def _step_word(step) -> str:
    """A step of an entry's path as a word for a workspace name (an attribute by its name)."""
    for attribute in ("name", "index"):
        if isinstance(step, STEPS) and hasattr(step, attribute):
            return str(getattr(step, attribute))
    return str(step)


def explain_file_error(inspection: FileInspection) -> ExplainedError:
    """A read failure as an ExplainedError for the error box."""
    return ExplainedError(
        "file",
        _("This file cannot be opened"),
        "",
        inspection.error or "",
        _(
            "Check that it is a complete torch.save, safetensors, .npy or .npz file, a checkpoint "
            "folder or an index file (a copy that finished downloading); it stays listed so you "
            "can see what was tried."
        ),
    )


def safety_lines(inspection: FileInspection) -> list[str]:
    """What torch's loaders would do with this file, one sentence each (the CLI and the GUI)."""
    return inspection.safety_sentences()
