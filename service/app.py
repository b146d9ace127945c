"""The HTTP service (FastAPI): ingest with dedup, duplicates of a posting, signatures, health, metrics.

Run it with `jobdedup serve --solr URL`; the OpenAPI description is at /docs and /openapi.json.
Errors: a malformed body (also NaN, Infinity, lone surrogates, nesting deeper than 32), a missing id or a
wrong type -> 422 naming the field, never echoing the body; a body over the size limit -> 413; a posting
over the text cap or with a value Solr would wrap -> status "rejected" with the reason (/v1/signatures:
a text over the cap is a 422); work over the CPU budget -> 422; all workers busy or Solr down or slow -> 503 with Retry-After
(nothing written). Features, extraction and signatures run in worker processes (service.cpu), so the
event loop keeps answering /health while a batch is processed.
The collection's boilerplate model is loaded from `state_dir` at start, learned while postings are
ingested, saved periodically and at shutdown (see service.state).
"""

from __future__ import annotations

import contextlib
import hmac
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

from anyio import CapacityLimiter, to_thread
from fastapi import FastAPI, Path, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi_offline import FastAPIOffline
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from service import limits
from service.cpu import Busy, CpuPool, OverBudget
from service.errors import SolrUnavailable
from service.gctune import long_lived_heap
from service.ingest import STATE_FL, Ingestor, prepare_batch, signatures_of, text_cap_reason
from service.settings import settings
from service.solr import Solr, SolrError
from service.state import BoilerplateState
from signatures import SIG_VERSION

MAX_BATCH = 1000
MAX_MEMBERS = 1000  # group members GET .../duplicates lists (the first by id; `truncated` says when there are more)
RETRY_AFTER_S = 5
#: Threads that POST /v1/postings may occupy at once (its Solr reads, extraction and the locked decide + write);
#: more batches wait for one without holding a thread: a slow Solr with many writers waiting on the ingest lock
#: filled the shared thread pool (40), and /health, /metrics and GET .../duplicates waited behind them.
WRITE_THREADS = 4


class PostingIn(BaseModel):
    """A job posting. `id` is required; unknown fields are kept (stored with the posting)."""

    model_config = ConfigDict(extra="allow", json_schema_extra={
        "example": {"id": "acme-42", "title": "Backend Engineer", "company": "Acme Inc.", "location": "Berlin",
                    "description": "We are looking for ...", "url": "https://acme.example/jobs/42",
                    "first_seen": "2026-01-02", "last_seen": "2026-01-05"}})

    id: StrictStr = Field(min_length=1, max_length=512, description="Unique posting id (the crawler's or client's).")
    title: StrictStr | None = None
    company: StrictStr | None = None
    location: StrictStr | None = None
    description: StrictStr | None = Field(None, description="Plain text, markdown or HTML.")
    url: StrictStr | None = None
    posted_at: StrictStr | None = Field(None, description="Kept as the source wrote it (any format); an ISO-8601 "
                                        "date or date-time stands in for a missing first_seen.")
    first_seen: StrictStr | None = Field(None, description="ISO-8601 date or date-time (UTC if no zone).")
    last_seen: StrictStr | None = Field(None, description="ISO-8601 date or date-time (UTC if no zone).")
    seen_count: StrictInt | None = Field(None, ge=1, le=2**31 - 1, description="Solr int: at most 2147483647.")
    lang: StrictStr | None = None
    source: StrictStr | None = None


class PostingsIn(BaseModel):
    """A batch of postings to deduplicate and index."""

    postings: list[PostingIn] = Field(min_length=1, max_length=MAX_BATCH)


class PostingResult(BaseModel):
    id: str
    status: str = Field(description="new | duplicate | updated | rejected")
    dup_group: str | None = None
    duplicate_of: str | None = None
    score: float | None = Field(None, description="Confidence of the grouping: the verifier's probability "
                                "for a verified pair, 1.0 for exact evidence, else the estimated Jaccard.")
    reason: str | None = Field(None, description="Why a posting was rejected.")
    why: list[str] = Field(default_factory=list, description=(
        "Why the posting was grouped: evidence names (exact_content, same_url, profile_sig, minhash, "
        "same_company_title, verifier), jaccard~x, and for verified pairs the verifier's reasons "
        "(p=..., strongest feature contributions such as job_text_jaccard=0.82(+0.6), other_location(-1.2))."))
    matched: str | None = Field(None, description="The posting whose evidence put this one in its group.")


class PostingsOut(BaseModel):
    results: list[PostingResult]


class GroupMember(BaseModel):
    """Another posting of the group, with why it is there."""

    model_config = ConfigDict(extra="allow")

    id: str
    duplicate_of: str | None = None
    score: float | None = None
    why: list[str] = Field(default_factory=list)
    matched: str | None = None


class DuplicatesOut(BaseModel):
    """A posting's group: why the posting is in it and the other postings in it."""

    id: str
    dup_group: str
    duplicate_of: str | None = None
    score: float | None = None
    why: list[str] = Field(default_factory=list)
    matched: str | None = None
    duplicates: list[GroupMember] = Field(description=f"The other postings of the group, by id: the first {MAX_MEMBERS:,}.")
    duplicates_total: int = Field(description="How many other postings the group has (all of them).")
    truncated: bool = Field(description="True when `duplicates` lists fewer than `duplicates_total` (a group over "
                            f"{MAX_MEMBERS:,} postings); query Solr with fq=dup_group:<group> for all of them.")


class SignaturesIn(BaseModel):
    postings: list[PostingIn] = Field(min_length=1, max_length=MAX_BATCH)


class ErrorOut(BaseModel):
    """An error answer: what went wrong and what to do."""

    detail: str


#: The error answers of the routes, for the OpenAPI document (422 for bad input is FastAPI's own).
_UNAVAILABLE = {503: {"model": ErrorOut, "description": "Solr is down or timed out: nothing was written; "
                      "retry after the `Retry-After` seconds"}}
_SOLR_ERRORS = {**_UNAVAILABLE, 502: {"model": ErrorOut, "description": "Solr refused the request "
                                      "(e.g. a configset without jobdedup's fields)"}}


class _IngestCollector:
    """Prometheus view of the Ingestor's counters and of the boilerplate model, read at scrape time."""

    def __init__(self, ingestor: Ingestor) -> None:
        self.ingestor = ingestor

    def collect(self) -> Iterator[Any]:
        st = self.ingestor.stats
        for name, key, doc in (
            ("jobdedup_verifier_pairs", "verifier_pairs", "Candidate pairs decided by the verifier"),
            ("jobdedup_resent_unchanged", "resent_unchanged",
             "Postings re-sent with unchanged content: group kept, not re-verified"),
            ("jobdedup_extracted", "extracted", "Postings run through content extraction"),
            ("jobdedup_boilerplate_learned", "boilerplate_added",
             "Written postings given to the boilerplate model (added in steps, see Ingestor.learn_every)"),
            ("jobdedup_candidates", "candidates", "Candidate postings compared with new postings (Solr + window)"),
            ("jobdedup_merged_groups", "merged_groups",
             "Stored groups merged into another because a new posting duplicated both"),
            ("jobdedup_redecided", "redecided",
             "Postings of contested components decided again from all their members' pairs (Ingestor._redecide)"),
            ("jobdedup_redecide_moved", "redecide_moved", "Stored postings moved to another group by such a decision"),
        ):
            yield CounterMetricFamily(name, doc, value=st.get(key, 0))
        yield GaugeMetricFamily("jobdedup_boilerplate_postings",
                                "Postings the boilerplate model has counted (incl. those queued for its next step)",
                                value=self.ingestor.learned_postings)


def create_app(solr_url: str, commit_within_ms: int = 1000, timeout: float = 10.0,
               max_text_chars: int | None = None, state_dir: str | None = None,
               token: str | None = None, max_body_bytes: int | None = None, cpu_workers: int | None = None,
               cpu_budget_s: float | None = None) -> FastAPI:
    """Build the FastAPI app for one Solr collection; `state_dir` keeps its boilerplate model across
    restarts (None: learned in memory only); `token`: required as `Authorization: Bearer` (see
    _require_token). Limits default to their env settings: body size (JOBDEDUP_MAX_BODY_BYTES), worker
    processes for CPU work (JOBDEDUP_CPU_WORKERS, 0 = in-process) and the CPU budget of one request
    (JOBDEDUP_CPU_BUDGET_S)."""
    solr = Solr(solr_url, timeout=timeout)
    cpu = CpuPool(**{k: v for k, v in (("workers", cpu_workers), ("budget_s", cpu_budget_s)) if v is not None})
    kwargs: dict[str, Any] = {"commit_within_ms": commit_within_ms}
    if max_text_chars is not None:
        kwargs["max_text_chars"] = max_text_chars
    ingestor = Ingestor(solr, state=BoilerplateState.for_collection(state_dir, solr.url), **kwargs)
    registry = CollectorRegistry()
    registry.register(_IngestCollector(ingestor))
    m_postings = Counter("jobdedup_postings_total", "Postings processed, by status", ["status"], registry=registry)
    m_batches = Histogram("jobdedup_batch_seconds", "Latency of POST /v1/postings batches", registry=registry,
                          buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
    m_unavail = Counter("jobdedup_solr_unavailable_total", "Requests answered 503 because Solr was down",
                        registry=registry)

    writers: list[CapacityLimiter] = []  # made in the app's event loop

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        cpu.start()
        writers[:] = [CapacityLimiter(WRITE_THREADS)]
        try:
            with long_lived_heap():  # the ingest's window, caches and boilerplate model
                yield
        finally:
            cpu.close()
            ingestor.save()  # the model learned since the last periodic save
            ingestor.state.close()

    # Swagger UI (/docs) and ReDoc (/redoc) from assets shipped in the fastapi-offline package, not a CDN:
    # the pages render on air-gapped hosts.
    app = FastAPIOffline(title="jobdedup", version=SIG_VERSION, lifespan=lifespan,
                         description="Near-duplicate detection for job postings, in front of Apache Solr.")
    app.router.route_class = limits.StrictJSONRoute
    app.add_middleware(limits.BodyLimit, max_bytes=settings().max_body_bytes if max_body_bytes is None else max_body_bytes)
    app.add_exception_handler(RequestValidationError, limits.validation_error)  # type: ignore[arg-type]
    app.state.ingestor = ingestor
    app.state.solr = solr
    app.state.cpu = cpu
    if token is not None:
        _require_token(app, token)

    @app.exception_handler(OverBudget)
    async def _over_budget(request: Request, exc: OverBudget) -> JSONResponse:
        return JSONResponse({"detail": f"{exc}; nothing was written"}, status_code=422)

    @app.exception_handler(Busy)
    async def _busy(request: Request, exc: Busy) -> JSONResponse:
        return JSONResponse({"detail": f"busy: {exc}; nothing was written, retry later"}, status_code=503,
                            headers={"Retry-After": str(RETRY_AFTER_S)})

    @app.exception_handler(SolrUnavailable)
    async def _unavailable(request: Request, exc: SolrUnavailable) -> JSONResponse:
        m_unavail.inc()
        return JSONResponse({"detail": f"Solr unavailable: {exc}; nothing was written, retry later"},
                            status_code=503, headers={"Retry-After": str(RETRY_AFTER_S)})

    @app.exception_handler(SolrError)
    async def _solr_error(request: Request, exc: SolrError) -> JSONResponse:
        return JSONResponse({"detail": f"Solr rejected the request: {exc}"}, status_code=502)

    @app.post("/v1/postings", response_model=PostingsOut, summary="Deduplicate and index a batch of postings",
              responses=_SOLR_ERRORS)
    async def post_postings(body: PostingsIn) -> dict[str, Any]:
        """Each posting gets a status: new (own group), duplicate (joined a group), updated (id was
        known; re-sending is idempotent) or rejected (with a reason: a text over the size cap or an
        unreadable date). A rejected posting is not written and does not fail the batch (still a 200);
        a malformed body, a missing id or a wrong type fails the whole batch with a 422 naming the field."""
        t0 = time.perf_counter()
        postings = [p.model_dump(exclude_none=True) for p in body.postings]
        if not writers:  # an app used without its lifespan (a test client outside `with`)
            writers.append(CapacityLimiter(WRITE_THREADS))
        limiter = writers[0]  # not the shared thread pool: see WRITE_THREADS
        schema = await to_thread.run_sync(ingestor.batch_schema, postings, limiter=limiter)  # read from Solr once
        prep = await cpu.run(prepare_batch, postings, ingestor.max_text_chars, True, schema)  # features + extraction
        results = await to_thread.run_sync(ingestor.apply, prep, limiter=limiter)  # decisions and the Solr write
        m_batches.observe(time.perf_counter() - t0)
        for r in results:
            m_postings.labels(r.status).inc()
        return {"results": [r.as_dict() for r in results]}

    # `:path`: an id may hold "/" (sent as %2F); every other character arrives percent-decoded
    @app.get("/v1/postings/{posting_id:path}/duplicates", summary="The group of a posting",
             response_model=DuplicatesOut, responses={
        **_SOLR_ERRORS, 404: {"model": ErrorOut, "description": "No posting with this id"}})
    def duplicates(posting_id: str = Path(min_length=1, max_length=512)) -> JSONResponse:
        """The posting's group (dup_group), why it is there (score, why, matched) and the other postings
        in it, each with its own score, why and matched: the first 1,000 by id, with `duplicates_total` (all of
        them) and `truncated`."""
        docs = solr.get([posting_id], fl=STATE_FL)
        if not docs:
            return JSONResponse({"detail": f"no posting with id {posting_id!r}"}, status_code=404)
        doc = docs[0]
        group = doc.get("dup_group") or doc["id"]
        # one row more than listed: the posting itself is among them (unless Solr holds it without dup_group)
        res = solr.query({"q": "*:*", "fq": "{!term f=dup_group v=$dg}", "dg": group, "rows": MAX_MEMBERS + 1,
                          "sort": "id asc",
                          "fl": "id,title,company,duplicate_of,dup_score,dup_why_ss,dup_match_s,first_seen,last_seen"})
        found = res["response"]["docs"]
        members = [_why_fields(d) for d in found if d["id"] != posting_id][:MAX_MEMBERS]
        n = res["response"]["numFound"]
        listed = any(d["id"] == posting_id for d in found)
        total = n - (listed or (len(found) < n and doc.get("dup_group") == group))  # not on the page: in when it holds the group
        return JSONResponse({"id": posting_id, "dup_group": group, "duplicate_of": doc.get("duplicate_of"),
                             "score": doc.get("dup_score"), "why": doc.get("dup_why_ss") or [],
                             "matched": doc.get("dup_match_s"), "duplicates": members,
                             "duplicates_total": total, "truncated": len(members) < total})

    @app.post("/v1/signatures", summary="Compute signatures only (no Solr)")
    async def post_signatures(body: SignaturesIn) -> dict[str, Any]:
        """signature (what Solr's chain computes), profile_sig, MinHash band keys and sketch, sig_version.
        A posting with a text over the cap is a 422 naming it."""
        postings = [p.model_dump(exclude_none=True) for p in body.postings]
        bad = [{"type": "value_error", "loc": ["body", "postings", i], "msg": reason}
               for i, p in enumerate(postings) if (reason := text_cap_reason(p, ingestor.max_text_chars))]
        if bad:
            raise RequestValidationError(bad)
        return {"results": await cpu.run(signatures_of, postings)}

    @app.get("/health", summary="Is Solr reachable, which version and configset", responses={
        503: {"description": "Solr is not reachable (`status: unavailable`, `detail`, `Retry-After`)"}})
    def health() -> JSONResponse:
        try:
            info = solr.health()
        except (SolrUnavailable, SolrError) as exc:
            return JSONResponse({"status": "unavailable", "detail": str(exc), "sig_version": SIG_VERSION},
                                status_code=503, headers={"Retry-After": str(RETRY_AFTER_S)})
        return JSONResponse({"status": "ok", "sig_version": SIG_VERSION, **info})

    @app.get("/metrics", summary="Prometheus metrics", response_class=PlainTextResponse)
    def metrics() -> PlainTextResponse:
        return PlainTextResponse(generate_latest(registry).decode(), media_type="text/plain; version=0.0.4")

    return app


#: What answers without the token: liveness for load balancers and orchestrators, and the API's description.
OPEN_PATHS = frozenset({"/health", "/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json"})


def _require_token(app: FastAPI, token: str) -> None:
    """Every request but OPEN_PATHS must carry `Authorization: Bearer <token>` (compared in constant time),
    else 401."""
    expected = token.encode("utf-8")

    @app.middleware("http")
    async def check_token(request: Request, call_next: Any) -> Any:
        if request.url.path not in OPEN_PATHS:
            scheme, _, given = request.headers.get("authorization", "").partition(" ")
            if not (scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode("utf-8"), expected)):
                return JSONResponse({"detail": "missing or wrong token: send 'Authorization: Bearer <token>'"},
                                    status_code=401, headers={"WWW-Authenticate": "Bearer"})
        return await call_next(request)

    plain_openapi = app.openapi

    def openapi_with_bearer() -> dict[str, Any]:  # /docs gets an "Authorize" button
        schema = plain_openapi()
        schema.setdefault("components", {})["securitySchemes"] = {"bearer": {"type": "http", "scheme": "bearer"}}
        for path, ops in schema["paths"].items():
            for op in ops.values() if path not in OPEN_PATHS else ():
                op["security"] = [{"bearer": []}]
        return schema

    app.openapi = openapi_with_bearer  # type: ignore[method-assign]


def _why_fields(doc: dict[str, Any]) -> dict[str, Any]:
    """A stored group member with the reason fields under their API names (score, why, matched)."""
    out = {k: v for k, v in doc.items() if k not in ("dup_why_ss", "dup_match_s")}
    out["score"] = doc.get("dup_score")
    out["why"] = doc.get("dup_why_ss") or []
    out["matched"] = doc.get("dup_match_s")
    return out
