"""The CLI speaks the terminal's language (LANG) or the one `--lang` names, for the window and
for every subcommand; numbers, versions and torch's own words stay as they are."""

import pytest
import torch

from tensorviz.app import main
from tensorviz.cli import language_asked
from tensorviz.core import translation


@pytest.fixture(autouse=True)
def english_afterwards(monkeypatch):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    yield
    translation.set_language("en")


def test_lang_is_read_in_both_spellings_and_else_from_the_environment(monkeypatch):
    assert language_asked(["--lang", "zh_CN", "model.pt"]) == "zh_CN"
    assert language_asked(["--lang=zh-Hans"]) == "zh_CN"
    assert language_asked(["--lang", "klingon"]) == "en"  # unknown: argparse refuses it later
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert language_asked(["model.pt"]) == "zh_CN"
    assert language_asked(["--lang", "en"]) == "en"  # the command line wins over LANG


def test_env_prints_chinese_labels_and_torchs_own_values(capsys):
    assert main(["env", "--lang", "zh_CN"]) == 0
    rows = dict(
        line.split(None, 1) for line in capsys.readouterr().out.splitlines() if line[:1] != " "
    )
    assert rows["torch"].strip() == torch.__version__
    assert rows["默认数据类型"].strip().startswith(f"(dtype)  {torch.get_default_dtype()}")
    assert rows["线程"].strip().startswith(str(torch.get_num_threads()))


def test_a_subcommand_under_a_chinese_lang_says_its_error_in_chinese(monkeypatch, capsys):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert main(["env", "--colour"]) == 2
    err = capsys.readouterr().err  # argparse's own sentence too, from our catalogue
    assert err == "tensorviz env：错误：无法识别的参数：--colour\n"


def test_help_speaks_the_language_asked_argparse_headings_included(capsys):
    with pytest.raises(SystemExit):
        main(["--lang", "zh_CN", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("用法：tensorviz ") and "显示这条帮助信息并退出" in out
    assert "子命令（每个都接受 --help 和 --json）：" in out
    with pytest.raises(SystemExit):
        main(["diff", "--lang", "zh_CN", "--help"])
    out = capsys.readouterr().out  # argparse's own headings take the full-width colon too
    assert "\n位置参数：\n" in out and "\n选项：\n" in out and "位置参数:" not in out
    with pytest.raises(SystemExit):
        main(["--help"])  # LANG=C: English again in the same process
    assert capsys.readouterr().out.startswith("usage: tensorviz ")


def test_an_unknown_word_is_refused_in_the_language_asked(capsys):
    assert main(["--lang", "zh_CN", "evn"]) == 2
    err = capsys.readouterr().err
    assert "没有这个文件或子命令：evn" in err and "`tensorviz env`" in err
    assert main(["evn"]) == 2  # LANG=C: English
    assert "no such file or subcommand: evn" in capsys.readouterr().err


def test_every_subcommand_is_described_in_chinese_in_the_overview_and_its_help():
    from tensorviz.cli import SUBCOMMANDS

    translation.set_language("zh_CN")
    english = [
        name
        for name, command in SUBCOMMANDS.items()
        if command.described() == command.summary
        or not any("\u4e00" <= ch <= "\u9fff" for ch in command.described())
    ]
    assert english == []


def test_inspect_says_an_unreadable_file_as_every_subcommand_says_its_errors(tmp_path, capsys):
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"not a checkpoint")
    assert main(["inspect", str(bad), "--lang", "zh_CN"]) == 2
    inspect_error = capsys.readouterr().err.strip()
    assert main(["graph", "no-such-preset", "--lang", "zh_CN"]) == 2
    graph_error = capsys.readouterr().err.strip()
    prefix = graph_error[: graph_error.index("错误") + 3].replace("graph", "inspect")
    assert prefix == "tensorviz inspect：错误："
    assert inspect_error.startswith(prefix)
