"""The key each entry has as the model sees it (its state-dict key), wherever the file keeps it.

How a checkpoint is stored is not part of its keys: a folder's weights file
(`model.safetensors`, `pytorch_model.bin`), an index and its shards, the attributes of a model
pickled whole (`.0.weight` is `0.weight` of its state dict) and the module a TorchScript archive
wraps (`['module'].conv1.weight` is `conv1.weight`) all give the keys `model.state_dict()` has;
the file an entry comes from is shown beside it (Node.source). What the checkpoint itself nests —
`{'model': ..., 'optimizer': ...}` — stays in the key: it is the checkpoint's own structure.

In a folder, a weights file whose keys another weights file of the folder already has (the same
model saved twice, as safetensors and as .bin) keeps its file name in front of its keys, so no
two entries share a key.
"""

from __future__ import annotations

from collections.abc import Mapping

import torch

from tensorviz.core.files.stand_ins import STEPS, Appended, Arg, Attr, Kwarg
from tensorviz.core.files.tree import MissingEntry, walk
from tensorviz.core.files.value_reading import value_at
from tensorviz.core.translation import _

METADATA = "__metadata__"  # safetensors' header metadata, read as the file's first entry
WEIGHTS_FORMATS = ("safetensors", "index", "torch-zip", "torch-legacy", "pickle", "npz")


def step_key(step) -> str:
    """One step of an entry's access as a part of a dotted key."""
    if type(step) is str:  # nearly every step: a state dict's key
        return step
    if isinstance(step, Attr | Kwarg):
        return str(step.name)
    if isinstance(step, Appended):
        return str(step.index)
    if isinstance(step, Arg):
        return f"(arg {step.index})"
    if isinstance(step, STEPS):
        return step.text()
    return step if isinstance(step, str) else repr(step)


def mark_state_keys(result) -> None:
    """Give every entry of a FileInspection's tree (groups aside) its state-dict key."""
    if result.root is None:
        return
    storage_steps = _storage_steps(result)
    scripted = {access for access, part in result.file_parts.items() if part.format ==
                "torchscript"}  # fmt: skip
    if result.format == "torchscript":
        scripted.add(())
    for node in walk(result.root):
        if node.kind != "group":
            node.state_key = state_key(node.access, storage_steps, scripted)


def state_key(access: tuple, storage_steps: set[tuple], scripted: set[tuple]) -> str:
    """The dotted key of the entry at `access`: a weights file's name and a TorchScript
    archive's 'module' left out."""
    parts = [step_key(step) for step in access]
    if access[:1] in storage_steps:
        return ".".join(parts[1:])
    if () in scripted and parts[:1] == ["module"]:
        return ".".join(parts[1:])
    if access[:1] in scripted and parts[1:2] == ["module"]:  # an archive inside a folder
        return ".".join(parts[:1] + parts[2:])
    return ".".join(parts)


def _storage_steps(result) -> set[tuple]:
    """The folder children that hold the model's weights (a state dict: every entry a tensor),
    whose name is storage, not key; a later one with keys already taken keeps its name."""
    taken: set[str] = set()
    steps: set[tuple] = set()
    for access, part in result.file_parts.items():
        if len(access) != 1 or part.format not in WEIGHTS_FORMATS:
            continue
        obj = value_at(result.loaded, access)
        if not holds_weights(obj):
            continue
        keys = {str(k) for k in obj if k != METADATA}
        if keys & taken:
            result.notes.append(
                _(
                    "{file} holds keys another weights file of the folder has: its entries keep "
                    "the file's name in front."
                ).format(file=part.name)  # fmt: skip
            )
            continue
        taken |= keys
        steps.add(access)
    return steps


def holds_weights(obj) -> bool:
    """A state dict as a file saves one: a mapping of names to tensors (and safetensors'
    metadata), some perhaps missing from a shard."""
    if not isinstance(obj, Mapping) or not obj:
        return False
    return all(
        isinstance(value, torch.Tensor | MissingEntry)
        or type(value).__name__ == "UnreadableEntry"
        or key == METADATA
        for key, value in obj.items()
    )
