"""Every Workbench operation has its one-line explanation, and what a line says about view or
copy is what torch does: checked on the same cases the Workbench is compared with torch on."""

import pytest
import torch
from test_workbench_actions import CASES
from workbench_workspace import workspace

from tensorviz.core.tensors.operation_docs import OPERATION_DOCS
from tensorviz.core.tensors.operation_specs import OPERATIONS
from tensorviz.core.tensors.workbench_actions import apply_operation


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: op.name)
def test_every_operation_has_a_one_line_explanation(op):
    assert op.doc.strip() and "\n" not in op.doc and op.doc.endswith(".")
    assert op.doc == OPERATION_DOCS[op.name]


def test_no_explanation_is_left_over_for_an_operation_that_is_gone():
    assert set(OPERATION_DOCS) == {op.name for op in OPERATIONS}


# What each line says (the words, as written in it) and what that means for storage.
CLAIMS = {
    "view": ("Same storage", "view"),
    "flatten": ("a view when they are contiguous", "view"),  # the case's x is contiguous
    "squeeze": ("a view", "view"),
    "unsqueeze": ("a view", "view"),
    "transpose": ("view", "view"),
    "permute": ("a view", "view"),
    "expand": ("no memory is copied", "view"),
    "broadcast_to": ("a view", "view"),
    "repeat": ("a real copy", "copy"),
    "clone": ("its own storage", "copy"),
    "detach": ("Shares storage", "view"),
    "narrow": ("a view", "view"),
    "index_select": ("a copy", "copy"),
    "scatter": ("A copy of x", "copy"),
    "to_dtype": ("x itself when the dtype already matches", None),
}


@pytest.mark.parametrize(
    "case", [c for c in CASES if c[0] in CLAIMS], ids=lambda c: f"{c[0]}-{c[2]}"
)
def test_what_a_line_says_about_view_or_copy_is_what_torch_does(case):
    op, source, params, direct = case
    words, kind = CLAIMS[op]
    assert words in OPERATION_DOCS[op]
    ws = workspace()
    x = ws.tensor(source)
    (name,) = apply_operation(ws, op, source, params).created
    result = ws.tensor(name)
    shares = result.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    if kind is None:  # "x itself when …": itself exactly when the dtype matches
        assert (result is x) == (result.dtype == x.dtype)
    else:
        assert shares == (kind == "view"), (op, OPERATION_DOCS[op])


@pytest.mark.parametrize("op", ["split", "unbind"])
def test_the_parts_of_split_and_unbind_are_views(op):
    x = torch.arange(12.0).reshape(3, 4)
    parts = x.split(1, 0) if op == "split" else x.unbind(0)
    assert ": views" in OPERATION_DOCS[op] or "views." in OPERATION_DOCS[op]
    assert all(p.untyped_storage().data_ptr() == x.untyped_storage().data_ptr() for p in parts)


def test_the_gather_and_scatter_formulas_are_torchs():
    x = torch.arange(12.0).reshape(3, 4)
    index = torch.tensor([[2, 0, 1, 2], [1, 1, 0, 0]])
    for dim in (0, 1):
        idx = index if dim == 0 else index[:, :3] % 4
        out = x.gather(dim, idx)
        for i in range(idx.shape[0]):
            for j in range(idx.shape[1]):
                picked = x[idx[i][j]][j] if dim == 0 else x[i][idx[i][j]]
                assert out[i][j] == picked  # the doc's out[i][j] = x[index[i][j]][j]
        assert out.shape == idx.shape  # "out has index's shape"
    written = x.scatter(0, index, -1.0)
    for i in range(index.shape[0]):
        for j in range(index.shape[1]):
            assert written[index[i][j]][j] == -1.0  # out[index[i][j]][j] = value
