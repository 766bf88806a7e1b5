"""The memory budget has no side doors: index masks are sized on meta before anything is
computed, one_hot is sized without allocating, and every creation and operation is prepared
(the GUI thread's half) without torch allocating anything measurable — measured with torch's own
profiler, which sees the allocations the old code made."""

import pytest
import torch
from allocations import cpu_bytes_allocated

from tensorviz.core.tensors import memory_budget
from tensorviz.core.tensors.creation import CREATIONS, CreationOptions
from tensorviz.core.tensors.index_expressions import parse_index
from tensorviz.core.tensors.memory_budget import human_bytes
from tensorviz.core.tensors.operation_specs import OPERATIONS
from tensorviz.core.tensors.workbench_actions import (
    ActionError,
    prepare_creation,
    prepare_operation,
)
from tensorviz.core.tensors.workspace import Provenance, Workspace

NOTHING_MEASURABLE = 16 * 1024  # bytes: a few scalars at most
GiB = 2**30


def workspace_of(**tensors) -> Workspace:
    ws = Workspace()
    for name, tensor in tensors.items():
        ws.add_tensor(name, tensor, Provenance("test", name))
    return ws


@pytest.fixture
def budget(monkeypatch):
    """Pretend the machine has this much memory available (the budget is half of it)."""
    return lambda available: monkeypatch.setattr(
        memory_budget, "available_memory_bytes", lambda: available
    )


def test_the_profiler_sees_what_a_real_computation_allocates():
    """The measurement can fail: the allocations a side door would make are visible to it."""
    allocated, _ = cpu_bytes_allocated(lambda: torch.zeros(1000, 300))
    assert allocated >= 1000 * 300 * 4
    allocated, _ = cpu_bytes_allocated(lambda: torch.zeros(1000, 300, device="meta"))
    assert allocated == 0


# --- index masks -------------------------------------------------------------------------------

ISSUE_MASK = "x[(a + b) * (a - b) > 0]"


def _issue_inputs(n: int) -> dict:
    return {"a": torch.randn(n, 1), "b": torch.randn(1, n), "x": torch.randn(3)}


def _mask_peak(n: int) -> int:
    """(a + b), (a - b) and their product alive at once, as torch sizes them."""
    square = torch.empty(n, 1, device="meta") + torch.empty(1, n, device="meta")
    return 3 * square.numel() * square.element_size()


def test_the_issues_mask_is_sized_on_meta_without_allocating():
    tensors = _issue_inputs(25_000)
    allocated, parsed = cpu_bytes_allocated(lambda: parse_index(ISSUE_MASK, "x", tensors))
    assert allocated < NOTHING_MEASURABLE  # it took 10.6 s and 7.1 GB before
    assert parsed.mask_bytes == _mask_peak(25_000)
    assert parsed.meta_key.device.type == "meta" and parsed.meta_key.shape == (25_000, 25_000)


def test_the_issues_mask_is_refused_over_budget_before_anything_runs(budget):
    budget(8 * GiB)
    ws = workspace_of(**_issue_inputs(25_000))

    def prepare():
        with pytest.raises(ActionError) as refused:
            prepare_operation(ws, "index", "x", {"index": ISSUE_MASK})
        return refused.value.explained

    allocated, explained = cpu_bytes_allocated(prepare)
    assert allocated < NOTHING_MEASURABLE
    assert human_bytes(_mask_peak(25_000)) in explained.explanation
    assert human_bytes(4 * GiB) in explained.explanation


def test_a_big_mask_within_budget_is_computed_by_compute_not_while_preparing():
    n = 2100  # each intermediate just above HEAVY_BYTES (16 MB): computed off the GUI thread
    tensors = {"a": torch.randn(n, 1), "b": torch.randn(1, n), "x": torch.randn(n, n)}
    ws = workspace_of(**tensors)
    allocated, prepared = cpu_bytes_allocated(
        lambda: prepare_operation(ws, "index", "x", {"index": ISSUE_MASK})
    )
    assert allocated < NOTHING_MEASURABLE and prepared.heavy
    allocated, result = cpu_bytes_allocated(prepared.compute)
    a, b, x = tensors["a"], tensors["b"], tensors["x"]
    expected = x[(a + b) * (a - b) > 0]
    assert allocated >= _mask_peak(n) and torch.equal(result[0], expected)


def test_a_data_dependent_result_is_sized_once_its_mask_is_known(budget):
    ws = workspace_of(x=torch.ones(100_000))
    budget(2 * (100_000 + 4 * 100_000) - 2)  # the mask and the whole result do not fit
    prepared = prepare_operation(ws, "index", "x", {"index": "x > 0"})
    with pytest.raises(ActionError) as refused:
        prepared.compute()
    assert "needs" in refused.value.explained.explanation
    budget(2 * (100_000 + 4 * 100_000) + 2)
    assert torch.equal(prepared.compute()[0], torch.ones(100_000))


def test_data_errors_of_a_mask_are_explained_when_computed():
    ws = workspace_of(x=torch.arange(6))
    prepared = prepare_operation(ws, "index", "x", {"index": "x // 0 == 1"})
    with pytest.raises(ActionError) as refused:
        prepared.compute()
    assert refused.value.explained.kind == "bad_parameter"
    assert "could not be computed" in refused.value.explained.explanation


# --- one_hot -----------------------------------------------------------------------------------


def test_one_hot_is_sized_without_allocating_and_refused_over_budget(budget):
    budget(2 * GiB)
    ws = workspace_of(labels=torch.zeros(1000, dtype=torch.long))

    def prepare():
        with pytest.raises(ActionError) as refused:
            prepare_operation(ws, "one_hot", "labels", {"num_classes": "1000000"})
        return refused.value.explained

    allocated, explained = cpu_bytes_allocated(prepare)
    assert allocated < NOTHING_MEASURABLE  # a 3 GB result allocated 3 GB before
    assert human_bytes(1000 * 1_000_000 * 4) in explained.explanation


def test_one_hot_still_equals_torchs():
    labels = torch.tensor([2, 0, 1, 2])
    ws = workspace_of(labels=labels)
    result, _notes = prepare_operation(ws, "one_hot", "labels", {"num_classes": "3"}).compute()
    assert torch.equal(result, torch.nn.functional.one_hot(labels, 3).float())


# --- every spec: prepared without allocating ---------------------------------------------------

# Parameters that make every result large (over 1 MB), so an allocation would show.
OPERATION_PARAMS = {
    "view": ("x", {"shape": "-1"}),
    "reshape": ("x", {"shape": "-1, 256"}),
    "flatten": ("x", {}),
    "squeeze": ("x", {}),
    "unsqueeze": ("x", {"dim": "0"}),
    "transpose": ("x", {"dim0": "0", "dim1": "1"}),
    "permute": ("x", {"dims": "1, 0"}),
    "t": ("x", {}),
    "T": ("x", {}),
    "contiguous": ("xt", {}),
    "expand": ("row", {"shape": "4096, -1"}),
    "broadcast_to": ("row", {"shape": "4096, 512"}),
    "repeat": ("x", {"repeats": "4, 1"}),
    "clone": ("x", {}),
    "detach": ("x", {}),
    "narrow": ("x", {"dim": "0", "start": "0", "length": "256"}),
    "index": ("x", {"index": "(x > 0) & (x < 1)"}),
    "index_select": ("x", {"dim": "0", "index": "0, 1, 2"}),
    "gather": ("x", {"dim": "0", "index": "idx"}),
    "scatter": ("x", {"dim": "0", "index": "idx", "value": "1"}),
    "one_hot": ("labels", {"num_classes": "2048"}),
    "cat": (None, {"tensors": "x, x", "dim": "0"}),
    "stack": (None, {"tensors": "x, x", "dim": "0"}),
    "split": ("x", {"split_size": "128", "dim": "0"}),
    "chunk": ("x", {"chunks": "4", "dim": "0"}),
    "unbind": ("x3", {"dim": "0"}),
    "add": ("x", {"other": "x"}),
    "sub": ("x", {"other": "2"}),
    "mul": ("x", {"other": "x"}),
    "div": ("x", {"other": "2"}),
    "pow": ("x", {"other": "2"}),
    "relu": ("x", {}),
    "sigmoid": ("x", {}),
    "tanh": ("x", {}),
    "matmul": ("x", {"other": "x"}),
    "mm": ("x", {"other": "x"}),
    "bmm": ("x3", {"other": "x3"}),
    "sum": ("x", {"dim": "0"}),
    "mean": ("x", {}),
    "max": ("x", {"dim": "1"}),
    "min": ("x", {"dim": "1"}),
    "argmax": ("x", {"dim": "1"}),
    "std": ("x", {}),
    "float": ("idx", {}),
    "long": ("x", {}),
    "to_dtype": ("x", {"dtype": "float64"}),
    "to_device": ("x", {"device": "cpu"}),
    "add_": ("x", {"other": "1"}),
    "mul_": ("x", {"other": "2"}),
    "zero_": ("x", {}),
    "fill_": ("x", {"value": "3"}),
    "index_assign": ("x", {"index": "x > 0", "value": "0"}),
    "scatter_": ("x", {"dim": "0", "index": "idx", "value": "1"}),
}


@pytest.fixture(scope="module")
def inputs():
    x = torch.randn(512, 512)
    return {
        "x": x,
        "xt": x.t(),
        "row": torch.randn(1, 512),
        "x3": torch.randn(8, 256, 256),
        "idx": torch.randint(0, 512, (512, 512)),
        "labels": torch.randint(0, 10, (512,)),
    }


def test_every_operation_has_a_case_here():
    assert set(OPERATION_PARAMS) == {op.name for op in OPERATIONS}


@pytest.mark.parametrize("op_name", list(OPERATION_PARAMS))
def test_every_operation_is_prepared_without_allocating(inputs, op_name):
    input_name, params = OPERATION_PARAMS[op_name]
    ws = workspace_of(**{k: v.clone() for k, v in inputs.items()})
    allocated, prepared = cpu_bytes_allocated(
        lambda: prepare_operation(ws, op_name, input_name, params)
    )
    assert allocated < NOTHING_MEASURABLE, f"preparing {op_name} allocated {allocated:,} bytes"
    prepared.run()  # and the parameters are real ones: it runs


CREATION_PARAMS = {  # big where the parameters allow it; presets are what they are
    "tensor": {"data": str([list(range(100))] * 100)},
    "Tensor (legacy)": {"n": "1000000"},
    "zeros": {"shape": "1000, 1000"},
    "ones": {"shape": "1000, 1000"},
    "full": {"size": "1000, 1000", "fill_value": "7"},
    "eye": {"n": "1000"},
    "rand": {"shape": "1000, 1000"},
    "randn": {"shape": "1000, 1000"},
    "randint": {"low": "0", "high": "10", "size": "1000, 1000"},
    "arange": {"start": "0", "end": "1000000", "step": "1"},
    "linspace": {"start": "0", "end": "1", "steps": "1000000"},
    "zeros_like": {"source": "big"},
    "ones_like": {"source": "big"},
    "rand_like": {"source": "big"},
    "randn_like": {"source": "big"},
    "from NumPy": {"shape": "1000, 1000"},
}


@pytest.mark.parametrize("spec", CREATIONS, ids=lambda spec: spec.name)
def test_every_creation_is_prepared_without_allocating(spec):
    ws = workspace_of(big=torch.randn(1000, 1000))
    params = CREATION_PARAMS.get(spec.name, {})
    assert params or spec.group == "Presets", f"add parameters for {spec.name}"
    allocated, prepared = cpu_bytes_allocated(
        lambda: prepare_creation(ws, spec.name, params, CreationOptions())
    )
    assert allocated < NOTHING_MEASURABLE, f"preparing {spec.name} allocated {allocated:,} bytes"
    made, _ = cpu_bytes_allocated(prepared.run)
    if spec.name in CREATION_PARAMS and spec.name != "tensor":
        assert made >= 10**6  # what a sizing that allocated would have shown
