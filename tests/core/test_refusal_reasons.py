"""Engine refusals say themselves for the catalogue (``robotable.core.errors.Reason``): every ``reason(...)``
in a game (and the core's ``app:`` ones) has its key in the English and Japanese catalogues with variables
from its params, the English catalogue text is the engine's template unless ``FOR_PEOPLE`` says why people
read it otherwise, and in played games every coded reason the engines give renders from the catalogue, with
its params as people read them (``person_params``: seats and places from 1, parts, colours, buyers by their
catalogue names), to the engine's own English when nothing in it is converted."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from robotable import games
from robotable.core import Reason, i18n, load
from robotable.core.errors import is_from_zero, person_params

FIELD = re.compile(r"\{(\w+)\}")
CORE = Path(__file__).resolve().parents[2] / "robotable" / "core"

#: Refusals whose English for people differs from the engine's template (which records keep), and why.
FOR_PEOPLE: dict[str, str] = {
    "refusals.slot_out_of_range": "slots labelled as the table labels them (A1 to B3)",
    "refusals.nothing_to_reset": "the robot named by its colour",
    "refusals.junk.no_such_pile": "junk piles counted from 1",
    "refusals.line.no_such_space": "lines counted from 1",
    "refusals.line.no_such_switch_pair": "lines and sections counted from 1, named",
    "refusals.line.no_such_switch": "lines and sections named",
    "refusals.line.switch_already_on": "the switch named as the table names it",
    "refusals.line.switch_already_off": "the switch named as the table names it",
    "refusals.line.one_switch_at_a_time": "no action id in the text",
    "refusals.trade.tile_twice": "the side of the offer named, not its field",
    "refusals.legal": "no action JSON in the text",
    "refusals.not_an_action": "no action JSON in the text",
    "refusals.malformed_action": "no action id in the text",
    "refusals.malformed.space": "lines counted from 1",
    "refusals.malformed.pile": "junk piles counted from 1",
    "refusals.malformed.switches": "lines and sections counted from 1",
    "refusals.malformed.switch": "lines and sections counted from 1",
    "refusals.malformed.buyer": "no list of buyer ids",
    "refusals.malformed.layout_numbers": "a layout entry, not a JSON index",
    "refusals.malformed.layout_tile": "a layout entry, not a JSON index",
    "refusals.malformed.rotation": "a layout entry, not a JSON index",
    "refusals.not_legal_now": "no action JSON in the text",
    "refusals.zap_pending": "no action id in the text",
    "refusals.blob_pending": "no action id in the text",
    "refusals.crystal_pending": "no action id in the text",
    "refusals.double_modification_not_placed": "no action id in the text",
    "refusals.breaks_loading_rules": "the action named, no ship JSON",
    "refusals.workbench.not_object": "no braces (they would read as a catalogue variable)",
    "refusals.workbench.layout_entry": "a layout entry, not a JSON index",
    "refusals.workbench.seat": "seats counted from 1",
    "refusals.options.advanced_and_teams": "the options named by their labels, not their ids",
    "app:errors.options.not_a_choice": "no list of choice ids",
    "app:errors.action.bad_seat": "seats counted from 1",
    "app:errors.action.not_legal_now": "no action JSON in the text",
    "app:errors.action.bad_field": "the field named, not the whole path",
}


def reason_calls(package: Path) -> list[tuple[str, str, set[str], str]]:
    """Every ``reason("key", "template", **params)`` under ``package``: (key, template, params, where)."""
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "reason":
                key, template = (a.value for a in node.args)  # both written as literals
                where = f"{path.name}:{node.lineno}"
                found.append((key, template, {k.arg for k in node.keywords if k.arg}, where))
    return found


def check_calls(namespace: str, calls: list[tuple[str, str, set[str], str]]) -> set[str]:
    """Assert each call's key, variables and English; the keys met."""
    assert calls, f"{namespace}: no reason() found: the scan is broken"
    keys = set()
    for key, template, params, where in calls:
        assert set(FIELD.findall(template)) == params, where
        full = key if ":" in key else f"{namespace}:{key}"
        keys.add(key)
        english = i18n.lookup(full, "en")
        assert english is not None, f"{where}: no en {full}"
        engine = FIELD.sub(r"{{\1}}", template)
        if key in FOR_PEOPLE:
            assert english != engine, f"{where}: en {key} is the engine's template: take it out of FOR_PEOPLE"
        else:
            assert english == engine, f"{where}: en {key} is not the engine's template (else say why in FOR_PEOPLE)"
        for lang in i18n.languages():
            text = i18n.lookup(full, lang)
            assert text is not None and i18n.variables(text) <= params, f"{where}: {lang} {key}"
            assert i18n.variables(text) == i18n.variables(english), f"{where}: {lang} {key}"
    return keys


@pytest.mark.parametrize("game", games.available())
def test_every_reason_has_its_key_in_both_languages_with_its_template(game: str) -> None:
    package = i18n.catalogue_path("en", game).parents[2]
    check_calls(game, reason_calls(package))


def test_the_cores_reasons_are_in_the_app_catalogue() -> None:
    calls = [c for c in reason_calls(CORE) if c[0].startswith("app:")]
    assert {c[0] for c in calls} >= {"app:errors.action.unknown_type", "app:errors.action.bad_seat"}
    check_calls("app", calls)


def test_for_people_names_only_reasons_that_exist() -> None:
    keys = set()
    for game in games.available():
        keys |= {c[0] for c in reason_calls(i18n.catalogue_path("en", game).parents[2])}
    keys |= {c[0] for c in reason_calls(CORE)}
    keys.add("app:errors.action.bad_field")  # built as a Reason (its English is the decoder's)
    assert sorted(set(FOR_PEOPLE) - keys) == []


def messages(value: object) -> list[dict]:
    """The messages a param is sent as (``person_params``): one ``{key, params, text}`` or a list of them."""
    if isinstance(value, dict) and "key" in value:
        return [value]
    if isinstance(value, list) and all(isinstance(v, dict) for v in value):
        return value
    return []


@pytest.mark.parametrize("game", games.available())
def test_coded_reasons_in_play_render_for_people(game: str) -> None:
    """Random games; at each step the acting seat is asked about actions seen legal somewhere, not legal now.
    Each coded refusal renders in every language with nothing left unfilled; one with nothing converted
    reads exactly the engine's English; a place or seat arrives counted from 1 and a named component reads
    as its catalogue name, never as its id."""
    g = load(game)
    seen_codes: set[str] = set()
    seen_names = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = g.start(2 if game != "robots-on-the-line" else 3, seed=seed)
        pool: dict[str, object] = {}
        for _ in range(150):
            if state.is_over():
                break
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            for a in legal:
                pool.setdefault(repr(a), a)
            for a in rng.sample(list(pool.values()), min(12, len(pool))):
                if state.is_legal(seat, a):
                    continue
                why = state.why_illegal(seat, a)
                assert isinstance(why, Reason) and why.code, f"{game}: an uncoded refusal {why!r}"
                seen_codes.add(why.code)
                people = person_params(why.params, game)
                key = why.code if ":" in why.code else f"{game}:{why.code}"
                texts = {lang: i18n.translate(key, lang=lang, **people) for lang in i18n.languages()}
                for lang, text in texts.items():
                    assert "{{" not in text and text != key, (lang, text)
                converted = False
                for name, value in why.params.items():
                    if is_from_zero(name) and type(value) is int:
                        assert people[name] == value + 1, (why.code, name)
                        converted = True
                    for m in messages(people[name]):
                        converted = True
                        seen_names += 1
                        for lang, text in texts.items():
                            assert i18n.lookup(m["key"], lang) is not None, (why.code, lang, m)
                            shown = i18n.translate(m["key"], lang=lang, **m["params"])
                            assert shown in text, (why.code, lang, m, text)
                if not converted and why.code not in FOR_PEOPLE:
                    assert texts["en"] == str(why), why.code
            state.apply(seat, rng.choice(legal))
    assert seen_codes, f"{game}: no coded refusal met in play"
    assert seen_names, f"{game}: no refusal naming a component met in play"
