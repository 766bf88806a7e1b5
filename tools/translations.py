"""`make translations`: extract, update and compile the translation catalogues.

The UI's texts go through Qt (`self.tr` / `QCoreApplication.translate` → pyside6-lupdate →
`resources/translations/<unit>_zh_CN.ts` → pyside6-lrelease → one `tensorviz_zh_CN.qm`); core's
and the CLI's through gettext (`_()` → pybabel → `resources/locale/zh_CN/LC_MESSAGES/
tensorviz-<unit>.po` → `.mo`). One catalogue per unit (an area of the app), so people
translating different areas never edit the same file. Translators edit the .ts (pyside6-linguist
or by hand) and the .po; the compiled .qm/.mo are committed and a test checks they are current.

    python tools/translations.py update     # sources → .ts/.po (new texts appear untranslated)
    python tools/translations.py compile    # .ts/.po → .qm/.mo
    python tools/translations.py check      # what is untranslated or stale (exit 1 if any)
    python tools/translations.py todo UNIT  # its untranslated texts as JSON, to fill in
    python tools/translations.py fill UNIT FILE.json   # write those translations back

The JSON of todo/fill: {"ui": {"Context": {"source": "译文"}}, "core": {"msgid": "译文"}};
a plural msgid (ngettext) takes one string (Chinese has one form).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
LANGUAGE = "zh_CN"
TS_DIR = ROOT / "resources" / "translations"
PO_DIR = ROOT / "resources" / "locale" / LANGUAGE / "LC_MESSAGES"
QM = TS_DIR / f"tensorviz_{LANGUAGE}.qm"

# unit → (ui sources, core/cli sources). Every source file belongs to exactly one unit.
UNITS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "window": (("tensorviz/ui/window", "tensorviz/ui/widgets", "tensorviz/ui/session"),
               ("tensorviz/core/environment.py", "tensorviz/core/session", "tensorviz/api",
                "tensorviz/ui/window/application.py",
                "tensorviz/app.py", "tensorviz/cli/__init__.py", "tensorviz/cli/arguments.py",
                "tensorviz/cli/env.py", "tensorviz/cli/pictures.py")),
    "workbench": (("tensorviz/ui/workbench",), ("tensorviz/core/tensors",)),
    "explain": ((), ("tensorviz/core/explain",)),
    "script": (("tensorviz/ui/script",), ("tensorviz/core/script", "tensorviz/cli/run.py")),
    "memory": (("tensorviz/ui/memory",), ("tensorviz/core/memory",)),
    "autograd": (("tensorviz/ui/autograd", "tensorviz/ui/forward"),
                 ("tensorviz/core/autograd", "tensorviz/core/forward",
                  "tensorviz/core/graph_layout", "tensorviz/cli/graph.py",
                  "tensorviz/cli/forward.py")),
    "training": (("tensorviz/ui/training",),
                 ("tensorviz/core/training", "tensorviz/cli/train.py",
                  "tensorviz/cli/train_playground.py", "tensorviz/cli/training_output.py")),
    "files": (("tensorviz/ui/files", "tensorviz/ui/diff"),
              ("tensorviz/core/files", "tensorviz/core/diff", "tensorviz/core/atomic_files.py",
               "tensorviz/cli/inspect.py", "tensorviz/cli/diff.py")),
    "watch": (("tensorviz/ui/watch",),
              ("tensorviz/core/watch", "tensorviz/cli/watch.py", "tensorviz/cli/report.py",
               "tensorviz/integrations")),
}  # fmt: skip
KEYWORDS = ("-k", "_", "-k", "later", "-k", "ngettext:1,2", "-k", "pgettext:1c,2")
PO_HEADER = """# Simplified Chinese: tensorviz's {unit} texts. Terms follow docs/glossary.md.
msgid ""
msgstr ""
"Project-Id-Version: tensorviz\\n"
"Language: zh_CN\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=1; plural=0;\\n"
"""


def _python_files(paths: tuple[str, ...]) -> list[str]:
    files: list[str] = []
    for path in paths:
        full = ROOT / path
        found = sorted(full.rglob("*.py")) if full.is_dir() else [full] if full.exists() else []
        files += [str(f.relative_to(ROOT)) for f in found]
    return files


def _run(*command: str) -> None:
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True)


def ts_path(unit: str) -> Path:
    return TS_DIR / f"{unit}_{LANGUAGE}.ts"


def po_path(unit: str) -> Path:
    return PO_DIR / f"tensorviz-{unit}.po"


def update() -> None:
    TS_DIR.mkdir(parents=True, exist_ok=True)
    PO_DIR.mkdir(parents=True, exist_ok=True)
    for unit, (ui, core) in UNITS.items():
        if ui_files := _python_files(ui):
            _run(str(BIN / "pyside6-lupdate"), *ui_files, "-no-obsolete", "-locations", "none",
                 "-target-language", LANGUAGE, "-ts", str(ts_path(unit)))  # fmt: skip
        if core_files := _python_files(core):
            with tempfile.TemporaryDirectory() as scratch:
                pot = Path(scratch) / "messages.pot"
                _run(str(BIN / "pybabel"), "extract", "--no-location", "--sort-output",
                     "--project=tensorviz", *KEYWORDS, "-o", str(pot), *core_files)  # fmt: skip
                if not po_path(unit).exists():
                    po_path(unit).write_text(PO_HEADER.format(unit=unit), encoding="utf-8")
                _run(
                    str(BIN / "pybabel"),
                    "update",
                    "--no-fuzzy-matching",
                    "--ignore-obsolete",
                    "--omit-header",
                    "-i",
                    str(pot),
                    "-o",
                    str(po_path(unit)),
                    "-l",
                    LANGUAGE,
                )
                _restore_header(unit)


def _restore_header(unit: str) -> None:
    """pybabel --omit-header drops the header; the plural rule and charset must stay."""
    text = po_path(unit).read_text(encoding="utf-8")
    if 'msgid ""\nmsgstr ""\n"Project-Id-Version' not in text:
        po_path(unit).write_text(PO_HEADER.format(unit=unit) + "\n" + text, encoding="utf-8")


def compile_catalogues(qm: Path = QM, mo_dir: Path = PO_DIR) -> None:
    ts_files = sorted(str(p) for p in TS_DIR.glob(f"*_{LANGUAGE}.ts"))
    if ts_files:
        _run(str(BIN / "pyside6-lrelease"), *ts_files, "-qm", str(qm))
    for po in sorted(PO_DIR.glob("tensorviz-*.po")):
        _compile_po(po, mo_dir / f"{po.stem}.mo")


def _compile_po(po: Path, mo: Path) -> None:
    """Like pybabel compile, but the same bytes every time (no creation date of today)."""
    import datetime

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as stream:
        catalog = read_po(stream)
    fixed = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    catalog.creation_date = catalog.revision_date = fixed
    with mo.open("wb") as stream:
        write_mo(stream, catalog)


def untranslated_ui() -> list[str]:
    problems = []
    for ts in sorted(TS_DIR.glob(f"*_{LANGUAGE}.ts")):
        for context in ElementTree.parse(ts).getroot().iter("context"):
            name = context.findtext("name")
            for message in context.iter("message"):
                node = message.find("translation")
                empty = node is None or not "".join(node.itertext()).strip()
                if empty or (node is not None and node.get("type") == "unfinished"):
                    problems.append(f"{ts.name}: {name}: {message.findtext('source')!r}")
    return problems


def untranslated_core() -> list[str]:
    from babel.messages.pofile import read_po

    problems = []
    for po in sorted(PO_DIR.glob("tensorviz-*.po")):
        with po.open("rb") as stream:
            catalog = read_po(stream)
        for message in catalog:
            if not message.id:
                continue
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if message.fuzzy or not all(strings):
                problems.append(f"{po.name}: {message.id!r}")
    return problems


def _ts_messages(path: Path) -> set[tuple[str, str]]:
    if not path.exists():
        return set()
    root = ElementTree.parse(path).getroot()
    return {(c.findtext("name"), m.findtext("source")) for c in root.iter("context")
            for m in c.iter("message")}  # fmt: skip


def _po_messages(path: Path) -> set[str]:
    from babel.messages.pofile import read_po

    if not path.exists():
        return set()
    with path.open("rb") as stream:
        return {m.id[0] if isinstance(m.id, tuple) else m.id for m in read_po(stream) if m.id}


def not_extracted() -> list[str]:
    """Texts in the sources that the committed catalogues do not hold yet (run update)."""
    problems = []
    with tempfile.TemporaryDirectory() as scratch:
        for unit, (ui, core) in UNITS.items():
            if ui_files := _python_files(ui):
                fresh = Path(scratch) / f"{unit}.ts"
                _run(str(BIN / "pyside6-lupdate"), *ui_files, "-locations", "none", "-ts",
                     str(fresh))  # fmt: skip
                for context, source in sorted(_ts_messages(fresh) - _ts_messages(ts_path(unit))):
                    problems.append(f"{unit}: not in {ts_path(unit).name}: {context}: {source!r}")
            if core_files := _python_files(core):
                pot = Path(scratch) / f"{unit}.pot"
                _run(str(BIN / "pybabel"), "extract", "--no-location", *KEYWORDS, "-o", str(pot),
                     *core_files)  # fmt: skip
                for message in sorted(_po_messages(pot) - _po_messages(po_path(unit))):
                    problems.append(f"{unit}: not in {po_path(unit).name}: {message!r}")
    return problems


def stale_compiled() -> list[str]:
    """Compiled files that differ from what compiling the sources gives now."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        compile_catalogues(folder / QM.name, folder)
        pairs = [(QM, folder / QM.name)] + [
            (PO_DIR / f"{po.stem}.mo", folder / f"{po.stem}.mo")
            for po in PO_DIR.glob("tensorviz-*.po")
        ]
        return [
            str(ours.relative_to(ROOT))
            for ours, fresh in pairs
            if fresh.exists() and (not ours.exists() or ours.read_bytes() != fresh.read_bytes())
        ]


def todo(unit: str) -> dict:
    from babel.messages.pofile import read_po

    ui: dict[str, dict[str, str]] = {}
    if ts_path(unit).exists():
        for context in ElementTree.parse(ts_path(unit)).getroot().iter("context"):
            for message in context.iter("message"):
                node = message.find("translation")
                if node is None or node.get("type") == "unfinished" or not node.text:
                    ui.setdefault(context.findtext("name"), {})[message.findtext("source")] = ""
    core: dict[str, str] = {}
    if po_path(unit).exists():
        with po_path(unit).open("rb") as stream:
            for message in read_po(stream):
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                if message.id and (message.fuzzy or not all(strings)):
                    key = message.id[0] if isinstance(message.id, tuple) else message.id
                    core[key] = ""
    return {"ui": ui, "core": core}


def fill(unit: str, translations: dict) -> int:
    """Write translations into the unit's .ts and .po; returns how many were written."""
    from babel.messages.pofile import read_po, write_po

    written = 0
    if translations.get("ui") and ts_path(unit).exists():
        tree = ElementTree.parse(ts_path(unit))
        for context in tree.getroot().iter("context"):
            wanted = translations["ui"].get(context.findtext("name"), {})
            for message in context.iter("message"):
                text = wanted.get(message.findtext("source"))
                if not text:
                    continue
                node = message.find("translation")
                for child in list(node):
                    node.remove(child)
                if message.get("numerus") == "yes":
                    ElementTree.SubElement(node, "numerusform").text = text
                else:
                    node.text = text
                node.attrib.pop("type", None)
                written += 1
        tree.write(ts_path(unit), encoding="utf-8", xml_declaration=True)
    if translations.get("core") and po_path(unit).exists():
        with po_path(unit).open("rb") as stream:
            catalog = read_po(stream)
        for message in catalog:
            key = message.id[0] if isinstance(message.id, tuple) else message.id
            text = translations["core"].get(key)
            if message.id and text:
                message.string = (text,) if isinstance(message.id, tuple) else text
                message.flags.discard("fuzzy")
                written += 1
        with po_path(unit).open("wb") as stream:
            write_po(stream, catalog, omit_header=False, width=100)
    return written


def main(argv: list[str]) -> int:
    if argv[:1] == ["todo"] and len(argv) == 2:
        print(json.dumps(todo(argv[1]), ensure_ascii=False, indent=1))
        return 0
    if argv[:1] == ["fill"] and len(argv) == 3:
        data = json.loads(Path(argv[2]).read_text(encoding="utf-8"))
        print(f"{fill(argv[1], data)} translations written; run make translations")
        return 0
    for command in argv or ["check"]:
        if command == "update":
            update()
        elif command == "compile":
            compile_catalogues()
        elif command == "check":
            problems = not_extracted() + untranslated_ui() + untranslated_core()
            problems += [f"stale, run make translations: {p}" for p in stale_compiled()]
            print("\n".join(problems) or "every text is translated and compiled")
            return 1 if problems else 0
        else:
            print(f"unknown command {command!r}: update, compile or check", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
