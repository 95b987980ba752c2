"""The message catalogues (docs/i18n.md): every key the code uses exists in every language, every language
has the same keys per namespace with the same ``{{variables}}``, and ``translate`` follows i18next's
rules (nesting, interpolation, plurals, English fallback).

Keys used in code are found as written literals: ``t("ns:key")`` in the browser's modules,
``translate("ns:key")`` and ``code="ns:key"`` in Python, ``data-i18n="ns:key"`` (and ``data-i18n-attr``) in
pages. A key built at run time (a template with ``${...}``) cannot be checked here; its prefix must exist.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from robotable import games
from robotable.core import i18n

ROOT = Path(__file__).resolve().parents[2] / "robotable"
WEB = ROOT / "web"
JS_KEY = re.compile(r"""(?<![\w.$])t\(\s*(["'`])([^"'`$\\]+)\1""")
JS_PREFIX = re.compile(r"""(?<![\w.$])t\(\s*`([^`$]*)\$\{""")
PY_KEY = re.compile(r"""(?<![\w.])(?:translate\(\s*|code\s*=\s*)(["'])([a-z0-9-]+:[^"']+)\1""")
HTML_KEY = re.compile(r"""data-i18n="([^"]+)\"""")
HTML_ATTR = re.compile(r"""data-i18n-attr="([^"]+)\"""")


def js_files() -> list[Path]:
    return [p for p in WEB.rglob("*.js") if "vendor" not in p.parts]


def qualified(key: str) -> str:
    return key if ":" in key else f"{i18n.DEFAULT_NS}:{key}"


def used_keys() -> dict[str, set[str]]:
    """Every literal key in the code, with the files that use it."""
    found: dict[str, set[str]] = {}

    def add(key: str, path: Path) -> None:
        found.setdefault(qualified(key.strip()), set()).add(str(path.relative_to(ROOT.parent)))

    for path in js_files():
        for _, key in JS_KEY.findall(path.read_text(encoding="utf-8")):
            add(key, path)
    for path in WEB.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        for key in HTML_KEY.findall(text):
            add(key, path)
        for pairs in HTML_ATTR.findall(text):
            for pair in pairs.split(";"):
                add(pair.split(":", 1)[1], path)
    for path in ROOT.rglob("*.py"):
        for _, key in PY_KEY.findall(path.read_text(encoding="utf-8")):
            add(key, path)
    return found


def base_keys(lang: str, namespace: str) -> dict[str, set[str]]:
    """The keys of a catalogue without plural suffixes, each with the variables its forms use."""
    keys: dict[str, set[str]] = {}
    for key, text in i18n.catalogue(lang, namespace).items():
        keys.setdefault(i18n.base_key(key), set()).update(i18n.variables(text) - {"count"})
    return keys


LANGS = i18n.languages()
NAMESPACES = i18n.namespaces()


def test_every_language_has_every_namespace_as_valid_json() -> None:
    assert LANGS[0] == "en" and "ja" in LANGS
    assert ["app", *games.available()] == NAMESPACES
    for lang in LANGS:
        for ns in NAMESPACES:
            path = i18n.catalogue_path(lang, ns)
            assert path.is_file(), f"missing catalogue {path}"
            data = json.loads(path.read_text(encoding="utf-8"))
            assert isinstance(data, dict)
            empty = [k for k, v in i18n.flatten(data).items() if not str(v).strip()]
            assert not empty, f"{lang}/{ns}: empty messages {empty}"


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_languages_have_the_same_keys_and_variables(namespace: str) -> None:
    english = base_keys("en", namespace)
    for lang in LANGS[1:]:
        other = base_keys(lang, namespace)
        assert sorted(set(english) - set(other)) == [], f"{namespace}: missing in {lang}"
        assert sorted(set(other) - set(english)) == [], f"{namespace}: only in {lang}, not in English"
        differ = {k: (english[k], other[k]) for k in english if english[k] != other[k]}
        assert differ == {}, f"{namespace}: {{{{variables}}}} differ between en and {lang}"


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_plural_forms_are_complete(namespace: str) -> None:
    """English has ``_one`` and ``_other`` for a plural key; every language has ``_other``."""
    for lang in LANGS:
        keys = set(i18n.catalogue(lang, namespace))
        plural = {k.rsplit("_", 1)[0] for k in keys if k.endswith(i18n.PLURAL_SUFFIXES)}
        for base in plural:
            assert f"{base}_other" in keys, f"{lang}/{namespace}: {base}_other missing"
            if lang == "en":
                assert f"{base}_one" in keys, f"en/{namespace}: {base}_one missing"


def test_every_key_the_code_uses_exists_in_every_language() -> None:
    used = used_keys()
    assert used, "no t()/translate() calls found: the scan is broken"
    missing = []
    for key, files in sorted(used.items()):
        ns, path = i18n.split_key(key)
        for lang in LANGS:
            have = base_keys(lang, ns) if ns in NAMESPACES else {}
            if path not in have and i18n.base_key(path) not in have:
                missing.append(f"{lang} {key} (used in {', '.join(sorted(files))})")
    assert missing == []


def test_keys_built_at_run_time_have_their_prefix_in_the_catalogue() -> None:
    bad = []
    for path in js_files():
        for prefix in JS_PREFIX.findall(path.read_text(encoding="utf-8")):
            ns, rest = i18n.split_key(qualified(prefix))
            if ns not in NAMESPACES:
                continue  # the namespace itself is computed (`${game}:name`)
            for lang in LANGS:
                if rest and not any(k.startswith(rest) for k in i18n.catalogue(lang, ns)):
                    bad.append(f"{lang} {prefix}… in {path.relative_to(ROOT.parent)}")
    assert bad == []


def test_translate_follows_the_i18next_rules() -> None:
    assert i18n.translate("app:seat.name", lang="en", n=2) == "Seat 2"
    assert i18n.translate("app:seat.name", lang="ja", n=2) == "2番席"
    assert i18n.translate("app:seat.count", lang="en", count=1) == "1 seat"
    assert i18n.translate("app:seat.count", lang="en", count=0) == "0 seats"
    assert i18n.translate("app:seat.count", lang="ja", count=1) == "1席"
    assert i18n.translate("seat.name", n=1) == "Seat 1"  # app is the default namespace
    assert i18n.translate("app:seat.name", lang="xx", n=1) == "Seat 1"  # unknown language: English
    assert i18n.translate("app:seat.name", lang="ja") == "{{n}}番席"  # a missing variable stays visible
    assert i18n.translate("app:no.such.key", lang="ja") == "app:no.such.key"
    assert i18n.translate("twin-tin-bots:name", lang="ja") == "双子のブリキロボ"
    with pytest.raises(i18n.UnknownCatalogue, match="one of: en, ja"):
        i18n.catalogue_path("xx", "app")
    with pytest.raises(i18n.UnknownCatalogue, match="no namespace 'chess'"):
        i18n.catalogue_path("en", "chess")


def test_the_scan_finds_keys_and_misses() -> None:
    """The patterns see the ways keys are written (so a missing key cannot hide from them)."""
    js = """t("app:a.b"); t('c.d', {n: 1}); x.t("not.me"); t(`app:e.f`); t(`app:g.${x}`)"""
    assert [k for _, k in JS_KEY.findall(js)] == ["app:a.b", "c.d", "app:e.f"]
    assert JS_PREFIX.findall(js) == ["app:g."]
    py = """translate("app:errors.x", lang=l); Conflict("m", code="app:errors.y"); translate(name)"""
    assert [k for _, k in PY_KEY.findall(py)] == ["app:errors.x", "app:errors.y"]
