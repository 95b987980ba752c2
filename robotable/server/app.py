"""Placeholder web app: says what is coming and lists the games; the real lobby lands later."""

from __future__ import annotations

from typing import Any

from robotable import games

PLACEHOLDER = """<!doctype html><html><head><meta charset="utf-8"><title>Robotable</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>Robotable</h1>
<p><strong>This is a placeholder.</strong> The browser lobby and tables are not built yet; until they
land, play in the terminal: <code>robotable play tf22-reload --players 3 --seats human,random,random</code>.</p>
<p>Games: {games}</p>
</body></html>"""


def create_app(database: str | None = None) -> Any:
    """The FastAPI application."""
    from fastapi import FastAPI
    from fastapi.responses import HTMLResponse

    app = FastAPI(title="Robotable")

    @app.get("/", response_class=HTMLResponse)
    def index() -> str:
        names = ", ".join(games.load(g).name for g in games.available())
        return PLACEHOLDER.format(games=names)

    @app.get("/api/games")
    def list_games() -> list[dict[str, Any]]:
        return [games.load(g).describe() for g in games.available()]

    return app


def run(host: str = "127.0.0.1", port: int = 8000, database: str | None = None) -> None:
    """Serve the app with uvicorn."""
    import uvicorn

    print(f"Robotable (placeholder web app) on http://{host}:{port}")
    uvicorn.run(create_app(database), host=host, port=port)
