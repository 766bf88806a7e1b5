"""Actions in two halves: large work is marked to run off the GUI thread, and the halves together
do exactly what the one-call action does."""

import pytest
import torch

from tensorviz.core.tensors import workbench_actions
from tensorviz.core.tensors.creation import CreationOptions
from tensorviz.core.tensors.workbench_actions import prepare_creation, prepare_operation
from tensorviz.core.tensors.workspace import Provenance, Workspace


def test_large_work_is_marked_for_the_background_and_small_work_is_not():
    workspace = Workspace()
    workspace.add_tensor("a", torch.ones(2000, 2000), Provenance("ones", "torch.ones(2000, 2000)"))
    workspace.add_tensor("v", torch.ones(3), Provenance("ones", "torch.ones(3)"))
    big_product = prepare_operation(workspace, "matmul", "a", {"other": "a"})
    assert big_product.heavy  # 2000³ multiply-adds
    assert not prepare_operation(workspace, "transpose", "a", {"dim0": "0", "dim1": "1"}).heavy
    assert not prepare_operation(workspace, "add_", "a", {"other": "1"}).heavy  # in place: here
    assert not prepare_operation(workspace, "clone", "v", {}).heavy
    assert prepare_operation(workspace, "clone", "a", {}).heavy is (
        2000 * 2000 * 4 > workbench_actions.HEAVY_BYTES
    )
    outcome = big_product.run()
    a = workspace.tensor("a")
    assert torch.equal(workspace.tensor(outcome.created[0]), a @ a)


def test_a_large_creation_is_marked_and_a_small_one_is_not():
    workspace = Workspace()
    options = CreationOptions()
    elements = workbench_actions.HEAVY_BYTES // 4 + 1  # float32
    big = prepare_creation(workspace, "zeros", {"shape": str(elements)}, options)
    assert big.heavy and not prepare_creation(workspace, "zeros", {"shape": "3"}, options).heavy
    assert not prepare_creation(workspace, "zeros", {"shape": "oops"}, options).heavy
    name = big.run().created[0]
    made = workspace.tensor(name)
    assert made.numel() == elements and made.dtype == torch.float32


def test_a_result_sized_by_the_data_is_judged_by_its_input():
    workspace = Workspace()
    elements = workbench_actions.HEAVY_BYTES // 4 + 1
    workspace.add_tensor("big", torch.ones(elements), Provenance("ones", "torch.ones(n)"))
    workspace.add_tensor("v", torch.ones(3), Provenance("ones", "torch.ones(3)"))
    assert prepare_operation(workspace, "index", "big", {"index": "big > 0"}).heavy
    assert not prepare_operation(workspace, "index", "v", {"index": "v > 0"}).heavy


def test_an_integer_tensor_with_requires_grad_is_sized_exactly(monkeypatch):
    from tensorviz.core.tensors import memory_budget
    from tensorviz.core.tensors.workbench_actions import ActionError, create_tensor

    monkeypatch.setattr(memory_budget, "available_memory_bytes", lambda: 2**30)
    options = CreationOptions(dtype=torch.int8, requires_grad=True)
    exact = torch.empty(100_000, 100_000, dtype=torch.int8, device="meta").nbytes
    with pytest.raises(ActionError) as refused:  # the size named is int8's, not 8 bytes each
        create_tensor(Workspace(), "zeros", {"shape": "100000, 100000"}, options)
    assert memory_budget.human_bytes(exact) in refused.value.explained.explanation
    with pytest.raises(ActionError) as refused:  # small enough: torch's own refusal, explained
        create_tensor(Workspace(), "zeros", {"shape": "2, 3"}, options)
    assert refused.value.explained.kind == "integer_requires_grad"
