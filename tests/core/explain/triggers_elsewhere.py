"""Claim checks for explanations the app writes itself (not from a torch message): a refused
Workbench parameter, a file that cannot be read (one that would run code is read and its calls
listed: tests/core/files), a diverged training run,
training settings that cannot be used, a script that called exit(), and the fallback for
torch errors no rule knows."""

import sys
import tempfile
from pathlib import Path

import pytest
import torch
from claim_checks import Case, elsewhere, in_english, raised

from tensorviz.core.explain.errors import UNKNOWN_EXPLANATION, explain_error
from tensorviz.core.files.inspection import inspect_file
from tensorviz.core.files.text import explain_file_error
from tensorviz.core.script.run import ScriptRun
from tensorviz.core.tensors.creation import CreationOptions
from tensorviz.core.tensors.workbench_actions import ActionError, create_tensor
from tensorviz.core.tensors.workspace import Workspace
from tensorviz.core.training.data import TrainingConfig, TrainingConfigError
from tensorviz.core.training.remedies import apply_remedy
from tensorviz.core.training.report import explain_divergence, explain_setup_problem
from tensorviz.core.training.trainer import Trainer
from tensorviz.core.translation import _


def _own(explained, sizes=(), dtypes=(torch.float32,)) -> Case:
    return Case(explained, explained.torch_message, {tuple(s) for s in sizes}, set(dtypes))


@elsewhere("bad_parameter")
def workbench_refuses_a_shape_before_torch_runs():
    workspace = Workspace()
    with pytest.raises(ActionError) as refused:
        create_tensor(workspace, "zeros", {"shape": "2, x"}, CreationOptions())
    explained = refused.value.explained
    if in_english():  # the Workbench's words (its own catalogue)
        assert "shape" in explained.explanation and "nothing was changed" in explained.fix
    assert workspace.names() == []  # "nothing was changed"
    create_tensor(workspace, "zeros", {"shape": "2, 3"}, CreationOptions(), name="z")
    assert torch.equal(workspace.tensor("z"), torch.zeros(2, 3))  # corrected, it works
    return _own(explained)


@elsewhere("file")
def file_cut_short():
    folder = Path(tempfile.mkdtemp(prefix="tensorviz-claims-"))
    whole, cut = folder / "whole.pt", folder / "cut.pt"
    torch.save({"w": torch.arange(1000.0)}, whole)
    cut.write_bytes(whole.read_bytes()[:300])  # a download that did not finish
    inspection = inspect_file(cut)
    explained = explain_file_error(inspection)
    assert explained.explanation == inspection.error
    assert "complete" in explained.fix or not in_english()  # the Files area's words
    raised(lambda: torch.load(cut, weights_only=True))  # torch cannot read it either
    assert inspect_file(whole).error is None  # the complete file opens
    return _own(explained)


@elsewhere("divergence")
def training_with_too_large_a_learning_rate():
    trainer = Trainer(TrainingConfig(lr=0.05))
    trainer.run()
    divergence, last = trainer.divergence, trainer.history[-1]
    assert trainer.w.dtype == torch.float32  # "until float32 overflows to inf"
    explained = explain_divergence(divergence, last)
    assert f"epoch {divergence.epoch}" in explained.title or not in_english()
    # the figures as code writes them (the separator between them is the language's own)
    assert f"loss = {last.loss:.4g}" in explained.explanation
    assert f"w = {last.w:.4g}" in explained.explanation
    losses = [r.loss for r in trainer.history]
    assert losses[-2] > losses[len(losses) // 2] > losses[5]  # the error grows, as it says
    for remedy in divergence.remedies:  # "one click below applies a remedy and trains again"
        assert remedy.label in explained.fix
        retrained = Trainer(apply_remedy(trainer.config, remedy).with_changes(epochs=300))
        retrained.run()
        assert retrained.divergence is None, remedy.key
    return _own(explained)


@elsewhere("divergence")
def training_that_forgets_zero_grad():
    trainer = Trainer(TrainingConfig(lr=0.07, forget_zero_grad=True))
    trainer.run()
    explained = explain_divergence(trainer.divergence, trainer.history[-1])
    remedies = {r.key: r for r in trainer.divergence.remedies}
    assert "zero_grad" in remedies
    retrained = Trainer(apply_remedy(trainer.config, remedies["lower_lr"]))
    retrained.run()
    assert retrained.divergence is None
    return _own(explained)


@elsewhere("training_setup")
def settings_that_cannot_be_used():
    config = TrainingConfig(lr=-1.0)
    with pytest.raises(TrainingConfigError) as refused:
        config.validate()
    explained = explain_setup_problem(str(refused.value))
    assert "lr" in explained.explanation  # "the setting it names"
    config.with_changes(lr=0.01).validate()  # changed, it is accepted
    return _own(explained)


@elsewhere("exit")
def script_that_calls_exit():
    result = ScriptRun("import torch\nexit(3)\nafter = 1\n", {}).run()
    assert result.status == "failed" and result.line == 2
    explained = result.failure.explained
    assert "exit(3)" in explained.title
    assert explained.title == "The script called exit(3)" or not in_english()
    return _own(explained)


@elsewhere("unknown")
def torch_error_no_rule_knows():
    error = raised(lambda: torch.linalg.inv(torch.zeros(2, 2)))
    explained = explain_error(error, "inv")
    assert explained.explanation == _(UNKNOWN_EXPLANATION)
    assert explained.torch_message == str(error) and str(error)  # "its message above says why"
    return _own(explained)


@elsewhere("recursion")
def script_that_recurses_without_end():
    source = "def down(n):\n    return down(n + 1)\n\ndown(0)\n"
    result = ScriptRun(source, {}).run()
    explained = result.failure.explained
    assert explained.title.startswith("RecursionError")
    assert f"{sys.getrecursionlimit():,}" in explained.explanation  # the limit it names is real
    assert "Previous line repeated" in result.failure.traceback  # "the traceback folds"
    fixed = "def down(n):\n    return n if n >= 10 else down(n + 1)\n\nresult = down(0)\n"
    rerun = ScriptRun(fixed, {}).run()  # "give the recursion a case that returns"
    assert rerun.status == "finished" and rerun.namespace["result"] == 10
    return _own(explained)


@elsewhere("interrupted")
def script_interrupted():
    result = ScriptRun("x = 1\nraise KeyboardInterrupt\n", {}).run()
    explained = result.failure.explained
    assert explained.title.startswith("KeyboardInterrupt") and result.line == 2  # "at this line"
    assert "torch" not in explained.title.lower()
    assert ScriptRun("x = 1\n", {}).run().status == "finished"  # "run it again"
    return _own(explained)


@elsewhere("no_input")
def script_that_asks_for_input():
    result = ScriptRun("n = int(input('how many? '))\n", {}).run()
    explained = result.failure.explained
    assert "input()" in explained.title
    rerun = ScriptRun("n = 10\n", {}).run()  # "write the value into the script"
    assert rerun.status == "finished" and rerun.namespace["n"] == 10
    return _own(explained)


@elsewhere("missing_module")
def script_importing_a_package_that_is_not_installed():
    result = ScriptRun("import tensorviz_no_such_package_xyz\n", {}).run()
    explained = result.failure.explained
    assert "tensorviz_no_such_package_xyz" in explained.title
    assert sys.executable in explained.explanation  # the interpreter it names is ours
    raised(lambda: __import__("tensorviz_no_such_package_xyz"))  # Python agrees: not installed
    assert "pip install" in explained.fix
    return _own(explained)
