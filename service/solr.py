"""A small Solr client on `requests`: select, real-time get, JSON updates, cursorMark streams, health.

`url` is a collection (or core) URL such as http://127.0.0.1:8983/solr/postings; credentials in it
(http://user:password@host/...) are sent as BasicAuth (a Solr with security.json) and never appear in
`url`, `base` or messages. Connection failures,
timeouts and 5xx answers raise `SolrUnavailable` (callers answer 503 / retry); 4xx answers raise
`SolrError` with Solr's own message.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

import orjson
import requests

from service.errors import SolrUnavailable, UserError


class SolrError(Exception):
    """Solr rejected a request (4xx): a bug, a configset mismatch or (400 to an update) a document it
    refuses; not a transient failure. `status` is the HTTP status (None: not an HTTP error)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def _separator(values: Sequence[str]) -> str:
    """A character that occurs in none of `values`: the {!terms} separator, so every value is data (the
    parser does not unescape, a `\\,` stays two characters). Private-use code points first; some code
    point is always free because a query holds far fewer characters than Unicode has."""
    used = set("".join(values))
    for cp in itertools.chain((0x241F,), range(0xE000, 0xF900), range(0xF0000, 0x10FFFE), range(0x2000, 0xD800)):
        if chr(cp) not in used:
            return chr(cp)
    raise ValueError("no free separator character")  # unreachable for any query Solr would accept


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
        self.http = session or requests.Session()
        if auth is not None:
            self.http.auth = auth
        self._cloud: bool | None = None
        self._schema: dict[str, Any] | None = None
        self._shards: list[str] | None = None

    # -- transport ---------------------------------------------------------------------------------
    def _request(self, method: str, url: str, *, params: Any = None, data: bytes | None = None,
                 headers: Mapping[str, str] | None = None, timeout: float | None = None) -> dict[str, Any]:
        try:
            resp = self.http.request(method, url, params=params, data=data, headers=headers,
                                     timeout=timeout or self.timeout)
        except requests.Timeout as exc:
            raise SolrUnavailable(f"Solr timed out ({url.split('?')[0]})") from exc
        except requests.ConnectionError as exc:
            raise SolrUnavailable(f"Solr is not reachable at {self.base}") from exc
        if resp.status_code >= 500 or resp.status_code == 429:
            raise SolrUnavailable(f"Solr answered {resp.status_code}: {_solr_message(resp)}")
        if resp.status_code == 404:
            raise SolrError(f"Solr answered 404 for {url.split('?')[0]}: is the collection {self.collection!r} there?",
                            404)
        if resp.status_code in (401, 403):
            raise SolrError(f"Solr answered {resp.status_code}: " + (
                "credentials refused or missing" if resp.status_code == 401 else "this user may not do that") +
                " (BasicAuth: --solr-user or env JOBDEDUP_SOLR_USER with env JOBDEDUP_SOLR_PASSWORD, or "
                "user:password@ in the Solr URL)", resp.status_code)
        if resp.status_code >= 400:
            raise SolrError(f"Solr answered {resp.status_code}: {_solr_message(resp)}", resp.status_code)
        try:
            return orjson.loads(resp.content)
        except orjson.JSONDecodeError as exc:
            raise SolrError(f"Solr answered non-JSON from {url}") from exc

    def query(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Like `select`, with parameters in the request body (no URL length limit)."""
        body = {"wt": "json", **params}
        return self._request("POST", f"{self.url}/select", data=_form(body),
                             headers={"Content-Type": "application/x-www-form-urlencoded"})

    def get(self, ids: Sequence[str], fl: str = "*") -> list[dict[str, Any]]:
        """Real-time get: the latest version of each id, searchable or not."""
        if not ids:
            return []
        # one `id` parameter per id: `ids=` is split on commas and unescapes backslashes
        body: dict[str, Any] = {"id": list(ids), "fl": fl, "wt": "json"}
        if self.is_cloud():
            # router.field=dup_group: a get routed by id would ask the id's shard, not the group's; naming
            # every shard sends every id to each of them (uncommitted postings included)
            body["shards"] = ",".join(self.shard_names())
        res = self._request("POST", f"{self.url}/get", data=_form(body),
                            headers={"Content-Type": "application/x-www-form-urlencoded"})
        if "doc" in res:  # a single id answers {"doc": ...}
            return [res["doc"]] if res["doc"] else []
        return res.get("response", {}).get("docs", [])

    def shard_names(self) -> list[str]:
        """SolrCloud: the collection's shards (cached)."""
        if self._shards is None:
            cs = self._request("GET", f"{self.base}/admin/collections",
                               params={"action": "CLUSTERSTATUS", "collection": self.collection, "wt": "json"},
                               timeout=5.0)
            self._shards = sorted(cs["cluster"]["collections"][self.collection]["shards"])
        return self._shards

    def delete_old_copy(self, pid: str, group: str, version: int) -> bool:
        """SolrCloud routed by dup_group: after posting `pid` was re-added under another group, delete its
        copy stored under `group` if that copy still has `version` (it stays on the old group's shard when
        the new group lives on another one). False when there is no such copy: on the same shard the
        re-add replaced it, and Solr answers 409 to the versioned delete."""
        body = orjson.dumps({"delete": {"id": pid, "_route_": group, "_version_": version}})
        try:
            self._request("POST", f"{self.url}/update", params={"wt": "json"}, data=body,
                          headers={"Content-Type": "application/json"})
        except SolrError as exc:
            if exc.status == 409:
                return False
            raise
        return True

    def update(self, docs: Sequence[Mapping[str, Any]], commit_within_ms: int | None = None,
               commit: bool = False) -> None:
        """Add or atomically update documents in one request."""
        params: dict[str, Any] = {"wt": "json"}
        if commit_within_ms is not None:
            params["commitWithin"] = commit_within_ms
        if commit:
            params["commit"] = "true"
        self._request("POST", f"{self.url}/update", params=params, data=orjson.dumps(list(docs)),
                      headers={"Content-Type": "application/json"}, timeout=max(self.timeout, 30.0))

    def delete_and_add(self, ids: Sequence[str], docs: Sequence[Mapping[str, Any]],
                       commit_within_ms: int | None = None) -> None:
        """One request: delete `ids` on every shard (delete by query), then add `docs`."""
        parts = [b'"delete":' + orjson.dumps({"query": terms_query("id", list(ids))})]
        parts += [b'"add":' + orjson.dumps({"doc": d}) for d in docs]
        params: dict[str, Any] = {"wt": "json"}
        if commit_within_ms is not None:
            params["commitWithin"] = commit_within_ms
        self._request("POST", f"{self.url}/update", params=params, data=b"{" + b",".join(parts) + b"}",
                      headers={"Content-Type": "application/json"}, timeout=max(self.timeout, 30.0))

    def copy_field_targets(self) -> set[str]:
        """Fields filled by copyField (never to be sent back when re-adding a fetched document; cached)."""
        return {c["dest"] for c in self.schema()["copyFields"]}

    def schema(self) -> dict[str, Any]:
        """The collection's schema (cached): fields and dynamicFields with every property resolved
        (showDefaults), fieldTypes and copyFields, as the Schema API gives them."""
        if self._schema is None:
            whole = self._request("GET", f"{self.url}/schema", params={"wt": "json"}, timeout=5.0)["schema"]
            out = {k: whole.get(k, []) for k in ("fieldTypes", "copyFields")}
            for key, path in (("fields", "fields"), ("dynamicFields", "dynamicfields")):
                out[key] = self._request("GET", f"{self.url}/schema/{path}",
                                         params={"wt": "json", "showDefaults": "true"}, timeout=5.0)[key]
            self._schema = out
        return self._schema

    def is_cloud(self) -> bool:
        """True when Solr runs in SolrCloud mode (cached)."""
        if self._cloud is None:
            system = self._request("GET", f"{self.base}/admin/info/system", params={"wt": "json"}, timeout=5.0)
            self._cloud = system.get("mode") == "solrcloud"
        return self._cloud

    def commit(self) -> None:
        """Hard commit with a new searcher."""
        self._request("POST", f"{self.url}/update", params={"commit": "true", "wt": "json"}, data=b"[]",
                      headers={"Content-Type": "application/json"}, timeout=max(self.timeout, 60.0))

    def delete_all(self) -> None:
        """Delete every document (tests, demos) and commit."""
        self._request("POST", f"{self.url}/update", params={"commit": "true", "wt": "json"},
                      data=b'{"delete":{"query":"*:*"}}', headers={"Content-Type": "application/json"})

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
        system = self._request("GET", f"{self.base}/admin/info/system", params={"wt": "json"}, timeout=5.0)
        info["solr_version"] = system.get("lucene", {}).get("solr-spec-version")
        info["mode"] = system.get("mode")
        ping = self._request("GET", f"{self.url}/admin/ping", params={"wt": "json"}, timeout=5.0)
        info["ping"] = ping.get("status")
        try:
            info["schema"] = self._request("GET", f"{self.url}/schema/name", params={"wt": "json"}, timeout=5.0).get("name")
        except (SolrError, SolrUnavailable):
            info["schema"] = None
        try:
            if info["mode"] == "solrcloud":
                cs = self._request("GET", f"{self.base}/admin/collections",
                                   params={"action": "CLUSTERSTATUS", "collection": self.collection, "wt": "json"},
                                   timeout=5.0)
                coll = cs.get("cluster", {}).get("collections", {}).get(self.collection, {})
                info["configset"] = coll.get("configName")
            else:
                st = self._request("GET", f"{self.base}/admin/cores",
                                   params={"action": "STATUS", "core": self.collection, "wt": "json"}, timeout=5.0)
                core = st.get("status", {}).get(self.collection, {})
                info["configset"] = core.get("instanceDir", "").rstrip("/").rsplit("/", 1)[-1] or None
                info["num_docs"] = core.get("index", {}).get("numDocs")
        except (SolrError, SolrUnavailable):
            pass
        return info


def _form(params: Mapping[str, Any]) -> bytes:
    from urllib.parse import urlencode

    items: list[tuple[str, Any]] = []
    for k, v in params.items():
        if isinstance(v, list | tuple):
            items.extend((k, x) for x in v)
        else:
            items.append((k, v))
    return urlencode(items).encode("utf-8")


def _solr_message(resp: requests.Response) -> str:
    try:
        body = orjson.loads(resp.content)
        return str(body.get("error", {}).get("msg") or body)[:300]
    except Exception:  # noqa: BLE001 - any non-JSON error page
        return resp.text[:300]


def terms_query(field: str, values: Sequence[str]) -> str:
    """A {!terms} query matching any of `values` in `field`, whatever characters they hold (the values are
    joined by a separator none of them contains; nothing is escaped or unescaped)."""
    sep = _separator(values)
    return "{!terms f=" + field + " separator='" + sep + "'}" + sep.join(values)
