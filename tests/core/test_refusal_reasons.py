"""Engine refusals say themselves for the catalogue (``robotable.core.errors.Reason``): every ``reason(...)``
in a game has its key in that game's English and Japanese catalogues with the same variables, the English
catalogue text is the engine's template (so the web reads what the engine prints, seats from 1), and in
played games every coded reason the engines give renders from the catalogue to exactly its own English."""

from __future__ import annotations

import ast
import random
import re

import pytest

from robotable import games
from robotable.core import Reason, i18n, load

FIELD = re.compile(r"\{(\w+)\}")


def reason_calls(game: str) -> list[tuple[str, str, set[str], str]]:
    """Every ``reason("key", "template", **params)`` in the game's package: (key, template, params, where)."""
    package = i18n.catalogue_path("en", game).parents[2]
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "reason":
                key, template = (a.value for a in node.args)  # both written as literals
                where = f"{path.name}:{node.lineno}"
                found.append((key, template, {k.arg for k in node.keywords if k.arg}, where))
    return found


@pytest.mark.parametrize("game", games.available())
def test_every_reason_has_its_key_in_both_languages_with_its_template(game: str) -> None:
    calls = reason_calls(game)
    assert calls, f"{game}: no reason() found: the scan is broken"
    for key, template, params, where in calls:
        assert set(FIELD.findall(template)) == params, where
        english = i18n.lookup(f"{game}:{key}", "en")
        assert english == FIELD.sub(r"{{\1}}", template), f"{where}: en {key} is not the engine's template"
        for lang in i18n.languages():
            text = i18n.lookup(f"{game}:{key}", lang)
            assert text is not None and i18n.variables(text) == params, f"{where}: {lang} {key}"


@pytest.mark.parametrize("game", games.available())
def test_coded_reasons_in_play_render_to_the_engines_english(game: str) -> None:
    """Random games; at each step the acting seat is asked about actions seen legal somewhere, not legal now."""
    g = load(game)
    seen_codes: set[str] = set()
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
                if not isinstance(why, Reason) or why.code is None:
                    continue
                seen_codes.add(why.code)
                raw = {k: v if isinstance(v, str | int) else str(v) for k, v in why.params.items()}
                assert i18n.translate(f"{game}:{why.code}", lang="en", **raw) == str(why)
                assert "{{" not in i18n.translate(f"{game}:{why.code}", lang="ja", **raw)
            state.apply(seat, rng.choice(legal))
    assert seen_codes, f"{game}: no coded refusal met in play"
