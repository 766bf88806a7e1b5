"""The areas of the main window, one per capability, in navigation order.

Each area starts as a placeholder that says plainly what it will show; when its issue lands the
spec gains a factory that builds the real panel from the workspace.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AreaSpec:
    key: str
    title: str
    icon: str  # file name in resources/icons
    tagline: str
    coming: tuple[str, ...]
    built: bool = False  # True once the area has a real panel (built when torch has loaded)


AREAS: tuple[AreaSpec, ...] = (
    AreaSpec(
        "workbench",
        "Workbench",
        "workbench.svg",
        "Build real tensors and apply operations one step at a time.",
        (
            "Create tensors every way a learner does: torch.tensor, zeros/ones/full/eye, "
            "rand/randn/randint, arange/linspace, from NumPy (copy vs shared memory), "
            "and the legacy torch.Tensor(n) trap",
            "Chain view, reshape, transpose, permute, expand, indexing, cat/stack, split/chunk, "
            "arithmetic with broadcasting, matmul and reductions",
            "Every result's identity: shape, dtype, device, strides, storage, view or copy",
            "torch's own error message, explained, when an operation fails",
        ),
        built=True,
    ),
    AreaSpec(
        "script",
        "Script",
        "script.svg",
        "Paste PyTorch code, run it, and explore every tensor it made.",
        (
            "An editor with Python colours and line numbers; Ctrl+Enter runs, Esc stops",
            "Every tensor the script made (also in lists, dicts and nn.Modules) in the workspace",
            "Output in order, errors trimmed to your code and explained; a failed run changes "
            "nothing",
            "Examples for each topic, from creating tensors to the training loop",
        ),
        built=True,
    ),
    AreaSpec(
        "layout",
        "Memory layout",
        "layout.svg",
        "See how logical elements map onto storage through strides.",
        (
            "The logical grid beside the 1-D storage strip it reads, linked by hover",
            "offset + i·s0 + j·s1 = index, with the numbers filled in",
            "Views that share one storage drawn over the same strip; stride 0 from expand",
            "Contiguity explained, and a step-by-step broadcasting explainer",
        ),
        built=True,
    ),
    AreaSpec(
        "architecture",
        "Architecture",
        "architecture.svg",
        "What a model computes, module by module: shapes between layers, repeats folded.",
        (
            "Every module call and torch op of a real forward, shapes and dtypes on the edges",
            "Repeated blocks folded (GPT2Block × 12), a depth control, boxes that open",
            "Models on the meta device: a 70B architecture with no memory",
        ),
        built=True,
    ),
    AreaSpec(
        "graph",
        "Autograd graph",
        "graph.svg",
        "The DAG that autograd really built from grad_fn, and a backward pass you can step.",
        (
            "Backward nodes, AccumulateGrad leaves and saved tensors from grad_fn.next_functions",
            "A native layered layout that copes with shared weights and unrolled loops",
            "Step through backward node by node and watch .grad fill in",
        ),
        built=True,
    ),
    AreaSpec(
        "training",
        "Training",
        "training.svg",
        "Gradient descent on the reference linear regression, and on networks you shape, live.",
        (
            "Loss curve, fitted line, loss surface with the parameter path",
            "A playground of tasks and real nn.Sequential networks: boundary, neurons, the code",
            "Autograd's w.grad and b.grad next to the hand-derived gradients",
            "Pitfalls to switch on: forgotten zero_grad, learning rate too large, and more",
        ),
        built=True,
    ),
    AreaSpec(
        "files",
        "Files",
        "files.svg",
        "Open saved tensors and checkpoints safely and see what is inside.",
        (
            ".pt / .pth / .bin, safetensors, .npy / .npz — loaded with weights_only, "
            "never running code hidden in a file",
            "Contents as a tree with shapes, dtypes and bytes; storage shared between entries",
            "Statistics on demand, and saving workspace tensors back atomically",
        ),
        built=True,
    ),
    AreaSpec(
        "compare",
        "Compare",
        "compare.svg",
        "Two checkpoints side by side: what changed, tensor by tensor, and where the model moved.",
        (
            "Keys only in A, only in B, renamed (module., _orig_mod., identical bytes)",
            "Per tensor: shape/dtype changes, max |Δ|, ‖Δ‖/‖A‖, cosine, NaN that appeared",
            "Grouped by layer and sorted by change, a bar chart per layer, A/B/A−B values",
        ),
        built=True,
    ),
)


def area_by_key(key: str) -> AreaSpec:
    return next(area for area in AREAS if area.key == key)
