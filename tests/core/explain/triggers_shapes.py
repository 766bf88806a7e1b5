"""Claim checks for the shape rules (views, element counts, broadcasting, expand, stride-0
writes, cat/stack, dims, indices) and the matrix-product rules."""

import re
import warnings
from contextlib import contextmanager

import pytest
import torch
from claim_checks import Case, explained_by, fix_gives, fix_runs, said, say, sizes_of, trigger
from torch.nn import functional

from tensorviz.core.script.run import ScriptRun

# --- views and element counts ------------------------------------------------------------------


@trigger("view_non_contiguous")
def view_after_transpose():
    x = torch.arange(24).reshape(2, 3, 4).transpose(0, 1)
    case = explained_by(lambda: x.view(6, 4), "view", [x], {"shape": (6, 4)}, ["x_t"])
    broken = [i for i in range(x.dim() - 1) if x.stride(i) != x.stride(i + 1) * x.shape[i + 1]]
    assert broken  # the premise: transpose really broke contiguity
    for i in broken:
        assert f"stride[{i}] = {x.stride(i)}" in case.explained.explanation
    nbytes = x.numel() * x.element_size()
    assert said(f"({nbytes} bytes)", f"（{nbytes} 字节）") in case.explained.explanation
    for code in ("x_t.reshape(6, 4)", "x_t.contiguous().view(6, 4)"):
        made = fix_runs(case, code, {"x_t": x})
        assert made.shape == (6, 4) and made.untyped_storage().data_ptr() != x.data_ptr()
    return case


@trigger("view_non_contiguous")
def view_of_expanded():
    x = torch.zeros(1, 3).expand(4, 3)
    case = explained_by(lambda: x.view(12), "view", [x], {"shape": (12,)})
    assert f"stride[0] = {x.stride(0)}" in case.explained.explanation
    assert fix_runs(case, "x.reshape(12)", {"x": x}).shape == (12,)
    return case


@trigger("view_shape")
def view_with_wrong_count():
    x = torch.arange(24)
    case = explained_by(lambda: x.view(5, 5), "view", [x], {"shape": (5, 5)})
    assert said(f"has {x.numel()} elements", f"有 {x.numel()} 个元素") in case.explained.explanation
    assert said(f"holds {5 * 5}", f"共有 {5 * 5} 个") in case.explained.explanation
    offered = re.findall(r"(\d+)×(\d+)", case.explained.fix)
    assert offered
    for rows, cols in offered:  # every arrangement offered really works in torch
        assert x.view(int(rows), int(cols)).shape == (int(rows), int(cols))
    return case


@trigger("view_shape")
def view_with_inferred_size_that_does_not_divide():
    x = torch.arange(24)
    case = explained_by(lambda: x.view(5, -1), "view", [x], {"shape": (5, -1)})
    inferred = said(f"-1 would have to be {x.numel()} / 5", f"-1 必须等于 {x.numel()} / 5")
    assert inferred in case.explained.explanation
    assert x.numel() % 5 != 0
    return case


@trigger("view_shape")
def two_inferred_sizes():
    x = torch.arange(24)
    case = explained_by(lambda: x.view(-1, -1), "view", [x])
    assert x.view(-1, 4).shape == (6, 4)  # "keep at most one -1"
    return case


# --- broadcasting, expand, stride-0 writes ---------------------------------------------------


@trigger("broadcast")
def incompatible_broadcast():
    a, b = torch.randn(2, 3), torch.randn(4, 1, 4)
    case = explained_by(lambda: a * b, "mul", [a, b])
    dim = int(re.search(r"dimension (\d+)", case.message)[1])
    padded = [1] * (b.dim() - a.dim()) + list(a.shape)
    assert f"a → {padded}" in case.explained.explanation
    assert (
        said(f"At dim {dim} the sizes are", f"第 {dim} 维的大小分别是")
        in case.explained.explanation
    )
    case.sizes.add(tuple(padded))
    use_at = said("for a matrix product use @", "矩阵乘法请用 @")
    assert use_at in case.explained.fix  # * was used, so @ is news
    return case


@trigger("broadcast")
def broadcast_failing_in_every_dim():
    a, b = torch.randn(2, 3), torch.randn(3, 2)
    case = explained_by(lambda: a + b, "add", [a, b])
    for dim in (0, 1):  # "Dims 0, 1 all fail": each pair of sizes alone is refused by torch
        sizes = [[1, 1], [1, 1]]
        sizes[0][dim], sizes[1][dim] = a.shape[dim], b.shape[dim]
        with pytest.raises(RuntimeError):
            torch.broadcast_shapes(*sizes)
    assert said("Dims 0, 1 all fail.", "第 0、1 维都不匹配。") in case.explained.explanation
    assert "mul" not in case.explained.fix and "@" not in case.explained.fix  # + was used
    return case


@trigger("broadcast")
def matrix_product_never_advises_using_at():
    a, b = torch.randn(2, 3, 4), torch.randn(3, 4, 6)
    case = explained_by(lambda: a @ b, "@", [a, b])
    assert said("use @", "请用 @") not in say(case)
    batch_a, batch_b = list(a.shape[:-2]), list(b.shape[:-2])
    assert said(f"batch dims {batch_a} and {batch_b}", f"批次维度 {batch_a} 和 {batch_b}") in say(
        case
    )
    case.sizes |= {tuple(a.shape[:-2]), tuple(b.shape[:-2])}
    return case


@contextmanager
def torch_warnings():
    """Every warning torch gives meanwhile (also those it gives only once per process)."""
    before = torch.is_warn_always_enabled()
    torch.set_warn_always(True)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield caught
    finally:
        torch.set_warn_always(before)


def script_case(source: str, sizes=(), dtypes=()) -> Case:
    """Run `source` as the Script area does; it must fail."""
    result = ScriptRun(source, {}).run()
    assert result.status == "failed"
    explained = result.failure.explained
    return Case(explained, explained.torch_message, {tuple(s) for s in sizes}, set(dtypes))


@trigger("broadcast")
def q_at_k_dot_t_in_a_script():
    source = "import torch\nQ = torch.randn(2, 5, 8)\nK = torch.randn(2, 5, 8)\nscores = Q @ K.T\n"
    Q, K = torch.randn(2, 5, 8), torch.randn(2, 5, 8)  # noqa: N806 — the tutorial's names
    with torch_warnings() as warned:
        reversed_k = K.T
    assert any("x.T" in str(w.message) for w in warned)  # torch says it is deprecated, as we do
    with torch_warnings():  # torch warns once per process: leave that once to other tests
        case = script_case(source, sizes_of([Q, K, reversed_k, K.mT, Q @ K.mT]), [torch.float32])
    text = case.explained.explanation
    k, k_t, k_mt = list(K.shape), list(reversed_k.shape), list(K.mT.shape)
    assert said(f"K is {k}, so K.T is {k_t}", f"K 是 {k}，所以 K.T 是 {k_t}") in text
    assert k_t == k[::-1]  # .T reverses all dims
    assert said(f"not the {k_mt}", f"而不是批量矩阵乘法需要的 {k_mt}") in text
    assert said("deprecated", "弃用") in text
    assert said("use @", "请用 @") not in say(case)
    fix_gives(case, "Q @ K.mT", {"Q": Q, "K": K})
    assert torch.equal(fix_runs(case, "K.transpose(-2, -1)", {"K": K}), K.mT)
    return case


@trigger("broadcast")
def q_at_k_dot_t_in_the_workbench():
    from tensorviz.core.tensors.workbench_actions import ActionError, apply_operation
    from tensorviz.core.tensors.workspace import Provenance, Workspace

    ws = Workspace()
    for name in ("Q", "K"):
        ws.add_tensor(name, torch.randn(2, 5, 8), Provenance("randn", ""))
    with torch_warnings():
        made = apply_operation(ws, "T", "K", {})
    assert any("x.T" in note for note in made.notes)  # the Workbench shows torch's warning
    error = raised_action(lambda: apply_operation(ws, "matmul", "Q", {"other": "K_T"}), ActionError)
    explained = error.explained
    q, k = ws.tensor("Q"), ws.tensor("K")
    reversed_k = k.permute(2, 1, 0)  # what .T gives (without using up torch's one warning)
    case = Case(explained, explained.torch_message, sizes_of([q, k, reversed_k, k.mT, q @ k.mT]))
    case.dtypes.add(torch.float32)
    assert said("K.T is [8, 5, 2]", "K.T 是 [8, 5, 2]") in explained.explanation
    fix_gives(case, "Q @ K.mT", {"Q": q, "K": k})
    reordered = apply_operation(ws, "transpose", "K", {"dim0": "-2", "dim1": "-1"})  # in the
    (name,) = reordered.created  # Workbench: K.transpose(-2, -1), as the fix says
    assert apply_operation(ws, "matmul", "Q", {"other": name}).created
    assert "K.transpose(-2, -1)" in explained.fix
    return case


def raised_action(action, kind):
    try:
        action()
    except kind as error:
        return error
    raise AssertionError("the action did not fail")


@trigger("expand")
def expand_of_a_non_singleton_dim():
    x = torch.randn(2, 3)
    case = explained_by(lambda: x.expand(4, 6), "expand", [x], {"size": (4, 6)})
    cannot = said("Dim 1 has size 3, which cannot become 6", "第 1 维的大小是 3，无法变成 6")
    assert cannot in case.explained.explanation
    case.sizes.add((4, 6))
    factors = [int(f) for f in re.search(r"repeat\(([\d, ]+)\)", case.explained.fix)[1].split(",")]
    assert x.repeat(*factors).shape == (4, 6)  # the repeat offered really tiles to the target
    return case


@trigger("inplace_broadcast")
def in_place_result_cannot_grow():
    a, b = torch.zeros(3), torch.zeros(2, 3)
    case = explained_by(lambda: a.add_(b), "add_", [a, b])
    grown = torch.broadcast_shapes(a.shape, b.shape)
    assert said(f"gives {list(grown)}", f"得到 {list(grown)}") in case.explained.explanation
    case.sizes.add(tuple(grown))
    assert (a + b).shape == grown  # "the out-of-place form gives a new [2, 3] tensor"
    full = fix_runs(case, "x.expand(2, 3).clone()", {"x": a})
    full.add_(b)  # built at the full shape, the in-place add works
    return case


@trigger("expanded_write")
def write_into_expanded():
    e = torch.zeros(1, 3).expand(4, 3)
    case = explained_by(lambda: e.add_(1), "add_", [e], names=["e"])
    for d in (d for d in range(e.dim()) if e.stride(d) == 0):
        assert said(f"dim {d}", f"第 {d} 维") in case.explained.explanation
    distinct = e.untyped_storage().nbytes() // e.element_size()
    uses = said(
        f"{e.numel()} elements use {distinct} memory locations",
        f"{e.numel()} 个元素只占用 {distinct} 个内存位置",
    )
    assert uses in case.explained.explanation
    namespace = fix_runs(case, "e = e.clone()", {"e": e})
    namespace["e"].add_(1)  # the clone has its own memory: the write is allowed
    return case


# --- cat / stack, dims, indices ---------------------------------------------------------------


@trigger("cat")
def cat_with_other_sizes():
    a, b = torch.zeros(2, 3), torch.zeros(2, 4)
    case = explained_by(lambda: torch.cat([a, b]), "cat", [a, b])
    sizes = said(
        "tensor 1 has size 4 where tensor 0 has 3",
        "第 1 个张量有一维大小是 4，而第 0 个张量的这一维是 3",
    )
    assert sizes in case.explained.explanation
    assert torch.cat([a, b], dim=1).shape == (2, 7)  # "join along the dim where sizes differ"
    return case


@trigger("cat")
def stack_of_unequal_shapes():
    a, b = torch.zeros(2, 3), torch.zeros(3, 2)
    case = explained_by(lambda: torch.stack([a, b]), "stack", [a, b])
    assert torch.stack([a, b.T]).shape == (2, 2, 3)  # equal shapes stack
    return case


@trigger("dim_range")
def dim_out_of_range():
    x = torch.randn(2, 3, 4)
    case = explained_by(lambda: x.sum(3), "sum", [x], {"dim": 3})
    assert f"0..{x.dim() - 1}" in case.explained.explanation
    assert f"{-x.dim()}..-1" in case.explained.explanation
    assert said(f"has {x.dim()} dims", f"有 {x.dim()} 个维度") in case.explained.explanation
    assert x.sum(-1).shape == (2, 3)  # "-1 is always the last"
    return case


@trigger("index")
def index_out_of_bounds():
    x = torch.randn(3)
    case = explained_by(lambda: x[5], "index", [x])
    assert said("valid indices are 0..2", "有效索引是 0..2") in case.explained.explanation
    x[2], x[-3]  # the last valid index and the first from the end both work  # noqa: B018
    return case


@trigger("index")
def embedding_index_beyond_the_table():
    indices, table = torch.tensor([5, 1]), torch.randn(3, 4)
    case = explained_by(lambda: functional.embedding(indices, table), "embedding", [indices, table])
    low, high, rows = int(indices.min()), int(indices.max()), table.shape[0]
    assert said(f"from {low} to {high}", f"从 {low} 到 {high}") in case.explained.explanation
    assert said(f"has {rows} rows", f"只有 {rows} 行") in case.explained.explanation
    bigger = torch.nn.Embedding(int(indices.max()) + 1, 4)  # "max_index + 1"
    assert bigger(indices).shape == (2, 4)
    return case


# --- matrix products --------------------------------------------------------------------------


def _inner_sizes(k_a: int, k_b: int) -> str:
    return said(f"a's K is {k_a} but b's K is {k_b}", f"a 的 K 是 {k_a}，而 b 的 K 是 {k_b}")


@trigger("inner_sizes")
def matmul_inner_sizes():
    a, b = torch.randn(2, 3), torch.randn(2, 5)
    case = explained_by(lambda: a @ b, "matmul", [a, b])
    text = case.explained.explanation
    assert _inner_sizes(a.shape[-1], b.shape[-2]) in text
    case.sizes.add(tuple(fix_gives(case, "a.T @ b", {"a": a, "b": b}).shape))
    return case


@trigger("inner_sizes")
def matmul_explained_from_the_message_alone():
    a, b = torch.randn(2, 3), torch.randn(4, 5)
    case = explained_by(lambda: a @ b)
    case.sizes |= sizes_of([a, b])
    a_is, b_is = list(a.shape), list(b.shape)
    assert (
        said(f"a is {a_is} and b is {b_is}", f"a 是 {a_is}，b 是 {b_is}")
        in case.explained.explanation
    )
    return case


@trigger("inner_sizes")
def matrix_vector_length():
    m, v = torch.randn(2, 3), torch.randn(4)
    case = explained_by(lambda: m.mv(v), "mv", [m, v])
    assert _inner_sizes(m.shape[1], v.shape[0]) in case.explained.explanation
    return case


@trigger("inner_sizes")
def dot_of_unequal_lengths():
    a, b = torch.randn(3), torch.randn(4)
    case = explained_by(lambda: torch.dot(a, b), "dot")
    assert said("got 3 and 4", "这里是 3 和 4") in case.explained.explanation
    assert torch.dot(a, b[:3]).dim() == 0  # "slice so both have the same length"
    return case


@trigger("mm_needs_matrices")
def mm_of_a_vector():
    v, m = torch.randn(3), torch.randn(3, 5)
    case = explained_by(lambda: torch.mm(v, m), "mm", [v, m])
    assert said("[3] (1-D)", "[3]（1-D）") in case.explained.explanation
    assert (v @ m).shape == (5,)  # a @ b takes the vector
    return case


@trigger("batched_product")
def bmm_of_matrices():
    a, b = torch.randn(2, 3), torch.randn(3, 4)
    case = explained_by(lambda: torch.bmm(a, b), "bmm", [a, b])
    assert (a.unsqueeze(0) @ b.unsqueeze(0)).shape == (1, 2, 4)  # unsqueeze(0) one matrix
    return case


@trigger("batched_product")
def bmm_with_other_batch():
    a, b = torch.randn(2, 2, 3), torch.randn(3, 3, 5)
    case = explained_by(lambda: torch.bmm(a, b), "bmm")
    b_k = re.search(r"be: \[(\d+), (\d+)\] but got: \[(\d+), (\d+)\]", case.message)
    starts = said(
        f"[B, K] = [{b_k[1]}, {b_k[2]}] but starts with [{b_k[3]}, {b_k[4]}]",
        f"[B, K] = [{b_k[1]}, {b_k[2]}] 开头，实际却以 [{b_k[3]}, {b_k[4]}] 开头",
    )
    assert starts in case.explained.explanation
    assert [int(b_k[1]), int(b_k[2])] == [a.shape[0], a.shape[2]]
    case.sizes |= {(a.shape[0], a.shape[2]), tuple(b.shape[:2])}
    return case


@trigger("batched_product")
def matrix_times_a_batch():
    w, x = torch.randn(3, 4), torch.randn(2, 3, 4)  # torch runs this @ as a bmm and says so
    case = explained_by(lambda: w @ x, None, [w, x])
    assert "bmm()" not in case.explained.title
    assert _inner_sizes(w.shape[-1], x.shape[-2]) in case.explained.explanation
    for offered in ("a.T @ b", "a @ b.mT"):
        case.sizes.add(tuple(fix_gives(case, offered, {"a": w, "b": x}).shape))
    return case


@trigger("matmul_of_scalars")
def matmul_of_a_scalar():
    s, v = torch.tensor(2.0), torch.randn(3)
    case = explained_by(lambda: s @ v, "matmul", [s, v])
    assert said("0-D and 1-D", "0-D 和 1-D") in case.explained.explanation
    assert torch.equal(s * v, 2.0 * v)  # * multiplies by the scalar
    return case
