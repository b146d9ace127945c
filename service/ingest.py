"""Ingest with dedup into Solr: features -> candidates (Solr, recent window, batch) -> the engine -> write.

Decisions are `jobdedup dedup`'s (service.engine.find_groups): the batch's new postings and their candidates
-- stored postings sharing an LSH band key, an exact key or a blocking key (service.candidates; the keys are
stored in `employer_key_s`, `contact_key_s`, `employer_title_key_s`), the recent window, the batch's earlier
postings -- go through the same candidate filter, evidence, Verifier, blocking pairs and connected
components (`BatchSource` is the engine's candidate source for a batch). A new posting that duplicates
postings of two stored groups merges them into the group whose canonical posting came first
(`Ingestor._merge`), as dedup's components would. Where the grouping's guard (service.graph.constrained_labels)
decided with part of the evidence -- a new posting's accepted pairs reach two stored groups, whose pairs across
were never scored, or a stored group and a scored pair below the cut -- that component is decided again from all
its members' pairs, as dedup decides it (`Ingestor._redecide`, up to MAX_REDECIDE postings), so the arrival
order does not choose the groups.

One `Ingestor` per process. Group assignment is serialized by a lock: the candidate lookup, the
decision, sending the Solr write and the update of the in-process recent-postings window happen under it, so
two duplicates sent in the same batch or in concurrent requests end in one group even before Solr
makes them searchable (the window stands in for the not-yet-committed postings). The write is pipelined:
`submit` decides a batch while Solr still writes the one before it (one write in flight, a writer thread),
counting that batch's postings as written (window, boilerplate model); the batch's own write is sent only
once Solr has answered the one before it, and its results are final only then (`Ticket.result`; `apply`
waits for them). A batch that re-sends a posting of the write in flight takes that posting's stored version
from the write (`Ingestor._stored`); one that merges or regroups stored groups, or runs on SolrCloud, waits
for that write first. Several service
processes do not share the window: duplicates racing through different processes within the
commit delay may open two groups; `jobdedup recompute` merges them.

Nothing is half-written: each posting is checked against the collection's schema (service.solr_schema)
and rejected with a reason if Solr would refuse it; the batch's documents go to Solr in one update request
after every decision is made. If Solr still refuses a document, the batch is written in halves until only
the refused ones are left out (rejected with Solr's reason). If Solr is down the request fails, the window
and the boilerplate model are taken back to what Solr holds, and a retry decides the same way; the batch
decided meanwhile counting the failed or refused postings is decided again after it (`submit` returns None). When a group's canonical
posting leaves it (re-sent as another job) or is refused, the rest of its group is decided again among
themselves (`Ingestor._regroup`), so every group keeps a head.

Ambiguous candidate pairs are decided by the Verifier with the collection's boilerplate model
(service.state), which learns every posting once it is written; a batch is decided with its own postings
and all postings written before it counted (as dedup's model counts every posting it judges), whatever the
learning step. A posting re-sent with unchanged content
(same id, same content key) keeps its stored group, score and reasons: no candidates, no verifier, no
extraction; only last_seen / seen_count move.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from itertools import repeat
from typing import Any

import numpy as np
import orjson

from service import candidates, decision_glue, sketching
from service.engine import CHAIN_NODES, Verify, date_key, find_groups, iso_date, iso_instant
from service.features import FeatureBatch, compute_features, profile_key
from service.graph import component_labels
from service.regroup import Regroup, drop_old_copies, write_groups
from service.settings import settings
from service.solr import REV, Solr, SolrError, terms_query
from service.solr_schema import Schema
from service.state import BoilerplateState
from signatures import SIG_VERSION, minhash, textprofile
from signatures.boilerplate import BoilerplateModel, StackedBoilerplate, learning_record, line_hashes
from signatures.features import prepare_unweighted, reweighted

log = logging.getLogger("jobdedup.ingest")

#: Largest accepted text field, in characters (env JOBDEDUP_MAX_TEXT_CHARS). Longer postings are
#: rejected with a reason, not truncated: a truncated text would sign differently from the original.
MAX_TEXT_CHARS = settings().max_text_chars

#: Fields the service computes; a client's values for them are ignored.
COMPUTED = ("signature", "profile_sig", "mh_bands", "mh_sketch", "dup_group", "duplicate_of", "dup_score",
            "sig_version", "seen_count", "content_key_s", "url_key_s", "company_key_s", "title_key_s",
            "location_key_s", "ntok_i", "dup_why_ss", "dup_match_s", "employer_key_s", "contact_key_s",
            "employer_title_key_s", REV)
#: Most postings (stored and new) a contested component may hold to be decided again from all its pairs
#: (`Ingestor._redecide`); a bigger one keeps the arrival-order decision.
MAX_REDECIDE = 200
#: Stored blocking keys (service.candidates.KEYS, in that order): the service's blocking candidates.
BLOCK_FIELDS = ("employer_key_s", "contact_key_s", "employer_title_key_s")
_BLOCK_PREFIX = ("e:", "k:", "t:")  # their namespace in the recent window's index
_SOLR_INTERNAL = ("_version_", "_root_", "_nest_path_", "score")
_STRAIGHT = "-sig_version:[* TO *]"  # postings indexed straight into Solr, not by the service
#: The configset's autoSoftCommit maxTime (solr-config/postings solrconfig.xml): how late Solr's search shows a
#: write sent without commitWithin.
AUTO_SOFT_COMMIT_MS = 3000
_FIELD_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_.\-]{0,99}$")
STATE_FL = ("id,dup_group,duplicate_of,dup_score,dup_why_ss,dup_match_s,content_key_s,url_key_s,profile_sig,"
            "company_key_s,title_key_s,location_key_s,ntok_i,mh_sketch,first_seen,last_seen,seen_count,sig_version,"
            f"{REV},"
            + ",".join(BLOCK_FIELDS))
_STATE_FIELDS = tuple(STATE_FL.split(","))
#: The stored source fields the Verifier's `prepare` reads (extraction, field evidence, date gap).
VERIFY_FIELDS = ("id", "title", "company", "location", "description", "url", "posted_at", "first_seen", "lang",
                 "source")


def encode_sketch(sketch: np.ndarray) -> str:
    """A sketch as base64 text for the stored `mh_sketch` field (signatures.minhash's encoding)."""
    return minhash.encode_sketch(sketch)


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


#: A posting's group fields: (group, duplicate_of, score, why, matched)
Outcome = tuple[str, str | None, float | None, list[str], str | None]


@dataclass
class _Rec:
    """What the service knows about one posting for candidate comparison: `feats` holds its keys (content,
    url, profile_sig, company, title, location, ntok), LSH band keys (`bands`, uint64) and blocking keys
    (`blocks`, uint64, service.candidates.KEYS)."""

    id: str
    feats: dict[str, Any]
    sketch: np.ndarray
    dup_group: str
    keys: list[str]
    ex: Any | None = None   # signatures.extract.Extracted of window postings (the Verifier's input)
    first_seen: str | None = None  # the canonical rule's key (earliest first_seen, then id)
    lines: tuple[list[str], list[int]] | None = None  # its boilerplate scopes and line hashes, when known
    hashes: np.ndarray | None = None  # signatures.boilerplate.line_hashes of `ex`, when computed ahead (workers)
    row: np.ndarray | None = field(default=None, repr=False)  # `feature_table`'s key columns of `feats` (made once)


def _feature_dicts(postings: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], np.ndarray, np.ndarray, list[list[str]]]:
    """Feature dicts, uint32 sketches, full uint64 sketches and band keys of a batch."""
    fb = compute_features(postings, with_keys=True)
    blocks = candidates.blocking_keys(postings)
    full_keys = fb.band_keys
    feats, keys = [], []
    for i in range(len(postings)):
        feats.append({
            "content": int(fb.content[i]), "url": int(fb.url[i]), "profile_sig": fb.profile_hex[i],
            "company": int(fb.company[i]), "title": int(fb.title[i]), "location": int(fb.location[i]),
            "ntok": int(fb.ntok[i]), "bands": fb.bands[i], "blocks": blocks[i],
        })
        keys.append(full_keys[i] if full_keys is not None else [])
    return feats, fb.sketch, fb.sketch_full, keys


def _recs_from_docs(docs: Sequence[Mapping[str, Any]], with_keys: bool = False) -> list[_Rec]:
    """Stored postings (STATE_FL) as candidate records (`with_keys`: with their window lookup keys);
    postings without a stored sketch (indexed straight into Solr) are left out. A posting without text (an empty
    sketch) is kept, with no band keys, as service.features keeps a new one: it joins and leaves groups by its
    exact and blocking keys, and a group it is in knows it (`_members`, `_merge`)."""
    def h(d: Mapping[str, Any], name: str) -> int:
        v = d.get(name)
        try:
            return int(v, 16) if v else 0
        except ValueError:
            return 0

    kept, fulls = [], []
    for d in docs:
        text = d.get("mh_sketch")
        if not text:
            continue
        try:
            fulls.append(minhash.decode_sketch(text, sketching.NUM_PERM))
        except ValueError:
            continue
        kept.append(d)
    if not kept:
        return []
    full = np.stack(fulls).astype(np.uint64)
    bands = sketching.band_hashes_batch(full)
    bands[sketching.is_empty(full)] = 0  # never a band-key candidate (service.features)
    band_strs = sketching.band_keys_batch(full) if with_keys else None  # [] for an empty sketch
    out = []
    for k, d in enumerate(kept):
        f = {"content": h(d, "content_key_s"), "url": h(d, "url_key_s"), "profile_sig": d.get("profile_sig") or "",
             "company": h(d, "company_key_s"), "title": h(d, "title_key_s"), "location": h(d, "location_key_s"),
             "ntok": int(d.get("ntok_i") or 0), "bands": bands[k],
             "blocks": np.array([h(d, b) for b in BLOCK_FIELDS], np.uint64)}
        lookup = band_strs[k] + exact_keys(f) + block_keys(f) if band_strs is not None else []
        out.append(_Rec(d["id"], f, full[k].astype(np.uint32), d.get("dup_group") or d["id"], lookup,
                        first_seen=d.get("first_seen")))
    return out


def exact_keys(feats: Mapping[str, Any]) -> list[str]:
    """Lookup keys for exact evidence, in the same namespace as band keys (window index)."""
    out = []
    if feats["content"]:
        out.append(f"c:{_hex(feats['content'])}")
    if feats["url"]:
        out.append(f"u:{_hex(feats['url'])}")
    if _profile_lookup(feats):
        out.append(f"p:{feats['profile_sig']}")
    return out


def _profile_lookup(feats: Mapping[str, Any]) -> bool:
    """Whether the posting's profile_sig is a lookup key: evidence (service.features.profile_key) on a text long
    enough to decide by it (decision_glue.MIN_TOKENS_FOR_PROFILE)."""
    return bool(profile_key(feats["profile_sig"])) and feats["ntok"] >= decision_glue.MIN_TOKENS_FOR_PROFILE


def block_keys(feats: Mapping[str, Any], skip: frozenset[int] = frozenset()) -> list[str]:
    """Lookup keys of the posting's blocking keys (window index), except the keys in `skip` (blocks too big)."""
    return [f"{pre}{_hex(int(k))}" for pre, k in zip(_BLOCK_PREFIX, feats["blocks"].tolist(), strict=True)
            if k and int(k) not in skip]


#: The `feats` keys `feature_table` reads as uint64 columns, in FeatureBatch's order (then ntok).
_TABLE_KEYS = ("content", "url", "profile_sig", "company", "title", "location")


def _row(r: _Rec) -> np.ndarray:
    """A record's `_TABLE_KEYS` as uint64 and its ntok: computed once (a window posting is a candidate of many
    batches; its feats never change)."""
    if r.row is None:
        r.row = np.array([*(profile_key(r.feats[k]) if k == "profile_sig" else _key64(r.feats[k]) for k in _TABLE_KEYS),
                          r.feats["ntok"]], np.uint64)
    return r.row


def feature_table(recs: Sequence[_Rec]) -> tuple[FeatureBatch, np.ndarray]:
    """The records as the engine's arrays (service.features.FeatureBatch) and their blocking keys."""
    keys = np.stack([_row(r) for r in recs]) if recs else np.zeros((0, len(_TABLE_KEYS) + 1), np.uint64)
    sketch = np.stack([r.sketch for r in recs]) if recs else np.zeros((0, sketching.NUM_PERM), np.uint32)
    bands = np.stack([r.feats["bands"] for r in recs]) if recs else np.zeros((0, sketching.NUM_BANDS), np.uint64)
    blocks = np.stack([r.feats["blocks"] for r in recs]).astype(np.uint64) if recs else \
        np.zeros((0, len(candidates.KEYS)), np.uint64)
    fb = FeatureBatch(*(keys[:, c].copy() for c in range(len(_TABLE_KEYS))), keys[:, -1].astype(np.int32), sketch,
                      bands, [])
    return fb, blocks


def _earlier_equal(col: np.ndarray, new: np.ndarray, nn: int) -> np.ndarray:
    """Codes r * nn + b of the pairs of a `new` row b and an earlier row r with the same non-zero key in
    `col` (a sort join: linear in the rows plus the pairs)."""
    order = np.argsort(col, kind="stable")
    keys = col[order]
    q = col[new]
    lo = np.searchsorted(keys, q, "left")
    cnt = np.where(q != 0, np.searchsorted(keys, q, "right") - lo, 0)
    b = np.repeat(new, cnt)
    r = order[np.arange(int(cnt.sum())) - np.repeat(np.cumsum(cnt) - cnt, cnt) + np.repeat(lo, cnt)]
    keep = r < b
    return r[keep].astype(np.int64) * nn + b[keep]


class BatchSource:
    """The service's candidate source (engine.CandidateSource): each new posting (rows from `first_new` on)
    paired with every row before it -- the pool (Solr's band / exact / blocking-key matches and the recent
    window), then the batch's earlier postings -- with which it shares an exact key (content, canonical URL,
    profile signature) or an LSH band key; `multi` says whether two bands or more collided. The pool's own
    pairs were decided when they arrived, so they are not proposed again."""

    def __init__(self, f: FeatureBatch, first_new: int, nn: int) -> None:
        new = np.arange(first_new, len(f.content))
        self.exact_codes, _ = np.unique(np.concatenate(
            [_earlier_equal(col, new, nn) for col in (f.content, f.url, f.profile)]), return_counts=True)
        band = [_earlier_equal(f.bands[:, b], new, nn) for b in range(f.bands.shape[1])]
        self.band_codes, shared = np.unique(np.concatenate(band) if band else np.zeros(0, np.int64),
                                            return_counts=True)
        self.multi = shared >= 2
        self.total = len(self.exact_codes) + len(self.band_codes)

    def blocks(self) -> Iterator[tuple[np.ndarray, np.ndarray | None, np.ndarray, int]]:
        yield self.exact_codes, None, self.exact_codes, len(self.exact_codes)
        yield self.band_codes, self.multi, self.exact_codes, len(self.band_codes)


def _codes(values: Sequence[str]) -> np.ndarray:
    """An integer code per value (equal values, equal codes)."""
    return np.unique(np.array(values, dtype=object), return_inverse=True)[1].astype(np.int64).reshape(len(values))


def _chain(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Edges (i, j) that connect the rows with equal `key` (each to the next in key order)."""
    order = np.argsort(key, kind="stable")
    same = key[order][1:] == key[order][:-1]
    return order[:-1][same].astype(np.int64), order[1:][same].astype(np.int64)


def contested_rows(trace: Mapping[str, Any], together: np.ndarray, npool: int, cut: float) -> np.ndarray:
    """Per row of a batch's engine run (`trace`: find_groups' accepted and verified pairs; `together`: stored
    group codes; pool rows before `npool`): whether its component of the accepted pairs and stored groups holds
    a new posting and the grouping's guard decided it with part of the evidence -- two stored groups (whose
    pairs across were never scored), or a stored group and a scored pair below `cut`. Such a component is
    decided again from all its members' pairs (`Ingestor._redecide`), as dedup decides it."""
    n = len(together)
    ai, aj = trace["accepted"]
    li, lj = _chain(together)
    comp = component_labels(np.concatenate([ai, li]), np.concatenate([aj, lj]), n)
    ncomp = int(comp.max()) + 1 if n else 0
    has_new = np.bincount(comp[npool:], minlength=ncomp) > 0
    first = np.unique(together[:npool], return_index=True)[1]  # one pool row per stored group
    groups = np.bincount(comp[first], minlength=ncomp)
    low = np.zeros(ncomp, bool)
    if "verified" in trace:
        vi, vj, _, vs = trace["verified"]
        below = (vs < cut) & (comp[vi] == comp[vj])  # NaN (not decided) is not below
        low[comp[vi[below]]] = True
    return (has_new & ((groups >= 2) | ((groups >= 1) & low)))[comp]


def row_outcome(res: Mapping[str, Any], i: int, ids: Sequence[str]) -> tuple[float | None, list[str], str | None]:
    """Row i's best accepted edge from the engine's result: (score, why, matched posting)."""
    bits = int(res["bits"][i])
    if not bits:
        return None, [], None
    s = float(res["score"][i])
    why = decision_glue.why_list(bits, float(res["est"][i])) + list(res["reasons"].get(i, ()))
    m = int(res["match"][i])
    return (None if s != s else round(s, 4)), why, (ids[m] if m >= 0 else None)


def _values(v: Any) -> list[Any]:
    """A field's values (none for a missing field)."""
    return [] if v is None else list(v) if isinstance(v, list | tuple) else [v]


def _signs_text(doc: Mapping[str, Any], sig: str | None, cfg: Mapping[str, Any]) -> bool:
    """Whether `sig`, the signature Solr's chain (`cfg`: Solr.signing, with fields) gives `doc`, says anything of
    its text: a signed field is not blank and, under TextProfileSignature, yields a token (else `sig` is that of
    the field names alone, textprofile.tokenless_signatures). The chain's plugin makes a posting without any its
    own group."""
    fields = cfg["fields"]
    if not any(str(v).strip() for f in fields for v in _values(doc.get(f))):
        return False
    return not (cfg["signatureClass"].endswith("TextProfileSignature") and
                sig in textprofile.tokenless_signatures(tuple(fields), cfg["quantRate"], cfg["minTokenLen"]))


def _key64(v: Any) -> int:
    if isinstance(v, str):
        return int(v[:16], 16) if v else 0
    return int(v)


def _put(index: dict[str, str | set[str]], key: str, pid: str) -> None:
    """Add `pid` under `key` of a one-id-or-set multimap (RecentWindow's indexes)."""
    got = index.get(key)
    if got is None:
        index[key] = pid
    elif isinstance(got, set):
        got.add(pid)
    elif got != pid:
        index[key] = {got, pid}


def _drop(index: dict[str, str | set[str]], key: str, pid: str) -> None:
    """Take `pid` out from under `key` of a one-id-or-set multimap (a set of one becomes its id again)."""
    got = index.get(key)
    if isinstance(got, set):
        got.discard(pid)
        if len(got) == 1:
            index[key] = next(iter(got))
    elif got == pid:
        del index[key]


def _ids(got: str | set[str] | None) -> Iterable[str]:
    return () if got is None else (got,) if isinstance(got, str) else got


class RecentWindow:
    """Postings written recently by this process, indexed by band and exact keys (bounded, FIFO) and by group.
    An index maps a key to the id of its one posting, or to a set of ids when several share it: most keys
    (band keys above all) belong to one posting, and ~40 one-id sets per posting made up half the objects
    the garbage collector walked in `jobdedup index`. A window posting changes group by `regroup` (or a
    re-`add`), so the group index stays its postings' `dup_group`. The groups this process merged into others
    lately (`merged`) name where Solr's search still shows the moved postings.
    Bounds: with `keep` (seconds: how long Solr's search may lag behind a write, ~2x the commit delay) a posting
    younger than that is not evicted by count -- Solr's search may not show it yet -- up to a hard cap of
    2x `size`, and a merge is forgotten once older than that; without, the last `size` of each are kept."""

    def __init__(self, size: int = 20000, keep: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.size = size
        self.keep = keep
        self._clock = clock
        self._at: dict[str, float] = {}  # id -> when added (the order of `recs`)
        self.recs: OrderedDict[str, _Rec] = OrderedDict()
        self.index: dict[str, str | set[str]] = {}
        self.groups: dict[str, str | set[str]] = {}  # dup_group -> its postings in the window
        self._group_of: dict[str, str] = {}  # id -> the group it is filed under in `groups`
        self._merged: OrderedDict[str, str] = OrderedDict()  # loser group -> the group it was merged into
        self._merged_at: dict[str, float] = {}  # loser group -> when
        self._into: dict[str, set[str]] = {}  # ... and the other way round

    def add(self, rec: _Rec) -> None:
        self.remove(rec.id)
        pid, index, recs = rec.id, self.index, self.recs
        recs[pid] = rec
        self._at[pid] = now = self._clock() if self.keep else 0.0
        for k in rec.keys:
            _put(index, k, pid)
        _put(self.groups, rec.dup_group, pid)
        self._group_of[pid] = rec.dup_group
        while len(recs) > self.size:
            old = next(iter(recs))
            if self.keep and len(recs) <= 2 * self.size and now - self._at[old] < self.keep:
                break  # Solr's search may not show it yet
            self.remove(old)

    def remove(self, pid: str) -> None:
        rec = self.recs.pop(pid, None)
        if rec is None:
            return
        del self._at[pid]
        for k in rec.keys:
            _drop(self.index, k, pid)
        _drop(self.groups, self._group_of.pop(pid), pid)

    def regroup(self, pid: str, group: str) -> None:
        """Move a window posting (if held) into `group`."""
        rec = self.recs.get(pid)
        if rec is None:
            return
        _drop(self.groups, self._group_of[pid], pid)
        rec.dup_group = self._group_of[pid] = group
        _put(self.groups, group, pid)

    def candidates(self, keys: Iterable[str]) -> list[_Rec]:
        """The window's postings filed under any of `keys`."""
        ids: set[str] = set()
        for k in keys:
            got = self.index.get(k)
            if isinstance(got, set):
                ids |= got
            elif got is not None:
                ids.add(got)
        return [self.recs[i] for i in ids]

    def members(self, groups: Iterable[str]) -> dict[str, _Rec]:
        """The window's postings in `groups`, by id (newer than Solr's search view)."""
        return {i: self.recs[i] for g in groups for i in _ids(self.groups.get(g))}

    def merged(self, loser: str, winner: str) -> None:
        """Remember that the postings of group `loser` moved into `winner` (a merge): Solr's search shows them
        under `loser` until its next soft commit. The window's own postings move with `regroup`."""
        self._forget(loser)
        self._merged[loser] = winner
        self._merged_at[loser] = self._clock() if self.keep else 0.0
        self._into.setdefault(winner, set()).add(loser)
        self._age_merged()

    def unmerged(self, loser: str) -> None:
        """Forget that group `loser` was merged (its merge's write failed before moving any posting)."""
        self._forget(loser)

    def _age_merged(self) -> None:
        """Forget the merges Solr's search shows by now (older than `keep`; the last 2x `size` at most), or
        without `keep` all but the last `size`."""
        merged, now = self._merged, self._clock() if self.keep else 0.0
        while merged:
            old = next(iter(merged))
            if len(merged) <= self.size * (1 + bool(self.keep)) and \
                    (not self.keep or now - self._merged_at[old] < self.keep):
                break
            self._forget(old)

    def _forget(self, loser: str) -> None:
        self._merged_at.pop(loser, None)
        winner = self._merged.pop(loser, None)
        if winner is not None:
            self._into[winner].discard(loser)
            if not self._into[winner]:
                del self._into[winner]

    def absorbed(self, groups: Iterable[str]) -> dict[str, str]:
        """The groups merged lately into one of `groups` (through other merges too), each with that group: a
        search for the members of `groups` also asks for these, and a real-time get tells who moved."""
        if self.keep and self._merged:
            self._age_merged()
        out: dict[str, str] = {}
        todo = [(g, g) for g in groups]
        while todo:
            g, top = todo.pop()
            for loser in self._into.get(g, ()):
                if loser not in out:
                    out[loser] = top
                    todo.append((loser, top))
        return out


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
    for name in ("first_seen", "last_seen"):  # posted_at is kept as the source wrote it (any format)
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
    records: list[Any] | None = None     # ... and its boilerplate learning record (signatures.boilerplate)
    hashes: list[np.ndarray] | None = None  # ... and its line hashes (the model's line weights look them up)


def extract_postings(postings: Sequence[Mapping[str, Any]]) -> list[Any]:
    """Main text, fields and lines of each posting (signatures.extract): the Verifier's and the
    boilerplate model's input. Without `families`, which neither reads (as `jobdedup dedup` extracts;
    tests/test_decide.py holds the Verifier to the same decisions)."""
    from signatures.extract import extract

    return [extract(p, families=False) for p in postings]



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
    extracted = extract_postings(batch) if extract else None
    return Prepared(results, uniq, same_as, batch, feats, sketches, full, keys, extracted,
                    [learning_record(ex) for ex in extracted] if extracted is not None else None,
                    [line_hashes(ex) for ex in extracted] if extracted is not None else None)


def prepare_shipped(postings: Sequence[Mapping[str, Any]], **kw: Any) -> Prepared:
    """`prepare_batch` in a worker process, its `batch` left out of the result the worker sends back (the
    caller has the postings: `with_batch`)."""
    return replace(prepare_batch(postings, **kw), batch=[])


def with_batch(prep: Prepared, postings: Sequence[Mapping[str, Any]]) -> Prepared:
    """A `prepare_shipped` result with its batch (the postings it was computed from) put back."""
    return replace(prep, batch=[postings[i] for i in prep.uniq])


class _Void(Exception):
    """The write before the batch being decided failed or lost postings: the batch is decided again."""


class Ticket:
    """A batch given to `Ingestor.submit`: its results once Solr has confirmed its write (`result`)."""

    def __init__(self, ingestor: Ingestor, prep: Prepared) -> None:
        self._ingestor, self._prep = ingestor, prep
        self._out: list[Result] | None = None
        self._exc: BaseException | None = None

    def done(self, out: list[Result]) -> None:
        self._out = out

    def fail(self, exc: BaseException) -> None:
        self._exc = exc

    def result(self) -> list[Result]:
        """One Result per input posting, in order, once the batch's write is settled (waits for it, then saves
        the model when a periodic save is due); raises what the write raised."""
        ing = self._ingestor
        if self._out is None and self._exc is None:
            with ing.lock:
                if self._out is None and self._exc is None:
                    assert ing._pending is not None and ing._pending.ticket is self
                    ing._settle()
        if self._exc is not None:
            raise self._exc
        assert self._out is not None
        if self._out and ing.state.due():
            try:
                ing.save(flush=False)
            except OSError as exc:  # the batch is written and its postings journaled: a periodic save is no reason
                # to fail it (it is tried again at the next interval; the journal keeps what was learned)
                log.warning("boilerplate model not saved (%s); the learning journal keeps what was learned, the "
                            "save is tried again in %s s", exc, ing.state.save_interval_s)
        prep = self._prep
        results = list(prep.results)
        for i, r in zip(prep.uniq, self._out, strict=True):
            results[i] = r
        for i, j in prep.same_as.items():
            r = results[j]
            assert r is not None
            results[i] = Result(r.id, "rejected", reason=r.reason) if r.status == "rejected" else \
                Result(r.id, "updated", r.dup_group, r.duplicate_of, r.score, why=r.why, matched=r.matched)
        return [r for r in results if r is not None]


@dataclass
class _Flight:
    """A decided batch on its way to Solr: what `Ingestor._finish` needs once the write is answered."""

    ids: list[str]
    existing: dict[str, Mapping[str, Any]]
    unchanged: set[int]
    extracted: list[Any | None]
    new_recs: list[_Rec]
    docs: list[dict[str, Any]]
    results: list[Result]
    ticket: Ticket | None = None
    future: Future[dict[int, str]] | None = None
    replaced: dict[str, _Rec | None] = field(default_factory=dict)  # the window's earlier record of each id


class Ingestor:
    """Dedup-aware writer into one Solr collection.

    `state` holds the collection's boilerplate model (learned from the postings this service indexes,
    persisted by `service.state`); the Verifier sees it, so a company blurb shared by many of the
    company's jobs counts little when two of its postings are compared. New postings are learned into it in
    steps of `learn_every` (and at every save); until then they are counted in `_recent`, which decisions
    see too, with the batch being decided: a candidate's prepared form is reused across batches while the
    model weighs its lines the same. Postings re-sent
    with unchanged content keep their group without candidates or verification. `stats` counts the work.
    """

    def __init__(self, solr: Solr, commit_within_ms: int = 1000, window_size: int = 20000,
                 max_text_chars: int = MAX_TEXT_CHARS, max_candidates: int = 2000,
                 state: BoilerplateState | None = None, learn_every: int = 1000) -> None:
        self.solr = solr
        self.commit_within_ms = commit_within_ms
        # what Solr's search may not show yet is kept: 2x the commit delay, + 2 s for the new searcher to open
        # on a loaded machine
        delay_ms = commit_within_ms if commit_within_ms > 0 else AUTO_SOFT_COMMIT_MS
        self.window = RecentWindow(window_size, keep=2 * delay_ms / 1000 + 2)
        self.max_text_chars = max_text_chars
        self.max_candidates = max_candidates
        self.lock = threading.Lock()
        self.state = state if state is not None else BoilerplateState(None)
        # the postings of `_to_learn` and of the batch being decided, counted apart from the collection's model
        # until its next learning step: decisions count them now, whatever `learn_every` is
        self._recent = self._empty_recent()
        self._weights = decision_glue.PresetWeights(self._model_now)
        self.verifier = decision_glue.make_verifier(self._weights)
        self.stats: Counter[str] = Counter()
        self.learn_every = learn_every
        self._to_learn: list[Any] = []    # learning records of written postings (journaled), not yet in the model
        self._generation = 0              # bumped whenever the model decisions use (`_model_now`) changes
        self._epoch = 0                   # ... and set to it when that model was replaced, not only added to
        # scope -> line hash -> the generation whose postings changed the line's weight in that scope
        self._touched: dict[str, dict[int, int]] = {}
        self._extracted: OrderedDict[tuple[str, int], Any] = OrderedDict()  # (id, content key) -> Extracted
        # (id, content key) -> (model generation, line weights, Prepared, (scopes, line hashes)): valid while the
        # model weighs the posting's lines the same (the only input `prepare` takes from the model)
        self._prepared: OrderedDict[tuple[str, int], tuple[int, np.ndarray, Any, tuple[list[str], list[int]]]] = \
            OrderedDict()
        # (id, content key) -> signatures.features.Unweighted: prepared, not weighed by the model
        self._unweighted: OrderedDict[tuple[str, int], Any] = OrderedDict()
        self._schema: Schema | None = None
        # the write in flight (at most one: the next batch is decided meanwhile) and the learning records of
        # the batches counted into `_recent` but not written yet (that write's, then the batch being decided)
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="solr-write")
        self._pending: _Flight | None = None
        self._unwritten: list[list[Any]] = []

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
        pending = self.state.unconfirmed(keep_open=int(self._pending is not None))
        if pending:
            stored = {d["id"]: d.get("content_key_s")
                      for d in self.solr.get(sorted({pid for pid, _, _ in pending}), fl="id,content_key_s")}
            learned = self.state.confirm(rec for pid, key, rec in pending if stored.get(pid) == key)
            self._to_learn.extend(learned)
            self._count_recent(learned)
            self.stats["boilerplate_added"] += len(learned)

    def _learn(self) -> None:
        """Add the queued postings to the boilerplate model (call under the lock)."""
        if self._to_learn:
            unwritten = [rec for recs in self._unwritten for rec in recs]
            # `_recent` held just these and the unwritten batches' (counted again): no weight changes
            moved = self._recent.postings == len(self._to_learn) + len(unwritten)
            self.state.add(self._to_learn)
            self._to_learn = []
            self._recent = self._empty_recent()
            for rec in unwritten:
                self._recent.add_record(rec)
            if not moved:
                self._replaced()

    def _replaced(self) -> None:
        """The model decisions use was replaced: every cached posting's weights are computed again."""
        self._generation += 1
        self._epoch = self._generation

    def _model_now(self) -> Any:
        """The boilerplate model decisions use: the collection's, plus the postings written since its last
        learning step and those of the batch being decided (`_recent`)."""
        return StackedBoilerplate(self.state.model, self._recent) if self._recent.postings else self.state.model

    def _count_recent(self, records: Sequence[Any]) -> None:
        """Count learning records into `_recent`; the lines whose weight that changes are `_touched`."""
        if records:
            self._generation += 1
            stacked = StackedBoilerplate(self.state.model, self._recent)
            for rec in records:
                for scope, h in stacked.add_to_top(rec):
                    self._touched.setdefault(scope, {})[h] = self._generation

    def _reset_recent(self) -> None:
        """`_recent` back to the written postings only (`_to_learn`): a batch that failed or was partly refused
        counted postings Solr does not hold."""
        self._recent = self._empty_recent()
        self._count_recent(self._to_learn + [rec for recs in self._unwritten for rec in recs])
        self._replaced()

    def _empty_recent(self) -> BoilerplateModel:
        m = self.state.model
        return BoilerplateModel(m.min_jobs, m.global_min_jobs, m.weight)

    # -- the batch -----------------------------------------------------------------------------------
    def batch_schema(self, postings: Sequence[Mapping[str, Any]]) -> Schema | None:
        """The schema rules for `prepare_batch`; read from Solr only for a batch that will reach Solr."""
        return self.schema if any(reject_reason(p, self.max_text_chars) is None for p in postings) else None

    def ingest(self, postings: Sequence[Mapping[str, Any]]) -> list[Result]:
        """Deduplicate and write a batch; one Result per input posting, in order."""
        return self.apply(prepare_batch(postings, self.max_text_chars, schema=self.batch_schema(postings)))

    def apply(self, prep: Prepared) -> list[Result]:
        """Decide and write a prepared batch and wait for its write (`submit`, then its ticket's result)."""
        while (ticket := self.submit(prep)) is None:  # the write before it failed: decided again now
            pass
        return ticket.result()

    def submit(self, prep: Prepared) -> Ticket | None:
        """Decide a prepared batch (under the lock) and send its Solr write without waiting for it: the next
        batch is decided while Solr writes this one, counting its postings as written; its ticket's `result`
        waits for the write. None: not decided, because the write before it failed or Solr refused some of
        its postings (which that decision would have counted): submit it again once that batch's ticket is
        handled (e.g. retried), so batches are still decided in the order they are written."""
        ticket = Ticket(self, prep)
        if not prep.batch:
            ticket.done([])
            return ticket
        extracted = self._extract_new(prep)  # outside the lock: extraction is the slow part
        with self.lock:
            self.stats["writes_overlapped"] += self._pending is not None  # decided while Solr writes the last one
            try:
                fl = self._decide_and_write(prep.batch, prep.feats, prep.sketches, prep.full, prep.keys,
                                            extracted, prep.records, prep.hashes)
                if not self._settle():  # the write before it, now: this batch's goes after it
                    raise _Void
            except _Void:
                self._void_deciding()
                self._reset_recent()
                return None
            except BaseException:
                self._void_deciding()
                self._reset_recent()
                raise
            fl.ticket = ticket
            self._send(fl)
        return ticket

    def save(self, flush: bool = True) -> bool:
        """Write the boilerplate model to its state file now if it changed (False: nothing written); a
        model another process saved meanwhile (recompute's refit) is adopted first, not overwritten.
        `flush` (shutdown, end of `index`) first learns the queued postings; periodic saves do not, so
        when the model changes never depends on the wall clock (the same input decides the same way)."""
        with self.lock:
            if flush:
                try:
                    self._settle()  # the write in flight: what it teaches is learned and saved
                except Exception:  # noqa: S110  (its ticket holds the error)
                    pass
                self._learn()
            if self.state.sync():
                self._replaced()
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
            # a stale answer cannot misgroup: this only spares extraction, `_decide_and_write` reads each posting's
            # stored version again and extracts the ones that changed
            known = {d["id"]: d for d in self.solr.get([batch[i]["id"] for i in ask], fl="id,content_key_s,dup_group",
                                                       fresh=False)}
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

    def _prepare(self, v: Any, pid: str, content: int, ex: Any, lines: tuple[list[str], list[int]] | None = None,
                 hashes: np.ndarray | None = None) -> Any:
        """v.prepare(ex) with the boilerplate model decisions use now: reused from an earlier batch while none
        of the posting's lines changed weight (`_touched`) or its weights came out the same; else the
        posting's unweighted preparation (made once) weighed anew."""
        key = (pid, content)
        hit = self._prepared.get(key)
        if hit is not None and hit[0] >= self._epoch and (hit[0] == self._generation or not self._changed(*hit[3], hit[0])):
            self._keep(self._prepared, key, (self._generation, *hit[1:]))  # none of its lines changed weight
            return hit[2]
        weights = self._model_now().line_weights(ex, hashes)
        if hit is not None and np.array_equal(hit[1], weights):
            got = hit[2]
            self.stats["prepared_kept"] += 1
        else:
            u = self._unweighted.get(key)
            if u is None:  # prepared once; a model that weighs its lines otherwise only weighs it anew
                u = prepare_unweighted(ex, v.model.needs)
                self._keep(self._unweighted, key, u)
            got = reweighted(u, weights)
            self.stats["prepared"] += 1
        if lines is None:
            lines = hit[3] if hit is not None else learning_record(ex)[1:]
        self._keep(self._prepared, key, (self._generation, weights, got, lines))
        return got

    def _changed(self, scopes: Sequence[str], hashes: Sequence[int], since: int) -> bool:
        """Whether a line of these (a posting's scopes and line hashes) changed weight after generation `since`."""
        if not hashes:
            return False
        for scope in scopes:
            touched = self._touched.get(scope)
            if touched and max(map(touched.get, hashes, repeat(-1, len(hashes)))) > since:
                return True
        return False

    def _keep(self, cache: OrderedDict[tuple[str, int], Any], key: tuple[str, int], value: Any) -> None:
        """Put `value` in one of the per-posting caches, which hold the window's size, least recently used out."""
        cache[key] = value
        cache.move_to_end(key)
        while len(cache) > self.window.size:
            cache.popitem(last=False)

    def _remember(self, pid: str, content: int, ex: Any) -> None:
        self._keep(self._extracted, (pid, content), ex)

    def _big_blocks(self, feats: list[dict[str, Any]]) -> frozenset[int]:
        """The batch's capped blocking keys (employer, contact) whose block -- postings in Solr plus the
        batch's -- is over candidates.MAX_BLOCK: dedup leaves such blocks out (employer_title still applies),
        and so does the service. One facet request."""
        counts = {c: Counter(k for f in feats if (k := int(f["blocks"][c]))) for c in candidates.CAPPED_COLUMNS}
        counts = {c: cnt for c, cnt in counts.items() if cnt}
        if not counts:
            return frozenset()
        big = {k for cnt in counts.values() for k, m in cnt.items() if m > candidates.MAX_BLOCK}
        most = max(m for cnt in counts.values() for m in cnt.values())
        params: dict[str, Any] = {"rows": 0, "facet": "true", "facet.limit": -1, "facet.sort": "index",
                                  "facet.mincount": max(1, candidates.MAX_BLOCK + 1 - most),
                                  "facet.field": [BLOCK_FIELDS[c] for c in counts]}
        shoulds = []
        for c, cnt in counts.items():
            params[f"qk{c}"] = terms_query(BLOCK_FIELDS[c], sorted(_hex(k) for k in cnt))
            shoulds.append(f"should=$qk{c}")
        params["q"] = "*:*"
        params["fq"] = "{!bool cache=false " + " ".join(shoulds) + "}"
        found = self.solr.query(params).get("facet_counts", {}).get("facet_fields", {})
        for c, cnt in counts.items():
            flat = found.get(BLOCK_FIELDS[c], [])
            for value, n in zip(flat[::2], flat[1::2], strict=True):
                try:
                    k = _key64(value)
                except ValueError:  # a junk key written straight into Solr is no block of ours
                    continue
                if k in cnt and n + cnt[k] > candidates.MAX_BLOCK:
                    big.add(k)
        return frozenset(big)

    def _solr_candidates(self, feats: list[dict[str, Any]], keys: list[list[str]], skip: frozenset[int],
                         blocking: bool, known: Container[str] = ()) -> list[_Rec]:
        """Stored postings sharing a band key, an exact key or (`blocking`) a blocking key not in `skip` with
        a batch posting, at most max_candidates, except those in `known` (the recent window has them, found
        by the same keys): their ids first, then the others' fields (most are usually known; leaving the
        window's matches out in the query instead, a must_not {!terms} on id, was slower: 2.3 -> 3.4 s a run)."""
        values: dict[str, list[str]] = {
            "mh_bands": sorted({k for ks in keys for k in ks}),
            "content_key_s": sorted({_hex(f["content"]) for f in feats if f["content"]}),
            "url_key_s": sorted({_hex(f["url"]) for f in feats if f["url"]}),
            "profile_sig": sorted({f["profile_sig"] for f in feats if _profile_lookup(f)})}
        if blocking:
            for c, name in enumerate(BLOCK_FIELDS):
                values[name] = sorted({_hex(k) for f in feats if (k := int(f["blocks"][c])) and k not in skip})
        params: dict[str, Any] = {"fl": "id", "rows": self.max_candidates + len(known)}
        shoulds = []
        for n, (field_name, vals) in enumerate(values.items()):
            if vals:
                params[f"q{n}"] = terms_query(field_name, vals)
                shoulds.append(f"should=$q{n}")
        if not shoulds:
            return []
        # as a filter, not q: /select defaults to edismax, and SolrCloud rejects big {!terms} main queries
        params["q"] = "*:*"
        params["fq"] = "{!bool cache=false " + " ".join(shoulds) + "}"
        found = [d["id"] for d in self.solr.query(params)["response"]["docs"]]
        need = [pid for pid in found if pid not in known][:self.max_candidates]
        self.stats["candidates_fetched"] += len(need)
        return _recs_from_docs(self.solr.get(need, fl=STATE_FL)) if need else []

    def _group_members(self, pool: Mapping[str, _Rec], skip: Container[str]) -> list[_Rec]:
        """The stored members of the pool's groups of at most engine.CHAIN_NODES postings that are not in the
        pool (nor in `skip`): a batch posting that joins a group through one member is then asked about the
        others it was never scored with (the engine's chain pairs), as dedup asks about them. A group's members
        are Solr's (searched, then read by real-time get) and the window's, which holds this process's writes
        before Solr's search view does (it lags by the soft-commit delay): its size counts both."""
        counts = Counter(r.dup_group for r in pool.values() if r.dup_group)
        if not counts:
            return []
        known = self.window.recs
        windowed = self.window.members(counts)
        ids: dict[str, set[str]] = {g: set() for g in counts}
        for pid, r in windowed.items():
            ids[r.dup_group].add(pid)
        # merged lately: Solr's search shows their postings there still (a name in use again is its own group)
        into = {loser: g for loser, g in self.window.absorbed(counts).items() if loser not in counts}
        params = {"q": "*:*", "fq": terms_query("dup_group", sorted({*counts, *into})), "rows": 0, "facet": "true",
                  "facet.field": "dup_group", "facet.limit": -1, "facet.mincount": 1}
        flat = self.solr.query(params)["facet_counts"]["facet_fields"]["dup_group"]
        searched: Counter[str] = Counter()
        for g, k in zip(flat[::2], flat[1::2], strict=True):
            if (g := into.get(g, g)) in counts:
                searched[g] += k
        # a group with more than CHAIN_NODES postings in either view is too big; one with no more than the pool
        # holds has no others
        ask = sorted(g for g, k in searched.items() if k <= CHAIN_NODES and len(ids[g]) <= CHAIN_NODES
                     and k + len(ids[g]) > counts[g])
        if ask:
            asked = {*ask, *(loser for loser, g in into.items() if g in ask)}
            for d in self.solr.query({"q": "*:*", "fq": terms_query("dup_group", sorted(asked)), "fl": "id,dup_group",
                                      "rows": CHAIN_NODES * len(ask)})["response"]["docs"]:
                g = into.get(d.get("dup_group"), d.get("dup_group"))
                if d["id"] not in known and g in ids:  # the window's group is newer
                    ids[g].add(d["id"])
        small = {g for g, members in ids.items()
                 if counts[g] < len(members) <= CHAIN_NODES and searched.get(g, 0) <= CHAIN_NODES}
        need = sorted(pid for g in small for pid in ids[g] if pid not in pool and pid not in skip)
        out = [r for r in _recs_from_docs(self.solr.get([pid for pid in need if pid not in known], fl=STATE_FL))
               if r.dup_group in small]  # real-time get: not moved on since the search saw it
        out += [windowed[pid] for pid in need if pid in windowed]
        self.stats["group_members_fetched"] += len(out)
        return out

    def _fetch_extracted(self, recs: Sequence[_Rec]) -> None:
        """Into the extraction cache: the stored text of postings known by their features only (Solr's)."""
        need = {r.id: r for r in recs if r.ex is None and (r.id, r.feats["content"]) not in self._extracted}
        if not need:
            return
        # fresh: a posting re-sent a moment ago with the same content key may have new dates or source, which the
        # Verifier reads; a stale answer would verify with the old ones
        got = [d for d in self.solr.get(sorted(need), fl=",".join(VERIFY_FIELDS)) if d["id"] in need]
        for d, ex in zip(got, extract_postings(got), strict=True):
            self._remember(d["id"], need[d["id"]].feats["content"], ex)
        self.stats["extracted"] += len(got)

    def _pair_verifier(self, recs: Sequence[_Rec], together: np.ndarray) -> Verify | None:
        """The engine's `verify` over rows of `recs`: the Verifier with the collection's boilerplate model
        (prepared postings reused across batches while the model is unchanged); the text from the record,
        the cache, else Solr. Every pair is decided, as dedup decides it (the engine's grouping weighs the
        rejected pairs across two groups too), but a pair whose postings are already together -- the same
        `together` code, their stored group -- and a pair whose text is gone (deleted meanwhile): not
        accepted, score NaN (not decided)."""
        v = self.verifier
        if v is None:
            return None
        prepared: dict[int, Any] = {}

        def prep(r: int) -> Any | None:
            if r not in prepared:
                rec = recs[r]
                ex = rec.ex if rec.ex is not None else self._extracted.get((rec.id, rec.feats["content"]))
                prepared[r] = None if ex is None else self._prepare(v, rec.id, rec.feats["content"], ex, rec.lines,
                                                                  rec.hashes if ex is rec.ex else None)
            return prepared[r]

        def verify(vi: np.ndarray, vj: np.ndarray, est: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, list[tuple[str, ...]]]:
            accept = np.zeros(len(vi), bool)
            score = np.full(len(vi), np.nan, np.float32)
            why: list[tuple[str, ...]] = [()] * len(vi)
            left = np.flatnonzero(together[vi] != together[vj])
            rows = np.unique(np.concatenate([vi[left], vj[left]])).tolist()
            self._fetch_extracted([recs[r] for r in rows if r not in prepared])
            todo = [k for k in left.tolist() if prep(int(vi[k])) is not None and prep(int(vj[k])) is not None]
            pairs = [(prepared[int(vi[k])], prepared[int(vj[k])]) for k in todo]
            for k, d in zip(todo, v.decide_many(pairs, explain_all=False), strict=True):  # reasons: duplicates only
                accept[k], score[k] = d.duplicate, d.score
                why[k] = tuple(d.reasons) if d.duplicate else ()
            self.stats["verifier_pairs"] += len(todo)
            return accept, score, why

        return verify

    def _group_rows(self, recs: Sequence[_Rec], first_key: np.ndarray, first_new: int | None = None,
                    skip: frozenset[int] = frozenset(), together: np.ndarray | None = None,
                    trace: dict[str, Any] | None = None) -> dict[str, Any]:
        """The engine (service.engine.find_groups) over `recs`: the same evidence, Verifier, blocking pairs
        and grouping as `jobdedup dedup`. `first_new`: rows from there on are the batch's new postings and
        only their pairs are proposed (BatchSource; blocking keys in `skip` left out); None: all pairs
        (ArrayIndex, e.g. a group decided again). `together`: per row a code, equal for rows known to be
        in one group (default: none are). `trace`: filled as find_groups fills it."""
        f, blocks = feature_table(recs)
        verify = self._pair_verifier(recs, np.arange(len(recs)) if together is None else together)
        extra = None
        if verify is not None and len(recs) > 1:
            employer = candidates.employer_column(blocks)  # before big blocks are left out, as dedup's
            if skip:
                blocks[np.isin(blocks, np.fromiter(skip, np.uint64, len(skip)))] = 0
            xi, xj = candidates.block_pairs(blocks, first_key)
            if first_new is not None:
                keep = np.maximum(xi, xj) >= first_new
                xi, xj = xi[keep], xj[keep]
            extra = (xi, xj, employer)
        source = BatchSource(f, first_new, max(len(recs), 1)) if first_new is not None else None
        return find_groups(f, first_key, verify, extra, source=source, trace=trace,
                           links=_chain(together) if together is not None else None)

    def _dates(self, p: Mapping[str, Any], old: Mapping[str, Any] | None, now: str) -> tuple[str, str, int]:
        """first_seen, last_seen and seen_count of a posting as it will be stored (a re-sighting moves them)."""
        posted = iso_date(p.get("posted_at"))  # stands in for a missing first_seen when it is a date
        fs = iso_instant(p.get("first_seen") or posted, "first_seen") or now
        ls = iso_instant(p.get("last_seen"), "last_seen") or fs
        seen = p.get("seen_count") if isinstance(p.get("seen_count"), int) and p.get("seen_count") > 0 else 1
        if old is not None:
            ofs, ols = old.get("first_seen"), old.get("last_seen")
            oseen = int(old.get("seen_count") or 1)
            dated = bool(p.get("first_seen") or p.get("last_seen") or posted)
            if not dated:  # a plain re-send (e.g. a retried batch) is not a new sighting
                fs, ls = ofs or fs, ols or ls
            seen = oseen + 1 if (dated and ols and ls > ols) else oseen
            fs = min(fs, ofs) if ofs else fs
            ls = max(ls, ols) if ols else ls
        return fs, ls, seen

    def _head_dates(self, groups: set[str]) -> dict[str, str]:
        """first_seen of the groups' canonical postings (the window, else Solr)."""
        out = {g: r.first_seen for g in groups if (r := self.window.recs.get(g)) is not None and r.first_seen}
        ask = sorted(groups - out.keys())
        if ask:
            out.update((d["id"], d["first_seen"]) for d in self.solr.get(ask, fl="id,first_seen") if d.get("first_seen"))
        return out

    def _canonical(self, groups: set[str], rows: Sequence[_Rec], mixed: bool) -> dict[str, str]:
        """The canonical posting of each of `groups`, what `duplicate_of` names: the posting the group is named
        after, or for a group named otherwise (by Solr's signature: postings indexed straight into Solr have no
        head the service chose; possible only when the collection holds such postings, `mixed`) its earliest
        straight posting, else its earliest member (`_earliest`). Read only for groups whose head no row nor the
        window shows."""
        out = {g: g for g in groups}
        ask = sorted(g for g in groups if (r := self.window.recs.get(g)) is None or r.dup_group != g)
        if not mixed or not ask:
            return out
        ask = sorted(set(ask) - {r.id for r in rows if r.dup_group == r.id})
        sent = self._in_flight()  # the newest version of the postings it writes (the window has them too)
        heads = {d["id"] for d in self._now(ask, "id,dup_group", sent) if d.get("dup_group") == d["id"]}
        for g in sorted(set(ask) - heads):
            first = self._earliest(g, sent, straight=True) or self._earliest(g, sent, straight=False)
            if first is not None:
                out[g] = first
        return out

    def _earliest(self, group: str, sent: Mapping[str, Mapping[str, Any]], straight: bool) -> str | None:
        """The earliest posting of `group` (first_seen, undated last, then id) as it is now (the write in flight
        `sent`, else a real-time get), of its straight-indexed postings only (`straight`) or of all with this
        process's window. Read by a sorted search in pages of 20, the first page all but always enough: a group of
        thousands of straight copies costs one query, not a read of every member. None: the group has none."""
        fl, keys = "id,dup_group,first_seen,sig_version", []
        if not straight:
            keys = [(r.first_seen or "~", r.id) for r in self.window.members([group]).values()]
        base = [terms_query("dup_group", [group]), *([_STRAIGHT] if straight else [])]
        for dated in ("first_seen:[* TO *]", "-first_seen:[* TO *]"):
            start = 0
            while True:
                page = self.solr.query({"q": "*:*", "fq": [*base, dated], "fl": "id", "sort": "first_seen asc,id asc",
                                        "rows": 20, "start": start})["response"]["docs"]
                keys += [(d.get("first_seen") or "~", d["id"]) for d in self._now([d["id"] for d in page], fl, sent)
                         if d.get("dup_group") == group and not (straight and "sig_version" in d)]
                if keys or len(page) < 20:  # still in the group as searched (Solr's search lags): the earliest
                    break
                start += 20
            if keys:
                return min(keys)[1]
        return None

    def _now(self, ids: Sequence[str], fl: str, sent: Mapping[str, Mapping[str, Any]]) -> list[Mapping[str, Any]]:
        """Each of `ids` as it is now: its document in the write in flight (`sent`, `_in_flight`), else Solr's
        (real-time get)."""
        got: list[Mapping[str, Any]] = [sent[pid] for pid in ids if pid in sent]
        ask = [pid for pid in ids if pid not in sent]
        return got + self.solr.get(ask, fl=fl) if ask else got

    def _assign(self, rows: list[_Rec], npool: int, groups: list[str], res: Mapping[str, Any],
                first_key: np.ndarray, straight: Mapping[str, tuple[str, str]], done: np.ndarray, mixed: bool
                ) -> tuple[dict[str, Outcome], dict[str, str], dict[str, str], dict[str, str]]:
        """Groups of the new rows (from npool on): the engine's components joined with the stored groups of
        the pool rows (`groups`), so a posting that duplicates two groups merges them, like dedup's connected
        components. A component with stored groups takes the one whose canonical posting came first; one
        without takes its earliest new posting (or the group of straight-indexed copies of it, `straight`).
        Rows `done` (decided again: `_redecide`) are left out. `duplicate_of` names the winner's canonical posting
        (`_canonical`; `mixed`: the collection holds straight-indexed postings).
        Returns (outcome by id, loser group -> winner group, loser group -> the posting that joined it,
        stored group -> its canonical posting)."""
        n = len(rows)
        (li, lj), (gi, gj) = _chain(res["label"]), _chain(_codes(groups + [f"\x00{r.id}" for r in rows[npool:]]))
        comp = component_labels(np.concatenate([li, gi]), np.concatenate([lj, gj]), n)
        stored: dict[int, set[str]] = {}
        for j in np.flatnonzero(~done[:npool]).tolist():
            stored.setdefault(int(comp[j]), set()).add(groups[j])
        members: dict[int, list[int]] = {}
        for b in (npool + np.flatnonzero(~done[npool:])).tolist():
            members.setdefault(int(comp[b]), []).append(b)
        contested = {g for c in members for g in stored.get(c, ()) if len(stored[c]) > 1}
        # the canonical posting of each group met (of a group named by Solr's signature: its earliest straight
        # posting); of two groups, the one whose canonical posting came first wins
        canon = self._canonical({g for c in members for g in stored.get(c, ())}, rows, mixed)
        heads = self._head_dates({canon[g] for g in contested}) if contested else {}
        ids = [r.id for r in rows]
        out: dict[str, Outcome] = {}
        merges: dict[str, str] = {}
        via: dict[str, str] = {}
        winners = {c: min(gs, key=lambda g: (heads.get(canon[g]) or "~", g)) for c, gs in stored.items()
                   if c in members}
        for c, bs in members.items():
            head_out: Outcome | None = None
            if c in winners:
                winner = winners[c]
                for g in stored[c] - {winner}:
                    merges[g], via[g] = winner, ids[bs[0]]
                head = canon[winner]
            else:
                w = min(bs, key=lambda b: (int(first_key[b]), b))
                winner = head = ids[w]
                if winner in straight:  # heads no group yet: join the straight-indexed copies'
                    winner, head = straight[ids[w]]
                    head_out = (winner, head, 1.0, ["solr_signature"], head)
                    self.stats["joined_straight"] += 1
            for b in bs:
                if ids[b] in (winner, head):
                    out[ids[b]] = (winner, None, None, [], None)
                elif head_out is not None and b == w:
                    out[ids[b]] = head_out
                else:
                    out[ids[b]] = (winner, head, *row_outcome(res, b, ids))
        return out, merges, via, canon

    def _merge(self, merges: Mapping[str, str], via: Mapping[str, str], canon: Mapping[str, str] | None = None
               ) -> None:
        """Move the stored postings of the loser groups (`merges`: loser -> winner) into the winner's group,
        the batch's among them (its write then re-sets the same group), so no failure of that write leaves one
        pointing at a demoted head. The loser's canonical posting becomes a duplicate of the winner's (`canon`: the
        groups' canonical postings, default `_canonical`), why `group_merged`, matched: the new posting that joined
        the two (`via`)."""
        if canon is None:
            canon = self._canonical({*merges, *merges.values()}, [], self._straight_exist())
        ids = set(self.window.members(merges))
        searched = sorted({*merges, *self.window.absorbed(merges)})  # earlier merges Solr's search lags behind
        for page, _, _ in self.solr.stream({"q": "*:*", "fq": terms_query("dup_group", searched), "fl": "id"},
                                           rows=1000):
            ids.update(d["id"] for d in page)
        new: dict[str, tuple[str, str, float | None, list[str], str]] = {}
        fl = "id,dup_group,dup_score,dup_why_ss,dup_match_s"
        stored = {d["id"]: d for d in self.solr.get(sorted(ids), fl=fl)}  # real-time get: the latest version
        for d in stored.values():
            g = d.get("dup_group")
            if g not in merges:
                continue
            w, head = merges[g], canon.get(merges[g], merges[g])
            new[d["id"]] = (w, None, None, [], None) if d["id"] == head else \
                (w, head, None, ["group_merged"], via[g]) if d["id"] == canon.get(g, g) else \
                (w, head, d.get("dup_score"), list(d.get("dup_why_ss") or []), d.get("dup_match_s") or "")
        # Solr's search sees the move only after the soft-commit delay: the membership reads (`_members`,
        # `_group_members`) ask for the merged groups' postings too until then (RecentWindow.absorbed; from
        # before the write, which may move some and fail), the window's own postings move once it is done
        for loser, winner in merges.items():
            self.window.merged(loser, winner)
        try:
            self._write_groups(new)
        except BaseException:
            self._forget_unmoved(merges, {pid: d.get("dup_group") for pid, d in stored.items() if pid in new})
            raise
        for pid, (g, *_rest) in new.items():
            self.window.regroup(pid, g)
        self.stats["merged_groups"] += len(merges)

    def _forget_unmoved(self, merges: Mapping[str, str], came_from: Mapping[str, str]) -> None:
        """After a merge's write failed: the window forgets each merge (`merges`: loser -> winner) of which Solr
        holds no moved posting (`came_from`: id -> its loser group), or a later batch would read the loser's
        postings as the winner's (its size, a re-decision's member count); a merge the write stored in part is
        kept (Solr's search shows the moved postings under the loser until its next soft commit)."""
        try:
            now = {d["id"]: d.get("dup_group") for d in self.solr.get(sorted(came_from), fl="id,dup_group")}
        except Exception:  # Solr gone: kept (it expires with the window's `keep`)
            return
        moved = {came_from[pid] for pid, g in now.items() if g == merges[came_from[pid]]}
        for loser in merges.keys() - moved:
            self.window.unmerged(loser)

    def _decide_and_write(self, batch: list[Mapping[str, Any]], feats: list[dict[str, Any]],
                          sketches: np.ndarray, full: np.ndarray, keys: list[list[str]],
                          extracted: list[Any | None], records: list[Any] | None = None,
                          hashes: list[np.ndarray] | None = None) -> _Flight:
        """Decide a batch and build its documents (merges and regroups it needs are written now); the batch's
        own write is `_send`'s. Decided while the write before it may still be in flight (`_await`)."""
        ids = [p["id"] for p in batch]
        self._await(cloud_only=True)
        self._learn_unconfirmed()
        existing = self._stored(ids)
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
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        dates = [self._dates(p, existing.get(ids[i]), now) for i, p in enumerate(batch)]
        new_recs = [_Rec(ids[i], feats[i], sketches[i], ids[i], keys[i] + exact_keys(feats[i]) + block_keys(feats[i]),
                         extracted[i], dates[i][0]) for i in range(len(batch))]
        if hashes is not None:  # computed with `extracted` (prepare_batch)
            for r, h in zip(new_recs, hashes, strict=True):
                r.hashes = h
        fresh = [i for i in range(len(batch)) if i not in unchanged]
        # the batch's postings are counted into the boilerplate model its decisions use (as dedup's model counts
        # every posting it judges); journaled as intended writes, learned for good once Solr has them
        learnt = [i for i in fresh if extracted[i] is not None]
        written = self.state.intend([(ids[i], _hex(feats[i]["content"]), extracted[i]) for i in learnt],
                                    [records[i] for i in learnt] if records is not None else None,
                                    keep_open=int(self._pending is not None))
        self._unwritten.append(written)
        for i, rec in zip(learnt, written, strict=True):
            new_recs[i].lines = (rec[1], rec[2])  # its scopes and line hashes (`_prepare`)
        self._count_recent(written)
        blocking = self.verifier is not None  # like dedup: blocking pairs only go to the Verifier
        skip = self._big_blocks([feats[i] for i in fresh]) if fresh and blocking else frozenset()
        pool: dict[str, _Rec] = {r.id: r for r in self._solr_candidates(
            [feats[i] for i in fresh], [keys[i] for i in fresh], skip, blocking, self.window.recs)} if fresh else {}
        # postings written by this process but possibly not searchable yet: newer than Solr's view (the batch's
        # keys looked up once each: a band or block key is often shared by many of a batch's postings)
        lookup = {k for i in fresh
                  for k in (*keys[i], *exact_keys(feats[i]), *(block_keys(feats[i], skip) if blocking else ()))}
        for r in self.window.candidates(lookup):
            pool[r.id] = r
        if fresh and blocking:  # the other members of the small stored groups the batch may join (chain pairs)
            for r in self._group_members(pool, set(ids)):
                pool[r.id] = r
        for i in fresh:  # the old version of a posting re-sent with new content is no candidate: the new one is
            pool.pop(ids[i], None)
        pool_recs = sorted(pool.values(), key=lambda r: (r.first_seen or "~", r.id))  # deterministic rows
        npool = len(pool_recs)
        self.stats["candidates"] += npool
        rows = pool_recs + [new_recs[i] for i in fresh]
        first_key = date_key([r.first_seen for r in rows])
        groups = [r.dup_group for r in pool_recs]
        together = _codes(groups + [f"\x00{r.id}" for r in rows[npool:]])
        trace: dict[str, Any] = {}
        res = self._group_rows(rows, first_key, npool, skip, together, trace) if fresh else None
        # a canonical posting re-sent as another job (no longer with any of its old group): the rest of its
        # group is decided again first, so the batch's postings join their new groups
        orphaned = set()
        if res is not None:
            label = res["label"]
            in_group = np.array(groups, dtype=object)
            left: dict[str, tuple[str, Mapping[str, Any]]] = {}  # straight-indexed, with none of its group now
            for k, i in enumerate(fresh):
                was = existing.get(ids[i], {})
                if (g := was.get("dup_group")) and not ((label[:npool] == label[npool + k]) & (in_group == g)).any():
                    if g == ids[i]:
                        orphaned.add(g)
                    elif "sig_version" not in was:
                        left[ids[i]] = (g, batch[i])
            orphaned |= self._straight_heads_leaving(left)
        if orphaned:
            self._await()
        regrouped = self._regroup(orphaned, skip={ids[i] for i in fresh}) if orphaned else {}
        groups = [regrouped[r.id][0] if r.id in regrouped else g for r, g in zip(pool_recs, groups, strict=True)]
        outcome: dict[str, Outcome] = {}
        merges: dict[str, str] = {}
        via: dict[str, str] = {}
        canon: dict[str, str] = {}  # a merge's groups (winners and losers) -> their canonical postings
        if res is not None:
            # without the verifier the groups are the connected components, whatever the order: nothing to redo
            hot = contested_rows(trace, together, npool, decision_glue.link_cut()) if self.verifier is not None else \
                np.zeros(len(rows), bool)
            if hot.any():  # decided again from all the members' pairs, as dedup decides them
                self._await()
                got = self._redecide({groups[j] for j in np.flatnonzero(hot[:npool]).tolist()},
                                     [rows[b] for b in npool + np.flatnonzero(hot[npool:])], {ids[i] for i in fresh},
                                     skip)
                if got is not None:
                    outcome = {r.id: got[r.id] for r in rows[npool:] if r.id in got}
                    regrouped.update((pid, o) for pid, o in got.items() if pid not in outcome)
                else:
                    hot[:] = False
            mixed = self._straight_exist()
            straight = {ids[i]: g for i, g in self._straight_groups({i: batch[i] for i in fresh}, mixed).items()}
            decided, merges, via, canon = self._assign(rows, npool, groups, res, first_key, straight, hot, mixed)
            outcome.update(decided)
        docs: list[dict[str, Any]] = []
        results: list[Result] = []
        cloud = self.solr.is_cloud()
        for i, p in enumerate(batch):
            pid = ids[i]
            old = existing.get(pid)
            f = feats[i]
            if i in unchanged:
                group, dup_of, score, why, matched = regrouped.get(pid) or (
                    old["dup_group"], old.get("duplicate_of"), old.get("dup_score"), list(old.get("dup_why_ss") or []),
                    old.get("dup_match_s"))
                if group in merges:  # its group was merged into another
                    head = canon[merges[group]]
                    group, dup_of, score, why, matched = (merges[group], None, None, [], None) if pid == head else \
                        (merges[group], head, None, ["group_merged"], via[group]) if pid == canon[group] else \
                        (merges[group], head, score, why, matched)
            else:
                group, dup_of, score, why, matched = outcome[pid]
            new_recs[i].dup_group = group
            status = "updated" if old is not None else ("duplicate" if dup_of else "new")
            fs, ls, seen = dates[i]
            doc = _clean_doc(p, self.schema.derived)
            doc.update({
                "profile_sig": f["profile_sig"] or None, "mh_bands": keys[i], "mh_sketch": encode_sketch(full[i]),
                "content_key_s": _hex(f["content"]) or None, "url_key_s": _hex(f["url"]) or None,
                "company_key_s": _hex(f["company"]) or None, "title_key_s": _hex(f["title"]) or None,
                "location_key_s": _hex(f["location"]) or None, "ntok_i": f["ntok"],
                **{name: _hex(int(k)) or None for name, k in zip(BLOCK_FIELDS, f["blocks"].tolist(), strict=True)},
                "dup_group": group, "duplicate_of": dup_of, "dup_score": score, "dup_why_ss": why or None,
                "dup_match_s": matched, "sig_version": SIG_VERSION,
                "first_seen": fs, "last_seen": ls, "seen_count": seen,
            })
            if cloud:  # one more than the copy read (two when _regroup re-added it meanwhile): see service.solr.REV
                doc[REV] = ((old or {}).get(REV) or 0) + 1 + (pid in regrouped)
            docs.append({k: v for k, v in doc.items() if v is not None and v != []})
            results.append(Result(pid, status, group, dup_of, None if score is None else round(float(score), 4),
                                  why=why, matched=matched))
        if merges:  # before the batch: written after it, a failure between the two would leave the groups
            self._await()  # apart for good (the re-sent batch is unchanged, so never decided again)
            self._merge(merges, via, canon)
        return _Flight(ids, existing, unchanged, extracted, new_recs, docs, results)

    def _stored(self, ids: Sequence[str]) -> dict[str, Mapping[str, Any]]:
        """The stored version (STATE_FL) of each of `ids` Solr holds: a real-time get, except for postings the
        write in flight re-sends, whose newest version is that write's document (it is settled before the
        batch being decided is written, and if it fails or Solr refuses part of it, that batch is decided
        again), so a batch re-sending them need not wait for it."""
        sent = self._in_flight()
        out: dict[str, Mapping[str, Any]] = {}
        for d in self._now(ids, STATE_FL, sent):
            if d is sent.get(d["id"]):
                d = {k: d[k] for k in _STATE_FIELDS if k in d}
                self.stats["resent_in_flight"] += 1
            out[d["id"]] = d
        return out

    def _in_flight(self) -> dict[str, dict[str, Any]]:
        """The documents of the write in flight, by id: the newest version of those postings for the batch being
        decided (settled before that batch is written; decided again if the write fails or is refused in part)."""
        fl = self._pending
        return dict(zip(fl.ids, fl.docs, strict=True)) if fl is not None else {}

    def _send(self, fl: _Flight) -> None:
        """Send a decided batch's write to Solr (the writer thread) without waiting for it; the window and the
        extraction cache take its postings now, so the next batch is decided with them while Solr writes this
        one (`_settle` takes back what Solr refuses or fails)."""
        fl.replaced = {r.id: self.window.recs.get(r.id) for r in fl.new_recs}
        for i, r in enumerate(fl.new_recs):
            self.window.add(r)
            if fl.extracted[i] is not None:
                self._remember(r.id, r.feats["content"], fl.extracted[i])
        fl.future = self._writer.submit(self._write, fl.docs)
        self._pending = fl

    def _wait_write(self, fl: _Flight) -> dict[int, str]:
        """The write's outcome (position -> Solr's reason for each refused document), once Solr answered."""
        assert fl.future is not None
        return fl.future.result()

    def _await(self, cloud_only: bool = False) -> None:
        """Settle the write in flight before the batch being decided reads or writes what it holds: before
        merges and regroups, and on SolrCloud always (`cloud_only`: only there; a document's revision and shard
        follow its stored copy). Raises _Void when that write failed."""
        if self._pending is not None and (not cloud_only or self.solr.is_cloud()) and not self._settle():
            raise _Void

    def _settle(self) -> bool:
        """Wait for the write in flight and finish its batch (`_finish`); its ticket gets the results or the
        error. False when the write failed or Solr refused some of its postings: the batch being decided
        after it counted them, so it is decided again (`_void_deciding`)."""
        fl = self._pending
        if fl is None:
            return True
        try:
            refused = self._wait_write(fl)
        except Exception as exc:  # unknown outcome (Solr down, a cut connection): nothing of it is learned
            self._void_deciding()
            self._pending = None
            self._unwritten.pop(0)
            self.state.abandon()
            for i in range(len(fl.ids)):
                self._unsend(fl, i)
            self._reset_recent()
            fl.ticket.fail(exc)
            return False
        if refused:
            self._void_deciding()
        self._pending = None
        self._unwritten.pop(0)
        try:
            out = self._finish(fl, refused)
        except BaseException as exc:
            fl.ticket.fail(exc)
            raise
        fl.ticket.done(out)
        return not refused

    def _void_deciding(self) -> None:
        """Forget the counting and the intended write of the batch being decided (decided again later)."""
        if len(self._unwritten) > (self._pending is not None):
            self._unwritten.pop()
            self.state.withdraw()

    def _unsend(self, fl: _Flight, i: int) -> None:
        """Take the batch's posting i back out of the window (its earlier version, if any, back in)."""
        pid = fl.ids[i]
        self.window.remove(pid)
        if (old := fl.replaced.get(pid)) is not None:
            self.window.add(old)

    def _finish(self, fl: _Flight, refused: Mapping[int, str]) -> list[Result]:
        """After the batch's write: refused postings reported and taken out of the window, the written ones
        made durable for the boilerplate model (and learned in its next step), groups that lost their head
        to a refusal decided again."""
        ids, existing, results, unchanged, extracted = fl.ids, fl.existing, fl.results, fl.unchanged, fl.extracted
        if self.solr.is_cloud():  # a posting re-added under another group may have left a copy on the old shard
            drop_old_copies(self.solr, {pid: results[i].dup_group for i, pid in enumerate(ids) if i not in refused
                                        and pid in existing
                                        and existing[pid].get("dup_group") not in (None, results[i].dup_group)},
                            self.commit_within_ms)
        for i, reason in refused.items():
            results[i] = Result(ids[i], "rejected", reason=f"Solr refused it: {reason}")
            self._unsend(fl, i)
        learn = [extracted[i] for i in range(len(ids))
                 if i not in unchanged and i not in refused and extracted[i] is not None]
        self._to_learn.extend(self.state.journal(learn))  # durable before the batch is acknowledged
        if refused:
            self._reset_recent()
        # a refused posting that would have headed a group its stored version does not head (a new posting,
        # or a member re-sent as another job): the batch's postings that joined it are decided again
        lost = {ids[i] for i in refused if existing.get(ids[i], {}).get("dup_group") != ids[i]}
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

    def _straight_heads_leaving(self, left: Mapping[str, tuple[str, Mapping[str, Any]]]) -> set[str]:
        """The groups whose canonical posting (`_canonical`: a group named by Solr's signature) is one of `left`,
        postings indexed straight into Solr re-sent now with none of their group's postings (id -> (that group,
        the posting as sent)) and signed otherwise than stored: they leave it, so the rest is decided again, as
        when a head the service chose leaves (a re-send signed alike stays: the chain's group holds it)."""
        cfg = self._text_signing()
        if not left or cfg is None:
            return set()
        field, pids = cfg["signatureField"], sorted(left)
        stored = {d["id"]: d.get(field) for d in self.solr.get(pids, fl=f"id,{field}")}
        docs = [{k: v for k, v in _clean_doc(left[p][1], self.schema.derived).items() if v != []} for p in pids]
        sigs = textprofile.solr_fields_signatures(docs, cfg["fields"], cfg["quantRate"], cfg["minTokenLen"])
        moved = {p: left[p][0] for p, sig in zip(pids, sigs, strict=True) if sig != stored.get(p)}
        canon = self._canonical(set(moved.values()), [], True) if moved else {}
        return {g for p, g in moved.items() if canon.get(g) == p}

    def _text_signing(self) -> dict[str, Any] | None:
        """The update chain's signature config (Solr.signing) when it signs fields with TextProfileSignature, the
        signature this service can compute for a posting as the chain would; else None."""
        cfg = self.solr.signing()
        return cfg if cfg and cfg["fields"] and cfg["signatureClass"].endswith("TextProfileSignature") else None

    def _straight_exist(self) -> bool:
        """Whether the collection holds postings indexed straight into Solr (not by the service): only then can a
        group be named by Solr's signature rather than by a posting (one count query)."""
        return bool(self.solr.query({"q": "*:*", "fq": _STRAIGHT, "rows": 0})["response"]["numFound"])

    def _straight_groups(self, postings: Mapping[int, Mapping[str, Any]], mixed: bool
                         ) -> dict[int, tuple[str, str]]:
        """Postings that Solr signs like a searchable posting indexed straight into Solr (without the service,
        so no `sig_version`; its chain named its group): position -> (that group, that posting's id), the
        smallest group when there are several, as the chain's plugin picks. Such a posting is not a MinHash
        candidate (it has no sketch), so a copy would otherwise open a second group."""
        cfg = self._text_signing()
        if not mixed or not postings or cfg is None:
            return {}  # none in the collection (`mixed`: the usual case): no signatures to compute
        fields = cfg["fields"]
        written = {i: {k: v for k, v in _clean_doc(p, self.schema.derived).items() if v != []}  # as _write sends it
                   for i, p in postings.items()}
        every = textprofile.solr_fields_signatures(list(written.values()), fields, cfg["quantRate"], cfg["minTokenLen"])
        signed = [(i, s) for (i, d), s in zip(written.items(), every, strict=True) if _signs_text(d, s, cfg)]
        if not signed:
            return {}
        pos, sigs = [i for i, _ in signed], [s for _, s in signed]
        field = cfg["signatureField"]
        # their group as it is now (real-time get): Solr's search shows a regroup's move (`_follow_signature`)
        # only after its next soft commit
        sent = self._in_flight()  # re-sent through the service: signed by it now, no longer straight
        fl = f"id,dup_group,{field}"
        # per signature the straight posting of the smallest group (then id) as searched, read again now: one
        # posting per signature, not every straight copy (a group of thousands cost a real-time get of each)
        first: dict[str, tuple[str, str]] = {}
        collapse = "{!collapse field=" + field + " sort='dup_group asc,id asc'}"
        for d in self._straight_signed(field, sorted(set(sigs)), fl, collapse):
            key = (d.get("dup_group") or "", d["id"])
            first[d[field]] = min(first.get(d[field], key), key)
        now = {d["id"]: d for d in self.solr.get([pid for _, pid in first.values() if pid not in sent], fl=fl)} \
            if first else {}
        batch = {postings[i]["id"] for i in pos}
        found: dict[str, list[tuple[str, str]]] = {}
        for sig, (g, pid) in first.items():
            if (d := now.get(pid)) is not None and pid not in batch and d.get("dup_group") == g and d.get(field) == sig:
                found[sig] = [(g, pid)]
        # one moved lately, re-sent now or in flight: every straight copy of the signature read again, as it is now
        ids = [d["id"] for d in self._straight_signed(field, sorted(first.keys() - found.keys()), "id")
               if d["id"] not in sent] if len(found) < len(first) else []
        for d in self.solr.get(ids, fl=fl) if ids else []:
            if d.get("dup_group") and d.get(field):
                found.setdefault(d[field], []).append((d["dup_group"], d["id"]))
        out = {}
        for i, sig in zip(pos, sigs, strict=True):
            other = min((g for g in found.get(sig, []) if g[1] != postings[i]["id"]), default=None)
            if other is not None:
                out[i] = other
        return out

    def _straight_signed(self, field: str, sigs: Sequence[str], fl: str, *fq: str) -> list[dict[str, Any]]:
        """Searchable postings indexed straight into Solr that it signed with one of `sigs` (smallest group, then id,
        first; at most max_candidates), with further filters `fq`."""
        return self.solr.query({"q": "*:*", "fq": [terms_query(field, sigs), _STRAIGHT, *fq], "fl": fl,
                                "sort": "dup_group asc,id asc", "rows": self.max_candidates})["response"]["docs"]

    def _regroup(self, groups: set[str], skip: set[str]) -> dict[str, Outcome]:
        """The postings left in `groups`, whose canonical posting is no longer theirs (except `skip`: batch
        postings decided anew), grouped again among themselves by the engine, like dedup (connected
        components of the accepted pairs; canonical: earliest first_seen, then id); those the engine cannot
        judge (indexed straight into Solr) follow by their signature (`_follow_signature`). Writes their group
        fields (service.regroup) and puts them in the window with their new group; returns (group,
        duplicate_of, score, why, matched) by id."""
        straight: list[str] = []
        members = self._members(groups, unjudged=straight)
        assert members is not None
        for pid in groups | skip:
            members.pop(pid, None)
        straight = sorted(set(straight) - groups - skip)
        if not members and not straight:
            return {}
        recs = sorted(members.values(), key=lambda r: (r.first_seen or "~", r.id))
        ids = [r.id for r in recs]
        out: dict[str, Outcome] = {}
        if recs:
            res = self._group_rows(recs, date_key([r.first_seen for r in recs]))
            for i, pid in enumerate(ids):
                g = ids[int(res["canonical"][i])]
                out[pid] = (g, None, None, [], None) if g == pid else (g, g, *row_outcome(res, i, ids))
        if straight:
            out.update(self._follow_signature(straight, out, groups))
        self._write_moves(recs, out, list(out))
        self.stats["regrouped"] += len(out)
        return out

    def _follow_signature(self, pids: Sequence[str], out: Mapping[str, Outcome], groups: set[str]
                          ) -> dict[str, Outcome]:
        """The group of each posting of `pids` (indexed straight into Solr, so no sketch: the engine cannot judge
        it) left in `groups`, decided again (`out`: its other postings' outcome): the new group of a posting Solr
        signed alike (the smallest, as the chain picks; why `solr_signature`), else the group the chain gives a
        posting sent alone -- the smallest group of the postings outside `groups` Solr signed alike, else its
        signature, its id when that says nothing of its text (`_signs_text`) -- never its old group's name, which the head that left now
        carries. A posting deleted meanwhile is left out."""
        cfg = self.solr.signing()
        field, signed = (cfg["signatureField"], cfg["fields"]) if cfg and cfg["fields"] else ("", [])
        docs = {d["id"]: d for d in self.solr.get([*pids, *out], fl=",".join(["id", *([field, *signed] if field else [])]))}
        alike: dict[str, list[tuple[str, str]]] = {}
        for pid, o in out.items():
            if sig := docs.get(pid, {}).get(field):
                alike.setdefault(sig, []).append((o[0], pid))
        got: dict[str, Outcome] = {}
        outside: dict[str, tuple[str, str] | None] = {}  # signature -> (group, posting) elsewhere, as the chain finds
        for pid in pids:
            if (d := docs.get(pid)) is None:
                continue
            sig = d.get(field) if signed and _signs_text(d, d.get(field), cfg) else None
            if sig in alike:
                g, matched = min(alike[sig])
                got[pid] = (g, g, 1.0, ["solr_signature"], matched)
            elif sig and (found := outside[sig] if sig in outside else
                          outside.setdefault(sig, self._signed_elsewhere(field, sig, groups, pids))):
                g, matched = found
                got[pid] = (g, self._canonical({g}, [], True)[g], 1.0, ["solr_signature"], matched)
            else:
                got[pid] = (sig or pid, None, None, [], None)
        return got

    def _signed_elsewhere(self, field: str, sig: str, groups: set[str], pids: Sequence[str]) -> tuple[str, str] | None:
        """(group, posting) of the posting outside `groups` and `pids` that Solr signed `sig` with the smallest
        group (then id), as the chain's plugin adopts a group for a posting sent alone; its group as it is now."""
        res = self.solr.query({"q": "*:*", "fq": "{!bool filter=$fs must_not=$fg must_not=$fi}",
                               "fs": terms_query(field, [sig]), "fg": terms_query("dup_group", sorted(groups)),
                               "fi": terms_query("id", sorted(pids)), "fl": "id", "sort": "dup_group asc,id asc",
                               "rows": 20})["response"]["docs"]
        now = self._now([d["id"] for d in res], f"id,dup_group,{field}", self._in_flight())
        return min(((g, d["id"]) for d in now if (g := d.get("dup_group")) and g not in groups and d.get(field) == sig),
                   default=None)

    def _members(self, groups: set[str], limit: int | None = None, unjudged: list[str] | None = None
                 ) -> dict[str, _Rec] | None:
        """The postings stored in `groups`, by id, with their window lookup keys: Solr's (searched, then read by
        real-time get) and the window's, which holds this process's writes and moves before Solr's search view
        does. None when they are more than `limit` (counted from ids, so a group over the cap is not read; a
        search answer cut at limit + 1 counts each posting it left out as a member) and, with a limit, when one
        has no sketch the engine could judge it by (indexed straight into Solr): decided again without it, its
        group's other postings would leave it. Without a limit the ids of those are added to `unjudged`."""
        searched = sorted({*groups, *self.window.absorbed(groups)})  # merged lately: Solr's search lags
        query = {"q": "*:*", "fq": terms_query("dup_group", searched), "fl": "id"}
        known = self.window.recs
        windowed = self.window.members(groups)
        pages: Iterable[list[dict[str, Any]]]
        if limit is None:
            pages = (page for page, _, _ in self.solr.stream(query, rows=1000))
        else:
            got = self.solr.query({**query, "rows": limit + 1})["response"]
            unread = got["numFound"] - len(got["docs"])
            if sum(d["id"] not in known for d in got["docs"]) + len(windowed) + unread > limit:
                return None
            pages = [got["docs"]]
        members: dict[str, _Rec] = {}
        moved: dict[str, str] = {}
        for page in pages:  # the window's version is newer: only the others are read
            docs = self.solr.get([d["id"] for d in page if d["id"] not in known], fl=STATE_FL)
            moved.update((d["id"], g) for d in docs if (g := d.get("dup_group")) and g not in groups)
            inside = [d for d in docs if d.get("dup_group") in groups]
            recs = _recs_from_docs(inside, with_keys=True)
            if limit is not None and len(recs) < len(inside):
                return None
            if unjudged is not None and len(recs) < len(inside):
                judged = {r.id for r in recs}
                unjudged.extend(d["id"] for d in inside if d["id"] not in judged)
            members.update((r.id, r) for r in recs)
        if moved and self.solr.is_cloud():
            # SolrCloud: a copy left on its old group's shard (a move cut short) found a posting that has left
            # the group: no member, and that old copy is deleted now
            drop_old_copies(self.solr, moved, self.commit_within_ms)
        members.update(windowed)
        return members

    def _write_moves(self, recs: Sequence[_Rec], out: Mapping[str, Outcome], moved: Sequence[str]) -> None:
        """Write the `moved` stored postings' new group fields (`out`, service.regroup: heads first; SolrCloud:
        re-add, then drop the old copy) and put every stored posting of `recs` in the window with its group."""
        if moved:
            self._write_groups({pid: (g, d or "", sc, why, m or "") for pid in moved for g, d, sc, why, m in (out[pid],)})
        for r in recs:
            r.dup_group = out[r.id][0]
            self.window.add(r)

    def _write_groups(self, new: Regroup) -> None:
        """Write postings' new group fields (service.regroup.write_groups). A write cut short may have stored
        some moves and not others: the window's copies of the postings then take the group Solr holds now
        (real-time get), or leave the window when Solr cannot tell, so no lookup trusts a group it only guessed."""
        try:
            write_groups(self.solr, new, self.commit_within_ms)
        except BaseException:
            held = [pid for pid in new if pid in self.window.recs]
            try:
                now = {d["id"]: d.get("dup_group") for d in self.solr.get(held, fl="id,dup_group")} if held else {}
            except Exception:  # Solr gone: the next lookup asks it
                now = {}
            for pid in held:
                if g := now.get(pid):
                    self.window.regroup(pid, g)
                else:
                    self.window.remove(pid)
            raise

    def _redecide(self, groups: set[str], new: Sequence[_Rec], fresh: set[str], skip: frozenset[int]
                  ) -> dict[str, Outcome] | None:
        """Contested components (`contested_rows`) decided again from all their members' pairs, as dedup decides
        them: the postings stored in `groups` (except the batch's `fresh` ones, decided anew) and the batch's
        `new` postings, through the engine with every pair proposed (service.graph.constrained_labels over
        them all; blocking keys in `skip`, too big, left out as for the batch). A group keeps a stored head
        (a posting heading its group now, else its earliest stored posting; the earliest head where it holds
        several), so no stored posting ever points at one Solr does not hold yet and a group decided as it
        was keeps its name. Stored
        postings that change group are written now (service.regroup). Returns the outcome of the batch's
        postings and of the stored ones that moved, by id; None when the members are more than MAX_REDECIDE
        or one has no sketch (`_members`): the arrival-order decision stands."""
        members = self._members(groups, MAX_REDECIDE)
        if members is None or len(members.keys() - fresh) + len(new) > MAX_REDECIDE:
            self.stats["redecide_skipped"] += 1
            return None
        for pid in fresh:
            members.pop(pid, None)
        recs = sorted([*members.values(), *new], key=lambda r: (r.first_seen or "~", r.id))
        ids = [r.id for r in recs]
        res = self._group_rows(recs, date_key([r.first_seen for r in recs]), skip=skip)
        label = res["label"]
        stored = np.array([pid in members for pid in ids], bool)
        heads = np.array([pid in members and members[pid].dup_group == pid for pid in ids], bool)
        # per group: a stored posting, one that heads its group now first (a group decided as it was keeps its
        # name), then the earliest
        order = np.lexsort((np.arange(len(recs)), ~heads, ~stored, label))
        first = np.ones(len(order), bool)
        first[1:] = label[order][1:] != label[order][:-1]
        head = np.empty(int(label.max()) + 1, np.int64)
        head[label[order][first]] = order[first]
        out: dict[str, Outcome] = {}
        for i, pid in enumerate(ids):
            g = ids[int(head[label[i]])]
            out[pid] = (g, None, None, [], None) if g == pid else (g, g, *row_outcome(res, i, ids))
        old = [members[pid] for pid in ids if pid in members]
        moved = [r for r in old if r.dup_group != out[r.id][0]]
        self._write_moves(old, out, [r.id for r in moved])
        self.stats["redecided"] += len(recs)
        self.stats["redecide_moved"] += len(moved)
        keep = {r.id for r in new} | {r.id for r in moved}
        return {pid: o for pid, o in out.items() if pid in keep}

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
