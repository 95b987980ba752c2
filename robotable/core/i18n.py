"""The message catalogue in Python: ``translate("app:errors.not_your_seat", lang="ja", seat=2)``.

The same i18next JSON v4 files the browser reads (docs/i18n.md): namespace ``app`` is
``robotable/web/i18n/<lang>/app.json``; a game's namespace is its id, in ``<Game.data_folder()>/i18n/<lang>.json``.
Keys are nested objects or dotted names, ``{{name}}`` is replaced by the parameter ``name``, and a
``count`` parameter picks ``key_one`` / ``key_other`` by the language's plural rule (Japanese has only
``_other``). A key missing in a language falls back to English, then to the key itself. Standard library
only (the terminal and the engines' tests use it without the server).

>>> translate("app:lang.name", lang="ja")
'日本語'
>>> translate("app:seat.count", lang="en", count=1)
'1 seat'
>>> translate("app:seat.count", lang="en", count=3)
'3 seats'
>>> translate("app:" + "no.such.key")
'app:no.such.key'
"""

from __future__ import annotations

import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

#: The shell's catalogue folder: one sub-folder per language.
WEB_I18N = Path(__file__).resolve().parent.parent / "web" / "i18n"
#: The language everything falls back to.
DEFAULT = "en"
#: The namespace of a key without ``namespace:``.
DEFAULT_NS = "app"
#: The plural suffixes i18next uses (Intl.PluralRules categories).
PLURAL_SUFFIXES = ("_zero", "_one", "_two", "_few", "_many", "_other")
NAMESPACE = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
LANGUAGE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$")
VARIABLE = re.compile(r"\{\{\s*([A-Za-z0-9_.]+)\s*\}\}")


class UnknownCatalogue(LookupError):
    """No such language or namespace (the message names what exists)."""


def languages() -> list[str]:
    """The languages with a catalogue (the folders of ``robotable/web/i18n``), English first."""
    return list(_languages())


@lru_cache(maxsize=1)
def _languages() -> tuple[str, ...]:
    """The catalogue folders, read once a process: they ship with the package (a catalogue's text is still
    reread when its file changes, see :func:`catalogue`)."""
    found = sorted(p.name for p in WEB_I18N.iterdir() if p.is_dir() and (p / "app.json").is_file())
    return tuple(sorted(found, key=lambda code: code != DEFAULT))


def namespaces() -> list[str]:
    """``app`` and every registered game's id (each game's catalogue is its namespace)."""
    from robotable import games  # the registry (imported here: core knows no game)

    return [DEFAULT_NS, *games.available()]


def catalogue_path(lang: str, namespace: str) -> Path:
    """The file of ``namespace`` in ``lang`` (raises :class:`UnknownCatalogue` naming what exists)."""
    return _catalogue_path(lang, namespace)


@lru_cache(maxsize=256)
def _catalogue_path(lang: str, namespace: str) -> Path:
    """:func:`catalogue_path`, worked out once a process for each pair (an unknown pair raises each time:
    ``lru_cache`` keeps no exception)."""
    have = languages()
    if not LANGUAGE.match(lang or "") or lang not in have:
        raise UnknownCatalogue(f"no language {lang!r} (one of: {', '.join(have)})")
    if namespace == DEFAULT_NS:
        return WEB_I18N / lang / "app.json"
    from robotable import games
    from robotable.core.errors import RobotableError

    if not NAMESPACE.match(namespace or "") or namespace not in games.available():
        raise UnknownCatalogue(f"no namespace {namespace!r} (one of: {', '.join(namespaces())})")
    try:
        folder = games.load(namespace).data_folder()
    except RobotableError as exc:
        raise UnknownCatalogue(f"no namespace {namespace!r}: {exc}") from None
    if folder is None:
        raise UnknownCatalogue(f"{namespace} has no data folder, so no catalogue")
    return folder / "i18n" / f"{lang}.json"


@lru_cache(maxsize=64)
def _load(path: Path, mtime: float) -> dict[str, str]:
    return flatten(json.loads(path.read_text(encoding="utf-8")))


def catalogue(lang: str, namespace: str) -> dict[str, str]:
    """Every message of ``namespace`` in ``lang`` as ``{dotted key: text}`` (empty if the file is missing)."""
    path = catalogue_path(lang, namespace)
    if not path.is_file():
        return {}
    return _load(path, path.stat().st_mtime)


def flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, str]:
    """Nested catalogue objects as dotted keys: ``{"a": {"b": "x"}}`` is ``{"a.b": "x"}``."""
    flat: dict[str, str] = {}
    for key, value in tree.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(flatten(value, f"{name}."))
        else:
            flat[name] = str(value)
    return flat


def plural_category(lang: str, count: Any) -> str:
    """The plural form for ``count``: ``one`` or ``other`` in English (and such languages), always
    ``other`` in Japanese, Chinese and Korean (as ``Intl.PluralRules`` says)."""
    base = lang.split("-")[0]
    if base in ("ja", "zh", "ko", "th", "vi", "id"):
        return "other"
    if base == "fr":
        return "one" if count in (0, 1) else "other"
    return "one" if count == 1 else "other"


def split_key(key: str) -> tuple[str, str]:
    """``"ns:a.b"`` is ``("ns", "a.b")``; a key without a namespace is in ``app``."""
    namespace, sep, rest = key.partition(":")
    return (namespace, rest) if sep else (DEFAULT_NS, key)


def lookup(key: str, lang: str) -> str | None:
    """The raw text of ``key`` in ``lang`` (no fallback), or ``None``."""
    namespace, path = split_key(key)
    try:
        return catalogue(lang, namespace).get(path)
    except UnknownCatalogue:
        return None


def translate(key: str, lang: str | None = None, **params: Any) -> str:
    """The message ``key`` (``"namespace:dotted.key"``) in ``lang`` with ``{{params}}`` filled in.

    ``count`` chooses the plural form (``key_one`` / ``key_other``); an unknown language is English; a key
    missing in ``lang`` comes from English, and a key missing there too is returned as is. A param that is
    a message (``{"key": ..., "params": {...}}``, as the server sends a refusal's names) or a list of them
    is shown translated, as the browser's ``errorText`` shows it.
    """
    lang = lang if lang in _languages() else DEFAULT
    text = None
    for language in dict.fromkeys((lang, DEFAULT)):
        if "count" in params:
            text = lookup(f"{key}_{plural_category(language, params['count'])}", language)
            text = text if text is not None else lookup(f"{key}_other", language)
        if text is None:
            text = lookup(key, language)
        if text is not None:
            break
    if text is None:
        return key
    shown = {name: _shown(value, lang) for name, value in params.items()}
    return VARIABLE.sub(lambda m: shown[m.group(1)] if m.group(1) in shown else m.group(0), text)


def _shown(value: Any, lang: str) -> str:
    """A param as the text shows it: a message ``{"key", "params"}`` (``core.errors.person_params``) in
    ``lang`` (its ``text`` if the catalogue has no such key), a list of them joined by ``app:list.separator``."""
    if isinstance(value, dict) and isinstance(value.get("key"), str):
        if lookup(value["key"], lang) is None and lookup(value["key"], DEFAULT) is None and "text" in value:
            return str(value["text"])
        return translate(value["key"], lang, **(value.get("params") or {}))
    if isinstance(value, list) and all(isinstance(v, dict) for v in value):
        return translate("app:list.separator", lang).join(_shown(v, lang) for v in value)
    return str(value)


def variables(text: str) -> set[str]:
    """The ``{{names}}`` a message uses."""
    return set(VARIABLE.findall(text))


def base_key(key: str) -> str:
    """A key without its plural suffix (``turns_one`` is ``turns``)."""
    for suffix in PLURAL_SUFFIXES:
        if key.endswith(suffix):
            return key[: -len(suffix)]
    return key


def best_language(accept_language: str | None) -> str:
    """The catalogue language an ``Accept-Language`` header prefers most (English when none matches).

    >>> best_language("ja-JP,ja;q=0.9,en;q=0.8")
    'ja'
    >>> best_language("de-DE")
    'en'
    """
    have = languages()
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        tag, _, q = part.strip().partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            weight = 0.0
        ranked.append((-weight, i, tag.strip().split("-")[0].lower()))
    for _, _, tag in sorted(ranked):
        if tag in have:
            return tag
    return DEFAULT


def environment_language(lang: str | None = None) -> str:
    """A program's language (the terminal's): ``lang``, else ``ROBOTABLE_LANG``, else the locale's
    (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English; each read as its language code.

    >>> environment_language("ja_JP.UTF-8")
    'ja'
    """
    for wanted in (
        lang,
        os.environ.get("ROBOTABLE_LANG"),
        *(os.environ.get(v) for v in ("LC_ALL", "LC_MESSAGES", "LANG")),
    ):
        code = (wanted or "").split(".")[0].split("_")[0].split("-")[0].lower()
        if code in languages():
            return code
    return DEFAULT
