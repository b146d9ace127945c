"""The CLI surface: help reads, user errors are one clear line and a non-zero exit, no traceback."""

from __future__ import annotations

import subprocess
import sys

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
