"""The explainer itself: torch's CUDA wording (no GPU here), the fallback, the text form in
English and Chinese, and that explaining never raises whatever it is given, in either language.
Each rule's claims are checked against real torch in test_every_explanation_is_true.py."""

import pytest
import torch
from claim_checks import LANGUAGES, reads_in_chinese, speaking
from error_triggers import explain
from hypothesis import given, settings
from hypothesis import strategies as st

from tensorviz.core.explain.errors import UNKNOWN_EXPLANATION, ExplainedError, explain_error

# --- devices: torch's CUDA wording, which only a GPU machine raises --------------------------

# No GPU here: the messages below are torch's own wording (c10 / TensorIterator device checks and
# the convolution input/weight check), copied from the strings in libtorch, not invented.
DEVICE_MESSAGES = [
    "Expected all tensors to be on the same device, but found at least two devices, "
    "cuda:0 and cpu!",
    "Expected all tensors to be on the same device, but got mat2 is on cpu, different from other "
    "tensors on cuda:0 (when checking argument in method wrapper_CUDA_mm)",
]


@pytest.mark.parametrize("message", DEVICE_MESSAGES)
def test_device_mismatch_names_both_devices(message):
    explained = explain_error(RuntimeError(message), "mm")
    assert explained.kind == "device_mismatch"
    assert explained.torch_message == message
    assert "cuda:0" in explained.explanation and "cpu" in explained.explanation
    assert ".to(device)" in explained.fix


def test_conv_input_on_cpu_with_weights_on_gpu_is_a_device_problem():
    message = (
        "Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the "
        "same or input should be a MKLDNN tensor and weight is a dense tensor"
    )
    assert explain_error(RuntimeError(message), "conv2d").kind == "device_mismatch"


# --- memory and everything else --------------------------------------------------------------


def test_cuda_out_of_memory():
    error = torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 20.00 GiB")
    explained = explain_error(error)
    assert explained.kind == "out_of_memory"
    assert explained.torch_message == str(error)
    assert "20.00 GiB" in explained.explanation
    assert (
        "batch" in explained.fix and "torch.no_grad()" in explained.fix and "del " in explained.fix
    )


def test_anything_else_keeps_torch_message_and_says_so():
    explained, error = explain(lambda: torch.linalg.inv(torch.zeros(2, 2)), "inv")
    assert explained.kind == "unknown"
    assert explained.explanation == UNKNOWN_EXPLANATION
    assert explained.fix


def test_text_holds_every_part():
    x = torch.arange(24).reshape(2, 3, 4).transpose(0, 1)
    explained, _ = explain(lambda: x.view(-1), "view", [x], {"shape": (-1,)})
    text = explained.text()
    for part in (explained.title, explained.torch_message, explained.explanation, explained.fix):
        assert part in text


class UnprintableError(RuntimeError):
    def __str__(self):
        raise ValueError("no message")


def test_never_raises_on_odd_inputs():
    assert explain_error(UnprintableError()).kind == "unknown"
    sparse = torch.eye(3).to_sparse()
    message = "view size is not compatible with input tensor's size and stride"
    explained = explain_error(RuntimeError(message), "view", [sparse], {"shape": object()})
    assert explained.torch_message == message


TEMPLATES = [
    "shape '[{a}, {b}]' is invalid for input of size {c}",
    "mat1 and mat2 shapes cannot be multiplied ({a}x{b} and {c}x{d})",
    "The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton "
    "dimension {c}",
    "The expanded size of the tensor ({a}) must match the existing size ({b}) at non-singleton "
    "dimension {c}.  Target sizes: [{a}, {d}].  Tensor sizes: [{b}]",
    "output with shape [{a}] doesn't match the broadcast shape [{b}, {c}]",
    "Dimension out of range (expected to be in range of [-{a}, {b}], but got {c})",
    "index {a} is out of bounds for dimension {b} with size {c}",
    "Sizes of tensors must match except in dimension {a}. Expected size {b} but got size {c} for "
    "tensor number {d} in the list.",
    "Expected size for first two dimensions of batch2 tensor to be: [{a}, {b}] but got: "
    "[{c}, {d}].",
    "expected scalar type {dtype} but found {dtype}",
    "CUDA out of memory. Tried to allocate {a}.00 MiB",
]
numbers = st.integers(min_value=-3, max_value=30)
tensors = st.lists(
    st.tuples(
        st.lists(st.integers(0, 3), max_size=3), st.sampled_from([torch.float32, torch.int64])
    )
    .map(lambda spec: torch.zeros(spec[0], dtype=spec[1]))
    .flatmap(lambda t: st.sampled_from([t, t.mT if t.dim() >= 2 else t, t.sum()])),
    max_size=3,
)
messages = st.one_of(
    st.text(max_size=80),
    st.builds(
        lambda template, a, b, c, d, dtype: template.format(a=a, b=b, c=c, d=d, dtype=dtype),
        st.sampled_from(TEMPLATES),
        numbers,
        numbers,
        numbers,
        numbers,
        st.sampled_from(["Float", "Long", "long int", "Nonsense"]),
    ),
)
error_types = st.sampled_from([RuntimeError, IndexError, ValueError, TypeError, KeyError])


@settings(max_examples=300, deadline=None)
@given(
    error_types,
    messages,
    st.sampled_from([None, "view", "matmul", "mm", "bmm", "add", "add_", "expand", "backward"]),
    tensors,
    st.dictionaries(st.sampled_from(["shape", "size", "dim"]), st.none() | numbers, max_size=2),
)
def test_explain_error_never_raises_and_keeps_torch_message(
    error_type, message, op, inputs, params
):
    error = error_type(message)
    kinds = set()
    for language in LANGUAGES:  # a translation that breaks a template would fall back to unknown
        with speaking(language):
            explained = explain_error(error, op, inputs, params)
            out_of_memory = explain_error(torch.OutOfMemoryError(message), op, inputs, params)
        assert explained.torch_message == str(error)
        assert explained.kind and explained.title and explained.explanation and explained.fix
        assert out_of_memory.kind == "out_of_memory"
        kinds.add((explained.kind, explained.rule))
    assert len(kinds) == 1  # the same rule answers in both languages


def test_text_of_the_apps_own_finding_has_no_torch_part():
    own = ExplainedError("diverged", "The loss diverged", "", "lr too large", "lower lr")
    assert "torch says" not in own.text() and "lr too large" in own.text()


def test_chinese_learner_reads_chinese_around_torchs_own_message():
    x = torch.arange(24).reshape(2, 3, 4).transpose(0, 1)
    with speaking("zh_CN"):
        explained, error = explain(lambda: x.view(6, 4), "view", [x], {"shape": (6, 4)})
        text = explained.text()
    assert explained.torch_message == str(error)  # torch's English, verbatim
    reads_in_chinese(explained)
    assert "步幅" in explained.explanation and "连续 (contiguous)" in explained.explanation
    assert "x.reshape(6, 4)" in explained.fix  # code stays code
    assert f"torch 的报错：{error}" in text and "原因：" in text and "修正方法：" in text
    with speaking("zh_CN"):
        own = ExplainedError("diverged", "损失发散了", "", "学习率太大", "调低学习率").text()
    assert "torch" not in own and "原因：学习率太大" in own


def test_explanations_are_written_in_the_language_in_force_when_the_error_happens():
    with speaking("zh_CN"):
        chinese = explain_error(
            RuntimeError("index 5 is out of bounds for dimension 0 with size 3")
        )
    english = explain_error(RuntimeError("index 5 is out of bounds for dimension 0 with size 3"))
    assert chinese.title == "索引越界" and english.title == "Index is out of bounds"
    assert "0..2" in chinese.explanation and "0..2" in english.explanation


def test_chinese_alternatives_are_joined_without_a_space_after_full_width_brackets():
    a = b = torch.ones(2, 3)
    with speaking("zh_CN"):
        explained, _error = explain(lambda: a @ b, "matmul", [a, b])
    assert (a.T @ b).shape == (3, 3) and (a @ b.T).shape == (2, 2)  # the two transposes offered
    assert "a.T @ b（得到 [3, 3]）或 a @ b.T（得到 [2, 2]）" in explained.fix
    english, _error = explain(lambda: a @ b, "matmul", [a, b])
    assert "a.T @ b (gives [3, 3]) or a @ b.T (gives [2, 2])" in english.fix
