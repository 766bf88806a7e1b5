import sys

import torch

import tensorviz
from tensorviz.core.environment import collect_environment


def test_report_matches_what_torch_says():
    report = collect_environment()
    assert report.torch_version == torch.__version__
    assert report.cuda_available == torch.cuda.is_available()
    assert len(report.cuda_devices) == (
        torch.cuda.device_count() if torch.cuda.is_available() else 0
    )
    assert report.default_dtype == str(torch.get_default_dtype())
    assert report.num_threads == torch.get_num_threads()
    assert report.num_interop_threads == torch.get_num_interop_threads()
    assert report.tensorviz_version == tensorviz.__version__
    assert sys.version.split()[0] in report.python_version


def test_devices_are_ones_torch_can_allocate_on():
    report = collect_environment()
    assert report.devices[0] == "cpu"
    for name in report.devices:
        assert torch.zeros(1, device=name).device.type == torch.device(name).type


def test_default_dtype_change_is_reported():
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        assert collect_environment().default_dtype == "torch.float64"
    finally:
        torch.set_default_dtype(previous)


def test_rows_and_dict_carry_the_same_facts():
    report = collect_environment()
    rows = dict(report.rows())
    data = report.to_dict()
    assert rows["torch"] == data["torch_version"]
    assert rows["Default dtype"] == data["default_dtype"]
    assert rows["Devices"] == ", ".join(data["devices"])
    assert set(data["package_versions"]) <= set(rows)


def test_rows_speak_the_language_chosen_and_keep_torchs_words():
    from tensorviz.core import translation

    report = collect_environment()
    try:
        translation.set_language("zh_CN")
        rows = dict(report.rows())
    finally:
        translation.set_language("en")
    assert rows["torch"] == torch.__version__  # names and versions stay as they are
    assert rows["默认数据类型 (dtype)"] == str(torch.get_default_dtype())
    assert str(torch.get_num_threads()) in rows["线程"]
