"""Per-collection service state on disk: the boilerplate model learned from the indexed postings.

Where it lives: `<state dir>/<collection slug>/boilerplate.jdbp`, the state dir being `--state-dir`
(env JOBDEDUP_STATE_DIR, default `./jobdedup-state`; recompute's checkpoint defaults to the same place)
and the slug naming the Solr collection URL (`127.0.0.1_8983_solr_postings`), so two collections never
share a model. A file and not a Solr document: a document would show up in searches and in collapse,
and a file survives re-creating the collection (a new collection starts from the learned boilerplate
until `jobdedup recompute` refits it from what the collection really holds).

Writes are atomic (service.files.write_atomic: temporary file in the same directory, fsync, rename). A missing file starts an empty
model; an unreadable or wrong-shaped one starts an empty model with a warning and is kept aside as `*.corrupt`.
What is learned between saves is journaled (service.journal: fsynced per batch, dropped at each save) and
replayed at the next start, so a process killed with -9 loses none of it.
When the file was replaced by another process since this one read or wrote it (`jobdedup recompute`'s
refit, or an `index` run beside `serve`), the next save adopts that model and re-adds the postings
learned here since the last save, instead of overwriting it.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from service.files import write_atomic
from service.journal import Intent, LearningJournal
from service.settings import settings
from signatures.boilerplate import BoilerplateModel, LearningRecord, learning_record

log = logging.getLogger("jobdedup.state")

__all__ = ["BoilerplateState", "default_state_dir", "write_atomic"]  # write_atomic: tests import it from here

MODEL_FILE = "boilerplate.jdbp"
#: Seconds between periodic saves of a changed model while the service runs (and always on close).
SAVE_INTERVAL_S = settings().state_save_interval_s

_SLUG_RE = re.compile(r"[^A-Za-z0-9._-]+")


def default_state_dir() -> str:
    """The state directory when none is given: env JOBDEDUP_STATE_DIR, else ./jobdedup-state."""
    return settings().state_dir


def collection_slug(solr_url: str) -> str:
    """A file-name-safe name for a collection URL: host_port_path (scheme and credentials dropped)."""
    u = urlsplit(solr_url.rstrip("/"))
    host = (u.hostname or "local") + (f"_{u.port}" if u.port else "")
    path = "_".join(p for p in u.path.split("/") if p)
    return _SLUG_RE.sub("_", f"{host}_{path}" if path else host)


def model_path(state_dir: str | os.PathLike[str], solr_url: str) -> Path:
    """Where the boilerplate model of the collection at `solr_url` is kept."""
    return Path(state_dir) / collection_slug(solr_url) / MODEL_FILE


def load_model(path: Path | None) -> BoilerplateModel:
    """The model saved at `path`; an empty model when there is none, or (with a warning) when the file
    cannot be read as a model (the bad file is renamed to `*.corrupt` so it is not overwritten)."""
    if path is None or not path.exists():
        return BoilerplateModel()
    try:
        return BoilerplateModel.from_bytes(path.read_bytes())
    except (OSError, ValueError, KeyError, TypeError) as exc:
        aside = path.with_name(path.name + ".corrupt")
        try:
            os.replace(path, aside)
        except OSError:
            aside = path
        log.warning("boilerplate model %s is unreadable (%s); starting with an empty model (bad file kept as %s)",
                    path, exc, aside)
        return BoilerplateModel()


@dataclass(frozen=True)
class _Stamp:
    """Identity of a state file version (a replaced file gets another inode or mtime)."""

    inode: int
    mtime_ns: int
    size: int


def _stamp(path: Path | None) -> _Stamp | None:
    try:
        st = path.stat() if path is not None else None
    except OSError:
        return None
    return _Stamp(st.st_ino, st.st_mtime_ns, st.st_size) if st is not None else None


#: Postings remembered since the last save, re-added when another process's model is adopted.
MAX_PENDING = 100_000


@dataclass(frozen=True)
class Snapshot:
    """A model's bytes to save, numbered so an older snapshot is never written over a newer one, with how
    many of the journal's records (counted since the start) the model holds."""

    data: bytes
    seq: int
    journaled: int


class BoilerplateState:
    """The collection's boilerplate model plus where and when it is saved.

    `add` counts newly indexed postings; `maybe_save` writes the model when it changed and
    `save_interval_s` passed; `save` writes it now. Without a path the model lives in memory only.
    `intend` (before a write) and `journal` (after it) make newly written postings durable before they are
    learned (see service.journal); `unconfirmed` and `confirm` settle writes whose outcome was unknown.
    Callers serialize these, `add` and `snapshot` (the ingest lock); the file write itself needs no lock.
    """

    def __init__(self, path: Path | None, save_interval_s: float = SAVE_INTERVAL_S) -> None:
        self.path = path
        self.save_interval_s = save_interval_s
        self.model = load_model(path)
        self.dirty = False
        self._stamp = _stamp(path)
        self._pending: list[LearningRecord] = []   # postings added since the last snapshot
        self._last_save = time.monotonic()
        self._io_lock = threading.Lock()
        self._seq = self._written_seq = 0
        # journal records appended (since the start), of those the model holds, and dropped after saves
        self._journaled = self._held = self._dropped = 0
        self._journal: LearningJournal | None = None
        # writes whose outcome is not known yet, oldest first, as (intent number in the journal or None, entries,
        # ids of their Extracted); those whose outcome is unknown for good (the write raised), the same way
        self._inflight: list[tuple[int | None, list[Intent], list[int]]] = []
        self._unconfirmed: list[tuple[int | None, list[Intent]]] = []
        self._records: dict[int, LearningRecord] = {}  # id(Extracted) -> its record, from `intend` to `journal`
        if path is not None:
            try:
                self._journal = LearningJournal(path)
                replayed, opened = self._journal.adopt_orphans()
                self._unconfirmed = [(seq, entries) for seq, entries in opened]
            except OSError as exc:
                log.warning("no learning journal beside %s (%s): what is learned between saves is lost if the "
                            "process dies", path, exc)
                replayed = []
            for rec in replayed:
                self.model.add_record(rec)
            self._journaled = self._held = len(replayed)
            self.dirty = bool(replayed)

    @classmethod
    def for_collection(cls, state_dir: str | os.PathLike[str] | None, solr_url: str,
                       save_interval_s: float = SAVE_INTERVAL_S) -> BoilerplateState:
        """The state of the collection at `solr_url` under `state_dir` (None: in memory only)."""
        return cls(model_path(state_dir, solr_url) if state_dir is not None else None, save_interval_s)

    def intend(self, writes: Iterable[tuple[str, str, Any]],
               records: Iterable[LearningRecord | None] | None = None, keep_open: int = 0) -> list[LearningRecord]:
        """Before a write: the (id, content key, Extracted) of the postings it would teach the model (`records`:
        their learning records where already computed, e.g. by a worker process), kept
        (and journaled, fsynced) until `journal` settles them, so a write whose outcome never becomes known
        -- the process killed during the Solr request, a failed request Solr stored anyway -- is learned
        later if Solr holds it (`unconfirmed`). Earlier intents not settled by then are writes that raised
        (outcome unknown), except the newest `keep_open` (writes still in flight). Returns their learning
        records."""
        self._settle_inflight(keep_open)
        entries: list[Intent] = []
        exids: list[int] = []
        for (pid, key, ex), rec in zip(writes, repeat(None) if records is None else records, strict=False):
            rec = self._records[id(ex)] = rec if rec is not None else learning_record(ex)
            entries.append((pid, key, rec))
            exids.append(id(ex))
        seq = None
        if entries and self._journal is not None:
            with self._io_lock:
                seq = self._journal.intend(entries)
        self._inflight.append((seq, entries, exids))
        return [rec for _, _, rec in entries]

    def _settle_inflight(self, keep_open: int = 0) -> None:
        """Intents without `journal` but the newest `keep_open`: their writes raised, the outcome is unknown."""
        while len(self._inflight) > keep_open:
            self.abandon()

    def abandon(self) -> None:
        """The oldest write in flight failed: its outcome is unknown (`unconfirmed` settles it)."""
        seq, entries, exids = self._inflight.pop(0)
        self._forget(exids)
        if entries:
            self._unconfirmed.append((seq, entries))

    def withdraw(self) -> None:
        """The newest intent's write was never sent (its batch is decided again): settled, nothing learned."""
        seq, _, exids = self._inflight.pop()
        self._forget(exids)
        if seq is not None:
            self._append([], [seq])

    def _forget(self, exids: Sequence[int]) -> None:
        for k in exids:
            self._records.pop(k, None)

    def journal(self, extracted: Iterable[Any]) -> list[LearningRecord]:
        """After a successful write (the oldest in flight): make the written postings (Extracted or raw
        mappings) durable before they are learned -- their learning records are appended to this process's
        journal and fsynced -- and settle the write's intent. Returns the records (for `add`)."""
        records = [self._records.get(id(ex)) or learning_record(ex) for ex in extracted]
        ok: list[int] = []
        if self._inflight:
            seq, _, exids = self._inflight.pop(0)
            self._forget(exids)
            ok = [seq] if seq is not None else []
        self._append(records, ok)
        return records

    def unconfirmed(self, keep_open: int = 0) -> list[Intent]:
        """(id, content key, record) of the postings of writes whose outcome is unknown (this process's failed
        writes, a dead process's cut-off one; not the newest `keep_open` in flight): the caller learns those
        Solr holds with that content key and calls `confirm`."""
        self._settle_inflight(keep_open)
        return [e for _, entries in self._unconfirmed for e in entries]

    def confirm(self, records: Iterable[LearningRecord]) -> list[LearningRecord]:
        """Settle every unconfirmed write: `records` (of its postings Solr holds) are journaled as written.
        Returns them (for `add`)."""
        records = list(records)
        ok = [seq for seq, _ in self._unconfirmed if seq is not None]
        self._unconfirmed = []
        self._append(records, ok)
        return records

    def _append(self, records: list[LearningRecord], ok: list[int]) -> None:
        if self._journal is not None and (records or ok):
            with self._io_lock:
                before = self._journal.count
                self._journal.append(records, ok)
                self._journaled += self._journal.count - before

    def add(self, extracted: Iterable[Any]) -> int:
        """Count postings (learning records from `journal`, Extracted or raw mappings) into the model, in
        the order they were journaled."""
        n = 0
        for ex in extracted:
            rec = ex if isinstance(ex, tuple) else learning_record(ex)
            self.model.add_record(rec)
            if len(self._pending) < MAX_PENDING:
                self._pending.append(rec)
            n += 1
        if n:
            self.dirty = True
            self._held = min(self._held + n, self._journaled)
        return n

    def sync(self) -> bool:
        """Adopt the state file when another process replaced it since we read or wrote it, re-adding the
        postings learned here since the last save. True when `model` is a new object (call under the
        ingest lock, before `snapshot`)."""
        stamp = _stamp(self.path)
        if stamp is None or stamp == self._stamp:
            return False
        theirs = load_model(self.path)
        self._stamp = _stamp(self.path)
        if theirs.postings == 0 and len(theirs) == 0:  # unreadable (moved aside) or empty: keep ours
            self.dirty = True
            return False
        log.info("boilerplate model %s was replaced by another process; adopting it (+%d postings learned here)",
                 self.path, len(self._pending))
        for rec in self._pending:
            theirs.add_record(rec)
        self.model = theirs
        self.dirty = True
        return True

    def snapshot(self) -> Snapshot | None:
        """The model to save if it changed since the last save (call under the ingest lock)."""
        if not self.dirty:
            return None
        self.dirty = False
        self._pending = []
        self._seq += 1
        return Snapshot(self.model.to_bytes(), self._seq, self._held)

    def due(self) -> bool:
        """Whether a periodic save (and check for a replaced file) is due."""
        return self.path is not None and time.monotonic() - self._last_save >= self.save_interval_s

    def write(self, snap: Snapshot | None) -> bool:
        """Write a snapshot to the state file and drop the journal records it holds; False when there is
        nothing to write (or only an older snapshot than the one written) or no file."""
        if self.path is None:
            return False
        with self._io_lock:
            self._last_save = time.monotonic()
            if snap is None or snap.seq < self._written_seq:
                return False
            write_atomic(self.path, snap.data)
            self._stamp = _stamp(self.path)
            self._written_seq = snap.seq
            if self._journal is not None and snap.journaled > self._dropped:
                try:
                    self._journal.drop_head(snap.journaled - self._dropped)
                    self._dropped = snap.journaled
                except OSError as exc:  # the records stay: counted twice after a crash, never lost
                    log.warning("learning journal %s not cut after a save (%s)", self._journal.path, exc)
        return True

    def replace(self, model: BoilerplateModel) -> None:
        """Use `model` from now on (recompute's refit from the collection, which holds every journaled
        posting) and save it."""
        self.model = model
        self.dirty = True
        self._held = self._journaled
        self.write(self.snapshot())

    def close(self) -> None:
        """Release the journal (after the last save; an empty one is removed)."""
        with self._io_lock:
            if self._journal is not None:
                self._journal.close()
                self._journal = None
