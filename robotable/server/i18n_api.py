"""The message catalogues for the browser: ``GET /api/i18n`` (languages and namespaces) and
``GET /api/i18n/{lang}/{namespace}`` (one i18next JSON file). See docs/i18n.md.

Namespaces are ``app`` (the site shell) and every registered game's id. The answers are public,
cached an hour with an ETag (a changed file gets a new one; ``If-None-Match`` answers 304).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request, Response

from robotable.core import i18n

from .errors import NotFound
from .schemas import ErrorOut

router = APIRouter(tags=["i18n"])
ERRORS: dict[int | str, dict[str, Any]] = {404: {"model": ErrorOut}}
#: How long a browser may keep a catalogue without asking again (seconds).
MAX_AGE = 3600


@router.get("/api/i18n")
def list_catalogues() -> dict[str, list[str]]:
    """The languages and namespaces there are catalogues for."""
    return {"languages": i18n.languages(), "namespaces": i18n.namespaces()}


@lru_cache(maxsize=64)
def _read(path: Path, mtime: float) -> tuple[bytes, str]:
    body = path.read_bytes()
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


@router.get("/api/i18n/{lang}/{namespace}", responses=ERRORS)
def get_catalogue(request: Request, lang: str, namespace: str) -> Response:
    """The catalogue of ``namespace`` (``app`` or a game id) in ``lang`` (i18next JSON v4)."""
    try:
        path = i18n.catalogue_path(lang, namespace)
    except i18n.UnknownCatalogue as exc:
        raise NotFound(str(exc)) from None
    if not path.is_file():
        raise NotFound(f"{namespace} has no catalogue in {lang!r} yet")
    body, etag = _read(path, path.stat().st_mtime)
    headers = {"Cache-Control": f"public, max-age={MAX_AGE}", "ETag": etag, "Vary": "Accept-Encoding"}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)
