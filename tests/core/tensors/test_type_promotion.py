"""Type promotion notes: told from the real operands, and always naming the dtype torch gave."""

import warnings

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from tensorviz.core.tensors.identity import dtype_name
from tensorviz.core.tensors.type_promotion import promotion_note
from tensorviz.core.tensors.workbench_actions import apply_operation, populate_default_workspace
from tensorviz.core.tensors.workspace import Workspace

DTYPES = [torch.bool, torch.uint8, torch.int32, torch.int64, torch.float16, torch.float32,
          torch.float64, torch.complex64]  # fmt: skip
OPS = {"add": lambda a, b: a + b, "mul": lambda a, b: a * b, "div": lambda a, b: a / b}


def operand(dtype, zero_d: bool):
    return torch.ones((), dtype=dtype) if zero_d else torch.ones(3, dtype=dtype)


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(list(OPS)),
    st.sampled_from(DTYPES),
    st.one_of(
        st.tuples(st.sampled_from(DTYPES), st.booleans()).map(lambda t: operand(*t)),
        st.sampled_from([2, 2.5, True, 1j]),
    ),
)
def test_a_note_appears_exactly_when_dtypes_differ_and_names_torchs_result(op, dtype, other):
    x = torch.ones(3, dtype=dtype)
    try:
        with warnings.catch_warnings():  # float16 with 1j: torch warns ComplexHalf is experimental
            warnings.simplefilter("ignore")
            result = OPS[op](x, other)
    except RuntimeError:  # e.g. bool - bool: torch refuses, nothing to note
        return
    note = promotion_note(op, x, other, result, ("x", "y"))
    dtypes = {x.dtype, result.dtype} | ({other.dtype} if isinstance(other, torch.Tensor) else set())
    assert bool(note) == (len(dtypes) > 1)
    if note:
        assert dtype_name(result.dtype) in note


@pytest.mark.parametrize(
    "x, other, says",
    [
        (torch.arange(3), 2.5, "Python float takes torch's default dtype"),
        (torch.ones(3), torch.ones(3, dtype=torch.float64), "wider dtype wins"),
        (torch.ones(3), torch.tensor(1.0, dtype=torch.float64), "0-d tensor or Python number"),
        (torch.ones(3, dtype=torch.bool), 1, "bool < integer"),
    ],
)
def test_the_rule_that_decided_is_named(x, other, says):
    result = x + other
    assert says in promotion_note("add", x, other, result, ("x", "y"))
    assert result.dtype == torch.result_type(x, other)


def test_integer_division_is_true_division():
    x = torch.arange(4)
    note = promotion_note("div", x, 2, x / 2, ("x", ""))
    assert "true division" in note and dtype_name((x / 2).dtype) in note
    assert (x // 2).dtype == x.dtype  # the fix the note offers keeps integers


def test_the_workbench_keeps_the_note_with_the_result():
    workspace = Workspace()
    populate_default_workspace(workspace)  # x is int64
    outcome = apply_operation(workspace, "add", "x", {"other": "0.5"})
    entry = workspace.entry(outcome.created[0])
    assert entry.tensor.dtype == torch.result_type(workspace.tensor("x"), 0.5)
    assert any("Type promotion" in note and "int64" in note for note in entry.notes)
    same = apply_operation(workspace, "add", "x", {"other": "1"})
    assert not any("Type promotion" in note for note in workspace.entry(same.created[0]).notes)
