"""The records of a file's tree: a Node per row, the TensorInfo of a tensor entry, and the
storages entries share. Plain data: the readers fill them in, the CLI and the Files area show them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tensorviz.core.files.stand_ins import STEPS
from tensorviz.core.tensors.summary import SHORT_DTYPE_NAMES


@dataclass(frozen=True)
class TensorInfo:
    shape: tuple | None  # ints; a nested tensor's ragged dimension is a string such as "j1"
    dtype: str
    device: str
    stride: tuple[int, ...] | None  # None: no strided storage (sparse, nested)
    storage_offset: int | None
    nbytes: int
    storage_nbytes: int
    storage_id: int | None  # index into FileInspection.storages; None: no storage to share
    layout: str = "strided"  # "strided", "sparse_coo", "sparse_csr", ..., "nested"
    nnz: int | None = None  # stored elements of a sparse tensor
    problem: str | None = None  # why some facts are missing

    @property
    def plain(self) -> bool:
        """A dense, real-storage tensor: values can be shown, summarised and copied."""
        return self.storage_id is not None and self.problem is None

    def text(self) -> str:
        shape = "?" if self.shape is None else ", ".join(map(str, self.shape))
        text = f"[{shape}] {SHORT_DTYPE_NAMES.get(self.dtype, self.dtype)}"
        if self.layout != "strided":
            text += f" {self.layout}"
        if self.nnz is not None:
            text += f", nnz={self.nnz:,}"
        return text if self.device != "meta" else f"{text} meta"


@dataclass(frozen=True)
class StorageGroupInfo:
    storage_id: int
    nbytes: int
    members: tuple[str, ...]  # entry keys
    used_bytes: int  # bytes of the storage that some member reads

    @property
    def wasted_bytes(self) -> int:
        return self.nbytes - self.used_bytes


@dataclass
class Node:
    """One row of the tree. `access` is the path of keys/indices from the loaded object; a group
    made from a dotted state-dict prefix has no access of its own."""

    name: str
    kind: str  # "dict" | "list" | "tuple" | "group" | "tensor" | "value"
    access: tuple = ()
    tensor: TensorInfo | None = None
    value_text: str = ""
    children: list[Node] = field(default_factory=list)
    parent: Node | None = field(default=None, repr=False)
    total_bytes: int = 0
    tensor_count: int = 0
    row: int = 0  # position among its parent's children
    value: object = field(default=None, repr=False)  # a "value"/"text" node's plain value
    class_name: str = ""  # "object"/"module": the class; "call": the callable
    danger: str | None = None  # "call": what it would do when the callable is known to run code
    source: str = ""  # the file (shard) an entry comes from, in a folder or a sharded index
    state_key: str = ""  # its key as the model sees it (state_keys.py): "transformer.h.0.ln_1.b"
    optimizer_state: bool = False  # below an optimizer's `state` (optimizer_names.py)
    parameter: str = ""  # an optimizer's state: the parameter it belongs to, where proven

    def key_text(self) -> str:
        return access_text(self.access)


def access_text(access: tuple) -> str:
    """The Python subscript that reaches an entry: ['encoder.weight'][0]; attributes of an object
    (a whole pickled model) as .layer1.weight, a call's arguments as (arg 0)."""
    return "".join(step.text() if isinstance(step, STEPS) else f"[{step!r}]" for step in access)
