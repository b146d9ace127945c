"""Recompute signatures and groups over a live collection, resumably.

Phase 1 (scan): stream every posting with cursorMark (sorted by id), recompute profile_sig, sketch,
band keys, exact keys and Solr's own `signature` (over the configset's fields, PROFILE_FIELDS: the
update chain never re-signs an atomic update, so after a change of those fields only recompute brings
stored signatures up to date) with the current code; postings whose stored signatures differ (or carry
another sig_version) get an atomic update. Each page's features are saved next to the checkpoint,
then the checkpoint (cursorMark, counts) is written: a killed run resumes at the last saved page and
redoes at most one page (atomic "set" updates are idempotent).
Phase 2 (group): the saved features are grouped exactly like `jobdedup dedup` (same candidates,
same decision -- the Verifier for ambiguous pairs with a boilerplate model fitted on the postings
involved, read back from the page texts saved in phase 1, over the same candidates including dedup's
blocking pairs (service.candidates); `fast` = dedup's --fast rule -- and the same
canonical choice: earliest first_seen, then id), which repairs groups left inconsistent by racing
ingests; postings whose dup_group / duplicate_of / dup_score / dup_why_ss / dup_match_s change get
atomic updates, in id order, checkpointed after every batch.
Phase 3 (model): the collection's boilerplate model is refitted from every posting and saved in the
state directory (service.state), where `serve` and `index` load it.

Atomic updates re-send `mh_bands`: it is not stored, and a schema without docValues on it would lose
it in an atomic update (harmless when it has docValues, as the shipped configset does).
"""

from __future__ import annotations

import io
import multiprocessing as mp
import os
import shutil
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from service import candidates, decision_glue
from service.engine import Phases, date_key, find_groups, worker_pool
from service.errors import SolrUnavailable, UserError
from service.features import FeatureBatch, compute_features
from service.files import atomic_output, write_atomic
from service.ingest import BLOCK_FIELDS, VERIFY_FIELDS, _hex, encode_sketch
from service.regroup import newest_copies, set_op, write_groups
from service.solr import Solr
from service.state import BoilerplateState, default_state_dir, model_path
from service.verify_stage import PairVerifier, extract_chunk, file_postings
from signatures import SIG_VERSION
from signatures.profile import PROFILE_FIELDS
from signatures.textprofile import solr_fields_signatures

TEXT_FL = ",".join(VERIFY_FIELDS)
STATE_FL = ("signature,profile_sig,mh_sketch,sig_version,content_key_s,url_key_s,company_key_s,title_key_s,"
            "location_key_s,dup_group,duplicate_of,dup_score,dup_why_ss,dup_match_s," + ",".join(BLOCK_FIELDS))
"""Every stored field `_changed_signatures` compares: one left out reads as "" and rewrites every posting."""
_SEP = "\x1f"  # joins the stored why list into one comparable string
_ARRAYS = ("content", "url", "profile", "company", "title", "location", "ntok", "sketch", "bands")


@dataclass
class Checkpoint:
    """Progress of one recompute run, saved as JSON after every page / batch."""

    solr: str
    sig_version: str
    phase: str = "scan"          # scan | group | done
    cursor: str = "*"
    pages: int = 0
    seen: int = 0
    signatures_changed: int = 0
    group_batches_done: int = 0
    groups_changed: int = 0
    merged: int = 0
    split: int = 0
    groups: int = 0
    verified_pairs: int = 0
    model_postings: int = 0

    def save(self, directory: Path) -> None:
        write_atomic(directory / "checkpoint.json", orjson.dumps(asdict(self)))

    @classmethod
    def load(cls, directory: Path) -> Checkpoint | None:
        f = directory / "checkpoint.json"
        if not f.exists():
            return None
        try:
            return cls(**orjson.loads(f.read_bytes()))
        except (orjson.JSONDecodeError, TypeError) as exc:
            raise UserError(f"{f}: unreadable checkpoint ({exc}); delete it or run without --resume") from None


def _posting(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: (v[0] if isinstance(v, list) and k != "id" and v else v) for k, v in doc.items()}


def _changed_signatures(doc: dict[str, Any], want: dict[str, str]) -> bool:
    """Whether a stored posting's signatures and keys differ from `want` (field -> value, "" for none), e.g.
    after an upgrade that reads a field otherwise (company_key_s: the employer's trade name), or are of
    another SIG_VERSION."""
    return doc.get("sig_version") != SIG_VERSION or any((doc.get(k) or "") != v for k, v in want.items())


def _scan_page(solr: Solr, docs: list[dict[str, Any]], directory: Path, page: int,
               commit_within_ms: int) -> int:
    """Recompute one page; write changed signatures; save the page's arrays. Returns #changed."""
    postings = [_posting(d) for d in docs]
    fb = compute_features(postings, with_keys=True)
    solr_sigs = solr_fields_signatures(postings, PROFILE_FIELDS)
    blocks = candidates.blocking_keys(postings)  # dedup's blocking keys: its extra verifier pairs
    updates = []
    for i, d in enumerate(docs):
        sk_text = encode_sketch(fb.sketch_full[i])
        ck, uk = _hex(fb.content[i]), _hex(fb.url[i])
        bk = [_hex(int(k)) for k in blocks[i].tolist()]  # stored too: the service's blocking candidates
        keys = {"company_key_s": _hex(fb.company[i]), "title_key_s": _hex(fb.title[i]),
                "location_key_s": _hex(fb.location[i])}
        if _changed_signatures(d, {"profile_sig": fb.profile_hex[i], "signature": solr_sigs[i], "mh_sketch": sk_text,
                                   "content_key_s": ck, "url_key_s": uk, **keys, **dict(zip(BLOCK_FIELDS, bk, strict=True))}):
            updates.append({
                "id": d["id"], "dup_group": d.get("dup_group") or d["id"],  # the route (SolrCloud router.field)
                "signature": set_op(solr_sigs[i]),
                "profile_sig": set_op(fb.profile_hex[i]), "mh_bands": set_op(fb.band_keys[i]),
                "mh_sketch": set_op(sk_text), "content_key_s": set_op(ck), "url_key_s": set_op(uk),
                **{k: set_op(v) for k, v in keys.items()}, "ntok_i": set_op(int(fb.ntok[i])),
                "sig_version": set_op(SIG_VERSION), **{f: set_op(k) for f, k in zip(BLOCK_FIELDS, bk, strict=True)},
            })
    if updates:
        solr.update(updates, commit_within_ms=commit_within_ms)
    ids = np.array([d["id"] for d in docs], dtype=object)
    old = np.array([[d.get("dup_group") or d["id"], d.get("duplicate_of") or "", str(d.get("dup_score", "")),
                     _SEP.join(d.get("dup_why_ss") or []), d.get("dup_match_s") or ""]
                    for d in docs], dtype=object).reshape(len(docs), 5)
    first = date_key([d.get("first_seen") if isinstance(d.get("first_seen"), str) else None for d in docs])
    # the texts the Verifier and the boilerplate model read in phases 2 and 3
    write_atomic(directory / f"page-{page:06d}.jsonl",
                 b"".join(orjson.dumps({k: p[k] for k in VERIFY_FIELDS if p.get(k) is not None}) + b"\n"
                          for p in postings))
    buf = io.BytesIO()
    np.savez(buf, ids=ids.astype(str), old=old.astype(str), first=first, blocks=blocks,
             **{name: getattr(fb, name) for name in _ARRAYS})
    write_atomic(directory / f"page-{page:06d}.npz", buf.getvalue())
    return len(updates)


def _load_pages(directory: Path, pages: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, FeatureBatch, np.ndarray]:
    parts: dict[str, list[np.ndarray]] = {k: [] for k in ("ids", "old", "first", "blocks", *_ARRAYS)}
    for p in range(pages):
        with np.load(directory / f"page-{p:06d}.npz") as z:
            for k in parts:
                parts[k].append(z[k] if k in z.files else np.zeros((len(z["ids"]), 0), np.uint64))
    if not pages:
        raise UserError("the collection is empty: nothing to recompute")
    parts["old"] = [o if o.shape[1] == 5 else np.pad(o, ((0, 0), (0, 5 - o.shape[1])), constant_values="")
                    for o in parts["old"]]  # pages saved by a version that did not keep why/matched
    cat = {k: np.concatenate(v) for k, v in parts.items()}
    fb = FeatureBatch(*(cat[k] for k in _ARRAYS), [])
    return cat["ids"], cat["old"], cat["first"], fb, cat["blocks"]


def _partition_changes(old_groups: np.ndarray, new_labels: np.ndarray) -> tuple[int, int]:
    """(merged, split): extra old groups per new group, extra new groups per old group."""
    _, old_codes = np.unique(old_groups, return_inverse=True)
    pairs = np.unique(np.stack([old_codes, new_labels], axis=1), axis=0)
    new_per = np.bincount(pairs[:, 1])
    old_per = np.bincount(pairs[:, 0])
    return int((new_per[new_per > 1] - 1).sum()), int((old_per[old_per > 1] - 1).sum())


def _texts_file(directory: Path, pages: int) -> Path:
    """All saved page texts as one JSON Lines file (what dedup's verifier step re-reads)."""
    out = directory / "postings.jsonl"
    with atomic_output(out) as fh:
        for p in range(pages):
            with open(directory / f"page-{p:06d}.jsonl", "rb") as part:
                shutil.copyfileobj(part, fh)
    return out


def refit_boilerplate(texts: Path, workers: int) -> Any:
    """A BoilerplateModel fitted on every posting of the texts file (extraction in `workers` processes)."""
    from service import io
    from signatures.boilerplate import BoilerplateModel

    def chunks() -> Any:
        batch: list[dict[str, Any]] = []
        for _, p in io.read_postings(str(texts), "jsonl"):
            batch.append(p)
            if len(batch) >= 200:
                yield batch
                batch = []
        if batch:
            yield batch

    model = BoilerplateModel()
    if workers > 1:
        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
        with ctx.Pool(workers) as pool:
            for part in pool.imap(extract_chunk, chunks()):
                for ex in part:
                    model.add(ex)
    else:
        for batch in chunks():
            for ex in extract_chunk(batch):
                model.add(ex)
    return model


def recompute(solr_url: str, checkpoint_dir: str | None, resume: bool = False, rows: int = 500,
              commit_within_ms: int = 5000, quiet: bool = True, stop_after_pages: int | None = None,
              fast: bool = False, state_dir: str | None = None, workers: int = 1) -> Checkpoint:
    """Run (or resume) a recompute over the collection; returns the final counts.

    Groups are decided like `jobdedup dedup` (`fast`: like `dedup --fast`); afterwards the collection's
    boilerplate model is refitted from every posting and saved under `state_dir` (None: not saved).
    `checkpoint_dir` (None: `default_checkpoint_dir`) is removed when the run completes.
    """
    from tqdm import tqdm

    solr = Solr(solr_url)
    try:
        total = solr.count()  # the collection is reachable: only then is a checkpoint created or touched
    except SolrUnavailable as exc:
        raise UserError(f"{exc}; check --solr (nothing was changed)") from None
    directory = Path(checkpoint_dir) if checkpoint_dir is not None else default_checkpoint_dir(state_dir, solr.url)
    ck = _open_checkpoint(directory, solr.url, resume, quiet)
    show = not quiet and sys.stderr.isatty()
    if ck.phase == "scan":
        bar = tqdm(total=total, initial=ck.seen, unit=" postings", desc="recompute: scan", disable=not show,
                   file=sys.stderr)
        for docs, _, nxt in solr.stream({"q": "*:*", "fl": f"{TEXT_FL},{STATE_FL}"}, rows=rows, cursor=ck.cursor):
            if not docs:
                break
            if solr.is_cloud():  # a posting a cut-short move left stored twice: its newest copy, once
                docs = newest_copies(solr, docs, f"{TEXT_FL},{STATE_FL}", commit_within_ms)
            changed = _scan_page(solr, docs, directory, ck.pages, commit_within_ms)
            if stop_after_pages is not None and ck.pages + 1 >= stop_after_pages:
                os._exit(75)  # simulated kill for tests: page written, checkpoint not yet saved
            ck.pages += 1
            ck.seen += len(docs)
            ck.signatures_changed += changed
            ck.cursor = nxt
            ck.save(directory)
            bar.update(len(docs))
        bar.close()
        ck.phase = "group"
        ck.save(directory)
    if ck.phase == "group":
        ids, old, first, fb, blocks = _load_pages(directory, ck.pages)
        order = np.argsort(ids, kind="stable")  # pages are in id order already; keep it explicit
        ids, old, first, blocks = ids[order], old[order], first[order], blocks[order]
        fb = FeatureBatch(*(getattr(fb, k)[order] for k in _ARRAYS), [])
        phases = Phases("recompute", quiet)
        with worker_pool(workers) as pool:
            verify = None
            if not fast:  # dedup's own verifier step (model fitted on the postings involved), over the saved texts
                verify = PairVerifier(file_postings(str(_texts_file(directory, ck.pages)), "jsonl", None,
                                                    [str(x) for x in ids]),
                                      len(ids), pool, workers, phases, phases.timings)
            # dedup's candidates: LSH / exact keys, plus (verifier mode) the blocking pairs, in the same order
            extra = candidates.extra_pairs(blocks, first) if verify is not None and blocks.shape[1] else None
            try:
                res = find_groups(fb, first, verify, extra, phases)
            finally:
                if verify is not None:
                    verify.close()
        timings = phases.timings
        ck.verified_pairs = int(timings.get("verify_pairs", 0))
        canon = res["canonical"]
        new_group = ids[canon]
        is_canon = canon == np.arange(len(ids))
        score = res["score"]
        ck.groups = int(res["label"].max() + 1) if len(ids) else 0
        ck.merged, ck.split = _partition_changes(old[:, 0], res["label"])
        new_dup_of = np.where(is_canon, "", new_group)
        new_score = np.array(["" if (c or s != s) else str(float(round(float(s), 4))) for c, s in zip(is_canon, score, strict=True)],
                             dtype=object)
        new_why, new_match = _reasons(res, ids, is_canon)
        changed = np.flatnonzero((old[:, 0] != new_group) | (old[:, 1] != new_dup_of)
                                 | (np.array([_norm_score(x) for x in old[:, 2]], dtype=object) != new_score)
                                 | (old[:, 3] != new_why) | (old[:, 4] != new_match))
        batches = [changed[s:s + rows] for s in range(0, len(changed), rows)]
        bar = tqdm(total=len(changed), initial=sum(len(b) for b in batches[:ck.group_batches_done]), unit=" postings",
                   desc="recompute: groups", disable=not show, file=sys.stderr)
        if solr.is_cloud():
            solr.commit()  # the re-adds below read stored documents: make phase-1 updates visible
        for bno in range(ck.group_batches_done, len(batches)):
            sel = batches[bno]
            bid = [str(ids[i]) for i in sel]
            new = {pid: (str(new_group[i]), str(new_dup_of[i]), float(new_score[i]) if new_score[i] else None,
                         [w for w in str(new_why[i]).split(_SEP) if w], str(new_match[i]))
                   for i, pid in zip(sel, bid, strict=True)}
            n_written = write_groups(solr, new, commit_within_ms)
            ck.group_batches_done = bno + 1
            ck.groups_changed += n_written
            ck.save(directory)
            bar.update(len(sel))
        bar.close()
        ck.phase = "model"
        ck.save(directory)
    if ck.phase == "model":
        model = refit_boilerplate(_texts_file(directory, ck.pages), workers)
        ck.model_postings = model.postings
        if state_dir is not None:
            BoilerplateState.for_collection(state_dir, solr.url).replace(model)
        ck.phase = "done"
        ck.save(directory)
    solr.commit()
    shutil.rmtree(directory)  # done: the checkpoint is only needed to resume a run that did not finish
    return ck


#: Name of the default checkpoint directory, beside the collection's boilerplate model in the state dir.
CHECKPOINT_NAME = "recompute.ckpt"


def default_checkpoint_dir(state_dir: str | None, solr_url: str) -> Path:
    """Where a recompute of the collection at `solr_url` keeps its checkpoint when --checkpoint is not given:
    `<state dir>/<collection slug>/recompute.ckpt`, one per collection."""
    return model_path(state_dir if state_dir is not None else default_state_dir(), solr_url).parent / CHECKPOINT_NAME


def _open_checkpoint(directory: Path, solr_url: str, resume: bool, quiet: bool) -> Checkpoint:
    """The checkpoint to continue (`resume`) or a new one in `directory`. A checkpoint belongs to the
    collection it was made for: resuming or overwriting another collection's is refused, and so is
    clearing a directory that is not a checkpoint."""
    found = directory / "checkpoint.json"
    if directory.exists() and (not directory.is_dir() or not found.exists() and any(directory.iterdir())):
        raise UserError(f"{directory}: not a recompute checkpoint (no checkpoint.json) and not empty; "
                        "give a new or empty --checkpoint directory")
    ck = None
    if found.exists():
        try:
            ck = Checkpoint.load(directory)
        except UserError:
            if resume:
                raise
    if ck is not None and ck.solr != solr_url:
        raise UserError(f"{directory}: the checkpoint is for {ck.solr}, not {solr_url}; give another --checkpoint")
    if ck is not None and resume and ck.sig_version != SIG_VERSION:
        raise UserError(f"{directory}: the checkpoint was made with sig_version {ck.sig_version}; run without --resume")
    if ck is not None and resume:
        return ck
    if resume and not quiet:
        print(f"recompute: no checkpoint in {directory}; starting from the beginning", file=sys.stderr)
    elif ck is not None and ck.phase != "done" and not quiet:
        print(f"recompute: starting over; the unfinished run checkpointed in {directory} is discarded "
              "(--resume continues it)", file=sys.stderr)
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    ck = Checkpoint(solr_url, SIG_VERSION)
    ck.save(directory)
    return ck


def _reasons(res: dict[str, Any], ids: np.ndarray, is_canon: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per posting: why it is in its group (dedup's `why`, joined by _SEP) and the posting it matched;
    empty for a group's canonical posting (like its duplicate_of and dup_score)."""
    bits, est, match = res["bits"].tolist(), res["est"].tolist(), res["match"].tolist()
    reasons = res.get("reasons") or {}
    why = np.empty(len(ids), dtype=object)
    matched = np.empty(len(ids), dtype=object)
    for i in range(len(ids)):
        if is_canon[i] or not bits[i]:
            why[i], matched[i] = "", ""
            continue
        why[i] = _SEP.join(decision_glue.why_list(bits[i], est[i]) + list(reasons.get(i, ())))
        matched[i] = str(ids[match[i]]) if match[i] >= 0 else ""
    return why, matched


def _norm_score(x: str) -> str:
    if x in ("", "None"):
        return ""
    try:
        return str(float(round(float(x), 4)))
    except ValueError:
        return ""


def summary_line(ck: Checkpoint, seconds: float) -> str:
    """One human-readable summary of a recompute."""
    return (f"recompute: {ck.seen:,} postings seen, {ck.signatures_changed:,} signatures changed, "
            f"{ck.groups:,} groups ({ck.merged:,} merged, {ck.split:,} split; group fields rewritten on "
            f"{ck.groups_changed:,} postings), {ck.verified_pairs:,} pairs verified, boilerplate model refitted "
            f"on {ck.model_postings:,} postings, sig_version {ck.sig_version}, {seconds:.1f} s")


def run_cli(solr_url: str, checkpoint_dir: str | None, resume: bool, rows: int, quiet: bool,
            stop_after_pages: int | None, fast: bool = False, state_dir: str | None = None,
            workers: int = 1) -> None:
    """CLI wrapper: clear errors, summary on stderr."""
    from service.solr import SolrError

    t0 = time.perf_counter()
    try:
        ck = recompute(solr_url, checkpoint_dir, resume=resume, rows=rows, quiet=quiet,
                       stop_after_pages=stop_after_pages, fast=fast, state_dir=state_dir, workers=workers)
    except SolrUnavailable as exc:
        where = checkpoint_dir or default_checkpoint_dir(state_dir, Solr(solr_url).url)
        raise UserError(f"{exc}; progress is checkpointed in {where}: re-run with --resume") from None
    except SolrError as exc:
        raise UserError(str(exc)) from None
    if not quiet:
        print(summary_line(ck, time.perf_counter() - t0), file=sys.stderr)
