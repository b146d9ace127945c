"""Writing new group fields (dup_group, duplicate_of, dup_score, dup_why_ss, dup_match_s) onto stored
postings: atomic updates in a standalone core; in SolrCloud, where dup_group is the shard route, a re-add
of the whole stored posting, then a delete of the copy left on its old group's shard. Used by `recompute`
and by ingest when a group loses its canonical posting."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service import sketching
from service.solr import REV, Solr
from signatures import minhash

#: id -> (group, duplicate_of ("" for a canonical), score, why, matched)
Regroup = dict[str, tuple[str, str, float | None, list[str], str]]


def set_op(value: Any) -> dict[str, Any]:
    """An atomic-update "set"; empty values remove the field."""
    return {"set": value if value not in ("", []) else None}


def band_keys_of(sketch_text: str | None) -> list[str] | None:
    """LSH band keys of a stored `mh_sketch` (None: no sketch the service can read -- indexed straight into Solr,
    or written by another client or version -- as ingest's candidate records leave it out)."""
    if not sketch_text:
        return None
    try:
        full = minhash.decode_sketch(sketch_text, sketching.NUM_PERM)
    except ValueError:
        return None
    return [] if bool(minhash.is_empty(full)) else sketching.band_keys_batch(full[None, :])[0]


def write_groups(solr: Solr, new: Regroup, commit_within_ms: int) -> int:
    """Write `new` group fields (atomic updates, or re-adds in SolrCloud); returns how many postings were
    written (a posting deleted meanwhile is skipped)."""
    return regroup_readd(solr, new, commit_within_ms) if solr.is_cloud() else \
        regroup_atomic(solr, new, commit_within_ms)


def heads_first(new: Regroup, old_group: dict[str, str | None]) -> list[str]:
    """The ids of `new` in a safe write order: postings becoming the head of their group first, postings
    that stop heading their stored group (`old_group`) last. Solr applies an update request's documents
    in order and keeps those before a failure (a refused document, Solr or the writer gone mid-request),
    so every prefix leaves each group with its head and each duplicate_of inside its group."""
    def rank(pid: str) -> int:
        return 0 if new[pid][0] == pid else 2 if old_group.get(pid) == pid else 1

    return sorted(new, key=rank)


def regroup_atomic(solr: Solr, new: Regroup, commit_within_ms: int) -> int:
    """Standalone: atomic updates of the group fields (plus mh_bands, which is not stored), in heads_first
    order."""
    stored = {d["id"]: d for d in solr.get(list(new), fl="id,mh_sketch,dup_group")}
    updates = []
    for pid in heads_first(new, {pid: d.get("dup_group") for pid, d in stored.items()}):
        if pid not in stored:  # deleted meanwhile
            continue
        group, dup_of, score, why, matched = new[pid]
        keys = band_keys_of(stored[pid].get("mh_sketch"))  # None: no readable sketch (e.g. indexed straight)
        updates.append({"id": pid, "dup_group": {"set": group}, "duplicate_of": set_op(dup_of),
                        "dup_score": set_op(score if score is not None else ""), "dup_why_ss": set_op(why),
                        "dup_match_s": set_op(matched), "mh_bands": set_op(keys or [])})
    if updates:
        solr.update(updates, commit_within_ms=commit_within_ms)
    return len(updates)


def regroup_readd(solr: Solr, new: Regroup, commit_within_ms: int) -> int:
    """SolrCloud routes by dup_group (router.field): a posting changing group must move shards, so it is
    re-added whole (stored fields + new group + recomputed mh_bands), in heads_first order, and then the
    copy its old group's shard still holds is deleted (drop_old_copies). Never a delete before the add: a
    request cut at any point leaves every posting stored, at worst twice until the next regroup of it."""
    from service.solr_schema import Schema

    docs = {d["id"]: d for d in solr.get(list(new), fl="*")}  # real-time get: committed or not
    derived = Schema.from_api(solr.schema()).derived  # filled by Solr: copyField targets, index-only fields
    readd = []
    for pid in heads_first(new, {pid: d.get("dup_group") for pid, d in docs.items()}):
        if (d := docs.get(pid)) is None:  # deleted meanwhile
            continue
        group, dup_of, score, why, matched = new[pid]
        keys = band_keys_of(d.get("mh_sketch"))
        doc = {k: v for k, v in d.items() if k not in derived and k not in (
            "_version_", "score", "mh_bands", "dup_group", "duplicate_of", "dup_score", "dup_why_ss", "dup_match_s")}
        doc.update({REV: (d.get(REV) or 0) + 1, "dup_group": group, "mh_bands": keys or None, "duplicate_of": dup_of or None, "dup_score": score,
                    "dup_why_ss": why or None, "dup_match_s": matched or None})
        readd.append({k: v for k, v in doc.items() if v is not None})
    if readd:
        solr.update(readd, commit_within_ms=commit_within_ms)
        drop_old_copies(solr, {d["id"]: d["dup_group"] for d in readd}, commit_within_ms)
    return len(readd)


def drop_old_copies(solr: Solr, intended: Mapping[str, str], commit_within_ms: int) -> int:
    """SolrCloud: after postings were re-added under their `intended` groups (id -> dup_group, maybe on another
    shard), delete every copy of them stored under another group -- the copy a move leaves on the old group's
    shard. Chosen by group, never by `_version_` across shards: each shard leader stamps versions with its own
    clock, so with clock skew a stale copy can carry the higher version. A posting whose intended copy is not
    stored (moved on or deleted meanwhile) is left alone; the intended copies are made searchable first (a soft
    commit), so no search ever misses a posting; a copy that changed meanwhile is kept (versioned deletes).
    Returns how many old copies there were."""
    copies = solr.copies(list(intended))
    placed = {c["id"] for c in copies if c.get("dup_group") == intended[c["id"]]}
    old = [c for c in copies if c["id"] in placed and c.get("dup_group") != intended[c["id"]]]
    if old:
        solr.commit(soft=True)
        solr.delete_copies(old, commit_within_ms=commit_within_ms)
    return len(old)


def newest_copies(solr: Solr, docs: list[dict[str, Any]], fl: str, commit_within_ms: int) -> list[dict[str, Any]]:
    """SolrCloud: a search's `docs` with each posting stored twice (a move cut short between its re-add and
    the delete of its old copy) read again from its newest copy, the older one deleted. A search merges the
    shards' answers by id and keeps one of the copies, whichever."""
    seen: dict[str, int] = {}
    for c in solr.copies([d["id"] for d in docs]):
        seen[c["id"]] = seen.get(c["id"], 0) + 1
    twice = sorted(pid for pid, n in seen.items() if n > 1)
    if not twice:
        return docs
    newest = {d["id"]: d for d in solr.get(twice, fl=fl)}
    drop_old_copies(solr, {pid: d["dup_group"] for pid, d in newest.items() if d.get("dup_group")}, commit_within_ms)
    return [newest.get(d["id"], d) for d in docs]
