"""The schema: every SQL table of the server is in robotable/server/storage/schema.py, and every Storage
creates all of them (SQLite and PostgreSQL in a schema of its own), older tables included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import sqlalchemy as sa

import robotable.server
from robotable.server.storage import Storage, metadata, reviews

SERVER = Path(robotable.server.__file__).parent
SCHEMA = SERVER / "storage" / "schema.py"


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path, pg_schema: str, pg_url: str) -> tuple[str, str | None]:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'schema.db'}", None
    return pg_url, pg_schema


def test_every_sql_table_of_the_server_is_defined_in_the_schema() -> None:
    elsewhere = []
    for path in sorted(SERVER.rglob("*.py")):
        if path == SCHEMA:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
                if name in ("Table", "MetaData"):
                    elsewhere.append(f"{path.relative_to(SERVER)}:{node.lineno} {name}(...)")
    assert elsewhere == [], "define SQL tables in robotable/server/storage/schema.py (its one metadata) and import them"
    assert {"robotable_tables", "robotable_accounts", "robotable_clocks", "robotable_bot_turns", "reviews"} <= set(
        metadata.tables
    )


def test_a_storage_creates_every_table_of_the_schema(database: tuple[str, str | None]) -> None:
    url, schema = database
    store = Storage(url, schema=schema)
    try:
        with store.engine.connect() as conn:
            inspector = sa.inspect(conn)
            assert set(inspector.get_table_names(schema=schema)) >= set(metadata.tables)
            for table in metadata.sorted_tables:
                present = {c["name"] for c in inspector.get_columns(table.name, schema=schema)}
                assert present == {c.name for c in table.columns}, table.name
    finally:
        store.close()


def test_an_older_reviews_table_gets_its_new_columns_when_a_storage_starts(database: tuple[str, str | None]) -> None:
    url, schema = database
    new = {"worker", "owner", "record"}
    old = sa.MetaData(schema=schema)
    sa.Table(reviews.name, old, *[c._copy() for c in reviews.columns if c.name not in new])
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        if schema:
            conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
        old.create_all(conn)
        conn.execute(
            sa.insert(old.tables[f"{schema}.reviews" if schema else "reviews"]).values(
                table_id="t1", status="done", done=3, total=3, budget={}, updated_at=sa.func.now()
            )
        )
    engine.dispose()
    store = Storage(url, schema=schema)
    try:
        with store.engine.connect() as conn:
            assert new <= {c["name"] for c in sa.inspect(conn).get_columns(reviews.name, schema=schema)}
            row = conn.execute(sa.select(reviews).where(reviews.c.table_id == "t1")).mappings().one()
            assert (row["status"], row["done"], row["worker"], row["record"]) == ("done", 3, None, None)
    finally:
        store.close()
