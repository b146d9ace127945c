"""The CLI surface: help reads, user errors are one clear line and a non-zero exit, no traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

REPO = Path(__file__).resolve().parents[1]


def run(*args: str, stdin: bytes = b"", cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "COLUMNS": "200", "PYTHONPATH": str(REPO)}  # wide help: phrases stay on one line
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *args], input=stdin, capture_output=True, timeout=120, env=env,
        cwd=cwd)


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
        (("dedup", "-", "--format", "csv", "-q"), b'id,description\n1,fine\n2,"open\n3,x\n4,y\n',
         b"- line 3: a quoted field is never closed"),
        (("dedup", "-", "-q"), b'{"id": "1"}\n{"id": "caf\xe9"}\n', b"- line 2: the file is not UTF-8 (byte 0xe9"),
        (("sig", "--jsonl"), b'"caf\xe9"\n', b"stdin line 1: the file is not UTF-8 (byte 0xe9"),
        (("dedup", "x.jsonl", "--encoding", "klingon"), b"", b"unknown encoding 'klingon'"),
        (("sig",), b"ok \xff\xfe bad", b"stdin is not valid UTF-8 (byte 0xff at offset 3)"),
        (("serve", "--solr", "http://127.0.0.1:9/solr/postings", "--max-text-chars", "0"), b"",
         b"--max-text-chars must be >= 1"),
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


def test_no_output_replaces_the_input_or_another_output(tmp_path: Path) -> None:
    """--bad-lines-report naming the input replaced the input with the report (dedup and index succeeded and the
    postings were gone), naming -o failed on a vanished temporary file, and `dedup - -o FILE < FILE` replaced
    the file it read: each is refused up front, nothing written."""
    src = tmp_path / "in.jsonl"
    src.write_bytes(postings_file(tmp_path / "good.jsonl").read_bytes() + b"{bad json\n")
    before = src.read_bytes()
    (tmp_path / "link.jsonl").symlink_to(src)
    cases = [
        (["dedup", str(src), "-o", str(tmp_path / "out.jsonl"), "--bad-lines-report", str(src)], b"", b"is the input"),
        (["dedup", str(src), "-o", str(tmp_path / "out.jsonl"), "--bad-lines-report", str(tmp_path / "link.jsonl")],
         b"", b"is the input"),
        (["dedup", str(src), "-o", str(tmp_path / "out.jsonl"), "--bad-lines-report", str(tmp_path / "out.jsonl")],
         b"", b"are one file"),
        (["dedup", "-", "-o", str(src), "--skip-bad-lines"], None, b"is the input"),
        (["sig", "--jsonl", "--bad-lines-report", str(src)], None, b"is the input"),
        (["index", str(src), "--solr", "http://127.0.0.1:9/solr/postings", "--bad-lines-report", str(src)], b"",
         b"is the input"),
    ]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for args, stdin, needle in cases:
        with open(src, "rb") as fh:
            res = subprocess.run([sys.executable, "-m", "service.cli", *args, "-q"] if args[0] != "sig" else
                                 [sys.executable, "-m", "service.cli", *args], stdin=fh if stdin is None else None,
                                 input=stdin, capture_output=True, timeout=120, env=env)
        assert res.returncode == 2 and needle in res.stderr, (args, res.stderr)
        assert len(res.stderr.strip().splitlines()) == 1, (args, res.stderr)
        assert src.read_bytes() == before, args
    assert sorted(p.name for p in tmp_path.iterdir()) == ["good.jsonl", "in.jsonl", "link.jsonl"]


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
    if os.path.exists("/dev/full"):  # a write error (full disk) is one line, not a traceback
        res = run("generate", "-n", "2000", "-o", "/dev/full")
        assert res.returncode == 1 and res.stderr.strip() == b"jobdedup: error: No space left on device"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gen.jsonl", "link.jsonl"]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
@pytest.mark.parametrize("command", ["generate", "dedup"])
def test_interrupted_run_keeps_the_previous_output(tmp_path: Path, command: str, sig: int) -> None:
    """Ctrl-C or SIGTERM while the output is being written: the previous file stays as it was, no partial
    file is left beside it (SIGTERM killed the process before its temporary file was removed), the exit code
    says so (Ctrl-C exited 0: Typer returned its 130) and stderr is one line (each dedup worker printed a
    KeyboardInterrupt traceback)."""
    out = tmp_path / "out.jsonl"
    out.write_bytes(b"previous\n")
    src = postings_file(tmp_path / "in.jsonl", 3000)
    args = ["generate", "-n", "2000000", "-o", str(out)] if command == "generate" else \
        ["dedup", str(src), "-o", str(out), "-q", "--workers", "2"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "service.cli", *args], env=env, stderr=subprocess.PIPE,
                            start_new_session=True,  # its own process group, as in a terminal
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # not ignored (a background job's)
    deadline = time.monotonic() + 60
    while not any(p.name.endswith(".tmp") for p in tmp_path.iterdir()):  # writing its output
        assert proc.poll() is None and time.monotonic() < deadline, "the command ended before it was interrupted"
        time.sleep(0.01)
    time.sleep(0.3)
    os.killpg(proc.pid, sig)  # to every process of the group (dedup's workers too), as Ctrl-C in a terminal
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig, err
    assert err.strip() == (b"jobdedup: interrupted" if sig == signal.SIGINT else b"jobdedup: terminated")
    assert out.read_bytes() == b"previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "out.jsonl"]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_interrupted_index_ends(clean_solr: str, tmp_path: Path, workers: str, sig: int) -> None:
    """Ctrl-C or SIGTERM to `index -j N`'s process group mid-run: it ends with 130 / 143 and one line (its
    multiprocessing.Pool hung for ever after SIGTERM -- a killed worker held the task queue's lock, and the pool
    replaced the dead workers -- and each worker printed a KeyboardInterrupt traceback on Ctrl-C)."""
    from solr_fixture import select

    from service.synth import generate

    run_id = f"r{workers}-{int(sig)}-"  # this run's postings (a killed run's last write may land after clean_solr)
    src = tmp_path / "in.jsonl"
    src.write_bytes(b"".join(orjson.dumps({**p, "id": run_id + p["id"]}) + b"\n" for p in generate(6000, seed=3)))
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONFAULTHANDLER": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "service.cli", "index", str(src), "--solr", f"{clean_solr}/postings",
                             "--state-dir", str(tmp_path / "state"), "-j", workers], env=env, stderr=subprocess.PIPE,
                            start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while not select(clean_solr, q=f"id:{run_id}*", rows=0)["response"]["numFound"]:  # indexing (commitWithin 1 s)
        assert proc.poll() is None and time.monotonic() < deadline, "the command ended before it was interrupted"
        time.sleep(0.1)
    os.killpg(proc.pid, sig)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.kill(proc.pid, signal.SIGABRT)  # faulthandler: every thread's stack on stderr
        _, err = proc.communicate(timeout=30)
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("index did not end:\n" + err.decode(errors="replace")[-6000:])
    assert proc.returncode == 128 + sig, err
    assert err.strip() == (b"jobdedup: interrupted" if sig == signal.SIGINT else b"jobdedup: terminated")


def test_forked_workers_die_of_sigterm() -> None:
    """The command's SIGTERM handler is not a forked worker's: a pool ends its workers with SIGTERM, and a
    Python handler in a worker idle in a semaphore wait may never run (dedup then hung at its end)."""
    code = ("import multiprocessing as mp, signal; from service import cli; cli._terminate_on_sigterm(); "
            "print(mp.get_context('fork').Pool(1).apply(signal.getsignal, (signal.SIGTERM,)) == signal.SIG_DFL, "
            "signal.getsignal(signal.SIGTERM) != signal.SIG_DFL)")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(REPO)})
    assert res.stdout.split() == [b"True", b"True"], res.stderr


@pytest.mark.parametrize("command", ["generate", "dedup", "dedup-report"])
def test_write_error_mid_file_keeps_the_previous_output(tmp_path: Path, command: str) -> None:
    """The disk fills up part-way through the output (a file size limit: the write fails with EFBIG): an
    error line, exit 1, the previous file as it was, nothing left beside it."""
    import resource

    out = tmp_path / "out.jsonl"
    out.write_bytes(b"previous\n")
    src = postings_file(tmp_path / "in.jsonl", 400)
    if command == "dedup-report":  # the output fits, the bad-lines report does not
        src.write_bytes(src.read_bytes() + b"".join(b'{"id": "%d", \n' % i for i in range(3000)))
    args = {"generate": ["generate", "-n", "2000", "-o", str(out)],
            "dedup": ["dedup", str(src), "-o", str(out), "-q", "--fast"],
            "dedup-report": ["dedup", str(src), "-o", "/dev/null", "-q", "--fast", "--skip-bad-lines",
                             "--bad-lines-report", str(out)]}[command]
    limit = 20_000  # bytes a regular file may hold (the inputs are written already; /dev/null is no file)

    def small_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails instead of the process being killed
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    res = subprocess.run([sys.executable, "-m", "service.cli", *args], env=env, capture_output=True, timeout=120,
                         preexec_fn=small_disk, restore_signals=False)
    assert res.returncode == 1, res.stderr
    assert res.stderr.strip() == b"jobdedup: error: File too large", res.stderr
    assert out.read_bytes() == b"previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "out.jsonl"]


# -- encodings and --skip-bad-lines ---------------------------------------------------------------------

def bad_file(tmp_path: Path) -> tuple[Path, list[str]]:
    """Generated postings with three bad lines (4, 8, 9): not JSON, no id, not UTF-8; returns the good ids."""
    good = postings_file(tmp_path / "g.jsonl", 20).read_bytes().splitlines(keepends=True)
    lines = good[:3] + [b'{"id": "x", \n'] + good[3:6] + [b'{"title": "no id"}\n', b'{"id": "caf\xe9"}\n'] + good[6:]
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b"".join(lines))
    return path, sorted({orjson.loads(g)["id"] for g in good})


def test_dedup_skip_bad_lines_counts_and_reports(tmp_path: Path) -> None:
    src, ids = bad_file(tmp_path)
    strict = run("dedup", str(src), "-o", str(tmp_path / "out.jsonl"), "-q")
    assert strict.returncode == 2 and b"line 4: not valid JSON" in strict.stderr
    assert not (tmp_path / "out.jsonl").exists()
    res = run("dedup", str(src), "-o", str(tmp_path / "out.jsonl"), "--skip-bad-lines", "--summary-json")
    assert res.returncode == 0, res.stderr
    err = res.stderr.decode()
    assert "skipped 3 bad line(s)" in err
    assert "line 4: not valid JSON" in err and "line 8: field 'id' is missing" in err
    assert "line 9: the file is not UTF-8" in err
    assert orjson.loads(err.strip().splitlines()[-1])["skipped_lines"] == 3
    out = [orjson.loads(x) for x in (tmp_path / "out.jsonl").read_bytes().splitlines()]
    assert sorted(r["id"] for r in out) == ids
    report = tmp_path / "bad-lines.jsonl"
    res = run("dedup", str(src), "-o", str(tmp_path / "out2.jsonl"), "--bad-lines-report", str(report), "-q")
    assert res.returncode == 0, res.stderr
    assert [(r["line"], r["file"]) for r in map(orjson.loads, report.read_bytes().splitlines())] == [
        (4, str(src)), (8, str(src)), (9, str(src))]
    assert (tmp_path / "out2.jsonl").read_bytes() == (tmp_path / "out.jsonl").read_bytes()


def test_dedup_reads_latin1_csv_with_encoding(tmp_path: Path) -> None:
    src = tmp_path / "l.csv"
    src.write_bytes("id,title,description\n1,Caf\u00e9 cook,Cook at the caf\u00e9\n2,Caf\u00e9 cook,Cook at the caf\u00e9\n"
                    .encode("latin-1"))
    res = run("dedup", str(src), "-o", str(tmp_path / "o.jsonl"), "-q")
    assert res.returncode == 2 and b"line 2: the file is not UTF-8 (byte 0xe9" in res.stderr
    assert b"surrogate" not in res.stderr and len(res.stderr.strip().splitlines()) == 1
    res = run("dedup", str(src), "-o", str(tmp_path / "o.jsonl"), "-q", "--encoding", "latin-1")
    assert res.returncode == 0, res.stderr
    rows = [orjson.loads(x) for x in (tmp_path / "o.jsonl").read_bytes().splitlines()]
    assert [r["duplicate_of"] for r in rows] == [None, "1"]


def test_sig_jsonl_skip_bad_lines_keeps_outputs_aligned() -> None:
    stdin = b'\xef\xbb\xbf"hello world"\n{bad\n"second text"\n'
    strict = run("sig", "--jsonl", stdin=stdin)
    assert strict.returncode == 2 and b"stdin line 2: not valid JSON" in strict.stderr
    res = run("sig", "--jsonl", "--skip-bad-lines", stdin=stdin)
    assert res.returncode == 0, res.stderr
    one, two = run("sig", "hello world").stdout.strip(), run("sig", "second text").stdout.strip()
    assert res.stdout.splitlines() == [one, b"", two]
    assert b"skipped 1 bad line(s) of stdin" in res.stderr and b"stdin line 2" in res.stderr


@pytest.mark.solr
def test_index_skip_bad_lines(clean_solr: str, tmp_path: Path) -> None:
    from service.solr import Solr

    src, ids = bad_file(tmp_path)
    url = f"{clean_solr}/postings"
    strict = run("index", str(src), "--solr", url, "--state-dir", str(tmp_path / "state"), "-q")
    assert strict.returncode == 2 and b"line 4: not valid JSON" in strict.stderr
    solr = Solr(url)
    solr.commit()
    assert solr.count() == 0  # lines are read (and checked) 2,000 ahead of indexing
    res = run("index", str(src), "--solr", url, "--state-dir", str(tmp_path / "state"), "--skip-bad-lines",
              "--summary-json")
    assert res.returncode == 0, res.stderr
    assert b"skipped 3 bad line(s)" in res.stderr and b"line 9: the file is not UTF-8" in res.stderr
    assert orjson.loads(res.stderr.strip().splitlines()[-1])["skipped_lines"] == 3
    solr.commit()
    assert sorted(d["id"] for d in solr.query({"q": "*:*", "fl": "id", "rows": 100})["response"]["docs"]) == ids


# -- a CLI that guides ----------------------------------------------------------------------------------

COMMANDS = ("dedup", "index", "sig", "generate", "eval", "recompute", "serve")


def test_version_names_package_signature_and_solr() -> None:
    import re

    from signatures import SIG_VERSION

    res = run("--version")
    assert res.returncode == 0, res.stderr
    out = res.stdout.decode()
    pom = (REPO / "solr-config" / "pom.xml").read_text(encoding="utf-8")
    solr = re.search(r"<solr.version>([^<]+)</solr.version>", pom).group(1)
    assert re.match(r"jobdedup \d+\.\d+", out)
    assert f"sig_version {SIG_VERSION}\n" in out and f"solr {solr} " in out


@pytest.mark.parametrize("command", ("", *COMMANDS))
def test_help_shows_placeholders_not_type_labels(command: str) -> None:
    res = run(*filter(None, [command]), "--help")
    assert res.returncode == 0, res.stderr
    text = res.stdout.decode()
    for label in ("<bool>", "<str>", "<int>", "<float>", "<list", "issue-5", "{input}"):
        assert label not in text, (command, label)
    if command in ("dedup", "index"):
        assert "FIELD=COLUMN" in text and "--summary-json" in text


def test_dedup_help_gives_the_readme_cost_per_posting() -> None:
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    help_text = " ".join(run("dedup", "--help").stdout.decode().replace("│", " ").split())
    phrase = "~1 ms of CPU per such posting"
    assert phrase in readme and phrase in help_text
    assert "~5 ms" not in help_text and "~2-3 ms" not in help_text


def test_sig_refuses_a_file_name_as_text(tmp_path: Path) -> None:
    res = run("sig", "missing.jsonl", cwd=tmp_path)
    assert res.returncode == 2 and b"no such file 'missing.jsonl'" in res.stderr and not res.stdout
    (tmp_path / "real.txt").write_text("hello world\n", encoding="utf-8")
    res = run("sig", "real.txt", cwd=tmp_path)
    assert res.returncode == 2 and b"is a file" in res.stderr and b"sig < real.txt" in res.stderr
    # the documented ways: the file's text through stdin, the name itself through stdin
    assert run("sig", stdin=b"hello world\n").stdout == run("sig", "hello world").stdout
    res = run("sig", stdin=b"missing.jsonl\n")
    assert res.returncode == 0 and len(res.stdout.strip()) == 32
    assert run("sig", "senior engineer.csv and more").returncode == 0  # a sentence is a text


def test_sig_warns_once_about_fields_no_posting_has() -> None:
    lines = b"".join(orjson.dumps({"id": str(i), "title": f"Engineer number {i}"}) + b"\n" for i in range(3000))
    res = run("sig", "--fields", "nosuch,title", "--jsonl", stdin=lines)
    assert res.returncode == 0, res.stderr
    assert len(res.stdout.splitlines()) == 3000
    warnings = res.stderr.decode().splitlines()
    assert len(warnings) == 1 and "--fields nosuch:" in warnings[0] and "the postings have id, title" in warnings[0]
    assert "posting fields:" in warnings[0]  # nosuch is not a field of the posting contract
    res = run("sig", "--fields", "title,description", "--jsonl", stdin=lines)
    assert res.returncode == 0 and b"--fields description:" in res.stderr and b"posting fields" not in res.stderr
    res = run("sig", "--fields", "title", "--jsonl", stdin=lines)
    assert res.returncode == 0 and res.stderr == b""
    res = run("sig", "--fields", "company", stdin=b'{"id": "1", "title": "x"}')
    assert res.returncode == 0 and b"--fields company:" in res.stderr
    res = run("sig", "--fields", "title,company", stdin=b'{"id": "1", "title": "x"}')  # one posting: a field
    assert res.returncode == 0 and res.stderr == b""  # it lacks is normal; only nothing at all is warned about


def test_csv_without_text_columns_names_them_and_the_map(tmp_path: Path) -> None:
    src = tmp_path / "jobs.csv"
    src.write_text("job_id,job_title,body\n1,Cook,Cook at the cafe\n2,Cook,Cook at the cafe\n", encoding="utf-8")
    out = tmp_path / "groups.jsonl"
    res = run("dedup", str(src), "--map", "id=job_id", "-o", str(out), "-q")
    assert res.returncode == 2 and not out.exists()
    err = res.stderr.decode()
    assert "no text column" in err and "job_id, job_title, body, none of them is title, company or description" in err
    assert "--map title=job_title --map description=body" in err
    res = run("dedup", str(src), "--map", "id=job_id,title=job_title,description=body", "-o", str(out), "-q")
    assert res.returncode == 0, res.stderr
    assert [orjson.loads(x)["duplicate_of"] for x in out.read_bytes().splitlines()] == [None, "1"]


def test_jsonl_without_text_fields_is_warned_about_once(tmp_path: Path) -> None:
    src = tmp_path / "jobs.jsonl"
    src.write_bytes(b"".join(orjson.dumps({"job_id": str(i), "body": f"Cook number {i}"}) + b"\n" for i in range(5)))
    for extra in ((), ("--skip-bad-lines",), ("--fast",)):  # --skip-bad-lines reads a checked copy again
        res = run("dedup", str(src), "--map", "id=job_id", "-o", str(tmp_path / "o.jsonl"), "-q", *extra)
        assert res.returncode == 0, res.stderr
        lines = res.stderr.decode().splitlines()
        assert len(lines) == 1, (extra, lines)
        assert "none of the first 5 postings has a title, company or description field" in lines[0]
        assert "they have id, body" in lines[0] and "--map description=body" in lines[0]
    res = run("dedup", str(src), "--map", "id=job_id,description=body", "-o", str(tmp_path / "o.jsonl"), "-q")
    assert res.returncode == 0 and res.stderr == b""


@pytest.mark.solr
def test_index_prints_prose_with_rejected_ids_and_reasons(clean_solr: str, tmp_path: Path) -> None:
    from service.synth import generate

    postings = list(generate(30, seed=5))
    for p in postings[:25]:
        p["first_seen"] = "yesterday"  # unreadable date: rejected with a reason
    src = tmp_path / "p.jsonl"
    src.write_bytes(b"".join(orjson.dumps(p) + b"\n" for p in postings))
    url = f"{clean_solr}/postings"
    res = run("index", str(src), "--solr", url, "--state-dir", str(tmp_path / "state"), "-j", "0")
    assert res.returncode == 0, res.stderr
    lines = res.stderr.decode().strip().splitlines()
    assert lines[0].startswith(f"30 postings into {url}: ") and "25 rejected" in lines[0]
    assert lines[1] == "rejected (not written; 20 of 25 shown, all ids with --summary-json):"
    assert [x.split(":")[0].strip() for x in lines[2:]] == [p["id"] for p in postings[:20]]
    assert all("first_seen" in x for x in lines[2:])
    res = run("index", str(src), "--solr", url, "--state-dir", str(tmp_path / "state"), "-j", "0",
              "--summary-json")
    summary = orjson.loads(res.stderr.strip().splitlines()[-1])
    assert summary["by_status"]["rejected"] == 25
    assert [r["id"] for r in summary["rejected"]] == [p["id"] for p in postings[:25]]
