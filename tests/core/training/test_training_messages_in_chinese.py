"""Under zh_CN the Training area's own sentences (refused settings, data files, divergence,
remedies, the gradient verdict) come out in Chinese, while torch's own words, code and numbers
stay exactly as they are; back in English nothing of the English text has changed."""

import re

import pytest
import torch

from tensorviz.core import translation
from tensorviz.core.training.data import TrainingConfig, TrainingConfigError, load_xy
from tensorviz.core.training.playground_report import gradient_verdict
from tensorviz.core.training.report import explain_divergence
from tensorviz.core.training.trainer import Trainer

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def chinese():
    translation.set_language("zh_CN")
    yield
    translation.set_language("en")


def _refusal(config: TrainingConfig) -> str:
    with pytest.raises(TrainingConfigError) as refused:
        config.validate()
    return str(refused.value)


def test_a_refused_setting_is_explained_in_chinese_and_in_english_as_before(chinese):
    assert _refusal(TrainingConfig(n=1)) == "n 至少为 2"
    mismatched = TrainingConfig(
        task="circles", update_style="adam", hidden_layers=(4, 4), activations=("tanh",)
    )
    message = _refusal(mismatched)
    assert CJK.search(message) and "2 层" in message and "1 个激活函数" in message
    translation.set_language("en")
    assert _refusal(TrainingConfig(n=1)) == "n must be at least 2"


def test_torchs_own_reason_for_refusing_a_file_stays_verbatim_inside_chinese(chinese, tmp_path):
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"PK\x03\x04 not really a zip archive")
    with pytest.raises(Exception) as by_torch:
        torch.load(bad, weights_only=True)
    first_line = str(by_torch.value).strip().splitlines()[0][:157]
    with pytest.raises(TrainingConfigError) as refused:
        load_xy(bad)
    message = str(refused.value)
    assert message.startswith("无法读取 bad.pt：")
    assert first_line in message  # torch's English, untouched


def test_a_diverged_run_and_its_remedies_speak_chinese_with_the_numbers_intact(chinese):
    trainer = Trainer(TrainingConfig(lr=1.0, epochs=200))
    trainer.run()
    divergence = trainer.divergence
    assert divergence is not None
    explained = explain_divergence(divergence, trainer.history[-1])
    assert explained.title.startswith("训练发散了：")
    assert f"第 {divergence.epoch} 轮" in explained.title
    assert str(divergence.value) in explained.title
    assert "float32" in explained.explanation and CJK.search(explained.explanation)
    lower = next(r for r in divergence.remedies if r.key == "lower_lr")
    assert lower.label == f"把学习率降到 {dict(lower.changes)['lr']:g}"
    assert divergence.message().endswith("训练已停止")


def test_the_gradient_verdict_is_chinese_and_keeps_its_kind():
    translation.set_language("zh_CN")
    try:
        kind, headline, explanation = gradient_verdict((1e-6, 1.0, 1.0))
    finally:
        translation.set_language("en")
    assert kind == "vanishing"  # the key the views use never depends on the language
    assert headline.startswith("梯度消失") and "1.0e-06" in headline
    assert "sigmoid" in explanation and "ReLU" in explanation
