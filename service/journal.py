"""An append-only journal of what the boilerplate model learned since its last save, so kill -9 loses none of it.

Each process that learns (serve, index) appends one line per written posting -- its
`signatures.boilerplate.learning_record`: job key, scopes, line hashes; no text -- to its own file
`<model file>.<pid>-<random>.journal` beside the model, fsynced once per batch before the batch is
acknowledged, and holds an exclusive `flock` on it while it runs. When the model is saved, the records it
holds are dropped from the head of the journal (the rest is rewritten atomically). A journal nobody holds
a lock on belongs to a process that died: the next process to open the state replays its records into
its model and takes them over (appends them to its own journal, then removes the orphan), so they stay
durable until its next save. A torn last line (killed mid-write) is skipped with a warning.
"""

from __future__ import annotations

import fcntl
import logging
import os
import secrets
from collections.abc import Sequence
from pathlib import Path

import orjson

from signatures.boilerplate import LearningRecord, check_record

log = logging.getLogger("jobdedup.state")

SUFFIX = ".journal"


def _read_records(path: Path) -> list[LearningRecord]:
    """The well-formed records of a journal file (a line that is not one is skipped with a warning)."""
    out: list[LearningRecord] = []
    bad = 0
    for line in path.read_bytes().splitlines():
        try:
            out.append(check_record(orjson.loads(line)))
        except ValueError:  # orjson.JSONDecodeError is a ValueError
            bad += 1
    if bad:
        log.warning("learning journal %s: %d unreadable line(s) skipped (torn write?)", path, bad)
    return out


def _lock(fd: int, path: Path | None) -> bool:
    """Take the exclusive lock of an open journal without waiting; False when another process holds it,
    or when the file was replaced or removed meanwhile (then it is not the file at `path` any more)."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    try:
        return path is None or os.stat(path).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        return False


def _replace_locked(path: Path, data: bytes) -> int:
    """A new file at `path` holding `data` (atomically replacing any file there), open for appending and
    locked before it appears under its name, so no other process ever sees it unlocked."""
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        if not _lock(fd, None):
            raise OSError(f"cannot lock learning journal {path}")
        _write_all(fd, data)
        os.fsync(fd)
        os.replace(tmp, path)
    except OSError:
        os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    return fd


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class LearningJournal:
    """This process's journal of learning records for the model file `model_path` (see the module doc).

    `count` is how many records the file holds. Not thread-safe: the caller serializes (BoilerplateState's
    I/O lock)."""

    def __init__(self, model_path: Path) -> None:
        self.dir = model_path.parent
        self.prefix = model_path.name + "."
        self.dir.mkdir(parents=True, exist_ok=True)
        self.path = self.dir / f"{self.prefix}{os.getpid()}-{secrets.token_hex(4)}{SUFFIX}"
        self._fd: int | None = None  # created with the first record (a process that writes nothing leaves none)
        self.count = 0
        self.broken = False

    def adopt_orphans(self) -> list[LearningRecord]:
        """Records of journals left by processes that are gone; they are now in this journal (fsynced) and
        their files removed. The caller adds them to its model."""
        out: list[LearningRecord] = []
        for path in sorted(self.dir.glob(f"{self.prefix}*{SUFFIX}")):
            if path == self.path:
                continue
            try:
                fd = os.open(path, os.O_RDONLY)
            except OSError:
                continue
            try:
                if not _lock(fd, path):
                    continue  # a live process's journal (or taken over by another process just now)
                records = _read_records(path)
                self.append(records)
                if self.broken:
                    break  # could not take them over: the orphan stays for the next start
                path.unlink()
            finally:
                os.close(fd)
            out.extend(records)
        if out:
            log.info("learning journal: replaying %d posting(s) learned but not saved before a crash", len(out))
        return out

    def append(self, records: Sequence[LearningRecord]) -> None:
        """Append records and fsync. On an I/O error (disk full) the file is cut back to its last complete
        record and journaling stops for this process, with an error in the log (the service goes on)."""
        if not records or self.broken:
            return
        size = None
        try:
            if self._fd is None:
                self._fd = _replace_locked(self.path, b"")
            size = os.fstat(self._fd).st_size
            _write_all(self._fd, b"".join(orjson.dumps(r) + b"\n" for r in records))
            os.fsync(self._fd)
        except OSError as exc:
            self.broken = True
            log.error("learning journal %s cannot be written (%s): postings learned from now on are lost if the "
                      "process dies before the next model save", self.path, exc)
            try:
                if size is not None:
                    os.ftruncate(self._fd, size)
            except OSError:
                pass
            return
        self.count += len(records)

    def drop_head(self, n: int) -> None:
        """Remove the first `n` records (those the saved model holds); the rest is rewritten atomically."""
        if n <= 0 or self._fd is None:
            return
        n = min(n, self.count)
        if n == self.count:  # the usual case: everything is in the saved model
            os.ftruncate(self._fd, 0)
            os.fsync(self._fd)
        else:
            rest = self.path.read_bytes().splitlines(keepends=True)[n:]
            fd = _replace_locked(self.path, b"".join(rest))
            os.close(self._fd)
            self._fd = fd
        self.count -= n

    def close(self) -> None:
        """Release the journal; an empty one is removed, one with records stays for the next start."""
        if self._fd is None:
            return
        if self.count == 0 and not self.broken:
            self.path.unlink(missing_ok=True)
        os.close(self._fd)
        self._fd = None
