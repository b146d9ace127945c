"""Ingest with dedup into Solr: features -> candidates (Solr, recent window, batch) -> decide -> write.

One `Ingestor` per process. Group assignment is serialized by a lock: the candidate lookup, the
decision, the Solr write and the update of the in-process recent-postings window happen under it, so
two duplicates sent in the same batch or in concurrent requests end in one group even before Solr
makes them searchable (the window stands in for the not-yet-committed postings). Several service
processes do not share the window: duplicates racing through different processes within the
commit delay may open two groups; `jobdedup recompute` merges them.

Nothing is half-written: each posting is checked against the collection's schema (service.solr_schema)
and rejected with a reason if Solr would refuse it; the batch's documents go to Solr in one update request
after every decision is made. If Solr still refuses a document, the batch is written in halves until only
the refused ones are left out (rejected with Solr's reason). If Solr is down the request fails, the window
and the boilerplate model are untouched, and a retry decides the same way. When a group's canonical
posting leaves it (re-sent as another job) or is refused, the rest of its group is decided again among
themselves (`Ingestor._regroup`), so every group keeps a head.

Ambiguous candidate pairs are decided by the Verifier with the collection's boilerplate model
(service.state), which learns every posting once it is written. A posting re-sent with unchanged content
(same id, same content key) keeps its stored group, score and reasons: no candidates, no verifier, no
extraction; only last_seen / seen_count move.
"""

from __future__ import annotations

import datetime as dt
import re
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import orjson

from service import decision_glue, sketching
from service.features import compute_features
from service.regroup import band_keys_of, write_groups
from service.settings import settings
from service.solr import Solr, SolrError, terms_query
from service.solr_schema import Schema
from service.state import BoilerplateState
from signatures import SIG_VERSION, minhash, textprofile

#: Largest accepted text field, in characters (env JOBDEDUP_MAX_TEXT_CHARS). Longer postings are
#: rejected with a reason, not truncated: a truncated text would sign differently from the original.
MAX_TEXT_CHARS = settings().max_text_chars

#: Largest group whose members are all decided against each other when it loses its canonical posting;
#: beyond it each member is checked against the new canonical only.
MAX_REGROUP = 2000

#: Fields the service computes; a client's values for them are ignored.
COMPUTED = ("signature", "profile_sig", "mh_bands", "mh_sketch", "dup_group", "duplicate_of", "dup_score",
            "sig_version", "seen_count", "content_key_s", "url_key_s", "company_key_s", "title_key_s",
            "location_key_s", "ntok_i", "dup_why_ss", "dup_match_s")
_SOLR_INTERNAL = ("_version_", "_root_", "_nest_path_", "score")
_FIELD_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_.\-]{0,99}$")
STATE_FL = ("id,dup_group,duplicate_of,dup_score,dup_why_ss,dup_match_s,content_key_s,url_key_s,profile_sig,"
            "company_key_s,title_key_s,location_key_s,ntok_i,mh_sketch,first_seen,last_seen,seen_count,sig_version")
#: The stored source fields the Verifier's `prepare` reads (extraction, field evidence, date gap).
VERIFY_FIELDS = ("id", "title", "company", "location", "description", "url", "posted_at", "first_seen", "lang",
                 "source")


def encode_sketch(sketch: np.ndarray) -> str:
    """A sketch as base64 text for the stored `mh_sketch` field (signatures.minhash's encoding)."""
    return minhash.encode_sketch(sketch)


def decode_sketch(text: str | None) -> np.ndarray | None:
    """Stored `mh_sketch` -> uint32 low bits for comparison; None when absent or of another size."""
    if not text:
        return None
    try:
        arr = minhash.decode_sketch(text, sketching.NUM_PERM)
    except ValueError:
        return None
    if bool(minhash.is_empty(arr)):
        return None
    return arr.astype(np.uint32)


def iso_instant(value: str | None, where: str) -> str | None:
    """Normalize a date or date-time to Solr's instant form (UTC, seconds): 2026-01-02T00:00:00Z."""
    if value is None:
        return None
    v = value.strip()
    try:
        d = dt.datetime.fromisoformat(v.replace("Z", "+00:00") if v.endswith("Z") else v)
        if d.tzinfo is not None:
            d = d.astimezone(dt.UTC).replace(tzinfo=None)
    except ValueError:
        raise ValueError(f"field {where!r} must be an ISO-8601 date or date-time, got {value[:40]!r}") from None
    except OverflowError:  # 0001-01-01T00:00+01:00, 9999-12-31T23:00-05:00: the UTC instant leaves years 1..9999
        raise ValueError(f"field {where!r} is outside years 1..9999 in UTC, got {value[:40]!r}") from None
    return d.isoformat(timespec="seconds") + "Z"  # four-digit years (strftime gives "1-01-01" for year 1)


def _hex(v: int) -> str:
    return f"{int(v):016x}" if v else ""


@dataclass
class Result:
    """Outcome for one posting of a batch."""

    id: str
    status: str                     # new | duplicate | updated | rejected
    dup_group: str | None = None
    duplicate_of: str | None = None
    score: float | None = None
    reason: str | None = None
    why: list[str] = field(default_factory=list)
    matched: str | None = None      # the posting whose evidence put this one in its group

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "status": self.status, "dup_group": self.dup_group,
                "duplicate_of": self.duplicate_of, "score": self.score, "reason": self.reason, "why": self.why,
                "matched": self.matched}


@dataclass
class _Rec:
    """What the service knows about one posting for candidate comparison."""

    id: str
    feats: dict[str, Any]
    sketch: np.ndarray
    dup_group: str
    keys: list[str]
    ex: Any | None = None   # signatures.extract.Extracted of window postings (the Verifier's input)
    first_seen: str | None = None  # the canonical rule's key (earliest first_seen, then id)


def _feature_dicts(postings: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], np.ndarray, np.ndarray, list[list[str]]]:
    """Feature dicts, uint32 sketches, full uint64 sketches and band keys of a batch."""
    fb = compute_features(postings, with_keys=True)
    full_keys = fb.band_keys
    feats, keys = [], []
    for i in range(len(postings)):
        feats.append({
            "content": int(fb.content[i]), "url": int(fb.url[i]), "profile_sig": fb.profile_hex[i],
            "company": int(fb.company[i]), "title": int(fb.title[i]), "location": int(fb.location[i]),
            "ntok": int(fb.ntok[i]),
        })
        keys.append(full_keys[i] if full_keys is not None else [])
    return feats, fb.sketch, fb.sketch_full, keys


def _feats_from_doc(doc: Mapping[str, Any]) -> dict[str, Any]:
    def h(name: str) -> int:
        v = doc.get(name)
        try:
            return int(v, 16) if v else 0
        except ValueError:
            return 0
    return {"content": h("content_key_s"), "url": h("url_key_s"), "profile_sig": doc.get("profile_sig") or "",
            "company": h("company_key_s"), "title": h("title_key_s"), "location": h("location_key_s"),
            "ntok": int(doc.get("ntok_i") or 0)}


def exact_keys(feats: Mapping[str, Any]) -> list[str]:
    """Lookup keys for exact evidence, in the same namespace as band keys (window index)."""
    out = []
    if feats["content"]:
        out.append(f"c:{_hex(feats['content'])}")
    if feats["url"]:
        out.append(f"u:{_hex(feats['url'])}")
    if feats["profile_sig"] and feats["ntok"] >= decision_glue.MIN_TOKENS_FOR_PROFILE:
        out.append(f"p:{feats['profile_sig']}")
    return out


class _Table:
    """Candidate features as arrays: pool postings first, then the batch's own postings in order."""

    def __init__(self, pool: list[_Rec], batch_feats: list[dict[str, Any]], batch_ids: list[str]) -> None:
        rows = [r.feats for r in pool] + batch_feats
        self.ids = np.array([r.id for r in pool] + list(batch_ids), dtype=object)
        self.groups: list[str] = [r.dup_group for r in pool]
        self.cols = {k: np.array([_key64(x[k]) for x in rows], dtype=np.uint64)
                     for k in ("content", "url", "profile_sig", "company", "title", "location")}
        self.ntok = np.array([x["ntok"] for x in rows], dtype=np.int64)
        self.npool = len(pool)

    def decide(self, i: int, n: int, est: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Placeholder decision of batch posting i against the first n candidates: accept, score, bits,
        company conflict (decision_glue.pair_evidence)."""
        cols = {("profile" if k == "profile_sig" else k): v for k, v in self.cols.items()}
        return decision_glue.pair_evidence(cols, self.ntok, np.full(n, self.npool + i), np.arange(n), est)


def _outcome(pid: str, decided: tuple[np.ndarray, np.ndarray, np.ndarray, dict[int, list[str]]], cand: _Table,
             est: np.ndarray) -> tuple[str, str | None, float | None, list[str], str | None]:
    """A posting's group from its decisions against the candidates before it: the group of the accepted
    candidate with the best score (ties: the smallest group id), else its own. Returns (group,
    duplicate_of, score, why, matched)."""
    accept, sc, bits, vwhy = decided
    accept = accept & (cand.ids[:len(accept)] != pid)
    if not accept.any():
        return pid, None, None, [], None
    idx = np.flatnonzero(accept)
    top = sc[idx].max()
    best = min(idx[sc[idx] == top], key=lambda j: cand.groups[j])
    group = cand.groups[best]
    why = decision_glue.why_list(int(bits[best]), float(est[best])) + vwhy.get(int(best), [])
    return group, group if group != pid else None, round(float(top), 4), why, str(cand.ids[best])


def _values(v: Any) -> list[Any]:
    """A field's values (none for a missing field)."""
    return [] if v is None else list(v) if isinstance(v, list | tuple) else [v]


def _key64(v: Any) -> int:
    if isinstance(v, str):
        return int(v[:16], 16) if v else 0
    return int(v)


class RecentWindow:
    """Postings written recently by this process, indexed by band and exact keys (bounded, FIFO)."""

    def __init__(self, size: int = 20000) -> None:
        self.size = size
        self.recs: OrderedDict[str, _Rec] = OrderedDict()
        self.index: dict[str, set[str]] = {}

    def add(self, rec: _Rec) -> None:
        self.remove(rec.id)
        self.recs[rec.id] = rec
        for k in rec.keys:
            self.index.setdefault(k, set()).add(rec.id)
        while len(self.recs) > self.size:
            self.remove(next(iter(self.recs)))

    def remove(self, pid: str) -> None:
        rec = self.recs.pop(pid, None)
        if rec is None:
            return
        for k in rec.keys:
            s = self.index.get(k)
            if s is not None:
                s.discard(pid)
                if not s:
                    del self.index[k]

    def candidates(self, keys: Sequence[str]) -> list[_Rec]:
        ids: set[str] = set()
        for k in keys:
            ids |= self.index.get(k, set())
        return [self.recs[i] for i in ids]


def _clean_doc(p: Mapping[str, Any], derived: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The posting's own fields as Solr will store them (computed, internal and `derived` fields -- those
    Solr fills itself, see service.solr_schema -- dropped)."""
    doc: dict[str, Any] = {}
    for k, v in p.items():
        if k in COMPUTED or k in _SOLR_INTERNAL or k in ("first_seen", "last_seen") or k in derived or v is None:
            continue
        if k != "id" and not _FIELD_NAME_RE.match(k):
            continue
        if isinstance(v, dict):
            v = orjson.dumps(v).decode()
        elif isinstance(v, list):
            v = [orjson.dumps(x).decode() if isinstance(x, dict | list) else x for x in v if x is not None]
        doc[k] = v
    return doc


#: Numeric ranges of the schema's number fields by name suffix (solr-config/postings managed-schema:
#: *_i / *_is pint, *_l plong, *_f pfloat): Solr silently wraps an int beyond them (2147483648 is stored
#: as -2147483648, 2^40 as 0) or stores a float beyond them as Infinity, so such values are refused.
_NUMBER_RANGES = (("_is", "int", -(2**31), 2**31 - 1), ("_i", "int", -(2**31), 2**31 - 1),
                  ("_l", "long", -(2**63), 2**63 - 1), ("_f", "float", -3.4028234663852886e38, 3.4028234663852886e38))


def _number_reason(name: str, v: Any) -> str | None:
    """Why a value of field `name` would not survive Solr's number type, or None."""
    for suffix, kind, lo, hi in _NUMBER_RANGES:
        if name.endswith(suffix):
            for x in v if isinstance(v, list) else (v,):
                if isinstance(x, int | float) and not isinstance(x, bool) and not lo <= x <= hi:
                    return f"field {name[:100]!r} holds {x!r}, outside Solr's {kind} range {lo}..{hi}"
            return None
    return None


def text_cap_reason(p: Mapping[str, Any], max_text_chars: int = MAX_TEXT_CHARS) -> str | None:
    """Why a posting's text is too long to process (a field over the cap), or None."""
    for name, v in p.items():
        if isinstance(v, str) and len(v) > max_text_chars:
            return (f"field {name[:100]!r} has {len(v):,} characters, over the cap of {max_text_chars:,} "
                    "(JOBDEDUP_MAX_TEXT_CHARS)")
    return None


def reject_reason(p: Mapping[str, Any], max_text_chars: int = MAX_TEXT_CHARS) -> str | None:
    """Why a posting cannot be indexed (over-size text, unreadable date, a number Solr would wrap), or None."""
    reason = text_cap_reason(p, max_text_chars)
    if reason:
        return reason
    for name, v in p.items():
        if isinstance(v, int | float | list) and (reason := _number_reason(name, v)):
            return reason
    for name in ("first_seen", "last_seen", "posted_at"):
        v = p.get(name)
        if v is not None:
            try:
                iso_instant(v, name)
            except ValueError as exc:
                return str(exc)
    return None


@dataclass
class Prepared:
    """A batch after the lock-free part of ingest: validation and features."""

    results: list[Result | None]
    uniq: list[int]
    same_as: dict[int, int]
    batch: list[Mapping[str, Any]]
    feats: list[dict[str, Any]]
    sketches: np.ndarray
    full: np.ndarray
    keys: list[list[str]]
    extracted: list[Any] | None = None   # signatures.extract.Extracted per `batch` posting, when computed


def extract_postings(postings: Sequence[Mapping[str, Any]]) -> list[Any]:
    """Main text, fields and lines of each posting (signatures.extract): the Verifier's and the
    boilerplate model's input."""
    from signatures.extract import extract

    return [extract(p) for p in postings]


def prepare_batch(postings: Sequence[Mapping[str, Any]], max_text_chars: int = MAX_TEXT_CHARS,
                  extract: bool = False, schema: Schema | None = None) -> Prepared:
    """Validate a batch and compute its features (CPU only; safe to run in worker processes).
    `extract`: also extract every posting (worker processes of `jobdedup index` do it ahead of the
    writer; otherwise `Ingestor.apply` extracts only the postings whose content is new). `schema`: also
    reject what the collection's schema would refuse (Ingestor.schema)."""
    results: list[Result | None] = [None] * len(postings)
    todo: list[int] = []
    last_pos: dict[str, int] = {}
    for i, p in enumerate(postings):
        reason = reject_reason(p, max_text_chars)
        if not reason and schema is not None:
            reason = schema.reject_reason(_clean_doc(p, schema.derived))
        if reason:
            results[i] = Result(str(p.get("id")), "rejected", reason=reason)
        else:
            todo.append(i)
            last_pos[p["id"]] = i
    # the same id twice in one batch: the last one wins, earlier ones report its outcome as "updated"
    uniq = [i for i in todo if last_pos[postings[i]["id"]] == i]
    same_as = {i: last_pos[postings[i]["id"]] for i in todo if last_pos[postings[i]["id"]] != i}
    batch = [postings[i] for i in uniq]
    if batch:
        feats, sketches, full, keys = _feature_dicts(batch)
    else:
        feats, sketches, full, keys = [], np.zeros((0, sketching.NUM_PERM), np.uint32), \
            np.zeros((0, sketching.NUM_PERM), np.uint64), []
    return Prepared(results, uniq, same_as, batch, feats, sketches, full, keys,
                    extract_postings(batch) if extract else None)


class Ingestor:
    """Dedup-aware writer into one Solr collection.

    `state` holds the collection's boilerplate model (learned from the postings this service indexes,
    persisted by `service.state`); the Verifier sees it, so a company blurb shared by many of the
    company's jobs counts little when two of its postings are compared. New postings are learned in
    steps of `learn_every` (and at every save): between steps the model is constant, so a candidate's
    prepared form is reused across batches instead of being rebuilt for every batch. Postings re-sent
    with unchanged content keep their group without candidates or verification. `stats` counts the work.
    """

    def __init__(self, solr: Solr, commit_within_ms: int = 1000, window_size: int = 20000,
                 max_text_chars: int = MAX_TEXT_CHARS, max_candidates: int = 2000,
                 state: BoilerplateState | None = None, learn_every: int = 1000) -> None:
        self.solr = solr
        self.commit_within_ms = commit_within_ms
        self.window = RecentWindow(window_size)
        self.max_text_chars = max_text_chars
        self.max_candidates = max_candidates
        self.lock = threading.Lock()
        self.state = state if state is not None else BoilerplateState(None)
        self.verifier = decision_glue.make_verifier(self.state.model)
        self.stats: Counter[str] = Counter()
        self.learn_every = learn_every
        self._to_learn: list[Any] = []    # learning records of written postings (journaled), not yet in the model
        self._generation = 0              # bumped whenever the model (or the verifier) changes
        self._extracted: OrderedDict[tuple[str, int], Any] = OrderedDict()  # (id, content key) -> Extracted
        # (id, content key) -> (model generation, Prepared): valid while the model is unchanged
        self._prepared: OrderedDict[tuple[str, int], tuple[int, Any]] = OrderedDict()
        self._schema: Schema | None = None

    @property
    def schema(self) -> Schema:
        """The collection's schema rules (read from Solr once): what a posting may hold."""
        if self._schema is None:
            self._schema = Schema.from_api(self.solr.schema())
        return self._schema

    @property
    def boilerplate(self) -> Any:
        """The collection's signatures.boilerplate.BoilerplateModel."""
        return self.state.model

    @property
    def learned_postings(self) -> int:
        """Postings the boilerplate model has counted, plus those queued for its next learning step."""
        return self.state.model.postings + len(self._to_learn)

    def _learn_unconfirmed(self) -> None:
        """Learn the postings of writes whose outcome was unknown (a request that failed after Solr may have
        stored it; the batch in flight when a process was killed) that Solr holds with that content: re-sent
        unchanged, they would not be learned (call under the lock)."""
        pending = self.state.unconfirmed()
        if pending:
            stored = {d["id"]: d.get("content_key_s")
                      for d in self.solr.get(sorted({pid for pid, _, _ in pending}), fl="id,content_key_s")}
            learned = self.state.confirm(rec for pid, key, rec in pending if stored.get(pid) == key)
            self._to_learn.extend(learned)
            self.stats["boilerplate_added"] += len(learned)

    def _learn(self) -> None:
        """Add the queued postings to the boilerplate model (call under the lock)."""
        if self._to_learn:
            self.state.add(self._to_learn)
            self._to_learn = []
            self._generation += 1

    # -- the batch -----------------------------------------------------------------------------------
    def batch_schema(self, postings: Sequence[Mapping[str, Any]]) -> Schema | None:
        """The schema rules for `prepare_batch`; read from Solr only for a batch that will reach Solr."""
        return self.schema if any(reject_reason(p, self.max_text_chars) is None for p in postings) else None

    def ingest(self, postings: Sequence[Mapping[str, Any]]) -> list[Result]:
        """Deduplicate and write a batch; one Result per input posting, in order."""
        return self.apply(prepare_batch(postings, self.max_text_chars, schema=self.batch_schema(postings)))

    def apply(self, prep: Prepared) -> list[Result]:
        """Decide and write a prepared batch (the part that needs the lock and Solr), then learn the
        new postings' boilerplate and save the model when a periodic save is due."""
        results = list(prep.results)
        if prep.batch:
            extracted = self._extract_new(prep)  # outside the lock: extraction is the slow part
            with self.lock:
                out = self._decide_and_write(prep.batch, prep.feats, prep.sketches, prep.full, prep.keys,
                                             extracted)
            for i, r in zip(prep.uniq, out, strict=True):
                results[i] = r
            if self.state.due():
                self.save(flush=False)
        for i, j in prep.same_as.items():
            r = results[j]
            results[i] = Result(r.id, "rejected", reason=r.reason) if r.status == "rejected" else \
                Result(r.id, "updated", r.dup_group, r.duplicate_of, r.score, why=r.why, matched=r.matched)
        return [r for r in results if r is not None]

    def save(self, flush: bool = True) -> bool:
        """Write the boilerplate model to its state file now if it changed (False: nothing written); a
        model another process saved meanwhile (recompute's refit) is adopted first, not overwritten.
        `flush` (shutdown, end of `index`) first learns the queued postings; periodic saves do not, so
        when the model changes never depends on the wall clock (the same input decides the same way)."""
        with self.lock:
            if flush:
                self._learn()
            if self.state.sync():
                self.verifier = decision_glue.make_verifier(self.state.model)
                self._generation += 1
            data = self.state.snapshot()
        return self.state.write(data)

    def _unchanged(self, batch: list[Mapping[str, Any]], feats: list[dict[str, Any]]) -> set[int]:
        """Batch positions whose id is already indexed with the same content (window, else Solr)."""
        out: set[int] = set()
        ask: list[int] = []
        for i, p in enumerate(batch):
            rec = self.window.recs.get(p["id"])
            if rec is not None and rec.feats["content"] == feats[i]["content"]:
                out.add(i)
            else:
                ask.append(i)
        if ask:
            known = {d["id"]: d for d in self.solr.get([batch[i]["id"] for i in ask], fl="id,content_key_s,dup_group")}
            for i in ask:
                d = known.get(batch[i]["id"])
                if d is not None and d.get("dup_group") and d.get("content_key_s") == _hex(feats[i]["content"]):
                    out.add(i)
        return out

    def _extract_new(self, prep: Prepared) -> list[Any | None]:
        """Extracted per batch posting: computed ahead (workers), cached, or extracted now; None for
        postings re-sent with unchanged content (they need neither the Verifier nor the model)."""
        if prep.extracted is not None:
            return list(prep.extracted)
        if self.verifier is None:
            return [None] * len(prep.batch)
        skip = self._unchanged(prep.batch, prep.feats)
        out: list[Any | None] = [None] * len(prep.batch)
        todo = []
        for i, p in enumerate(prep.batch):
            if i in skip:
                continue
            got = self._extracted.get((p["id"], prep.feats[i]["content"]))
            if got is not None:
                out[i] = got
            else:
                todo.append(i)
        for i, ex in zip(todo, extract_postings([prep.batch[i] for i in todo]), strict=True):
            out[i] = ex
        self.stats["extracted"] += len(todo)
        return out

    def _prepare(self, v: Any, pid: str, content: int, ex: Any) -> Any:
        """v.prepare(ex), reused from an earlier batch while the model has not changed."""
        key = (pid, content)
        hit = self._prepared.get(key)
        if hit is not None and hit[0] == self._generation:
            self._prepared.move_to_end(key)
            return hit[1]
        got = v.prepare(ex)
        self._prepared[key] = (self._generation, got)
        self._prepared.move_to_end(key)
        while len(self._prepared) > self.window.size:
            self._prepared.popitem(last=False)
        self.stats["prepared"] += 1
        return got

    def _remember(self, pid: str, content: int, ex: Any) -> None:
        key = (pid, content)
        self._extracted[key] = ex
        self._extracted.move_to_end(key)
        while len(self._extracted) > self.window.size:
            self._extracted.popitem(last=False)

    def _solr_candidates(self, feats: list[dict[str, Any]], keys: list[list[str]]) -> list[_Rec]:
        bands = sorted({k for ks in keys for k in ks})
        contents = sorted({_hex(f["content"]) for f in feats if f["content"]})
        urls = sorted({_hex(f["url"]) for f in feats if f["url"]})
        profs = sorted({f["profile_sig"] for f in feats
                        if f["profile_sig"] and f["ntok"] >= decision_glue.MIN_TOKENS_FOR_PROFILE})
        params: dict[str, Any] = {"fl": STATE_FL, "rows": self.max_candidates}
        shoulds = []
        for name, field_name, values in (("qb", "mh_bands", bands), ("qc", "content_key_s", contents),
                                         ("qu", "url_key_s", urls), ("qp", "profile_sig", profs)):
            if values:
                params[name] = terms_query(field_name, values)
                shoulds.append(f"should=${name}")
        if not shoulds:
            return []
        # as a filter, not q: /select defaults to edismax, and SolrCloud rejects big {!terms} main queries
        params["q"] = "*:*"
        params["fq"] = "{!bool cache=false " + " ".join(shoulds) + "}"
        docs = self.solr.query(params)["response"]["docs"]
        out = []
        for d in docs:
            sk = decode_sketch(d.get("mh_sketch"))
            if sk is None:
                continue
            out.append(_Rec(d["id"], _feats_from_doc(d), sk, d.get("dup_group") or d["id"], [],
                            first_seen=d.get("first_seen")))
        return out

    def _fetch_extracted(self, recs: Sequence[_Rec]) -> None:
        """Into the extraction cache: the stored text of postings known by their features only (Solr's)."""
        need = {r.id: r for r in recs if r.ex is None and (r.id, r.feats["content"]) not in self._extracted}
        if not need:
            return
        got = [d for d in self.solr.get(sorted(need), fl=",".join(VERIFY_FIELDS)) if d["id"] in need]
        for d, ex in zip(got, extract_postings(got), strict=True):
            self._remember(d["id"], need[d["id"]].feats["content"], ex)
        self.stats["extracted"] += len(got)

    def _verify(self, batch: Sequence[Any], ids: list[str], pool_recs: list[_Rec],
                cand: _Table, est_all: np.ndarray, extracted: list[Any | None],
                unchanged: set[int]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, dict[int, list[str]]]]:
        """Decisions of each batch posting against its candidates (pool, then the earlier batch postings):
        the placeholder rule, with ambiguous MinHash pairs decided by the issue-5 Verifier (with the
        collection's boilerplate model). Candidates' text: window records, the cache, else Solr.
        Postings re-sent unchanged (`unchanged`) are not decided at all: they keep their group."""
        npool = len(pool_recs)
        decided = []
        amb_pairs: list[tuple[int, int]] = []
        v = self.verifier
        for i in range(len(batch)):
            n = npool + i
            if i in unchanged:
                decided.append((np.zeros(n, bool), np.zeros(n, np.float32), np.zeros(n, np.int32), {}))
                continue
            accept, sc, bits, cc = cand.decide(i, n, est_all[i, :n])
            decided.append((accept, sc.copy(), bits.copy(), {}))
            if v is None:
                continue
            amb = decision_glue.ambiguous(bits, est_all[i, :n], cc) & (cand.ids[:n] != ids[i])
            amb_pairs.extend((i, int(j)) for j in np.flatnonzero(amb))
        if v is None or not amb_pairs:
            return decided

        def content(j: int) -> int:
            return int(cand.cols["content"][j])

        def cached(j: int) -> Any | None:
            if j >= npool:
                return extracted[j - npool]
            r = pool_recs[j]
            return r.ex if r.ex is not None else self._extracted.get((r.id, content(j)))

        self._fetch_extracted([pool_recs[j] for j in {j for _, j in amb_pairs if j < npool}])
        prepared: dict[int, Any] = {}  # candidate row -> Prepared, with the model as it is now

        def prep(j: int) -> Any | None:
            if j not in prepared:
                ex = cached(j)
                prepared[j] = None if ex is None else self._prepare(v, str(cand.ids[j]), content(j), ex)
            return prepared[j]

        pairs, where = [], []
        for i, j in amb_pairs:
            a, b = prep(npool + i), prep(j)
            if a is None or b is None:  # no stored text (e.g. deleted meanwhile): keep the placeholder decision
                continue
            pairs.append((a, b))
            where.append((i, j))
        for (i, j), d in zip(where, v.decide_many(pairs), strict=True):  # est is in why already (jaccard~)
            accept, sc, bits, why = decided[i]
            accept[j] = d.duplicate
            sc[j] = d.score
            bits[j] = decision_glue.VERIFIED
            why[j] = list(d.reasons)
        self.stats["verifier_pairs"] += len(pairs)
        return decided

    def _decide_and_write(self, batch: list[Mapping[str, Any]], feats: list[dict[str, Any]],
                          sketches: np.ndarray, full: np.ndarray, keys: list[list[str]],
                          extracted: list[Any | None]) -> list[Result]:
        self._learn_unconfirmed()
        ids = [p["id"] for p in batch]
        existing = {d["id"]: d for d in self.solr.get(ids, fl=STATE_FL + ",_version_")}
        unchanged = set()
        for i, pid in enumerate(ids):
            old = existing.get(pid)
            if old is not None and old.get("dup_group") and old.get("content_key_s") == _hex(feats[i]["content"]):
                unchanged.add(i)
        extracted = list(extracted)
        missing = [i for i in range(len(batch)) if i not in unchanged and extracted[i] is None]
        if missing and self.verifier is not None:  # e.g. deleted since the check outside the lock
            for i, ex in zip(missing, extract_postings([batch[i] for i in missing]), strict=True):
                extracted[i] = ex

        lookup = [keys[i] + exact_keys(feats[i]) for i in range(len(batch))]
        fresh = [i for i in range(len(batch)) if i not in unchanged]
        pool: dict[str, _Rec] = {r.id: r for r in self._solr_candidates([feats[i] for i in fresh],
                                                                        [keys[i] for i in fresh])} if fresh else {}
        # postings written by this process but possibly not searchable yet: newer than Solr's view
        for i in fresh:
            for r in self.window.candidates(lookup[i]):
                pool[r.id] = r
        for i in fresh:  # the old version of a posting re-sent with new content is no candidate: the new one is
            pool.pop(ids[i], None)
        pool_recs = list(pool.values())
        cand = _Table(pool_recs, feats, ids)
        allsk = np.concatenate([np.stack([r.sketch for r in pool_recs]) if pool_recs
                                else np.zeros((0, sketches.shape[1]), np.uint32), sketches])
        est_all = (sketches[:, None, :] == allsk[None, :, :]).mean(axis=2) if len(batch) else np.zeros((0, 0))
        decided = self._verify(batch, ids, pool_recs, cand, est_all, extracted, unchanged) if len(batch) else []
        # a canonical posting re-sent as another job (it accepts none of its old group): the rest of its group
        # is decided again first, so the batch's postings join their new groups
        npool = len(pool_recs)
        pool_groups = np.array(cand.groups, dtype=object)
        orphaned = {pid for i, pid in enumerate(ids) if i not in unchanged and existing.get(pid, {}).get("dup_group") == pid
                    and not (decided[i][0][:npool] & (pool_groups == pid) & (cand.ids[:npool] != pid)).any()}
        regrouped = self._regroup(orphaned, skip={ids[i] for i in fresh}) if orphaned else {}
        for j, r in enumerate(pool_recs):
            if r.id in regrouped:
                cand.groups[j] = regrouped[r.id][0]
        straight = self._straight_groups({i: batch[i] for i in fresh})
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        docs: list[dict[str, Any]] = []
        results: list[Result] = []
        new_recs: list[_Rec] = []
        for i, p in enumerate(batch):
            pid = ids[i]
            old = existing.get(pid)
            f = feats[i]
            if i in unchanged:
                group = old["dup_group"]
                dup_of = old.get("duplicate_of")
                score = old.get("dup_score")
                why = list(old.get("dup_why_ss") or [])
                matched = old.get("dup_match_s")
                if pid in regrouped:
                    group, dup_of, score, why, matched = regrouped[pid]
            else:
                group, dup_of, score, why, matched = _outcome(pid, decided[i], cand, est_all[i])
                if group == pid and i in straight:  # heads no group yet: join the straight-indexed copies'
                    group, matched = straight[i]
                    dup_of, score, why = matched, 1.0, ["solr_signature"]
                    self.stats["joined_straight"] += 1
            cand.groups.append(group)
            status = "updated" if old is not None else ("duplicate" if dup_of else "new")
            fs = iso_instant(p.get("first_seen") or p.get("posted_at"), "first_seen") or now
            ls = iso_instant(p.get("last_seen"), "last_seen") or fs
            seen = p.get("seen_count") if isinstance(p.get("seen_count"), int) and p.get("seen_count") > 0 else 1
            if old is not None:
                ofs, ols = old.get("first_seen"), old.get("last_seen")
                oseen = int(old.get("seen_count") or 1)
                dated = any(p.get(k) for k in ("first_seen", "last_seen", "posted_at"))
                if not dated:  # a plain re-send (e.g. a retried batch) is not a new sighting
                    fs, ls = ofs or fs, ols or ls
                seen = oseen + 1 if (dated and ols and ls > ols) else oseen
                fs = min(fs, ofs) if ofs else fs
                ls = max(ls, ols) if ols else ls
            doc = _clean_doc(p, self.schema.derived)
            doc.update({
                "profile_sig": f["profile_sig"] or None, "mh_bands": keys[i], "mh_sketch": encode_sketch(full[i]),
                "content_key_s": _hex(f["content"]) or None, "url_key_s": _hex(f["url"]) or None,
                "company_key_s": _hex(f["company"]) or None, "title_key_s": _hex(f["title"]) or None,
                "location_key_s": _hex(f["location"]) or None, "ntok_i": f["ntok"],
                "dup_group": group, "duplicate_of": dup_of, "dup_score": score, "dup_why_ss": why or None,
                "dup_match_s": matched, "sig_version": SIG_VERSION,
                "first_seen": fs, "last_seen": ls, "seen_count": seen,
            })
            docs.append({k: v for k, v in doc.items() if v is not None and v != []})
            results.append(Result(pid, status, group, dup_of, None if score is None else round(float(score), 4),
                                  why=why, matched=matched))
            new_recs.append(_Rec(pid, f, sketches[i], group, lookup[i], extracted[i], fs))
        self.state.intend((ids[i], _hex(feats[i]["content"]), extracted[i]) for i in range(len(batch))
                          if i not in unchanged and extracted[i] is not None)
        refused = self._write(docs)
        if self.solr.is_cloud():  # a posting re-added under another group may have left a copy on the old shard
            for i, pid in enumerate(ids):
                old = existing.get(pid)
                if i not in refused and old is not None and old.get("_version_") and \
                        old.get("dup_group") not in (None, results[i].dup_group):
                    self.solr.delete_old_copy(pid, old["dup_group"], old["_version_"])
        for i, reason in refused.items():
            results[i] = Result(ids[i], "rejected", reason=f"Solr refused it: {reason}")
        # written: now (and only now) the window, the caches and the boilerplate model learn the batch
        for i, r in enumerate(new_recs):
            if i not in refused:
                self.window.add(r)
        learn = [extracted[i] for i in range(len(batch))
                 if i not in unchanged and i not in refused and extracted[i] is not None]
        for i in range(len(batch)):
            if extracted[i] is not None and i not in refused:
                self._remember(ids[i], feats[i]["content"], extracted[i])
        self._to_learn.extend(self.state.journal(learn))  # durable before the batch is acknowledged
        # a new canonical posting Solr refused: the batch's postings that joined it are decided again
        lost = {ids[i] for i in refused if ids[i] not in existing}
        if lost:
            pos = {pid: i for i, pid in enumerate(ids)}
            for pid, (group, dup_of, score, why, matched) in self._regroup(lost, skip=set()).items():
                if pid in pos:
                    status = "updated" if pid in existing else ("duplicate" if dup_of else "new")
                    results[pos[pid]] = Result(pid, status, group, dup_of, score, why=why, matched=matched)
        if len(self._to_learn) >= self.learn_every:
            self._learn()
        self.stats["resent_unchanged"] += len(unchanged)
        self.stats["boilerplate_added"] += len(learn)
        self.stats["batches"] += 1
        return results

    def _straight_groups(self, postings: Mapping[int, Mapping[str, Any]]) -> dict[int, tuple[str, str]]:
        """Postings that Solr signs like a searchable posting indexed straight into Solr (without the service,
        so no `sig_version`; its chain named its group): position -> (that group, that posting's id), the
        smallest group when there are several, as the chain's plugin picks. Such a posting is not a MinHash
        candidate (it has no sketch), so a copy would otherwise open a second group."""
        cfg = self.solr.signing()
        if not postings or not cfg or not cfg["fields"] or not cfg["signatureClass"].endswith("TextProfileSignature"):
            return {}
        fields = cfg["fields"]
        written = {i: {k: v for k, v in _clean_doc(p, self.schema.derived).items() if v != []}  # as _write sends it
                   for i, p in postings.items()}
        pos = [i for i, d in written.items()  # no text to sign: the chain makes such a posting its own group
               if any(str(v).strip() for f in fields for v in _values(d.get(f)))]
        if not pos:
            return {}
        docs = [written[i] for i in pos]
        sigs = textprofile.solr_fields_signatures(docs, fields, cfg["quantRate"], cfg["minTokenLen"])
        field = cfg["signatureField"]
        found: dict[str, list[tuple[str, str]]] = {}
        res = self.solr.query({"q": "*:*", "fq": [terms_query(field, sorted(set(sigs))), "-sig_version:[* TO *]"],
                               "fl": f"id,dup_group,{field}", "sort": "dup_group asc,id asc",
                               "rows": self.max_candidates})
        for d in res["response"]["docs"]:
            if d.get("dup_group"):
                found.setdefault(d[field], []).append((d["dup_group"], d["id"]))
        out = {}
        for i, sig in zip(pos, sigs, strict=True):
            other = next((g for g in found.get(sig, []) if g[1] != postings[i]["id"]), None)
            if other is not None:
                out[i] = other
        return out

    def _regroup(self, groups: set[str], skip: set[str]) -> dict[str, tuple[str, str | None, float | None, list[str],
                                                                            str | None]]:
        """The postings left in `groups`, whose canonical posting is no longer theirs (except `skip`: batch
        postings decided anew), decided again among themselves in the canonical order (earliest first_seen,
        then id): each joins the earliest member it duplicates, else heads its own group. Writes their group
        fields (service.regroup) and puts them in the window with their new group; returns (group,
        duplicate_of, score, why, matched) by id."""
        members: dict[str, _Rec] = {}
        for page, _, _ in self.solr.stream({"q": "*:*", "fq": terms_query("dup_group", sorted(groups)),
                                            "fl": STATE_FL}, rows=1000):
            for d in page:
                sk = decode_sketch(d.get("mh_sketch"))
                if sk is not None:
                    f = _feats_from_doc(d)
                    keys = (band_keys_of(d["mh_sketch"]) or []) + exact_keys(f)
                    members[d["id"]] = _Rec(d["id"], f, sk, d["dup_group"], keys, first_seen=d.get("first_seen"))
        for r in list(self.window.recs.values()):  # newer than Solr's view
            if r.dup_group in groups:
                members[r.id] = r
            else:
                members.pop(r.id, None)
        for pid in groups | skip:
            members.pop(pid, None)
        if not members:
            return {}
        recs = sorted(members.values(), key=lambda r: (r.first_seen or "~", r.id))
        ids = [r.id for r in recs]
        cand = _Table([], [r.feats for r in recs], ids)
        sk = np.stack([r.sketch for r in recs])
        if len(recs) > MAX_REGROUP:  # a huge group: each member against the new canonical only (memory O(n))
            est = (sk == sk[0]).mean(axis=1, dtype=np.float32)[:, None]
            decided = [cand.decide(i, min(i, 1), est[i, :min(i, 1)]) + ({},) for i in range(len(recs))]
        else:
            est = np.empty((len(recs), len(recs)), np.float32)
            for s in range(0, len(recs), 64):
                est[s:s + 64] = (sk[s:s + 64, None, :] == sk[None, :, :]).mean(axis=2)
            if self.verifier is not None:
                self._fetch_extracted(recs)
            extracted = [r.ex if r.ex is not None else self._extracted.get((r.id, r.feats["content"])) for r in recs]
            decided = self._verify(recs, ids, [], cand, est, extracted, set())
        out = {}
        for i, r in enumerate(recs):
            out[r.id] = _outcome(r.id, decided[i], cand, est[i])
            cand.groups.append(out[r.id][0])
        write_groups(self.solr, {pid: (g, d or "", sc, why, m or "") for pid, (g, d, sc, why, m) in out.items()},
                     self.commit_within_ms)
        for r in recs:
            r.dup_group = out[r.id][0]
            self.window.add(r)
        self.stats["regrouped"] += len(recs)
        return out

    def _write(self, docs: list[dict[str, Any]]) -> dict[int, str]:
        """Write `docs` in one update request. Solr stops at the first document it refuses (400) and keeps
        the ones before it, so then the documents are written in halves, down to the refused ones: every
        other document is written (re-adding a whole document is idempotent). Returns position -> Solr's
        reason for each refused document."""
        try:
            self.solr.update(docs, commit_within_ms=self.commit_within_ms)
            return {}
        except SolrError as exc:
            if exc.status != 400:
                raise
            if len(docs) == 1:
                return {0: str(exc)}
        self.stats["write_bisections"] += 1
        mid = len(docs) // 2
        refused = self._write(docs[:mid])
        refused.update({mid + k: v for k, v in self._write(docs[mid:]).items()})
        return refused


def signatures_of(postings: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Compute-only: the signatures the service would store for each posting (no Solr)."""
    from signatures import profile, textprofile

    feats, _, full, keys = _feature_dicts(postings)
    solr_sigs = textprofile.solr_fields_signatures(postings, profile.PROFILE_FIELDS,
                                                   textprofile.DEFAULT_QUANT_RATE,
                                                   textprofile.DEFAULT_MIN_TOKEN_LEN)
    out = []
    for i, p in enumerate(postings):
        out.append({
            "id": p["id"],
            "signature": solr_sigs[i],
            "profile_sig": feats[i]["profile_sig"],
            "mh_bands": keys[i],
            "mh_sketch": encode_sketch(full[i]),
            "content_key": _hex(feats[i]["content"]),
            "url_key": _hex(feats[i]["url"]),
            "sig_version": SIG_VERSION,
        })
    return out
