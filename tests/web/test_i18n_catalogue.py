"""The message catalogues (docs/i18n.md): every key the code uses exists in every language, every language
has the same keys per namespace with the same ``{{variables}}``, and ``translate`` follows i18next's
rules (nesting, interpolation, plurals, English fallback).

Keys used in code are found as written literals: ``t("ns:key")`` in the browser's modules,
``translate("ns:key")`` and ``code="ns:key"`` in Python, ``reason("key", ...)`` in a game's package (an engine
refusal, a key of that game's namespace), ``data-i18n="ns:key"`` (and ``data-i18n-attr``) in
pages. A key built at run time (a template with ``${...}``) cannot be checked here; its prefix must exist.

And no text for people is written outside the catalogue: the browser's modules and pages are scanned for
literals that read as prose (below, "no player-facing text outside the catalogue").
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import NamedTuple

import pytest

from robotable import games
from robotable.core import i18n

ROOT = Path(__file__).resolve().parents[2] / "robotable"
WEB = ROOT / "web"
JS_KEY = re.compile(r"""(?<![\w.$])t\(\s*(["'`])([^"'`$\\]+)\1""")
JS_PREFIX = re.compile(r"""(?<![\w.$])t\(\s*`([^`$]*)\$\{""")
PY_KEY = re.compile(r"""(?<![\w.])(?:translate\(\s*|code\s*=\s*)(["'])([a-z0-9-]+:[^"']+)\1""")
REASON_KEY = re.compile(r"""(?<![\w.])reason\(\s*(["'])([a-z0-9_]+(?:\.[a-z0-9_]+)+)\1""")
ABSOLUTE_REASON_KEY = re.compile(r"""(?<![\w.])(?:reason|Reason)\(\s*(?:text,\s*)?(["'])([a-z0-9-]+:[^"']+)\1""")
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
        for _, key in ABSOLUTE_REASON_KEY.findall(path.read_text(encoding="utf-8")):
            add(key, path)
    for game in games.available():
        package = i18n.catalogue_path("en", game).parents[2]
        for path in package.rglob("*.py"):
            for _, key in REASON_KEY.findall(path.read_text(encoding="utf-8")):
                add(f"{game}:{key}", path)
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
    py = """reason("refusals.a", "seat {seat}", seat=p); reason(\n  'refusals.b.c', "x"); x.reason("no.me")"""
    assert [k for _, k in REASON_KEY.findall(py)] == ["refusals.a", "refusals.b.c"]
    core = """reason(\n "app:errors.action.x", "t"); Reason(\n  text,\n  "app:errors.action.y", {}); reason("a.z")"""
    assert [k for _, k in ABSOLUTE_REASON_KEY.findall(core)] == ["app:errors.action.x", "app:errors.action.y"]


# -- no player-facing text outside the catalogue --------------------------------------------------------
#
# The browser's modules and pages are scanned for text a person could read that is written as a literal
# instead of coming from the catalogue. A JS string literal ('...', "...", or a template, each ${...} read
# as 0) is prose when it has a capitalised word, a word followed by a lowercase word, or Japanese script.
# Prose is still not a finding where the code shows it is not shown to people: a catalogue key, a URL or
# module, an object key or x["Property"], a literal compared with data (=== "x", case "x", "x" in y,
# .startsWith("x"): the engine's or the server's English, matched, never shown), the first argument of a
# call that takes a name (NAME_ARG: keys, attributes, selectors, tags, events, map keys), a selector, the
# value of a class property, the arguments of console.* (the console is the developer's) and the contents of
# el("code", ...) (code reads the same in every language). A page's text and its title, aria-label,
# placeholder and alt are prose unless data-i18n (or data-i18n-attr) replaces them, or in <code>/<kbd>.
# What remains is a finding, unless ALLOWED names it with the reason.

PROSE = re.compile(r"\b[A-Z][a-z]+\b|\b\w+ [a-z]{2,}\b|[\u3040-\u30ff\u3400-\u9fff]")

# Text the same in every language, wherever it stands.
SAME_IN_EVERY_LANGUAGE = {"Robotable"}  # the site's name
# Literals that are not for players, or not to be translated: (file, text as the scan reads it) -> why.
ALLOWED = {
    ("robotable/web/js/i18n.js", "English"): "the language switch names each language in itself",
    ("robotable/web/js/i18n.js", "日本語"): "the language switch names each language in itself",
    ("robotable/web/js/i18n.js", "no catalogue 0/0 (0)"): (
        "thrown when a catalogue does not load, caught in loadNamespaces and written to the console: a page "
        "without its catalogue has nothing to say it with"
    ),
    ("robotable/web/js/i18n.js", "no language 0"): (
        "setLanguage's guard: the switch offers only LANGUAGES, so only a programming error reaches it"
    ),
}

JS_LEXEME = re.compile(
    r"""(?P<space>\s+)
      | (?P<comment>//[^\n]*|/\*.*?\*/)
      | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
      | (?P<name>[A-Za-z_$][\w$]*)
      | (?P<number>\d[\w.]*)
      | (?P<punct>===|!==|==|!=|=>|&&|\|\||\?\?|\?\.|\.\.\.|[-+*%<>!=&|^~?:;,.(){}\[\]/])""",
    re.S | re.X,
)
JS_REGEX = re.compile(r"/(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n\[])+/[a-z]*")
# After these a "/" starts a regular expression; elsewhere it divides.
REGEX_AFTER = {"", "(", ",", "=", ":", "[", "!", "&&", "||", "??", "?", "{", "}", ";", "=>", "return", "typeof",
               "==", "===", "!=", "!==", "+", "-", "*", "%", "<", ">", "&", "|", "^", "~"}  # fmt: skip
OPEN, CLOSE = {"(", "[", "{", "${"}, {")", "]", "}"}
COMPARE = {"===", "!==", "==", "!=", "case"}
# Calls whose first argument names something (a key, an attribute, a selector, a tag, an event, a module,
# a map key, a compared prefix) rather than being shown.
NAME_ARG = {
    "t", "has", "levelName", "gameName", "api", "fetch", "import", "el", "svg",
    "getAttribute", "setAttribute", "removeAttribute", "hasAttribute", "toggleAttribute",
    "querySelector", "querySelectorAll", "closest", "matches", "getElementById", "createElement", "createElementNS",
    "addEventListener", "removeEventListener", "add", "remove", "toggle", "contains",
    "get", "set", "delete", "startsWith", "endsWith", "includes", "indexOf", "escape",
}  # fmt: skip
CLASS_VALUE = {"class", "className"}  # a property whose value (up to its "," or ";") is a class list
CODE_TAGS = {"code", "kbd"}


class Lexeme(NamedTuple):
    kind: str  # string, template, regex, name, number or punct ("${" opens a template's expression)
    text: str  # a string's or template's text without its quotes
    line: int


def js_lexemes(src: str) -> list[Lexeme]:
    """The tokens of a JS module without spaces and comments. A template is one ``template`` token (each
    ${...} read as ``0``) followed by the tokens of its ${...} parts, each between ``${`` and ``}``."""
    out: list[Lexeme] = []

    def line(pos: int) -> int:
        return src.count("\n", 0, pos) + 1

    def code(pos: int, inside: bool) -> int:
        """Lex from ``pos`` to the end, or (``inside`` a ${...}) to its closing brace; answer where it stopped."""
        braces = 0
        while pos < len(src):
            if src[pos] == "`":
                pos = template(pos)
                continue
            if inside and src[pos] == "}" and braces == 0:
                return pos
            last = out[-1].text if out and out[-1].kind in ("name", "punct") else ("x" if out else "")
            if src[pos] == "/" and last in REGEX_AFTER and (m := JS_REGEX.match(src, pos)):
                out.append(Lexeme("regex", m.group(), line(pos)))
                pos = m.end()
                continue
            m = JS_LEXEME.match(src, pos)
            assert m, f"cannot read the JS at line {line(pos)}: {src[pos : pos + 30]!r}"
            kind, text = m.lastgroup or "", m.group()
            if kind == "string":
                out.append(Lexeme(kind, text[1:-1], line(pos)))
            elif kind not in ("space", "comment"):
                out.append(Lexeme(kind, text, line(pos)))
                braces += (text == "{") - (text == "}")
            pos = m.end()
        return pos

    def template(start: int) -> int:
        pos, parts, inner = start + 1, [], []
        while src[pos] != "`":
            if src[pos] == "\\":
                parts.append(src[pos : pos + 2])
                pos += 2
            elif src.startswith("${", pos):
                parts.append("0")
                mark = len(out)
                out.append(Lexeme("punct", "${", line(pos)))
                pos = code(pos + 2, inside=True)
                out.append(Lexeme("punct", "}", line(pos)))
                inner.extend(out[mark:])
                del out[mark:]
                pos += 1
            else:
                parts.append(src[pos])
                pos += 1
        out.append(Lexeme("template", "".join(parts), line(start)))
        out.extend(inner)
        return pos + 1

    code(0, inside=False)
    return out


def js_prose(src: str) -> list[tuple[int, str]]:
    """The literals of a JS module that read as text for people, where nothing shows they are not."""
    tokens = js_lexemes(src)
    found = []
    depth = 0
    quiet: list[tuple[int, bool]] = []  # regions without text for people: (their depth, whether "," ends them)
    for i, tok in enumerate(tokens):
        before = [tokens[j].text if j >= 0 else "" for j in (i - 3, i - 2, i - 1)]
        after = tokens[i + 1] if i + 1 < len(tokens) else Lexeme("", "", 0)
        if tok.kind == "punct":
            depth += (tok.text in OPEN) - (tok.text in CLOSE)
            while quiet and (depth < quiet[-1][0] or (depth == quiet[-1][0] and quiet[-1][1] and tok.text in ",;")):
                quiet.pop()
            if tok.text in (":", "=") and before[2] in CLASS_VALUE:
                quiet.append((depth, True))  # class: "a b", className = x ? "a" : "b"
            elif tok.text == "(" and before[:2] == ["console", "."]:
                quiet.append((depth, False))  # console.warn(...)
            elif tok.text == "(" and before[2] == "el" and after.kind == "string" and after.text in CODE_TAGS:
                quiet.append((depth, False))  # el("code", {}, "...")
            continue
        if tok.kind not in ("string", "template") or quiet or not PROSE.search(tok.text):
            continue
        text = tok.text.strip()
        if (
            text in SAME_IN_EVERY_LANGUAGE
            or re.fullmatch(r"[\w-]+:[\w.-]*", text)  # a catalogue key
            or re.match(r"(/|\.\.?/|https?:|wss?:)", text)  # a URL or a module
            or re.match(r"[#.\[]\w", text)  # a selector
            or before[2] in ("from", "import")
            or (before[2] in ("{", ",") and after.text == ":")  # an object key
            or (before[2] == "[" and after.text == "]" and tokens[i - 2].kind == "name")  # x["Property"]
            or after.text == "in"  # "Notification" in window
            or before[2] in COMPARE
            or after.text in COMPARE
            or (before[2] == "(" and before[1] in NAME_ARG)
        ):
            continue
        found.append((tok.line, tok.text))
    return found


HTML_TEXT_ATTRS = ("title", "aria-label", "placeholder", "alt")
VOID_TAGS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class PageText(HTMLParser):
    """The text a person reads on a page (text and text attributes) that no data-i18n replaces."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[tuple[str, bool]] = []  # (tag, whether its text is replaced or not text)
        self.found: list[tuple[int, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        translated = {pair.split(":", 1)[0].strip() for pair in a.get("data-i18n-attr", "").split(";")}
        for name in HTML_TEXT_ATTRS:
            if name in a and name not in translated and PROSE.search(a[name]):
                self.found.append((self.getpos()[0], f"{name}={a[name]}"))
        if tag not in VOID_TAGS:
            quiet = "data-i18n" in a or tag in ("script", "style", *CODE_TAGS) or any(q for _, q in self.open)
            self.open.append((tag, quiet))

    def handle_endtag(self, tag: str) -> None:
        while self.open and self.open.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if PROSE.search(text) and text not in SAME_IN_EVERY_LANGUAGE and not any(q for _, q in self.open):
            self.found.append((self.getpos()[0], text))


def html_prose(src: str) -> list[tuple[int, str]]:
    parser = PageText()
    parser.feed(src)
    parser.close()
    return parser.found


def text_findings() -> dict[tuple[str, str], list[int]]:
    """Every literal text of the browser's modules and pages (every page: the rules pages too), with its lines."""
    found: dict[tuple[str, str], list[int]] = {}
    pages = list(WEB.rglob("*.html"))
    for path, scan in [*((p, js_prose) for p in js_files()), *((p, html_prose) for p in pages)]:
        for line, text in scan(path.read_text(encoding="utf-8")):
            found.setdefault((str(path.relative_to(ROOT.parent)), text), []).append(line)
    return found


def test_no_player_facing_text_outside_the_catalogue() -> None:
    found = text_findings()
    outside = [f"{path}:{found[path, text][0]}: {text!r}" for path, text in sorted(set(found) - set(ALLOWED))]
    assert outside == [], "text written outside the catalogue (docs/i18n.md, 'Checking for text outside it')"


def test_the_allowed_texts_are_still_there_and_the_rules_pages_use_the_catalogue() -> None:
    found = text_findings()
    assert sorted(set(ALLOWED) - set(found)) == [], "ALLOWED names texts that are gone: remove them"
    # the rules pages are checked like every page: each takes its texts from its game's namespace
    for game in games.available():
        page = WEB / "games" / f"{game}-rules.html"
        assert f'data-i18n="{game}:' in page.read_text(encoding="utf-8"), f"{page.name} is not translated"


def test_the_text_scan_finds_planted_text() -> None:
    """The scan sees text written in the ways it can be (so a literal cannot hide from it), and not code."""
    js = """
        import { t } from "/static/js/i18n.js"; // Not this comment
        el("p", { class: "muted small", title: "Planted title" }, "Planted text", t("app:common.Close"));
        const msg = `${n} planted ${what}`, ja = "日本語の文", inner = `${ok ? "Planted inner" : ""}`;
        /* Nor this one */ if (reason === "score victory" || p.startsWith("no torso")) node.querySelector(".a b");
        console.warn("a developer note", `no sound ${x}`); throw new Error("Planted error");
        el("code", {}, "Authorization: Bearer <token>"); const re = /^(Player|Bot) (\\d)$/; headers["X-Token"] = 1;
        node.className = cond ? "tag warn" : "tag bot"; const half = a / b, other = c / d; label("Planted after");
    """
    assert [text for _, text in js_prose(js)] == [
        "Planted title", "Planted text", "0 planted 0", "日本語の文", "Planted inner", "Planted error", "Planted after",
    ]  # fmt: skip
    html = """<title data-i18n="app:title.lobby">Robotable: lobby</title><a class="brand">Robotable</a>
        <p>Planted page text <code>robotable play</code></p>
        <button title="Planted tip" aria-label="Planted label" data-i18n-attr="aria-label:app:x" data-i18n="app:y">
        Replaced <b>text</b></button><script>let s = "Not text";</script>"""
    assert [text for _, text in html_prose(html)] == ["Planted page text", "title=Planted tip"]
