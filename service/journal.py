"""An append-only journal of what the boilerplate model learned since its last save, so kill -9 loses none of it.

Each process that learns (serve, index) appends one line per written posting -- its
`signatures.boilerplate.learning_record`: job key, scopes, line hashes; no text -- to its own file
`<model file>.<pid>-<random>.journal` beside the model, fsynced once per batch before the batch is
acknowledged, and holds an exclusive `flock` on it while it runs. Before a batch goes to Solr, an intent
line `{"p": seq, "w": [[id, content key, record], ...]}` is fsynced; after the write the batch's records
follow with `{"ok": [seq]}`. An intent without its `ok` is a write whose outcome is unknown (the process
died during the Solr request, or the request failed after Solr may have stored it): its postings are
learned once Solr is seen to hold them with that content (service.ingest). When the model is saved, the
records it holds are dropped from the head of the journal (the rest is rewritten atomically). A journal
nobody holds a lock on belongs to a process that died: the next process to open the state replays its
records into its model and takes them and its open intents over (appends them to its own journal, then
removes the orphan). A torn last line (killed mid-write) is skipped with a warning.
"""

from __future__ import annotations

import fcntl
import logging
import os
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

from signatures.boilerplate import LearningRecord, check_record

log = logging.getLogger("jobdedup.state")

SUFFIX = ".journal"


#: A posting whose write outcome is unknown: (id, content key as stored in content_key_s, learning record).
Intent = tuple[str, str, LearningRecord]


def _intent(entry: Any) -> Intent:
    if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], str) and isinstance(entry[1], str)):
        raise ValueError("not an intent entry")
    return entry[0], entry[1], check_record(entry[2])


def _read(path: Path) -> tuple[list[LearningRecord], list[Intent]]:
    """The records of a journal file and the entries of its intents without an `ok` (a line that is
    neither is skipped with a warning)."""
    records: list[LearningRecord] = []
    intents: dict[int, list[Intent]] = {}
    done: set[int] = set()
    bad = 0
    for line in path.read_bytes().splitlines():
        try:
            doc = orjson.loads(line)
            if isinstance(doc, dict) and "p" in doc:
                intents[int(doc["p"])] = [_intent(e) for e in doc["w"]]
            elif isinstance(doc, dict) and "ok" in doc:
                done.update(int(x) for x in doc["ok"])
            else:
                records.append(check_record(doc))
        except (ValueError, TypeError, KeyError):  # orjson.JSONDecodeError is a ValueError
            bad += 1
    if bad:
        log.warning("learning journal %s: %d unreadable line(s) skipped (torn write?)", path, bad)
    return records, [e for seq, entries in intents.items() if seq not in done for e in entries]


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
        self.count = 0           # records in the file
        self.open: set[int] = set()  # intents without their ok
        self._seq = 0
        self.broken = False

    def adopt_orphans(self) -> tuple[list[LearningRecord], list[tuple[int, list[Intent]]]]:
        """Records and open intents of journals left by processes that are gone; they are now in this
        journal (fsynced) and their files removed. The caller adds the records to its model and checks the
        intents (returned as (seq in this journal, entries))."""
        out: list[LearningRecord] = []
        opened: list[tuple[int, list[Intent]]] = []
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
                records, intents = _read(path)
                self.append(records)
                seq = self.intend(intents) if intents else None
                if self.broken:
                    break  # could not take them over: the orphan stays for the next start
                path.unlink()
            finally:
                os.close(fd)
            out.extend(records)
            if seq is not None:
                opened.append((seq, intents))
        if out or opened:
            log.info("learning journal: replaying %d posting(s) learned but not saved before a crash; %d more "
                     "to learn if Solr holds them", len(out), sum(len(e) for _, e in opened))
        return out, opened

    def intend(self, entries: Sequence[Intent]) -> int:
        """Record (fsynced) that these postings are about to be written; returns the intent's number for
        `append(..., ok=[seq])` once the write's outcome is known."""
        self._seq += 1
        self._write_lines([orjson.dumps({"p": self._seq, "w": entries})])
        if not self.broken:
            self.open.add(self._seq)
        return self._seq

    def append(self, records: Sequence[LearningRecord], ok: Sequence[int] = ()) -> None:
        """Append records (and the `ok` of intents they settle) and fsync."""
        if self._write_lines([orjson.dumps(r) for r in records] + ([orjson.dumps({"ok": list(ok)})] if ok else [])):
            self.count += len(records)
            self.open.difference_update(ok)

    def _write_lines(self, lines: list[bytes]) -> bool:
        """Append lines in one write and fsync. On an I/O error (disk full) the file is cut back to its last
        complete line and journaling stops for this process, with an error in the log (the service goes on)."""
        if not lines or self.broken:
            return False
        size = None
        try:
            if self._fd is None:
                self._fd = _replace_locked(self.path, b"")
            size = os.fstat(self._fd).st_size
            _write_all(self._fd, b"".join(line + b"\n" for line in lines))
            os.fsync(self._fd)
        except OSError as exc:
            self.broken = True
            log.error("learning journal %s cannot be written (%s): postings learned from now on are lost if the "
                      "process dies before the next model save", self.path, exc)
            try:
                if size is not None and self._fd is not None:
                    os.ftruncate(self._fd, size)
            except OSError:
                pass
            return False
        return True

    def drop_head(self, n: int) -> None:
        """Remove the first `n` records (those the saved model holds) and the settled intents among them;
        the rest is rewritten atomically."""
        if n <= 0 or self._fd is None:
            return
        n = min(n, self.count)
        if n == self.count and not self.open:  # the usual case: everything is in the saved model
            os.ftruncate(self._fd, 0)
            os.fsync(self._fd)
        else:
            lines = self.path.read_bytes().splitlines(keepends=True)
            seen, cut = 0, len(lines)
            for i, line in enumerate(lines):
                if seen == n:
                    cut = i
                    break
                if line.startswith(b"["):  # a record (intents and oks are objects)
                    seen += 1
            keep = [ln for ln in lines[:cut] if ln.startswith(b'{"p":') and _seq_of(ln) in self.open]
            fd = _replace_locked(self.path, b"".join(keep + lines[cut:]))
            os.close(self._fd)
            self._fd = fd
        self.count -= n

    def close(self) -> None:
        """Release the journal; an empty one is removed, one with records or open intents stays for the next
        start."""
        if self._fd is None:
            return
        if self.count == 0 and not self.open and not self.broken:
            self.path.unlink(missing_ok=True)
        os.close(self._fd)
        self._fd = None


def _seq_of(line: bytes) -> int | None:
    try:
        return int(orjson.loads(line)["p"])
    except (ValueError, KeyError, TypeError):
        return None
