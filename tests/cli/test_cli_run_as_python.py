"""`tensorviz run SCRIPT.py [-- ARG ...]` runs a script as `python SCRIPT.py ARG ...` does (a helper
module beside it imports, sys.argv, __file__, tracebacks that name the file), and says only what
is true of the run: no "never calls" note where the run stopped before the calls, no blank line
before the table of a script that printed nothing, no library's thread called the script's, the
NumPy arrays that read a tensor's memory named beside it."""

import json
import subprocess
import sys
import textwrap

import numpy as np
import torch
from test_cli_run_limits import tensorviz_command

from tensorviz.app import main

ARGV_SCRIPT = (
    "import sys, torch, utils\nprint(sys.argv[1:], utils.VALUE, __file__)\nx = torch.ones(2)\n"
)


def _project(tmp_path, source: str):
    (tmp_path / "utils.py").write_text("VALUE = 'beside'\n")
    script = tmp_path / "train.py"
    script.write_text(source)
    return script


def test_arguments_after_the_script_reach_it_as_python_passes_them(tmp_path, capsys):
    script = _project(tmp_path, ARGV_SCRIPT)
    python = subprocess.run(
        [sys.executable, str(script), "a", "--lr", "3"], capture_output=True, text=True, check=True
    )
    assert main(["run", str(script), "--timeout", "60", "--", "a", "--lr", "3"]) == 0
    printed = capsys.readouterr().out.splitlines()[0]
    assert printed == python.stdout.strip() == f"['a', '--lr', '3'] beside {script}"
    assert main(["run", str(script), "plain", "words"]) == 0  # no option-like word: no -- needed
    assert capsys.readouterr().out.startswith("['plain', 'words'] beside")


def test_a_traceback_names_the_file(tmp_path, capsys):
    script = tmp_path / "bad.py"
    script.write_text("import torch\nraise ValueError('mine')\n")
    assert main(["run", str(script)]) == 1
    python = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    ours = capsys.readouterr().err
    assert f'File "{script}", line 2, in <module>' in ours
    assert f'File "{script}", line 2, in <module>' in python.stderr


def test_the_language_given_before_the_subcommand_applies_to_it(tmp_path, capsys):
    script = tmp_path / "x.py"
    script.write_text("x = torch.ones(2)\n")
    assert main(["--lang", "zh_CN", "run", str(script)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("捕获了 1 个张量") or "个张量" in out.splitlines()[0]
    assert main(["--lang=en", "run", "--json", str(script)]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "finished"


def test_no_blank_line_before_the_table_when_nothing_was_printed(tmp_path, capsys):
    script = tmp_path / "quiet.py"
    script.write_text("x = torch.ones(2)\n")
    assert main(["run", str(script)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "1 tensor captured:"
    script.write_text("print('hello')\nx = torch.ones(2)\n")
    assert main(["run", str(script)]) == 0
    assert capsys.readouterr().out.splitlines()[:3] == ["hello", "", "1 tensor captured:"]


EARLY_ERROR = textwrap.dedent(
    """\
    import torch
    raise RuntimeError("stopped before anything was made")
    def make():
        return torch.ones(3)
    make()
    """
)


def test_a_run_that_failed_before_the_calls_does_not_say_never_called(tmp_path, capsys):
    script = tmp_path / "early.py"
    script.write_text(EARLY_ERROR)
    assert main(["run", "--json", str(script)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["error"]["line"] == 2
    assert not any("never calls" in note for note in data["notes"]), data["notes"]
    assert data["notes"] == ["No tensor captured: nothing had made a tensor before the error."]
    script.write_text("import torch\ndef make():\n    return torch.ones(3)\nraise RuntimeError()\n")
    assert main(["run", "--json", str(script)]) == 1  # really never called anywhere: said
    assert "never calls it" in json.loads(capsys.readouterr().out)["notes"][0]


NUMPY_SCRIPT = textwrap.dedent(
    """\
    X = torch.arange(12).reshape(3, 4)
    A = X.numpy()
    Y = X.T
    C = Y.numpy()
    D = (X + 1).numpy()
    """
)


def test_numpy_arrays_that_share_a_tensors_memory_are_named_beside_it(tmp_path, capsys):
    script = tmp_path / "arrays.py"
    script.write_text(NUMPY_SCRIPT)
    assert main(["run", "--json", str(script)]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)["tensors"]}
    x = torch.arange(12).reshape(3, 4)  # the same script, by hand, asked of NumPy itself
    a, c, d = x.numpy(), x.T.numpy(), (x + 1).numpy()
    assert np.shares_memory(a, x.numpy()) and np.shares_memory(c, a) and not np.shares_memory(d, a)
    assert rows["X"]["numpy_arrays_sharing_memory"] == ["A", "C"]
    assert rows["Y"]["numpy_arrays_sharing_memory"] == ["A", "C"]
    assert rows["X"]["shares_storage_with"] == ["Y"]
    assert main(["run", str(script)]) == 0
    table = capsys.readouterr().out
    assert "Y, A (NumPy), C (NumPy)" in table and "D (NumPy)" not in table


def test_a_thread_an_imported_module_started_is_not_called_the_scripts(tmp_path):
    (tmp_path / "noisy.py").write_text(
        "import threading\n"
        "threading.Thread(target=threading.Event().wait, name='history saver', daemon=True)"
        ".start()\n"
    )
    script = tmp_path / "train.py"
    script.write_text(
        "import threading, noisy\n"
        "threading.Thread(target=threading.Event().wait, name='mine', daemon=True).start()\n"
    )
    ran = subprocess.run(
        [*tensorviz_command(), "run", "--json", str(script)], capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    data = json.loads(ran.stdout)
    assert ran.returncode == 0 and data["threads_left"] == ["mine"]
    assert data["notes"][-1].startswith("the script left 1 thread running (mine)")
