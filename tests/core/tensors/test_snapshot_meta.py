"""A workspace holding a tensor on the meta device (the Workbench's device preset) must not
break the snapshot every Script run takes: meta tensors have no bytes to keep or compare."""

import torch

from tensorviz.core.tensors.workspace_snapshot import WorkspaceSnapshot


def test_meta_tensor_in_workspace_is_snapshotted_and_compared():
    meta = torch.empty(2, 3, device="meta")
    cpu = torch.zeros(3)
    snapshot = WorkspaceSnapshot.take({"m": meta, "c": cpu})
    cpu.add_(1)
    assert snapshot.changed_names() == ["c"]  # torch.equal on meta would raise here
    snapshot.keep_only_written()
    snapshot.restore()
    assert torch.equal(cpu, torch.zeros(3))
    assert meta.device.type == "meta" and tuple(meta.shape) == (2, 3)
