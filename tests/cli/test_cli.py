import json
import subprocess
import sys

import torch

import tensorviz
from tensorviz.app import main


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "tensorviz", *args], capture_output=True, text=True, timeout=120
    )


def test_version(capsys):
    result = run_cli("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"tensorviz {tensorviz.__version__}"


def test_help_lists_subcommands_and_files(capsys):
    result = run_cli("--help")
    assert result.returncode == 0
    assert "FILE" in result.stdout and "env" in result.stdout


def test_env_json_matches_torch(capsys):
    assert main(["env", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["torch_version"] == torch.__version__
    assert data["cuda_available"] == torch.cuda.is_available()
    assert data["default_dtype"] == str(torch.get_default_dtype())
    assert data["devices"][0] == "cpu"


def test_env_text_lists_torch(capsys):
    assert main(["env"]) == 0
    assert torch.__version__ in capsys.readouterr().out


def test_bad_subcommand_input_is_exit_2_with_one_line(capsys):
    assert main(["env", "--no-such-flag"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tensorviz env: error:")


def test_bad_top_level_option_is_exit_2_with_one_line(capsys):
    assert main(["--no-such-flag"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--no-such-flag" in err


def test_python_dash_m_and_console_script_agree():
    import shutil

    script = shutil.which("tensorviz", path=str(__import__("pathlib").Path(sys.executable).parent))
    assert script, "the tensorviz console script is installed next to the interpreter"
    direct = subprocess.run([script, "--version"], capture_output=True, text=True, timeout=60)
    assert direct.stdout == run_cli("--version").stdout
