"""The Solr client: pysolr over one pooled `requests` session, with the service's error contract.

`url` is a collection (or core) URL such as http://127.0.0.1:8983/solr/postings; credentials in it
(http://user:password@host/...) are sent as BasicAuth (a Solr with security.json) on the session and never
appear in `url`, `base` or messages. Every request goes
through pysolr: document writes
are `pysolr.Solr.add` (JSON, `commitWithin`), commits and delete-all are `commit` / `delete`, ping is
`ping`. What pysolr has no method for goes through pysolr's own transport (`Solr._send_request` /
`Solr._update`, same session, same errors):
  * searches (`query`, `stream`'s cursorMark pages): a JSON body (Solr's JSON Request API, `params`), which
    pysolr's `search` cannot send -- it form-encodes, character by character in Python, ~150 KB of terms
    per candidate query;
  * real-time get (`/get`): pysolr has no real-time get; ids are sent as one `id=` parameter each
    (`ids=` is split on commas and unescapes backslashes, so ids holding them would not be found); several
    ids are read as of every acknowledged write (two plain reads that agree, else with a `_route_` that makes
    Solr read them from a fresh realtime searcher: `Solr._settled`, `fresh_route`) unless the caller's read
    cannot be misled by a stale answer (`fresh=False`);
  * versioned deletes routed by `_route_`, many in one request (SolrCloud moves): pysolr's `delete` writes
    XML without `_version_` / `_route_`;
  * the Schema API, `/admin/info/system`, CLUSTERSTATUS and core STATUS: not in pysolr's API (its
    SolrCoreAdmin returns raw text and has no SolrCloud calls).
Errors: connection failures, timeouts, 5xx and 429 raise `SolrUnavailable` (callers answer 503 / retry);
other 4xx raise `SolrError` with Solr's own message and the HTTP status (pysolr reports both in its
message, "Solr responded with an error (HTTP 400): [Reason: ...]", and chains the requests exception).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import unquote, urlencode, urlsplit, urlunsplit

import orjson
import pysolr
import requests

from service.errors import SolrUnavailable, UserError

T = TypeVar("T")
# pysolr's message: "[Reason: <Solr's msg>]", or "[Reason: None]" and the error page when Solr sent no JSON
_PYSOLR_STATUS = re.compile(r"Solr responded with an error \(HTTP (\d{3})\): \[Reason: (?:None\](.*)|(.*)\])$", re.S)
_FORM = {"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"}
_JSON = {"Content-Type": "application/json"}


class SolrError(Exception):
    """Solr rejected a request (4xx): a bug, a configset mismatch or (400 to an update) a document it
    refuses; not a transient failure. `status` is the HTTP status (None: not an HTTP error)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class _OrjsonEncoder:
    """pysolr's `encoder` for `add`: orjson (numpy-free dicts, ~10x faster than json) as text."""

    def encode(self, obj: Any) -> str:
        return orjson.dumps(obj).decode("utf-8")


def pooled_session(pool: int = 16) -> requests.Session:
    """The one place a Solr session is built: keep-alive connections pooled per host (threads of `serve`
    share it); credentials, when Solr needs them, go here (session.auth)."""
    s = requests.Session()
    adapter = requests.adapters.HTTPAdapter(pool_connections=pool, pool_maxsize=pool)
    s.mount("http://", adapter)
    s.mount("https://", adapter)
    return s


def _separator(values: Sequence[str]) -> str:
    """A character that occurs in none of `values`: the {!terms} separator, so every value is data (the
    parser does not unescape, a `\\,` stays two characters). Private-use code points first; some code
    point is always free because a query holds far fewer characters than Unicode has."""
    joined = "".join(values)
    if joined.isascii():  # the usual keys (band keys, hex): no set of their characters to build
        return "\u241f"
    used = set(joined)  # one pass: a substring test per candidate scanned the values once per candidate tried
    for cp in itertools.chain((0x241F,), range(0xE000, 0xF900), range(0xF0000, 0x10FFFE), range(0x2000, 0xD800)):
        if chr(cp) not in used:
            return chr(cp)
    raise ValueError("no free separator character")  # unreachable for any query Solr would accept


class _PySolr(pysolr.Solr):
    """pysolr.Solr that sends empty strings: pysolr's `add` leaves out "" values, but Solr's signature
    processor digests the name of every field present, so leaving one out would change `signature`."""

    def _is_null_value(self, value: Any) -> bool:
        return value is None


class Solr:
    """Client for one Solr collection (standalone core or SolrCloud collection)."""

    def __init__(self, url: str, timeout: float = 10.0, session: requests.Session | None = None) -> None:
        url = url.rstrip("/")
        parts = urlsplit(url)
        auth = None
        if parts.username is not None:  # http://user:password@host/...: BasicAuth (security.json), kept out of url
            # UTF-8 bytes: requests would send str credentials as Latin-1, Solr decodes them as UTF-8
            auth = (unquote(parts.username).encode(), unquote(parts.password or "").encode())
            url = urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise UserError(f"--solr must be a collection URL like http://127.0.0.1:8983/solr/postings, got {url!r}")
        path = parts.path.rstrip("/")
        if not path or path.endswith("/solr") or "/solr/" not in path + "/":
            raise UserError(f"--solr must name a collection, e.g. {url.rstrip('/')}/postings" if path.endswith("/solr")
                            else f"--solr must be a collection URL like http://127.0.0.1:8983/solr/postings, got {url!r}")
        self.url = url
        self.collection = path.rsplit("/", 1)[-1]
        self.base = url[: -(len(self.collection) + 1)]  # .../solr
        self.timeout = timeout
        self.http = session or pooled_session()
        if auth is not None:
            self.http.auth = auth
        # pysolr clients sharing the session: reads, writes (longer timeout), node admin (base URL, short)
        self.pysolr = _PySolr(url, timeout=timeout, session=self.http, encoder=_OrjsonEncoder())
        self._writer = _PySolr(url, timeout=max(timeout, 30.0), session=self.http, encoder=_OrjsonEncoder())
        self._committer = pysolr.Solr(url, timeout=max(timeout, 60.0), session=self.http)
        self._node = pysolr.Solr(self.base, timeout=5.0, session=self.http)
        self._core = pysolr.Solr(url, timeout=5.0, session=self.http)
        self._cloud: bool | None = None
        self._schema: dict[str, Any] | None = None
        self._shards: list[str] | None = None
        self._signing: tuple[dict[str, Any] | None] | None = None

    # -- transport ---------------------------------------------------------------------------------
    def _call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run one pysolr call, mapping its errors to the service's contract (SolrUnavailable: retry
        later; SolrError: Solr refused, with the HTTP status)."""
        try:
            return fn(*args, **kwargs)
        except pysolr.SolrError as exc:
            cause = exc.__context__
            if isinstance(cause, requests.Timeout):
                raise SolrUnavailable(f"Solr timed out ({self.url})") from exc
            if isinstance(cause, requests.ConnectionError):
                raise SolrUnavailable(f"Solr is not reachable at {self.base}") from exc
            m = _PYSOLR_STATUS.match(str(exc))
            if m is None:
                raise SolrError(str(exc)) from exc
            status, message = int(m.group(1)), " ".join((m.group(2) or m.group(3) or "").split())[:300]
            if status >= 500 or status == 429:
                raise SolrUnavailable(f"Solr answered {status}: {message}", status) from exc
            if status == 404:
                raise SolrError(f"Solr answered 404: is the collection {self.collection!r} there?", 404) from exc
            if status in (401, 403):
                raise SolrError(f"Solr answered {status}: " + (
                    "credentials refused or missing" if status == 401 else "this user may not do that") +
                    " (BasicAuth: --solr-user or env JOBDEDUP_SOLR_USER with env JOBDEDUP_SOLR_PASSWORD, or "
                    "user:password@ in the Solr URL)", status) from exc
            raise SolrError(f"Solr answered {status}: {message}", status) from exc

    def _json(self, client: pysolr.Solr, method: str, path: str, params: Mapping[str, Any] | None = None,
              body: bytes | None = None, headers: Mapping[str, str] | None = None) -> dict[str, Any]:
        """A request pysolr has no method for, through pysolr's transport; the answer as JSON."""
        query = urlencode(_pairs({"wt": "json", **(params or {})}))
        text = self._call(client._send_request, method, f"{path}?{query}", body=body, headers=dict(headers or {}))
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            raise SolrError(f"Solr answered non-JSON from {client.url}/{path}") from exc

    def _raw_update(self, body: bytes, **params: Any) -> None:
        """A JSON update command pysolr's `add`/`delete` cannot express, through pysolr's `_update`."""
        self._call(self._writer._update, body.decode("utf-8"), clean_ctrl_chars=False, solrapi="JSON", **params)

    def query(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """A /select request, its parameters as the JSON body's `params` (Solr's JSON Request API; a
        candidate query carries ~150 KB of terms, which form-encoding would quote character by character):
        Solr's JSON answer."""
        body = orjson.dumps({"params": {"q": "*:*", **params}})
        return self._json(self.pysolr, "post", "select", body=body, headers=_JSON)

    def get(self, ids: Sequence[str], fl: str = "*", fresh: bool = True) -> list[dict[str, Any]]:
        """Real-time get: the latest version of each id, searchable or not (in SolrCloud, where a posting
        moving to another group's shard is briefly stored twice, the copy written last: the highest REV, a
        count no shard clock stamps; `_version_` only between copies of one REV, written concurrently).
        `fresh=False`: one plain read (no check against a second, no fresh realtime searcher: `_settled`), so a
        posting written a moment before may come back missing or older -- only for reads whose stale answer
        cannot change a decision."""
        if not ids:
            return []
        if not self.is_cloud():
            return self._get(ids, fl, fresh)
        wide, extra = _asking(fl, {"id", "_version_", REV})  # needed to pick, not asked for
        newest: dict[str, dict[str, Any]] = {}
        for d in self._get(ids, wide, fresh):
            if d["id"] not in newest or _written(d) > _written(newest[d["id"]]):
                newest[d["id"]] = d
        return _dropping(newest.values(), extra)

    def copies(self, ids: Sequence[str]) -> list[dict[str, Any]]:
        """Every stored copy of each id (id, dup_group, _version_), searchable or not: in SolrCloud a
        posting re-added under a group on another shard is stored twice until its old copy is deleted."""
        return self._get(ids, "id,dup_group,_version_") if ids else []

    def _get(self, ids: Sequence[str], fl: str, fresh: bool = True) -> list[dict[str, Any]]:
        """/get of `ids` on every shard: each stored copy (one per id, except in SolrCloud mid-move); `fresh`: as of
        every write Solr acknowledged before it (one id: always; several, standalone: `_settled`; SolrCloud: from
        a fresh realtime searcher, `fresh_route`)."""
        if fresh and len(ids) > 1 and not self.is_cloud():
            return self._settled(ids, fl)
        return self._read(ids, fl, fresh and len(ids) > 1)

    def _settled(self, ids: Sequence[str], fl: str) -> list[dict[str, Any]]:
        """A standalone /get of several ids that sees every write acknowledged before it, without forcing a fresh
        realtime searcher when it can: two plain reads, the second once the first is answered, that agree on
        every id's presence and `_version_`. A plain read is stale only when a soft commit empties the update log
        mid-request (`fresh_route`); a write it so missed is in every realtime searcher from then on, so the
        second read returns a newer version of that id, never the same. When they differ: read with
        `fresh_route`. (A forced reopen flushes Solr's indexing buffer into a segment of its own: one per batch
        of `jobdedup index`, ~3 CPU-s of Solr's flushes and merges a run.)"""
        compared, extra = _asking(fl, {"id", "_version_"})  # compared, not asked for
        first = self._read(ids, compared, False)
        second = self._read(ids, compared, False)
        if _versions(first) != _versions(second):
            return self._read(ids, fl, True)
        return _dropping(second, extra)

    def _read(self, ids: Sequence[str], fl: str, route: bool) -> list[dict[str, Any]]:
        """One /get of `ids` (every shard in SolrCloud); `route`: from a fresh realtime searcher (`fresh_route`)."""
        # one `id` parameter per id: `ids=` is split on commas and unescapes backslashes; an empty `ids`
        # (no id) keeps the answer a list even for one id, which Solr would otherwise answer with one
        # {"doc": ...} -- a single copy, whichever shard answered first
        body: dict[str, Any] = {"id": list(ids), "ids": "", "fl": fl, "wt": "json"}
        if route:
            body["_route_"] = fresh_route(ids)
        if self.is_cloud():
            # router.field=dup_group: a get routed by id would ask the id's shard, not the group's; naming
            # every shard sends every id to each of them (uncommitted postings included)
            body["shards"] = ",".join(self.shard_names())
        try:
            res = self._json(self.pysolr, "post", "get", body=urlencode(_pairs(body)).encode("utf-8"), headers=_FORM)
        except SolrUnavailable as exc:
            # Solr 9.10's plain /get of several ids can fail (500, ArrayIndexOutOfBoundsException in
            # DocValuesIteratorCache) when a soft commit lands mid-request: asked again from a fresh searcher
            if route or len(ids) < 2 or exc.status != 500:
                raise
            return self._read(ids, fl, True)
        return res.get("response", {}).get("docs", [])

    def shard_names(self) -> list[str]:
        """SolrCloud: the collection's shards (cached)."""
        if self._shards is None:
            cs = self._json(self._node, "get", "admin/collections",
                            {"action": "CLUSTERSTATUS", "collection": self.collection})
            self._shards = sorted(cs["cluster"]["collections"][self.collection]["shards"])
        return self._shards

    def delete_copies(self, copies: Sequence[Mapping[str, Any]], commit_within_ms: int | None = None) -> None:
        """SolrCloud routed by dup_group: delete each copy (id, dup_group, _version_, as `copies` gives them)
        where it is stored -- a versioned delete routed by its group -- if it still has that version. All in
        one request; when a copy changed or went meanwhile (Solr answers 409 and stops there), one request
        each, skipping the ones that changed."""
        if not copies:
            return
        parts = [b'"delete":' + orjson.dumps({"id": c["id"], "_route_": c["dup_group"], "_version_": c["_version_"]})
                 for c in copies]
        try:
            self._raw_update(b"{" + b",".join(parts) + b"}", commitWithin=commit_within_ms)
        except SolrError as exc:
            if exc.status != 409:
                raise
            for part in parts:
                try:
                    self._raw_update(b"{" + part + b"}", commitWithin=commit_within_ms)
                except SolrError as one:
                    if one.status != 409:
                        raise

    def update(self, docs: Sequence[Mapping[str, Any]], commit_within_ms: int | None = None,
               commit: bool = False) -> None:
        """Add or atomically update documents in one request (pysolr `add`, JSON; None values are left out)."""
        self._call(self._writer.add, list(docs), commitWithin=commit_within_ms, commit=commit)

    def copy_field_targets(self) -> set[str]:
        """Fields filled by copyField (never to be sent back when re-adding a fetched document; cached)."""
        return {c["dest"] for c in self.schema()["copyFields"]}

    def schema(self) -> dict[str, Any]:
        """The collection's schema (cached): fields and dynamicFields with every property resolved
        (showDefaults), fieldTypes and copyFields, as the Schema API gives them."""
        if self._schema is None:
            whole = self._json(self._core, "get", "schema")["schema"]
            out = {k: whole.get(k, []) for k in ("fieldTypes", "copyFields")}
            for key, path in (("fields", "fields"), ("dynamicFields", "dynamicfields")):
                out[key] = self._json(self._core, "get", f"schema/{path}", {"showDefaults": "true"})[key]
            self._schema = out
        return self._schema

    def signing(self) -> dict[str, Any] | None:
        """The default update chain's signature processor as the Config API reports it (`signatureField`,
        `fields` as a list, `signatureClass`, `quantRate`, `minTokenLen`; cached); None when the chain
        signs nothing or the Config API is not there."""
        if self._signing is None:
            found = None
            try:
                chains = self._json(self._core, "get", "config/updateRequestProcessorChain")["config"].get(
                    "updateRequestProcessorChain", [])
            except SolrError:
                chains = []
            for chain in chains:
                if str(chain.get("default")).lower() != "true":
                    continue
                for proc in chain.get("", []):
                    if str(proc.get("class", "")).endswith("SignatureUpdateProcessorFactory") and \
                            str(proc.get("enabled", "true")).lower() == "true":
                        fields = proc.get("fields")
                        found = {"signatureField": proc.get("signatureField", "signatureField"),
                                 "fields": [f.strip() for f in fields.split(",")] if fields else None,
                                 "signatureClass": proc.get("signatureClass", "solr.processor.Lookup3Signature"),
                                 "quantRate": float(proc.get("quantRate", 0.01)),
                                 "minTokenLen": int(proc.get("minTokenLen", 2))}
            self._signing = (found,)
        return self._signing[0]

    def is_cloud(self) -> bool:
        """True when Solr runs in SolrCloud mode (cached)."""
        if self._cloud is None:
            self._cloud = self._json(self._node, "get", "admin/info/system").get("mode") == "solrcloud"
        return self._cloud

    def commit(self, soft: bool = False) -> None:
        """Hard commit with a new searcher (`soft`: a soft commit, only the new searcher)."""
        self._call(self._committer.commit, softCommit=soft)

    def delete_all(self) -> None:
        """Delete every document (tests, demos) and commit."""
        self._call(self._committer.delete, q="*:*", commit=True)

    def stream(self, params: Mapping[str, Any], rows: int = 500, cursor: str = "*") -> Iterator[tuple[list[dict[str, Any]], str, str]]:
        """cursorMark pages sorted by id: yields (docs, cursor used, next cursor) until the end."""
        while True:
            res = self.query({**params, "rows": rows, "sort": "id asc", "cursorMark": cursor})
            docs = res["response"]["docs"]
            nxt = res.get("nextCursorMark", cursor)
            yield docs, cursor, nxt
            if nxt == cursor or not docs:
                return
            cursor = nxt

    def count(self, q: str = "*:*") -> int:
        """Number of (searchable) documents matching q."""
        return int(self.query({"q": q, "rows": 0})["response"]["numFound"])

    def health(self) -> dict[str, Any]:
        """Is Solr reachable, which version, which collection/configset: raises SolrUnavailable when down."""
        info: dict[str, Any] = {"solr": self.base, "collection": self.collection}
        system = self._json(self._node, "get", "admin/info/system")
        info["solr_version"] = system.get("lucene", {}).get("solr-spec-version")
        info["mode"] = system.get("mode")
        info["ping"] = orjson.loads(self._call(self._core.ping, wt="json")).get("status")
        try:
            info["schema"] = self._json(self._core, "get", "schema/name").get("name")
        except (SolrError, SolrUnavailable):
            info["schema"] = None
        try:
            if info["mode"] == "solrcloud":
                cs = self._json(self._node, "get", "admin/collections",
                                {"action": "CLUSTERSTATUS", "collection": self.collection})
                coll = cs.get("cluster", {}).get("collections", {}).get(self.collection, {})
                info["configset"] = coll.get("configName")
            else:
                st = self._json(self._node, "get", "admin/cores", {"action": "STATUS", "core": self.collection})
                core = st.get("status", {}).get(self.collection, {})
                info["configset"] = core.get("instanceDir", "").rstrip("/").rsplit("/", 1)[-1] or None
                info["num_docs"] = core.get("index", {}).get("numDocs")
        except (SolrError, SolrUnavailable):
            pass
        return info


#: SolrCloud: how many times a posting was written whole (ingest, a move's re-add), each write one more than the
#: copy it read -- orders a posting's copies causally. `_version_` does not across shards: each shard leader
#: stamps it with its own clock, so with clock skew the copy a move left behind can carry the higher one.
REV = "dup_rev_i"


def fresh_route(ids: Sequence[str]) -> str:
    """The `_route_` of a real-time get of `ids` that makes it see every write Solr acknowledged before it.
    A /get of several ids looks each up in the update log, else in the realtime searcher it took at its first
    miss; a soft commit (commitWithin) mid-request empties the update log's maps, so the later ids are read
    from that older searcher -- missing, or an older version, though Solr had acknowledged their write
    (Solr 9.10, RealTimeGetComponent.process; a re-sent group head read as a member left its group headless).
    A `_route_` other than the first id makes Solr open a new realtime searcher before the first id (its
    child-document path, SOLR-15064), which holds every acknowledged write; later writes are in the update
    log or a newer searcher. (SolrCloud: a get naming its `shards` is not routed by `_route_`.) The reopen
    flushes Solr's indexing buffer into a segment: standalone, it is asked for only when two plain reads
    disagree (`Solr._settled`)."""
    return f"{ids[0]}~fresh"


def _asking(fl: str, need: set[str]) -> tuple[str, set[str]]:
    """`fl` with the fields of `need` it does not ask for (none when it asks for every field: `*`), and those."""
    asked = set(fl.split(","))
    extra = set() if "*" in asked else need - asked
    return ",".join([fl, *sorted(extra)]), extra


def _dropping(docs: Iterable[dict[str, Any]], extra: set[str]) -> list[dict[str, Any]]:
    """`docs` without the fields `_asking` added to what the caller asked for."""
    return [{k: v for k, v in d.items() if k not in extra} for d in docs] if extra else list(docs)


def _versions(docs: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Each id read and its `_version_` (standalone: one copy per id)."""
    return {d["id"]: d["_version_"] for d in docs}


def _written(copy: Mapping[str, Any]) -> tuple[int, int]:
    """Order of a posting's stored copies: REV, then `_version_` (copies of one REV: written concurrently)."""
    return copy.get(REV) or 0, copy["_version_"]


def _pairs(params: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """Form pairs, a list value as one pair per item (`id=a&id=b`)."""
    items: list[tuple[str, Any]] = []
    for k, v in params.items():
        if isinstance(v, list | tuple):
            items.extend((k, x) for x in v)
        else:
            items.append((k, v))
    return items


def terms_query(field: str, values: Sequence[str]) -> str:
    """A {!terms} query matching any of `values` in `field`, whatever characters they hold (the values are
    joined by a separator none of them contains; nothing is escaped or unescaped)."""
    sep = _separator(values)
    return "{!terms f=" + field + " separator='" + sep + "'}" + sep.join(values)
