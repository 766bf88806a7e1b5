"""core/tensors speaks the language in force: under zh_CN its own words are Chinese, while
torch's message, the user's input, dtype names and numbers stay exactly as they are."""

import re
import warnings

import pytest
import torch

from tensorviz.core import translation
from tensorviz.core.tensors.action_results import ActionError
from tensorviz.core.tensors.creation import CreationOptions
from tensorviz.core.tensors.form_words import in_language
from tensorviz.core.tensors.identity import identify, view_verdict
from tensorviz.core.tensors.workbench_actions import apply_operation, create_tensor
from tensorviz.core.tensors.workspace import Workspace

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def chinese():
    translation.set_language("zh_CN")
    yield
    translation.set_language("en")


def _one_element_workspace() -> Workspace:
    workspace = Workspace()
    create_tensor(workspace, "tensor", {"data": "[1.0]"}, CreationOptions(), "x")
    return workspace


def test_torch_warning_is_quoted_verbatim_inside_a_chinese_note(chinese):
    with warnings.catch_warnings(record=True) as caught:  # what torch itself says
        warnings.simplefilter("always")
        torch.std(torch.tensor([1.0]))
    (torch_words,) = {str(w.message) for w in caught}

    outcome = apply_operation(_one_element_workspace(), "std", "x", {"dim": "", "keepdim": ""})

    (note,) = outcome.notes
    assert torch_words in note  # torch's English, character for character
    introduction = note.replace(torch_words, "")
    assert CJK.search(introduction) and "warns" not in introduction


def test_a_bad_parameter_is_explained_in_chinese_with_the_input_as_typed(chinese):
    with pytest.raises(ActionError) as raised:
        apply_operation(_one_element_workspace(), "std", "x", {"dim": "zwei", "keepdim": ""})
    explained = raised.value.explained
    assert "zwei" in explained.explanation and "dim" in explained.explanation
    for text in (explained.title, explained.explanation, explained.fix):
        assert CJK.search(text), text


def test_the_same_objects_speak_english_again_after_a_switch_back():
    x = torch.arange(6.0).reshape(2, 3)
    verdict = view_verdict(x.t(), {"x": x})  # torch: the transpose reads x's storage
    assert verdict.kind == "view"
    note = create_tensor(Workspace(), "tensor", {"data": "[1.0]"}, CreationOptions()).notes[0]
    translation.set_language("zh_CN")
    try:
        chinese_text, chinese_note = verdict.text, in_language(note)
        element_size = dict(identify(x).rows())["element size"]
    finally:
        translation.set_language("en")
    assert CJK.search(chinese_text) and "x" in chinese_text
    assert CJK.search(chinese_note) and "float32" in chinese_note
    assert element_size.startswith(str(x.element_size())) and CJK.search(element_size)
    assert verdict.text == "view of x — shares storage"
    assert in_language(note) == note and not CJK.search(note)
