"""Where nobody can see a window, the API says so in one line and goes on; called from a notebook
cell, it names the cell as IPython's own tracebacks do ("Cell In[3], line 2"), never IPython's
temporary file — checked in a real IPython shell, with IPython's compiler and with one that names
cells as ipykernel's does."""

import json
import os
import subprocess
import sys
import textwrap

from tensorviz.api.caller_names import CallSite


def test_offscreen_qt_is_no_display_for_a_blocking_show(tmp_path):
    program = "import tensorviz, torch\ntensorviz.show(torch.ones(2))\nprint('went on')\n"
    environment = {
        k: v for k, v in os.environ.items() if k not in ("TENSORVIZ_QUIT_AFTER_READY", "DISPLAY")
    }
    environment.update(QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path), LANG="C.UTF-8")
    ran = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120,
        env=environment,
    )  # fmt: skip
    lines = [line for line in ran.stderr.splitlines() if line.startswith("tensorviz:")]
    assert ran.returncode == 0 and ran.stdout == "went on\n", ran.stderr
    assert len(lines) == 1 and "QT_QPA_PLATFORM=offscreen" in lines[0]
    assert "save_session" in lines[0]  # what to do instead
    assert "PySide6" not in ran.stderr


def test_ipythons_cell_files_are_named_as_its_tracebacks_name_them():
    assert CallSite("<ipython-input-3-0123456789ab>", 2, "<module>").where() == (
        "Cell In[3], line 2"
    )
    cell = CallSite("/tmp/ipykernel_4242/3266283050.py", 2, "<module>").where()
    assert cell == "a notebook cell, line 2" and "3266283050" not in cell
    assert CallSite("/home/me/train.py", 12, "step").where() == "train.py, line 12 in step()"


SHELL_PROGRAM = textwrap.dedent(
    """\
    import contextlib, io, json, os, sys, tempfile
    from IPython.core.compilerop import CachingCompiler
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    class KernelLikeCompiler(CachingCompiler):
        '''Names cells as ipykernel's XCachingCompiler does: a file in its temporary folder.'''
        def get_code_name(self, raw_code, transformed_code, number):
            folder = os.path.join(tempfile.gettempdir(), f"ipykernel_{os.getpid()}")
            return os.path.join(folder, f"{abs(hash(raw_code)) % 10**10}.py")

    config = Config()
    config.HistoryManager.enabled = False
    config.InteractiveShell.colors = "nocolor"
    compiler = {"ipython": CachingCompiler, "ipykernel": KernelLikeCompiler}[sys.argv[1]]
    shell = InteractiveShell.instance(config=config, compiler_class=compiler)
    shell.run_cell("x = 1", store_history=True)
    shell.run_cell("import sys\\nfrom tensorviz.api.caller_names import call_site\\n"
                   "site = call_site(sys._getframe())", store_history=True)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):  # IPython's own traceback of a cell, to compare
        shell.run_cell("y = 2\\ny / 0", store_history=True)
    said = [line for line in printed.getvalue().splitlines() if "Cell In[" in line]
    site = shell.user_ns["site"]
    print(json.dumps({"file": site.filename, "where": site.where(), "ipython": said}))
    """
)


def _in_a_shell(tmp_path, compiler: str) -> dict:
    environment = dict(os.environ, IPYTHONDIR=str(tmp_path / "ipython"), HOME=str(tmp_path))
    ran = subprocess.run(
        [sys.executable, "-c", SHELL_PROGRAM, compiler], capture_output=True, text=True,
        timeout=120, env=environment, check=True,
    )  # fmt: skip
    return json.loads(ran.stdout.splitlines()[-1])


def test_a_call_from_an_ipython_cell_names_the_cell(tmp_path):
    seen = _in_a_shell(tmp_path, "ipython")
    assert seen["file"].startswith("<ipython-input-2-")  # IPython's own name for cell 2
    assert seen["where"] == "Cell In[2], line 3"
    assert any("Cell In[3], line 2" in line for line in seen["ipython"])  # IPython's own words


def test_a_call_from_a_kernels_cell_names_the_cell_not_its_file(tmp_path):
    seen = _in_a_shell(tmp_path, "ipykernel")
    assert "ipykernel_" in seen["file"] and seen["file"].endswith(".py")
    assert seen["where"] == "Cell In[2], line 3"
    assert any("Cell In[3], line 2" in line for line in seen["ipython"])
