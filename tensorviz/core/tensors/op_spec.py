"""One operation of the Workbench: its parameters, the torch call it makes, the PyTorch line it
stands for, and its one-line explanation. The catalogue of them is operation_specs.OPERATIONS."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tensorviz.core.tensors.form_words import in_language
from tensorviz.core.tensors.op_params import ParamSpec
from tensorviz.core.tensors.operation_docs import OPERATION_DOCS


@dataclass(frozen=True)
class OpSpec:
    name: str
    category: str
    params: tuple[ParamSpec, ...]
    run: Callable[..., object]  # run(x, **params) -> tensor | tuple of tensors
    # e.g. "{x}.view({shape})" with {x} the input's name, or a callable(**shown) -> str
    template: str | Callable[..., str]
    inplace: bool = False
    takes_input: bool = True  # False for cat/stack, whose tensors come from a parameter
    # For writes whose index bounds torch checks only while writing: the same indexing as a
    # read, index_probe(stand_in, **params), which raises torch's bounds error and writes nothing
    index_probe: Callable[..., object] | None = None

    @property
    def doc(self) -> str:
        """Its one-line explanation in the language in force (operation_docs holds every text in
        one place)."""
        return in_language(self.doc_id)

    @property
    def doc_id(self) -> str:
        """The explanation as marked: English, the catalogue's id (translate with in_language)."""
        return OPERATION_DOCS.get(self.name, "")


def code_line(op: OpSpec, input_name: str | None, shown: dict[str, str]) -> str:
    """The PyTorch line equivalent to running `op` with these (formatted) parameters."""
    if callable(op.template):
        return op.template(x=input_name, **shown)
    return op.template.format(x=input_name, **shown)
