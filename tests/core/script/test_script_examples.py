"""Every example script runs and leaves the tensors it promises, in the Script area and as plain
`python FILE.py`; the errors and devices examples print torch's own messages."""

import io
import re
import subprocess
import sys
import tokenize

import pytest
import torch
from script_helpers import run_script

from tensorviz.core import translation
from tensorviz.core.script.examples import example_by_key, marked_titles, script_examples
from tensorviz.core.tensors.workbench_actions import populate_default_workspace
from tensorviz.core.tensors.workspace import Workspace
from tensorviz.resource_files import resource_path

SECTIONS = (
    "Creating tensors",
    "Views",
    "Broadcasting",
    "Reductions",
    "NumPy",
    "Autograd",
    "training loop",
    "errors",
    "Devices",
)


def test_one_example_per_section_of_the_catalogue():
    titles = [e.title for e in script_examples()]
    assert len(titles) == len(SECTIONS)
    for section, title in zip(SECTIONS, titles, strict=True):
        assert section.lower() in title.lower()
    for example in script_examples():
        assert example.promises and example.source.count("\n") < 60  # short


@pytest.mark.parametrize("example", script_examples(), ids=lambda e: e.key)
def test_example_runs_and_leaves_its_promised_tensors(example):
    workspace = Workspace()
    populate_default_workspace(workspace)
    run, result, summary = run_script(workspace, example.source)
    assert result.status == "finished", result.failure and result.failure.traceback
    for name in example.promises:
        assert name in workspace, name
        assert isinstance(workspace.tensor(name), torch.Tensor)
        assert workspace.entry(name).provenance.op == "script" or name in ("x", "x_t")
    assert run.output.text()  # every example explains itself as it runs


def test_training_example_learns_the_reference_line():
    workspace = Workspace()
    run, result, _ = run_script(workspace, example_by_key("07_training_loop").source)
    text = run.output.text()
    assert [line.split()[1] for line in text.splitlines() if line.startswith("epoch")] == [
        "100",
        "200",
        "300",
        "400",
        "500",
    ]
    w, b = workspace.tensor("w"), workspace.tensor("b")
    assert abs(w.item() - 2.5) < 0.3 and abs(b.item() - 1.8) < 1.5
    assert workspace.tensor("loss").grad_fn is not None  # the last loss keeps its graph


def _message(action) -> str:
    with pytest.raises(RuntimeError) as error:
        action()
    return str(error.value)


def test_errors_example_prints_torchs_own_messages():
    workspace = Workspace()
    run, result, _ = run_script(workspace, example_by_key("08_errors").source)
    text = run.output.text()
    leaf = torch.ones(3, requires_grad=True)
    loss = (leaf * 2).sum()
    loss.backward()
    expected = [
        _message(lambda: torch.randn(2, 3) @ torch.randn(4, 5)),
        _message(lambda: torch.dot(torch.randn(3), torch.tensor([1, 0, 2]))),
        _message(lambda: torch.arange(6.0).reshape(2, 3).T.view(6)).splitlines()[0],
        _message(lambda: torch.ones(3, requires_grad=True).add_(1)),
        _message(lambda: loss.backward()).splitlines()[0],
    ]
    for message in expected:
        assert message in text


def test_every_example_runs_as_plain_python(tmp_path):
    """`python 01_creating_tensors.py` in a fresh interpreter, as the tutorials run their code:
    each example imports what it uses. One interpreter runs them all (torch imports once)."""
    paths = sorted(resource_path("examples").glob("*.py"))
    runner = (
        "import runpy, sys\n"
        "for path in sys.argv[1:]:\n"
        "    print('RUNNING', path, flush=True)\n"
        "    runpy.run_path(path, run_name='__main__')\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", runner, *map(str, paths)],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert completed.stdout.count("RUNNING") == len(paths) == len(SECTIONS)


def test_devices_example_shows_torchs_real_device_error():
    workspace = Workspace()
    run, result, _ = run_script(workspace, example_by_key("09_devices").source)
    text = run.output.text()
    with pytest.raises(RuntimeError) as mixed:
        torch.ones(2, 3, device="meta") + torch.ones(2, 3)
    assert f"two devices: {mixed.value}" in text
    assert workspace.tensor("on_meta").device.type == "meta"
    assert workspace.tensor("planned").device.type == "meta"
    device = "cuda" if torch.cuda.is_available() else "cpu"
    assert workspace.tensor("product").device.type == device
    if not torch.cuda.is_available():
        assert "cuda without CUDA:" in text


CJK = re.compile(r"[\u4e00-\u9fff]")
HEADERS = ("title:", "promises:")


def _comment_blocks(source: str) -> list[tuple[int, str]]:
    """(line, text) of each inline comment and of each run of whole-line comments."""
    blocks: list[tuple[int, str]] = []
    last_whole_line = -2
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        text, row = token.string.lstrip("#").strip(), token.start[0]
        if text.startswith(HEADERS):
            continue
        whole_line = token.line.strip().startswith("#")
        if whole_line and row == last_whole_line + 1 and blocks:
            blocks[-1] = (blocks[-1][0], blocks[-1][1] + "\n" + text)
        else:
            blocks.append((row, text))
        last_whole_line = row if whole_line else -2
    return blocks


@pytest.mark.parametrize("example", script_examples(), ids=lambda e: e.key)
def test_every_comment_of_an_example_says_it_in_english_and_chinese(example):
    blocks = _comment_blocks(example.source)
    assert blocks
    for line, text in blocks:  # a comment of only code or shapes ("[3, 1]", "int64") is both
        words = re.sub(r"`[^`]*`|\S*[_.()\[\]=@\d]\S*", " ", CJK.sub(" ", text))
        if re.search(r"[A-Za-z]{3,}", words):
            assert CJK.search(text), (line, text)
    assert any(CJK.search(text) for _line, text in blocks)


def test_the_catalogue_marks_every_title_and_shows_it_in_chinese():
    assert marked_titles() == tuple(e.english_title for e in script_examples())
    try:
        translation.set_language("zh_CN")
        for example in script_examples():
            assert CJK.search(example.title) and example.title != example.english_title
    finally:
        translation.set_language("en")
