"""The areas of the main window, one per capability, in navigation order.

Each area starts as a placeholder that says plainly what it will show; once torch has loaded
the real panel is built from the workspace (area_builders.py). The texts are English source
strings marked for Qt's translation (context "Areas"); `title_of` & co. translate them into the
language in force, so a language switch only has to ask again.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtGui import QIcon

from tensorviz.resource_files import resource_path

CONTEXT = "Areas"


@dataclass(frozen=True)
class AreaSpec:
    key: str
    title: str  # English source text; shown through title_of()
    icon: str  # file name in resources/icons
    tagline: str
    coming: tuple[str, ...]
    built: bool = False  # True once the area has a real panel (built when torch has loaded)


AREAS: tuple[AreaSpec, ...] = (
    AreaSpec(
        "workbench",
        QT_TRANSLATE_NOOP("Areas", "Workbench"),
        "workbench.svg",
        QT_TRANSLATE_NOOP("Areas", "Build real tensors and apply operations one step at a time."),
        (
            QT_TRANSLATE_NOOP(
                "Areas",
                "Create tensors every way a learner does: torch.tensor, zeros/ones/full/eye, "
                "rand/randn/randint, arange/linspace, from NumPy (copy vs shared memory), "
                "and the legacy torch.Tensor(n) trap",
            ),
            QT_TRANSLATE_NOOP(
                "Areas",
                "Chain view, reshape, transpose, permute, expand, indexing, cat/stack, "
                "split/chunk, arithmetic with broadcasting, matmul and reductions",
            ),
            QT_TRANSLATE_NOOP(
                "Areas",
                "Every result's identity: shape, dtype, device, strides, storage, view or copy",
            ),
            QT_TRANSLATE_NOOP(
                "Areas", "torch's own error message, explained, when an operation fails"
            ),
        ),
        built=True,
    ),
    AreaSpec(
        "script",
        QT_TRANSLATE_NOOP("Areas", "Script"),
        "script.svg",
        QT_TRANSLATE_NOOP("Areas", "Paste PyTorch code, run it, and explore every tensor it made."),
        (
            QT_TRANSLATE_NOOP(
                "Areas",
                "An editor with Python colours and line numbers; Ctrl+Enter runs, Esc stops",
            ),
            QT_TRANSLATE_NOOP(
                "Areas",
                "Every tensor the script made (also in lists, dicts and nn.Modules) in the "
                "workspace",
            ),
            QT_TRANSLATE_NOOP(
                "Areas",
                "Output in order, errors trimmed to your code and explained; a failed run "
                "changes nothing",
            ),
            QT_TRANSLATE_NOOP(
                "Areas", "Examples for each topic, from creating tensors to the training loop"
            ),
        ),
        built=True,
    ),
    AreaSpec(
        "layout",
        QT_TRANSLATE_NOOP("Areas", "Memory layout"),
        "layout.svg",
        QT_TRANSLATE_NOOP("Areas", "See how logical elements map onto storage through strides."),
        (
            QT_TRANSLATE_NOOP(
                "Areas", "The logical grid beside the 1-D storage strip it reads, linked by hover"
            ),
            QT_TRANSLATE_NOOP("Areas", "offset + i·s0 + j·s1 = index, with the numbers filled in"),
            QT_TRANSLATE_NOOP(
                "Areas",
                "Views that share one storage drawn over the same strip; stride 0 from expand",
            ),
            QT_TRANSLATE_NOOP(
                "Areas", "Contiguity explained, and a step-by-step broadcasting explainer"
            ),
        ),
        built=True,
    ),
    AreaSpec(
        "architecture",
        QT_TRANSLATE_NOOP("Areas", "Architecture"),
        "architecture.svg",
        QT_TRANSLATE_NOOP(
            "Areas",
            "What a model computes, module by module: shapes between layers, repeats folded.",
        ),
        (
            QT_TRANSLATE_NOOP(
                "Areas",
                "Every module call and torch op of a real forward, shapes and dtypes on the edges",
            ),
            QT_TRANSLATE_NOOP(
                "Areas",
                "Repeated blocks folded (GPT2Block × 12), a depth control, boxes that open",
            ),
            QT_TRANSLATE_NOOP(
                "Areas", "Models on the meta device: a 70B architecture with no memory"
            ),
        ),
        built=True,
    ),
    AreaSpec(
        "graph",
        QT_TRANSLATE_NOOP("Areas", "Autograd graph"),
        "graph.svg",
        QT_TRANSLATE_NOOP(
            "Areas",
            "The DAG that autograd really built from grad_fn, and a backward pass you can step.",
        ),
        (
            QT_TRANSLATE_NOOP(
                "Areas",
                "Backward nodes, AccumulateGrad leaves and saved tensors from "
                "grad_fn.next_functions",
            ),
            QT_TRANSLATE_NOOP(
                "Areas",
                "A native layered layout that copes with shared weights and unrolled loops",
            ),
            QT_TRANSLATE_NOOP(
                "Areas", "Step through backward node by node and watch .grad fill in"
            ),
        ),
        built=True,
    ),
    AreaSpec(
        "training",
        QT_TRANSLATE_NOOP("Areas", "Training"),
        "training.svg",
        QT_TRANSLATE_NOOP(
            "Areas",
            "Gradient descent on the reference linear regression, and on networks you shape, live.",
        ),
        (
            QT_TRANSLATE_NOOP(
                "Areas", "Loss curve, fitted line, loss surface with the parameter path"
            ),
            QT_TRANSLATE_NOOP(
                "Areas",
                "A playground of tasks and real nn.Sequential networks: boundary, neurons, code",
            ),
            QT_TRANSLATE_NOOP(
                "Areas", "Autograd's w.grad and b.grad next to the hand-derived gradients"
            ),
            QT_TRANSLATE_NOOP(
                "Areas",
                "Pitfalls to switch on: forgotten zero_grad, learning rate too large, and more",
            ),
        ),
        built=True,
    ),
    AreaSpec(
        "runs",
        QT_TRANSLATE_NOOP("Areas", "Runs"),
        "runs.svg",
        QT_TRANSLATE_NOOP(
            "Areas",
            "Your own training, live: a run folder that tensorviz.watch() writes, layer by layer.",
        ),
        (
            QT_TRANSLATE_NOOP(
                "Areas",
                "A layers × steps heatmap of gradient norms that stays readable for 2,000 "
                "parameter tensors",
            ),
            QT_TRANSLATE_NOOP(
                "Areas",
                "Loss and your scalars, update ratios with the 1e-3 guide, activation and "
                "gradient histograms over time",
            ),
            QT_TRANSLATE_NOOP(
                "Areas",
                "Diagnoses (vanishing or exploding gradients, the first NaN) that jump to the "
                "step and layer",
            ),
        ),
        built=True,
    ),
    AreaSpec(
        "files",
        QT_TRANSLATE_NOOP("Areas", "Files"),
        "files.svg",
        QT_TRANSLATE_NOOP(
            "Areas", "Open saved tensors and checkpoints safely and see what is inside."
        ),
        (
            QT_TRANSLATE_NOOP(
                "Areas",
                ".pt / .pth / .bin, safetensors, .npy / .npz, folders and shards — read "
                "without running a byte of the file",
            ),
            QT_TRANSLATE_NOOP(
                "Areas",
                "Contents as a tree with shapes, dtypes and bytes; storage shared between entries",
            ),
            QT_TRANSLATE_NOOP(
                "Areas", "Statistics on demand, and saving workspace tensors back atomically"
            ),
        ),
        built=True,
    ),
    AreaSpec(
        "compare",
        QT_TRANSLATE_NOOP("Areas", "Compare"),
        "compare.svg",
        QT_TRANSLATE_NOOP(
            "Areas",
            "Two checkpoints side by side: what changed, tensor by tensor, and where the model "
            "moved.",
        ),
        (
            QT_TRANSLATE_NOOP(
                "Areas",
                "Keys only in A, only in B, renamed (module., _orig_mod., identical bytes)",
            ),
            QT_TRANSLATE_NOOP(
                "Areas",
                "Per tensor: shape/dtype changes, max |Δ|, ‖Δ‖/‖A‖, cosine, NaN that appeared",
            ),
            QT_TRANSLATE_NOOP(
                "Areas",
                "Grouped by layer and sorted by change, a bar chart per layer, A/B/A−B values",
            ),
        ),
        built=True,
    ),
)


def area_by_key(key: str) -> AreaSpec:
    return next(area for area in AREAS if area.key == key)


def translated(text: str) -> str:
    """One of the texts above in the language in force."""
    return QCoreApplication.translate(CONTEXT, text)


def title_of(area: AreaSpec) -> str:
    return translated(area.title)


def tagline_of(area: AreaSpec) -> str:
    return translated(area.tagline)


def coming_of(area: AreaSpec) -> list[str]:
    return [translated(item) for item in area.coming]


def icon_of(area: AreaSpec) -> QIcon:
    return QIcon(str(resource_path("icons", area.icon)))
