"""The CLI surface: help reads, user errors are one clear line and a non-zero exit, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest


def run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *args], input=stdin, capture_output=True, timeout=120
    )


def test_help_lists_commands() -> None:
    res = run("--help")
    assert res.returncode == 0
    assert b"sig" in res.stdout


@pytest.mark.parametrize(
    "args,stdin,needle",
    [
        (("sig", "--jsonl"), b"{not json}\n", b"not valid JSON"),
        (("sig", "--fields", ","), b"{}", b"--fields needs"),
        (("sig", "--fields", "title"), b"[1, 2]", b"expected a JSON object"),
        (("sig", "--solr-compatible"), b"\xff\xfe bad utf8", b"not valid UTF-8"),
        (("sig", "--min-token-len", "-1", "x"), b"", b"--min-token-len"),
        (("sig", "--jsonl"), b'{"id": "1", "title": {"a": 1}}\n', b"unsupported field value type dict"),
        (("sig", "--fields", "title"), b'{"id": "1", "title": {"a": 1}}', b"unsupported field value type dict"),
    ],
)
def test_user_errors_are_one_line(args: tuple[str, ...], stdin: bytes, needle: bytes) -> None:
    res = run(*args, stdin=stdin)
    assert res.returncode != 0
    assert needle in res.stderr
    assert b"Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args,needle",
    [
        (("eval", "--data", "a.jsonl", "b.jsonl", "--labels", "p.jsonl"), b"unexpected extra argument"),
        (("dedup", "--no-such-option", "x.jsonl"), b"No such option"),
    ],
)
def test_usage_errors_show_usage_not_a_traceback(args: tuple[str, ...], needle: bytes) -> None:
    res = run(*args)
    assert res.returncode == 2
    assert needle in res.stderr
    assert b"Usage:" in res.stderr
    assert b"Traceback" not in res.stderr


# -- output files are never damaged ------------------------------------------------------------------

def postings_file(path: Path, n: int = 30) -> Path:
    from service.synth import generate

    path.write_bytes(b"".join(orjson.dumps(p) + b"\n" for p in generate(n, seed=3)))
    return path


@pytest.mark.parametrize("bad", ["missing", "malformed"])
def test_failed_dedup_keeps_the_previous_output(tmp_path: Path, bad: str) -> None:
    good = postings_file(tmp_path / "good.jsonl")
    prev = tmp_path / "prev.jsonl"
    assert run("dedup", str(good), "-o", str(prev), "-q", "--fast").returncode == 0
    before = prev.read_bytes()
    assert before.count(b"\n") > 0
    src = tmp_path / "bad.jsonl"
    if bad == "malformed":
        src.write_bytes(good.read_bytes() + b'{"id": "x", \n')
    res = run("dedup", str(src), "-o", str(prev), "-q", "--fast")
    assert res.returncode == 2 and b"Traceback" not in res.stderr
    assert prev.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["good.jsonl", "prev.jsonl"]
                                                                 + (["bad.jsonl"] if bad == "malformed" else []))


def test_dedup_refuses_to_overwrite_its_input(tmp_path: Path) -> None:
    good = postings_file(tmp_path / "same.jsonl")
    before = good.read_bytes()
    os.link(good, tmp_path / "hard.jsonl")
    (tmp_path / "soft.jsonl").symlink_to(good)
    for out in ("same.jsonl", "hard.jsonl", "soft.jsonl", "./same.jsonl"):
        res = run("dedup", str(good), "-o", str(tmp_path / out), "-q")
        assert res.returncode == 2, out
        assert b"is the input file" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert good.read_bytes() == before


def test_outputs_replace_atomically_and_keep_special_files(tmp_path: Path) -> None:
    out = tmp_path / "gen.jsonl"
    out.write_bytes(b"old\n")
    out.chmod(0o640)
    assert run("generate", "-n", "5", "-o", str(out)).returncode == 0
    assert out.read_bytes().count(b"\n") == 5 and (out.stat().st_mode & 0o777) == 0o640
    link = tmp_path / "link.jsonl"
    link.symlink_to(out)
    assert run("generate", "-n", "3", "-o", str(link)).returncode == 0
    assert link.is_symlink() and out.read_bytes().count(b"\n") == 3  # the link still points at the file
    assert run("generate", "-n", "3", "-o", os.devnull).returncode == 0  # a device is written, not replaced
    res = run("generate", "-n", "3", "-o", str(tmp_path / "no-dir" / "x.jsonl"))
    assert res.returncode == 2 and b"cannot write" in res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gen.jsonl", "link.jsonl"]
