"""The gather/scatter picture: every link it draws is what torch read or wrote, checked element
by element on torch's own results; and the index parameter accepts only int64 tensors."""

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from tensorviz.core.tensors.index_picture import (
    NoPictureError,
    index_picture,
    picture_of_entry,
)
from tensorviz.core.tensors.op_params import ParamError, ParamSpec, parse_param, tensor_choices
from tensorviz.core.tensors.workbench_actions import ActionError, apply_operation
from tensorviz.core.tensors.workspace import Provenance, Workspace


@st.composite
def gathers(draw):
    rows, columns = draw(st.integers(1, 4)), draw(st.integers(1, 5))
    dim = draw(st.sampled_from([0, 1, -1]))
    along = rows if dim == 0 else columns
    index_rows = draw(st.integers(1, rows if dim != 0 else 4))
    index_columns = draw(st.integers(1, columns if dim == 0 else 5))
    values = draw(
        st.lists(st.integers(0, along - 1), min_size=index_rows * index_columns,
                 max_size=index_rows * index_columns)
    )  # fmt: skip
    x = torch.arange(rows * columns, dtype=torch.float32).reshape(rows, columns) * 10
    return x, dim, torch.tensor(values).reshape(index_rows, index_columns)


@settings(max_examples=60, deadline=None)
@given(gathers())
def test_every_gather_link_is_the_element_torch_read(case):
    x, dim, index = case
    picture = index_picture("gather", x, dim, index)
    out = x.gather(dim, index)
    assert (picture.result == out.numpy()).all() and picture.index.shape == tuple(index.shape)
    assert len(picture.links) == index.numel()
    for link in picture.links:
        assert out[link.index_cell] == x[link.source_cell]  # the value it links is torch's
        assert link.result_cell == link.index_cell  # out has index's shape
        r, c = link.index_cell
        along = link.source_cell[dim % 2]
        assert along == index[r, c]  # and it is the element the index names along dim


@settings(max_examples=60, deadline=None)
@given(gathers())
def test_every_scatter_link_is_where_torch_wrote(case):
    x, dim, index = case
    if dim % 2 == 0 and index.shape[1] > x.shape[1] or dim % 2 == 1 and index.shape[0] > x.shape[0]:
        return  # scatter needs index no larger than x outside dim
    picture = index_picture("scatter", x, dim, index, -1.0)
    out = x.scatter(dim, index, -1.0)
    assert (picture.result == out.numpy()).all()
    written = {link.result_cell for link in picture.links}
    for r in range(x.shape[0]):
        for c in range(x.shape[1]):
            expected = -1.0 if (r, c) in written else x[r, c]
            assert out[r, c] == expected  # written exactly where the links say, x elsewhere
    for cell in written:
        survivors = [link for link in picture.links_of_result(cell) if link.survives]
        assert len(survivors) == 1  # one write wins on every element written
    if len(written) < len(picture.links):
        assert any("write the same element" in note for note in picture.notes)


def test_which_of_two_writes_survives_is_torchs_verdict():
    x = torch.zeros(1, 3)
    index = torch.tensor([[2, 2, 0]])
    src = torch.tensor([[1.0, 2.0, 3.0]])
    picture = index_picture("scatter", x, 1, index)
    winner = [link for link in picture.links_of_result((0, 2)) if link.survives][0]
    assert x.scatter(1, index, src)[0, 2] == src[winner.index_cell]  # torch kept that write


def test_a_vector_is_one_row():
    x, index = torch.arange(5.0), torch.tensor([4, 0, 0])
    picture = index_picture("gather", x, 0, index)
    assert picture.formula == "out[i] = x[index[i]]"
    assert [link.source_cell for link in picture.links] == [(0, 4), (0, 0), (0, 0)]


@pytest.mark.parametrize(
    "x, index, why",
    [
        (torch.zeros(2, 2, 2), torch.zeros(1, 1, 1, dtype=torch.long), "1-D and 2-D"),
        (torch.zeros(20, 2), torch.zeros(1, 1, dtype=torch.long), "up to 12"),
        (torch.zeros(2, 2, device="meta"), torch.zeros(1, 1, dtype=torch.long), "no values"),
    ],
)
def test_no_picture_says_why(x, index, why):
    with pytest.raises(NoPictureError, match=why):
        index_picture("gather", x, 0, index)


def _workspace() -> Workspace:
    ws = Workspace()
    ws.add_tensor("m", torch.arange(12.0).reshape(3, 4), Provenance("arange", ""))
    ws.add_tensor("idx", torch.tensor([[0, 1, 2, 0]]), Provenance("tensor", ""))
    ws.add_tensor("f", torch.zeros(1, 4), Provenance("zeros", ""))
    return ws


def test_the_workbench_result_has_its_picture_and_it_follows_later_changes():
    ws = _workspace()
    (name,) = apply_operation(ws, "gather", "m", {"dim": "0", "index": "idx"}).created
    picture = picture_of_entry(ws, name)
    assert picture.op == "gather" and picture.formula == "out[i][j] = x[index[i][j]][j]"
    assert (picture.result == ws.tensor(name).numpy()).all() and len(picture.notes) == 1
    ws.tensor("m").add_(100)  # x changes after the gather: the picture says so
    assert "changed since" in picture_of_entry(ws, name).notes[-1]
    assert picture_of_entry(ws, "m") is None  # not made by gather or scatter


def test_scatter_from_the_workbench_uses_the_value_it_wrote():
    ws = _workspace()
    (name,) = apply_operation(
        ws, "scatter", "m", {"dim": "0", "index": "idx", "value": "-1"}
    ).created
    picture = picture_of_entry(ws, name)
    assert (picture.result == ws.tensor(name).numpy()).all() and picture.notes[-1].endswith("x.")


def test_the_index_parameter_offers_and_takes_only_int64_tensors():
    ws = _workspace()
    assert tensor_choices(ws.tensors())["index_tensor"] == ["idx"]
    assert tensor_choices(ws.tensors())["tensor"] == ["m", "idx", "f"]
    with pytest.raises(ParamError, match=r"f is float32.*f\.long\(\)"):
        parse_param(ParamSpec("index", "index_tensor"), "f", ws.tensors())
    with pytest.raises(ActionError) as refused:
        apply_operation(ws, "gather", "m", {"dim": "0", "index": "f"})
    assert "int64" in refused.value.explained.explanation and ws.names() == ["m", "idx", "f"]
    with pytest.raises(RuntimeError, match="int64"):  # torch itself takes nothing else
        torch.zeros(3, 4).gather(0, ws.tensor("f"))
    assert torch.equal(ws.tensor("m").gather(0, ws.tensor("f").long()), ws.tensor("m")[:1])
