"""`tensorviz run` explains an error as the error of whoever raised it: NumPy's and pandas' with
their fixes, the user's own raise as Python shows it (its traceback alone), torch's as torch's."""

import numpy as np
import pytest

from tensorviz.app import main


def _run(tmp_path, capsys, source: str, *options: str) -> str:
    script = tmp_path / "learner.py"
    script.write_text(source)
    assert main(["run", *options, str(script)]) == 1
    return capsys.readouterr().err


def test_a_numpy_error_is_numpys_with_numpys_fix(tmp_path, capsys):
    err = _run(tmp_path, capsys, "import numpy as np\na = np.arange(3)\na += 0.5\n")
    assert "NumPy says: Cannot cast ufunc 'add' output" in err
    assert "torch says" not in err and ".to(dtype)" not in err and "torch refused" not in err
    assert "a = a + 0.5" in err
    a = np.arange(3)
    with pytest.raises(TypeError):  # NumPy refuses it, as said
        a += 0.5
    a = a + 0.5
    assert a.dtype == np.float64


def test_a_pandas_error_is_pandas_with_pandas_fix(tmp_path, capsys):
    source = (
        "import pandas as pd\n"
        "inputs = pd.DataFrame({'NumRooms': [None, 2.0], 'Alley': ['Pave', None]})\n"
        "inputs = inputs.fillna(inputs.mean())\n"
    )
    err = _run(tmp_path, capsys, source)
    assert "pandas says: Cannot perform reduction 'mean' with string dtype" in err
    assert "inputs.mean(numeric_only=True)" in err and "torch says" not in err


def test_the_users_own_raise_is_its_traceback_alone(tmp_path, capsys):
    source = "import torch\nx = torch.ones(2)\nraise RuntimeError('expected scalar type Float')\n"
    err = _run(tmp_path, capsys, source)
    assert err.rstrip().endswith("RuntimeError: expected scalar type Float")
    assert "torch says" not in err and "Why:" not in err and "Fix:" not in err


def test_in_chinese_a_numpy_error_is_numpys(tmp_path, capsys):
    err = _run(
        tmp_path, capsys, "import numpy as np\na = np.arange(3)\na += 0.5\n", "--lang", "zh_CN"
    )
    assert "NumPy 的报错" in err and "torch 的报错" not in err
