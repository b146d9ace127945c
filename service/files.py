"""Writing files so that a failed run never damages one: atomic replacement and output != input.

Every file the CLI and the service write (dedup / generate outputs, reports, state, recompute's
checkpoint) goes through `atomic_output`: the bytes go to a temporary file in the target's directory,
which is fsynced and renamed over the target only when writing succeeded. A reader, or the user after
a failed run, sees either the old file or the complete new one.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO

from service.errors import UserError


@contextmanager
def atomic_output(path: str | os.PathLike[str], make_parents: bool = False) -> Iterator[IO[bytes]]:
    """A binary file that replaces `path` when the `with` block ends without an exception.

    The temporary file is created on entry (so an unwritable place fails before any work), keeps the
    replaced file's permissions and follows a symlink to its target. A target that is not a regular
    file (/dev/null, a FIFO, /dev/stdout) is written directly: it cannot be replaced by a rename.
    Raises OSError when the file cannot be written (`cli_output` turns that into a user error).
    """
    target = Path(os.path.realpath(path))
    try:
        st: os.stat_result | None = target.stat()
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, "is a directory, expected a file name", str(path))
        with open(target, "wb") as fh:
            yield fh
        return
    if make_parents:
        target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        if st is not None:
            os.chmod(tmp, stat.S_IMODE(st.st_mode))
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()


@contextmanager
def cli_output(path: str) -> Iterator[IO[bytes]]:
    """A command's output file: stdout for '-', else `atomic_output`. A place that cannot be written is
    a UserError raised on entry, before the command does any work."""
    if path == "-":
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    with ExitStack() as stack:
        try:
            fh = stack.enter_context(atomic_output(path))
        except OSError as exc:
            raise UserError(f"{path}: cannot write ({exc.strerror})") from None
        yield fh


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` (creating its directory) so a reader sees either the old or the new file."""
    with atomic_output(path, make_parents=True) as fh:
        fh.write(data)


def _file_id(path: str) -> tuple[int, int] | None:
    """(device, inode) of the regular file `path` ("-": standard input, when a file is redirected to it); None
    when there is none yet, or it is a device or pipe."""
    try:
        st = os.fstat(sys.stdin.fileno()) if path == "-" else os.stat(path)
    except (OSError, ValueError):  # no such file; stdin closed or replaced
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) else None


def refuse_same_file(input_path: str, output_path: str, option: str = "the output") -> None:
    """A UserError when an output would replace the input (the same file, also through a hard or soft link, or
    redirected to standard input: "-"); `option` names the output in the message."""
    if output_path == "-":
        return
    got = _file_id(input_path)
    if got is not None and got == _file_id(output_path):
        raise UserError(f"{output_path}: {option} is the input file; write it to another file")


def refuse_one_file_twice(first: str, second: str, names: str) -> None:
    """A UserError when two outputs are one file (the same path, or a link to it): one would replace the other."""
    if "-" in (first, second):
        return
    got = _file_id(first)
    if os.path.realpath(first) == os.path.realpath(second) or got is not None and got == _file_id(second):
        raise UserError(f"{second}: {names} are one file; write them to two files")
