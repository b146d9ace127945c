"""Per-collection service state on disk: the boilerplate model learned from the indexed postings.

Where it lives: `<state dir>/<collection slug>/boilerplate.jdbp`, the state dir being `--state-dir`
(env JOBDEDUP_STATE_DIR, default `./jobdedup-state`, beside recompute's default checkpoint directory)
and the slug naming the Solr collection URL (`127.0.0.1_8983_solr_postings`), so two collections never
share a model. A file and not a Solr document: a document would show up in searches and in collapse,
and a file survives re-creating the collection (a new collection starts from the learned boilerplate
until `jobdedup recompute` refits it from what the collection really holds).

Writes are atomic (temporary file in the same directory, fsync, rename). A missing file starts an empty
model; an unreadable one starts an empty model with a warning and is kept aside as `*.corrupt`.
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
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from service.settings import DEFAULT_STATE_DIR, settings
from signatures.boilerplate import BoilerplateModel

log = logging.getLogger("jobdedup.state")

__all__ = ["DEFAULT_STATE_DIR", "BoilerplateState", "default_state_dir", "write_atomic"]

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


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so a reader sees either the old or the new file, never a torn one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


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


class BoilerplateState:
    """The collection's boilerplate model plus where and when it is saved.

    `add` counts newly indexed postings; `maybe_save` writes the model when it changed and
    `save_interval_s` passed; `save` writes it now. Without a path the model lives in memory only.
    Callers serialize `add` and `snapshot` (the ingest lock); the file write itself needs no lock.
    """

    def __init__(self, path: Path | None, save_interval_s: float = SAVE_INTERVAL_S) -> None:
        self.path = path
        self.save_interval_s = save_interval_s
        self.model = load_model(path)
        self.dirty = False
        self._stamp = _stamp(path)
        self._pending: list[Any] = []   # postings added since the last snapshot
        self._last_save = time.monotonic()
        self._io_lock = threading.Lock()

    @classmethod
    def for_collection(cls, state_dir: str | os.PathLike[str] | None, solr_url: str,
                       save_interval_s: float = SAVE_INTERVAL_S) -> BoilerplateState:
        """The state of the collection at `solr_url` under `state_dir` (None: in memory only)."""
        return cls(model_path(state_dir, solr_url) if state_dir is not None else None, save_interval_s)

    def add(self, extracted: Iterable[Any]) -> int:
        """Count postings (signatures.extract.Extracted or raw mappings) into the model."""
        n = 0
        for ex in extracted:
            self.model.add(ex)
            if len(self._pending) < MAX_PENDING:
                self._pending.append(ex)
            n += 1
        if n:
            self.dirty = True
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
        for ex in self._pending:
            theirs.add(ex)
        self.model = theirs
        self.dirty = True
        return True

    def snapshot(self) -> bytes | None:
        """The model's bytes if it changed since the last save (call under the ingest lock)."""
        if not self.dirty:
            return None
        self.dirty = False
        self._pending = []
        return self.model.to_bytes()

    def due(self) -> bool:
        """Whether a periodic save (and check for a replaced file) is due."""
        return self.path is not None and time.monotonic() - self._last_save >= self.save_interval_s

    def write(self, data: bytes | None) -> bool:
        """Write a snapshot to the state file; False when there is nothing to write or no file."""
        if self.path is None:
            return False
        with self._io_lock:
            self._last_save = time.monotonic()
            if data is None:
                return False
            write_atomic(self.path, data)
            self._stamp = _stamp(self.path)
        return True

    def replace(self, model: BoilerplateModel) -> None:
        """Use `model` from now on (recompute's refit) and save it."""
        self.model = model
        self.dirty = True
        self.write(self.snapshot())
