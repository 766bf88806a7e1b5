"""A session file's refusal under zh_CN: our sentence in Chinese, torch's own message inside it
verbatim (as torch raised it), and back in English once the language is."""

import pytest
import torch
from test_session_files import first_tensor, refused, rewrite, saved  # noqa: F401 (fixture)

from tensorviz.core import translation
from tensorviz.core.session.session_format import SessionFileError
from tensorviz.core.session.session_reader import read_session


@pytest.fixture
def chinese():
    translation.set_language("zh_CN")
    yield
    translation.set_language("en")


def _torchs_own_message() -> str:
    """What torch says when a leaf is given a .grad of another size: the reader's case."""
    leaf = torch.tensor([2.0], requires_grad=True)
    with pytest.raises(RuntimeError) as caught:
        leaf.grad = torch.empty(0)
    return str(caught.value)


def test_a_grad_that_does_not_fit_is_refused_in_chinese_with_torchs_words(saved, chinese):  # noqa: F811
    _, path, _ = saved
    rewrite(path, lambda m: first_tensor(m, "w")["grad"].update(shape=[0], stride=[1]))
    with pytest.raises(SessionFileError) as caught:
        read_session(path)
    message = str(caught.value)
    assert message.startswith(f"无法打开 {path.name}：w 的 .grad 与它不匹配（")
    assert _torchs_own_message() in message  # torch's sentence, untranslated
    translation.set_language("en")
    assert "does not fit it" in refused(path)
