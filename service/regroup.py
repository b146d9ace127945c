"""Writing new group fields (dup_group, duplicate_of, dup_score, dup_why_ss, dup_match_s) onto stored
postings: atomic updates in a standalone core; in SolrCloud, where dup_group is the shard route, a delete
everywhere and a re-add of the whole stored posting. Used by `recompute` and by ingest when a group
loses its canonical posting."""

from __future__ import annotations

from typing import Any

from service import sketching
from service.solr import Solr
from signatures import minhash

#: id -> (group, duplicate_of ("" for a canonical), score, why, matched)
Regroup = dict[str, tuple[str, str, float | None, list[str], str]]


def set_op(value: Any) -> dict[str, Any]:
    """An atomic-update "set"; empty values remove the field."""
    return {"set": value if value not in ("", []) else None}


def band_keys_of(sketch_text: str | None) -> list[str] | None:
    """LSH band keys of a stored `mh_sketch` (None: no sketch, e.g. the posting was deleted)."""
    if sketch_text is None:
        return None
    full = minhash.decode_sketch(sketch_text, sketching.NUM_PERM)
    return [] if bool(minhash.is_empty(full)) else sketching.band_keys_batch(full[None, :])[0]


def write_groups(solr: Solr, new: Regroup, commit_within_ms: int) -> int:
    """Write `new` group fields (atomic updates, or delete + re-add in SolrCloud); returns how many
    postings were written (a posting deleted meanwhile is skipped)."""
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
        group, dup_of, score, why, matched = new[pid]
        keys = band_keys_of(stored.get(pid, {}).get("mh_sketch"))
        if keys is None:  # deleted meanwhile
            continue
        updates.append({"id": pid, "dup_group": {"set": group}, "duplicate_of": set_op(dup_of),
                        "dup_score": set_op(score if score is not None else ""), "dup_why_ss": set_op(why),
                        "dup_match_s": set_op(matched), "mh_bands": set_op(keys)})
    if updates:
        solr.update(updates, commit_within_ms=commit_within_ms)
    return len(updates)


def regroup_readd(solr: Solr, new: Regroup, commit_within_ms: int) -> int:
    """SolrCloud routes by dup_group (router.field): a posting changing group must move shards, so it is
    deleted everywhere and re-added whole (stored fields + new group + recomputed mh_bands), in one request."""
    from service.solr_schema import Schema

    docs = solr.get(list(new), fl="*")  # real-time get: committed or not
    derived = Schema.from_api(solr.schema()).derived  # filled by Solr: copyField targets, index-only fields
    readd = []
    for d in docs:
        group, dup_of, score, why, matched = new[d["id"]]
        keys = band_keys_of(d.get("mh_sketch"))
        doc = {k: v for k, v in d.items() if k not in derived and k not in (
            "_version_", "score", "mh_bands", "dup_group", "duplicate_of", "dup_score", "dup_why_ss", "dup_match_s")}
        doc.update({"dup_group": group, "mh_bands": keys or None, "duplicate_of": dup_of or None, "dup_score": score,
                    "dup_why_ss": why or None, "dup_match_s": matched or None})
        readd.append({k: v for k, v in doc.items() if v is not None})
    if readd:
        solr.delete_and_add([d["id"] for d in readd], readd, commit_within_ms=commit_within_ms)
    return len(readd)
