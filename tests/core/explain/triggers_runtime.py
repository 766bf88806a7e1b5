"""Claim checks for the device, autograd and dtype rules."""

import pytest
import torch
from claim_checks import explained_by, fix_runs, named_dtypes, said, say, short, trigger
from torch.nn import functional
from triggers_shapes import script_case

from tensorviz.core.translation import ngettext

# --- devices and memory ------------------------------------------------------------------------


@trigger("out_of_memory")
def cpu_allocation_too_large():
    case = explained_by(lambda: torch.empty(2**62, dtype=torch.uint8), "empty")
    asked = said(f"({2**62} bytes)", f"（{2**62} 字节）")
    assert asked in case.explained.explanation and str(2**62) in case.message
    assert said("batch size", "批大小") in case.explained.fix
    return case


@trigger("out_of_memory", needs_cuda=True)
def cuda_allocation_too_large():
    case = explained_by(lambda: torch.empty(2**50, dtype=torch.uint8, device="cuda"), "empty")
    asked = case.message.split("Tried to allocate ")[1].split(".")[0]
    assert said(f"asked for {asked}", f"申请了 {asked}") in case.explained.explanation
    return case


@trigger("cuda_not_compiled")
def cuda_on_a_cpu_only_torch():
    if torch.version.cuda is not None:
        pytest.skip("this torch has CUDA: the message cannot be raised")
    case = explained_by(lambda: torch.ones(2, device="cuda"), "ones")
    text = case.explained.explanation
    assert said(f"({torch.__version__})", f"（{torch.__version__}）") in text
    assert said("torch.version.cuda is None", "torch.version.cuda 为 None") in text
    available = torch.cuda.is_available()
    assert said(f"is_available() says {available}", f"is_available() 返回 {available}") in text
    code = 'device = torch.device("cuda" if torch.cuda.is_available() else "cpu")'
    device = fix_runs(case, code)["device"]
    assert device == torch.device("cpu")
    assert torch.ones(2).to(device).device.type == "cpu"  # "then x = x.to(device)" runs here
    return case


@trigger("cuda_not_compiled")
def cuda_in_a_script_is_trimmed_to_the_script():
    if torch.version.cuda is not None:
        pytest.skip("this torch has CUDA: the message cannot be raised")
    from tensorviz.core.script.run import ScriptRun

    source = 'import torch\nx = torch.ones(2)\ny = x.to("cuda")\n'
    result = ScriptRun(source, {}).run()
    traceback = result.failure.traceback
    assert 'File "<script>", line 3' in traceback and "torch/cuda" not in traceback
    # the hidden-frames line in the language in force (the trigger runs in both)
    hidden = ngettext(
        "(torch's own {count} frame below, hidden)", "(torch's own {count} frames below, hidden)", 2
    )
    assert hidden.split("{count}")[0] in traceback
    return script_case(source)


@trigger("meta_has_no_data")
def item_of_a_meta_tensor():
    m = torch.ones(2, device="meta")
    case = explained_by(lambda: m.sum().item(), "item", [m], names=["m"])
    real = fix_runs(case, "torch.zeros_like(m, device='cpu')", {"m": m})
    assert real.shape == m.shape and real.device.type == "cpu" and real.sum().item() == 0
    return case


@trigger("meta_has_no_data")
def copy_out_of_a_meta_tensor():
    m = torch.ones(2, 3, device="meta")
    case = explained_by(lambda: m.cpu(), "cpu", [m], names=["m"])
    model = torch.nn.Linear(2, 3, device="meta").to_empty(device="cpu")
    assert model.weight.device.type == "cpu"  # model.to_empty(device='cpu') gives real weights
    return case


@trigger("device")
def meta_plus_cpu():
    a, b = torch.ones(2, device="meta"), torch.ones(2)
    case = explained_by(lambda: a + b, "add", [a, b], names=["a", "b"])
    assert said("live on meta and cpu", "位于 meta 和 cpu") in case.explained.explanation
    planned = a + fix_runs(case, "b.to('meta')", {"b": b})
    assert planned.device.type == "meta" and planned.shape == (2,)
    device = fix_runs(case, 'device = torch.device("cuda" if torch.cuda.is_available() else "cpu")')
    assert (b.to(device["device"]) + b).shape == (2,)
    return case


@trigger("device", needs_cuda=True)
def cuda_plus_cpu():
    a, b = torch.ones(2, device="cuda"), torch.ones(2)
    case = explained_by(lambda: torch.mm(a[None], b[:, None]), "mm", [a, b])
    assert "cuda" in case.explained.explanation and "cpu" in case.explained.explanation
    return case


# --- autograd ---------------------------------------------------------------------------------


@trigger("inplace_view_of_leaf")
def in_place_write_into_a_view_of_a_leaf():
    w = torch.zeros(3, requires_grad=True)
    v = w[0:2]
    case = explained_by(lambda: v.add_(1), "add_", [v], names=["v"])
    text = case.explained.explanation
    assert v.is_leaf is False and v._base is w  # the premise the text states
    case.sizes.add(tuple(w.shape))
    assert said("v (shape [2]) is a view of a leaf", "v（形状 [2]）是叶子张量的视图") in text
    assert said(f"shape {list(w.shape)}", f"形状为 {list(w.shape)}") in text
    assert said(f"v.is_leaf is {v.is_leaf}", f"v.is_leaf 为 {v.is_leaf}") in text
    assert type(v.grad_fn).__name__ in text
    with torch.no_grad():
        v.add_(1)  # "with torch.no_grad(): v.add_(…)" — allowed, and it reaches the leaf
    assert torch.equal(w.detach(), torch.tensor([1.0, 1.0, 0.0]))
    copy = fix_runs(case, "y = v.clone()", {"v": v})["y"]
    copy.add_(1)
    assert torch.equal(w.detach(), torch.tensor([1.0, 1.0, 0.0]))  # "the leaf stays as it was"
    return case


@trigger("inplace_view_of_leaf")
def item_assignment_into_a_leaf_in_a_script():
    source = "import torch\nw = torch.zeros(3, requires_grad=True)\nw[0] = 5\n"
    w = torch.zeros(3, requires_grad=True)
    case = script_case(source, [w.shape, w[0].shape], [torch.float32])
    text = case.explained.explanation
    assert said("w[0] (shape []) is a view of a leaf", "w[0]（形状 []）是叶子张量的视图") in text
    assert w[0].is_leaf is False
    assert said("w[0].is_leaf is False", "w[0].is_leaf 为 False") in text
    assert "with torch.no_grad(): w[0] = …" in case.explained.fix
    with torch.no_grad():
        w[0] = 5
    assert w[0].item() == 5
    return case


@trigger("inplace_leaf")
def in_place_change_of_a_leaf():
    w = torch.zeros(3, requires_grad=True)
    case = explained_by(lambda: w.add_(1), "add_", [w])
    assert w.is_leaf and said("is a leaf", "是叶子张量") in case.explained.explanation
    w.grad = torch.ones(3)
    fix_runs(case, "with torch.no_grad(): w -= lr * w.grad", {"w": w, "lr": 0.5})
    assert torch.equal(w.detach(), torch.full((3,), -0.5)) and w.is_leaf
    return case


@trigger("freed_graph")
def second_backward():
    w = torch.ones(3, requires_grad=True)
    loss = (w * w).sum()
    loss.backward()
    case = explained_by(loss.backward, "backward", [loss])
    again = (w * w).sum()
    fix_runs(case, "loss.backward(retain_graph=True)", {"loss": again})
    again.backward()  # the second pass works after retain_graph=True
    assert torch.equal(w.grad, torch.full((3,), 6.0))  # 2 + 2 + 2: gradients accumulate
    return case


@trigger("non_scalar_backward")
def backward_of_a_vector():
    w = torch.ones(3, requires_grad=True)
    y = w * 2
    case = explained_by(y.backward, "backward", [y])
    assert said(f"has {y.numel()} elements", f"有 {y.numel()} 个元素") in case.explained.explanation
    fix_runs(case, "y.backward(gradient=torch.ones_like(y))", {"y": y})
    assert torch.equal(w.grad, torch.full((3,), 2.0))
    return case


@trigger("no_grad")
def backward_when_nothing_requires_grad():
    loss = torch.randn(3).sum()
    case = explained_by(loss.backward, "backward", [loss])
    here = said("requires_grad=False, grad_fn=None", "requires_grad=False，grad_fn=None")
    assert here in case.explained.explanation
    w = fix_runs(case, "torch.randn(3, requires_grad=True)")
    (w * 2).sum().backward()
    assert w.grad is not None
    return case


def _integer_requires_grad_claims(case):
    assert torch.tensor([1, 2]).dtype == torch.arange(3).dtype == torch.int64  # "ints → int64"
    assert fix_runs(case, "torch.arange(5.0)").dtype.is_floating_point
    assert fix_runs(case, "torch.tensor([1.0, 2.0])").requires_grad_().requires_grad
    assert torch.zeros(2, dtype=torch.float32, requires_grad=True).requires_grad
    case.dtypes |= {torch.int64, torch.float32}
    return case


@trigger("integer_requires_grad")
def integer_leaf():
    case = explained_by(lambda: torch.arange(3, requires_grad=True), "arange")
    return _integer_requires_grad_claims(case)


@trigger("integer_requires_grad")
def integer_requires_grad_in_place():
    t = torch.arange(3)
    case = explained_by(lambda: t.requires_grad_(), "requires_grad_", [t])
    assert fix_runs(case, "x.float().requires_grad_()", {"x": t}).requires_grad
    return _integer_requires_grad_claims(case)


# --- dtypes -----------------------------------------------------------------------------------


@trigger("float_required")
def mean_of_integers():
    x = torch.tensor([1, 2])
    case = explained_by(lambda: x.mean(), "mean", [x], names=["x"])
    assert case.explained.title == said(
        "mean() needs a floating-point tensor", "mean() 需要浮点张量"
    )
    assert _different_dtypes() not in case.explained.title  # one tensor, one dtype
    this = said(f"This tensor is {short(x.dtype)}", f"这个张量是 {short(x.dtype)}")
    assert this in case.explained.explanation
    assert fix_runs(case, "x.float().mean()", {"x": x}).item() == 1.5  # "the mean of 1 and 2"
    converted = fix_runs(case, "x.mean(dtype=torch.float32)", {"x": x})
    assert converted.dtype == torch.float32 and converted.item() == 1.5
    case.dtypes.add(torch.float32)
    return case


@trigger("float_required")
def std_of_integers():
    x = torch.arange(4)
    case = explained_by(lambda: x.std(), "std", [x], names=["x"])
    assert torch.isclose(fix_runs(case, "x.float().std()", {"x": x}), x.double().std().float())
    return case


@trigger("float_required")
def norm_of_integers():
    x = torch.tensor([3, 4])
    case = explained_by(lambda: x.norm(), "norm", [x], names=["x"])
    assert fix_runs(case, "x.float().norm()", {"x": x}).item() == 5.0
    return case


DTYPE_PAIRS = [
    (lambda: functional.linear(torch.arange(6).reshape(2, 3), torch.randn(4, 3)), "linear"),
    (lambda: torch.randn(2, 3) @ torch.arange(12).reshape(3, 4), "matmul"),
    (lambda: torch.bmm(torch.randn(2, 2, 3), torch.randn(2, 3, 4, dtype=torch.float64)), "bmm"),
    (lambda: torch.nn.Conv2d(1, 1, 3)(torch.ones(1, 1, 5, 5, dtype=torch.float64)), "conv2d"),
    (lambda: torch.nn.Embedding(3, 4)(torch.tensor([0.0])), "embedding"),
    (lambda: torch.ones(3, dtype=torch.long).add_(torch.randn(3)), "add_"),
]


@trigger("dtype")
def two_dtypes_named_by_torch():
    """For each clash, the two dtypes named are the two torch named (in its own spellings)."""
    from tensorviz.core.explain.dtype_errors import dtype_named

    first = None
    for action, op in DTYPE_PAIRS:
        case = explained_by(action, op, dtypes=_named_by(action, dtype_named))
        assert case.explained.rule == "dtype" and ".to(" in case.explained.fix
        named = {short(d) for d in case.dtypes}  # the dtypes torch's message names
        assert len(named_dtypes(case.explained.explanation) & named) >= 2
        assert _different_dtypes() in case.explained.title
        first = first or case
    return first


def _different_dtypes() -> str:
    return said("different dtypes", "数据类型 (dtype) 不同")


def _named_by(action, dtype_named) -> set:
    import re

    message = str(_raise(action))
    words = re.findall(r"[A-Za-z:]+(?: int)?", message)
    return {d for word in words if (d := dtype_named(word)) is not None}


def _raise(action):
    try:
        action()
    except Exception as error:  # noqa: BLE001
        return error
    raise AssertionError("no error")


@trigger("dtype")
def dtype_fix_converts_the_right_side():
    a, b = torch.randn(2, 3), torch.arange(12).reshape(3, 4)
    case = explained_by(lambda: a @ b, "matmul", [a, b])
    convert = said("convert the int64 tensor to float32", "把 int64 张量转换成 float32")
    assert convert in case.explained.fix
    assert (a @ b.float()).dtype == torch.float32  # .float() on the int64 side runs
    return case


@trigger("dtype")
def float_class_labels():
    logits, labels = torch.randn(2, 3), torch.tensor([0.0, 1.0])
    case = explained_by(lambda: functional.cross_entropy(logits, labels), None, [logits, labels])
    assert said("must be integers", "必须是整数") in case.explained.fix
    assert ".long()" in case.explained.fix
    assert functional.cross_entropy(logits, labels.long()).dim() == 0
    assert said("labels", "标签") in say(case)
    assert said("Python ints", "Python 整数") in case.explained.explanation
    assert torch.tensor([1, 2]).dtype == labels.long().dtype == torch.int64  # torch's "Long"
    case.dtypes.add(torch.int64)
    return case


@trigger("dtype")
def dtype_named_only_by_the_inputs():
    x, index, src = torch.randn(3), torch.tensor([0]), torch.ones(1, dtype=torch.float64)
    case = explained_by(lambda: x.scatter_(0, index, src), "scatter_", [x, index, src])
    assert "float32" not in case.message  # torch names no dtype; the inputs supply them
    assert "float32" in case.explained.explanation and "float64" in case.explained.explanation
    assert x.scatter_(0, index, src.float()).dtype == torch.float32
    return case
