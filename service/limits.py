"""Request limits of the HTTP service: a bounded body (413 with the limit), strict JSON (no NaN, Infinity,
numbers beyond a double, lone surrogates or deep nesting: 422 naming the problem), and 422 bodies that
never echo the request (pydantic's `input` left out, context values shortened)."""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

import orjson
from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Deepest nesting of arrays/objects accepted in a body (a posting is 3 deep; extra fields a few more).
MAX_DEPTH = 32
_SHOWN = 200  # characters of a context value or location shown in a 422


def _too_large(limit: int) -> str:
    return (f"request body over the limit of {limit:,} bytes (JOBDEDUP_MAX_BODY_BYTES / --max-body-bytes); "
            "send smaller batches")


class BodyLimit:
    """ASGI middleware: a body over `max_bytes` (declared by Content-Length or streamed) is answered 413
    with the limit, before it is parsed."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await JSONResponse({"detail": _too_large(self.max_bytes)}, status_code=413)(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:  # FastAPI re-raises HTTPException from body reading: a 413
                    raise HTTPException(413, _too_large(self.max_bytes))
            return message

        await self.app(scope, limited, send)


def parse_json(body: bytes) -> Any:
    """orjson's strict parse (no NaN/Infinity, no number beyond a double, valid UTF-8 without lone
    surrogates) plus a nesting bound; errors are json.JSONDecodeError (FastAPI answers 422). A body that is not
    UTF-8 (latin-1, UTF-16) says so with its first bad byte, where orjson speaks of surrogates."""
    try:
        doc = orjson.loads(body)
    except orjson.JSONDecodeError:
        try:
            bytes(body).decode("utf-8")
        except UnicodeDecodeError as bad:
            raise json.JSONDecodeError(f"the body is not UTF-8 (byte 0x{bytes(body)[bad.start]:02x} at offset "
                                       f"{bad.start}); send JSON encoded as UTF-8", "", bad.start) from None
        raise
    stack = [(doc, 1)]
    while stack:
        v, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise json.JSONDecodeError(f"nested deeper than {MAX_DEPTH} levels", "", 0)
        if isinstance(v, dict):
            stack.extend((x, depth + 1) for x in v.values() if isinstance(x, dict | list))
        elif isinstance(v, list):
            stack.extend((x, depth + 1) for x in v if isinstance(x, dict | list))
    return doc


class _StrictJSONRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = parse_json(await self.body())
        return self._json


class StrictJSONRoute(APIRoute):
    """A route whose JSON body is read with `parse_json`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(_StrictJSONRequest(request.scope, request.receive))

        return strict


def _short(v: Any) -> Any:
    if isinstance(v, int | bool) or v is None:
        return v
    s = v if isinstance(v, str) else repr(v)
    return s if len(s) <= _SHOWN else s[:_SHOWN] + "…"


def safe_errors(errors: Any) -> list[dict[str, Any]]:
    """Validation errors as JSON-safe dicts without the offending input (which may be huge, NaN or not
    encodable): type, loc, msg and a shortened ctx."""
    out = []
    for e in errors:
        item: dict[str, Any] = {"type": e.get("type"), "loc": [_short(x) for x in e.get("loc", ())],
                                "msg": _short(e.get("msg", ""))}
        if e.get("ctx"):
            item["ctx"] = {str(k): _short(v) for k, v in e["ctx"].items()}
        out.append(item)
    return out


async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    """422 naming each bad field, never echoing the request body. A body sent as another media type than JSON
    (a form, text/plain) is not read as JSON at all: the 422 says which Content-Type to send."""
    errors = safe_errors(exc.errors())
    ctype = request.headers.get("content-type", "")
    if "json" not in ctype.lower():
        for e in errors:
            if e["loc"] == ["body"] and e["type"] == "model_attributes_type":
                e["msg"] = (f"the body must be a JSON object sent with Content-Type: application/json "
                            f"(got {_short(ctype) or 'none'!r})")
    return JSONResponse({"detail": errors}, status_code=422)
