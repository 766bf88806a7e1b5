"""core's texts through gettext: the language from the environment as gettext reads it, and
every area's catalogue consulted (one .mo per area, chained)."""

import gettext

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from tensorviz.core import translation


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    translation.set_language("en")


@pytest.mark.parametrize(
    ("code", "expected"),
    [("zh_CN.UTF-8", "zh_CN"), ("zh-Hans", "zh_CN"), ("zh", "zh_CN"), ("en_US", "en"),
     ("C", "en"), ("fr_FR", None), ("", None), (None, None)],
)  # fmt: skip
def test_language_codes_are_normalised(code, expected):
    assert translation.normalize_language(code) == expected


def test_environment_is_read_as_gettext_reads_it(monkeypatch):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert translation.language_from_environment() == "zh_CN"
    monkeypatch.setenv("LANGUAGE", "fr:en")  # LANGUAGE comes first; fr is skipped, en taken
    assert translation.language_from_environment() == "en"


def _write_catalogue(folder, area, messages):
    catalog = Catalog(locale="zh_CN")
    for source, target in messages.items():
        catalog.add(source, target)
    path = folder / "zh_CN" / "LC_MESSAGES" / f"tensorviz-{area}.mo"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as stream:
        write_mo(stream, catalog)


def test_every_area_catalogue_is_consulted(tmp_path, monkeypatch):
    _write_catalogue(tmp_path, "memory", {"stride": "步幅"})
    _write_catalogue(tmp_path, "workbench", {"view": "视图"})
    monkeypatch.setattr(translation, "locale_dir", lambda: tmp_path)
    assert translation.set_language("zh_CN.UTF-8") == "zh_CN"
    assert (translation._("stride"), translation._("view")) == ("步幅", "视图")
    assert translation._("not in any catalogue") == "not in any catalogue"
    translation.set_language("en")
    assert translation._("stride") == "stride"


def test_unknown_language_falls_back_to_english():
    assert translation.set_language("fr_FR") == "en"
    assert isinstance(translation._translations, gettext.NullTranslations)
