"""One version everywhere: the package, its metadata in pyproject.toml and the HTTP API's schema."""

from __future__ import annotations

import tomllib
from pathlib import Path

import robotable
from robotable.server.app import create_app

ROOT = Path(__file__).resolve().parent.parent


def test_the_package_says_the_version_pyproject_gives() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert robotable.__version__ == project["version"]


def test_the_api_schema_says_the_package_version(tmp_path: Path) -> None:
    app = create_app(database=f"sqlite:///{tmp_path / 'v.db'}")
    assert app.openapi()["info"]["version"] == robotable.__version__
