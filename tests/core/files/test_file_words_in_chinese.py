"""Under zh_CN the reader and `tensorviz inspect` speak Chinese from the files catalogue, while
torch's own message, code and the file's keys stay exactly as torch and the file wrote them."""

from __future__ import annotations

import re

import checkpoint_corpus as corpus
import pytest
import torch

from tensorviz.app import main
from tensorviz.core import translation
from tensorviz.core.files.inspection import inspect_file
from tensorviz.core.files.text import tree_lines

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # torch.load's protocol notes


@pytest.fixture
def chinese():
    translation.set_language("zh_CN")
    yield
    translation.set_language("en")


def test_torchs_refusal_is_quoted_verbatim_inside_a_chinese_sentence(tmp_path, chinese):
    path = corpus.tutorial(tmp_path, 2)  # a defaultdict: torch's unpickler sets no items on it
    result = inspect_file(path)
    refusal = result.safety.torch_refusal()
    _entries, _modules, allowed = result.safety._allow_list()
    with torch.serialization.safe_globals(allowed), pytest.raises(Exception) as raised:
        torch.load(path, weights_only=True)  # torch itself, with the globals we would offer
    assert refusal and refusal in str(raised.value)  # the English is torch's, word for word
    sentence = next(s for s in result.safety_sentences() if s.endswith(refusal))
    ours = (
        "即使使用 torch.serialization.safe_globals，"
        "torch 的仅权重 (weights-only) 反序列化器也拒绝它："
    )
    assert sentence == ours + refusal


def test_inspect_explains_a_truncated_file_in_chinese(tmp_path, capsys, monkeypatch):
    path = tmp_path / "cut.pt"
    torch.save({"w": torch.ones(64)}, path)
    path.write_bytes(path.read_bytes()[:200])
    monkeypatch.setenv("LANGUAGE", "zh_CN")  # the CLI reads the language as gettext does
    try:
        status = main(["inspect", str(path)])
    finally:
        translation.set_language("en")
    printed = capsys.readouterr()
    words = printed.out + printed.err
    assert status == 2 and words.startswith("tensorviz inspect：错误：")
    assert "截断" in words and "zip" in words, words  # truncated, the format's name as it is
    assert not re.search(r"\b(error|file|cannot|the|truncated)\b", words), words


def test_the_tree_is_worded_in_chinese_and_keys_stay_as_written(tmp_path, chinese):
    weight = torch.arange(6.0).reshape(2, 3)
    path = tmp_path / "tied.pt"
    torch.save({"encoder.weight": weight, "decoder.weight": weight}, path)
    loaded = torch.load(path, weights_only=True)
    assert loaded["encoder.weight"].data_ptr() == loaded["decoder.weight"].data_ptr()  # torch's
    lines = tree_lines(inspect_file(path))
    assert lines[1] == "格式：torch.save（zip 格式）"
    assert "[存储 #0 与 ['decoder.weight'] 共享]" in lines[4]  # the key as the file wrote it
    assert lines[-1] == "1 个存储中共有 2 个张量，24 B；1 个存储被多个条目共享"


def test_inspect_help_describes_the_command_in_chinese(capsys, monkeypatch):
    monkeypatch.setenv("LANGUAGE", "zh_CN")
    try:
        with pytest.raises(SystemExit):
            main(["inspect", "--help"])
    finally:
        translation.set_language("en")
    assert "检查点里有什么，不运行它就读出来" in capsys.readouterr().out
