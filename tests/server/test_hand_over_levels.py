"""Issue 27: "Hand to a bot" offers the levels. The others choose the bot's level; by default it is the
strongest that keeps the table moving at its clock; the note on the table names it; a level the server
does not know is refused with a clear error. On SQLite and PostgreSQL, the server's time injected."""

from __future__ import annotations

import pytest
from people import bearer
from test_server_clocks import clocked, summary  # noqa: F401  (the fixture)

from robotable.server.bots import hand_over_level

HUMAN = {"kind": "human"}


@pytest.mark.parametrize(
    ("control", "level"),
    [
        ({"kind": "turn", "days": 1}, "ismcts:hard"),
        ({"kind": "live", "base": 300, "increment": 20}, "ismcts:hard"),
        ({"kind": "live", "base": 120, "increment": 2}, "ismcts:medium"),
        ({"kind": "live", "base": 30, "increment": 0}, "heuristic"),
    ],
)
def test_the_default_level_is_the_strongest_the_clock_allows(control, level) -> None:
    assert hand_over_level(control) == level


def test_the_others_choose_the_level_and_the_note_names_it(clocked, server_clock, create_table) -> None:  # noqa: F811
    client = clocked(grace=1.0)
    made = create_table(client, [HUMAN, HUMAN, HUMAN], time_control={"kind": "live", "base": 300, "increment": 20})
    table, tokens = made["table"]["id"], made["tokens"]
    assert summary(client, table)["clock"]["hand_over_level"] == "ismcts:hard"
    server_clock.advance(400)  # both others' clocks and graces have run out
    url = f"/api/tables/{table}/seats/{{}}/bot"
    bad = client.post(url.format(1), json={"difficulty": "grandmaster"}, headers=bearer(tokens[0]))
    assert bad.status_code in (400, 422), bad.text
    assert "difficulty" in bad.json()["detail"], bad.text
    assert not summary(client, table)["seats"][1]["handed_to_bot"]
    chosen = client.post(url.format(1), json={"difficulty": "ismcts:easy"}, headers=bearer(tokens[0]))
    assert chosen.status_code == 200, chosen.text
    default = client.post(url.format(2), json={}, headers=bearer(tokens[0]))
    assert default.status_code == 200, default.text
    table_now = summary(client, table)
    assert [s["difficulty"] for s in table_now["seats"]] == [None, "ismcts:easy", "ismcts:hard"]
    notes = [n["detail"] for n in table_now["clock"]["notes"] if n["kind"] == "handed_to_bot"]
    assert any("ismcts:easy" in n for n in notes) and any("ismcts:hard" in n for n in notes), notes
