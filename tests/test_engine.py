"""The dedup engine's parts: the Verifier stage in bounded memory decides exactly like the plain Verifier,
pair units keep each posting's preparation to one, settings come from the environment once."""

from __future__ import annotations

import os

import numpy as np
import pytest

from service import verify_stage
from service.engine import Phases
from service.errors import UserError
from service.settings import Settings
from service.synth import generate
from signatures.boilerplate import BoilerplateModel
from signatures.decide import Verifier
from signatures.extract import extract


def _random_pairs(rng: np.random.Generator, n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    a = rng.integers(0, n, m)
    b = rng.integers(0, n, m)
    keep = a != b
    return a[keep], b[keep]


@pytest.mark.parametrize("unit_rows", [3, 40, 10_000])
def test_units_hold_whole_small_components(unit_rows: int) -> None:
    rng = np.random.default_rng(unit_rows)
    n = 500
    vi, vj = _random_pairs(rng, n, 300)
    unit, unit_of_row = verify_stage.units(vi, vj, n, unit_rows)
    from service.graph import component_labels

    label = component_labels(vi, vj, n)
    size = np.bincount(label)
    prepared = 0
    for u in np.unique(unit):
        sel = unit == u
        rows = np.unique(np.concatenate([vi[sel], vj[sel]]))
        prepared += len(rows)
        assert len(rows) <= 2 * unit_rows + size.max()
    small = size[label[np.concatenate([vi, vj])]] <= unit_rows
    both = np.concatenate([unit, unit])
    rows_all = np.concatenate([vi, vj])
    assert (both[small] == unit_of_row[rows_all][small]).all()  # a small component's pairs: its rows' unit
    used = len(np.unique(rows_all))
    if size.max() <= unit_rows:
        assert prepared == used  # every posting prepared exactly once
    else:
        assert used <= prepared < 2 * used


def test_pair_verifier_decides_like_the_plain_verifier(monkeypatch: pytest.MonkeyPatch) -> None:
    """Same scores and reasons as Verifier(BoilerplateModel.fit(involved postings)).decide_many, with units
    small enough that big components are cut (postings prepared again in a later block)."""
    monkeypatch.setattr(verify_stage, "UNIT_ROWS", 7)
    postings = list(generate(160, seed=9))
    rng = np.random.default_rng(1)
    vi, vj = _random_pairs(rng, 150, 260)  # rows 150.. take part in no pair
    timings: dict[str, float] = {}

    def source(rows: set[int]):
        for r in sorted(rows, reverse=True):
            yield r, postings[r]

    pv = verify_stage.PairVerifier(source, len(postings), None, 1, Phases("test", quiet=True), timings)
    ok, scores, why = pv(vi, vj, np.zeros(len(vi), np.float32))
    involved = sorted(set(vi.tolist()) | set(vj.tolist()))
    exs = {r: extract(postings[r]) for r in involved}
    v = Verifier(boilerplate=BoilerplateModel.fit(exs[r] for r in involved))
    prepared = {r: v.prepare(e) for r, e in exs.items()}
    want = v.decide_many([(prepared[a], prepared[b]) for a, b in zip(vi.tolist(), vj.tolist(), strict=True)])
    assert np.allclose(scores, [d.score for d in want], rtol=0, atol=1e-12)
    assert ok.tolist() == [d.duplicate for d in want]
    assert why == [d.reasons if d.duplicate else () for d in want]
    assert ok.any() and not ok.all()
    assert timings["verify_postings"] == len(involved) and timings["verify_pairs"] == len(vi)


def test_pair_verifier_asked_again_scores_with_the_first_calls_model() -> None:
    """A second call (the engine's chain pairs) reuses the spool and the boilerplate model fitted on the first
    call's postings, extracting only postings it has not seen: the scores are those of one model throughout."""
    postings = list(generate(60, seed=4))
    rng = np.random.default_rng(2)
    vi, vj = _random_pairs(rng, 40, 60)
    wi, wj = _random_pairs(rng, 50, 40)  # rows 40..49: new in the second call
    read: list[int] = []

    def source(rows: set[int]):
        read.extend(rows)
        for r in sorted(rows):
            yield r, postings[r]

    first = sorted(set(vi.tolist()) | set(vj.tolist()))
    with verify_stage.PairVerifier(source, len(postings), None, 1, Phases("test", quiet=True), {}) as pv:
        pv(vi, vj, np.zeros(len(vi), np.float32))
        _, scores, _ = pv(wi, wj, np.zeros(len(wi), np.float32))
        work = pv.work
    assert work is not None and sorted(read) == sorted(first + sorted((set(wi.tolist()) | set(wj.tolist())) - set(first)))
    assert not os.path.exists(work)
    v = Verifier(boilerplate=BoilerplateModel.fit(extract(postings[r]) for r in first))
    prepared = {r: v.prepare(extract(postings[r])) for r in set(wi.tolist()) | set(wj.tolist())}
    want = v.decide_many([(prepared[a], prepared[b]) for a, b in zip(wi.tolist(), wj.tolist(), strict=True)])
    assert np.allclose(scores, [d.score for d in want], rtol=0, atol=1e-12)


def test_spool_gives_back_what_extraction_found() -> None:
    """A posting's spooled `Extracted` and line hashes read back equal, sections and all (the spool writes
    the fields as tuples: its position of `sections` must follow the dataclass)."""
    import dataclasses

    from signatures.boilerplate import line_hashes
    from signatures.extract import Extracted, Section

    names = [f.name for f in dataclasses.fields(Extracted)]
    assert [names[verify_stage._TEXT], names[verify_stage._LINES], names[verify_stage._SECTIONS]] == [
        "text", "lines", "sections"]
    sectioned = 0
    for p in [*generate(40, seed=5), {"id": "x", "description": "## Roles\n- Backend engineer\n\nplain"}]:
        ex = extract(p, families=False)
        back, hashes = verify_stage._unspooled(verify_stage._spooled(ex, line_hashes(ex)))
        assert back == ex and all(type(sec) is Section for sec in back.sections)
        sectioned += bool(ex.sections)
        assert hashes.tolist() == line_hashes(ex).tolist() and hashes.dtype == np.uint64
    assert sectioned


def test_settings_from_env() -> None:
    s = Settings.from_env({"JOBDEDUP_MAX_TEXT_CHARS": "1000", "JOBDEDUP_STATE_DIR": "/x",
                           "JOBDEDUP_STATE_SAVE_INTERVAL": "2.5", "JOBDEDUP_WORKERS": "3"})
    assert (s.max_text_chars, s.state_dir, s.state_save_interval_s, s.workers) == (1000, "/x", 2.5, 3)
    assert Settings.from_env({}) == Settings()
    with pytest.raises(UserError, match="JOBDEDUP_WORKERS"):
        Settings.from_env({"JOBDEDUP_WORKERS": "many"})
    with pytest.raises(UserError, match="must be > 0"):
        Settings.from_env({"JOBDEDUP_MAX_TEXT_CHARS": "0"})
    assert Settings.from_env({"JOBDEDUP_CPU_WORKERS": "0", "JOBDEDUP_CPU_BUDGET_S": "1.5"}).cpu_workers == 0
    with pytest.raises(UserError, match="must be >= 0"):
        Settings.from_env({"JOBDEDUP_CPU_WORKERS": "-1"})
    assert Settings.from_env({"JOBDEDUP_MAX_BODY_BYTES": "1000"}).max_body_bytes == 1000
    with pytest.raises(UserError, match="JOBDEDUP_MAX_BODY_BYTES"):  # was a ValueError traceback at import
        Settings.from_env({"JOBDEDUP_MAX_BODY_BYTES": "32M"})


def test_phases_time_each_named_step() -> None:
    phases = Phases("test", quiet=True)
    with phases("verify: extract", 2) as bar:
        bar.update(2)
    with phases("verify: extract", 1):
        pass
    with phases("grouping"):
        pass
    assert set(phases.timings) == {"verify_extract_s", "grouping_s"}
    assert all(v >= 0 for v in phases.timings.values())


@pytest.mark.parametrize("budget", [1, 7, 50, 10**9])
def test_band_pairs_in_blocks_are_all_pairs_once(budget: int) -> None:
    """Blocks of lower rows, concatenated, are exactly the unique sorted-neighbourhood pairs of all bands
    (with the same 'collided in two bands' flags) whatever the block budget."""
    from service import engine

    rng = np.random.default_rng(3)
    bands = rng.integers(0, 6, (120, 5)).astype(np.uint64)  # few keys: big buckets, many repeats
    bands[rng.random(bands.shape) < 0.1] = 0                 # some rows without a key in a band
    nn = len(bands)
    raw = np.concatenate([engine._codes(*engine._equal_key_pairs(bands[:, b], engine.WINDOW), nn)
                          for b in range(bands.shape[1])])
    want_codes, want_multi = engine._unique_multi(raw)
    bp = engine._BandPairs(bands, nn, budget)
    blocks = list(bp.blocks())
    got_codes = np.concatenate([b[0] for b in blocks])
    got_multi = np.concatenate([b[1] for b in blocks])
    assert np.array_equal(got_codes, want_codes) and np.array_equal(got_multi, want_multi)
    assert bp.total == len(raw) == sum(b[2] for b in blocks)
    assert len(blocks) == (1 if budget >= len(raw) else len(bp.bounds) - 1) and len(blocks) >= 1
    if budget < 50:
        assert len(blocks) > 3


def test_pair_verifier_refuses_an_input_that_changed() -> None:
    postings = list(generate(20, seed=2))

    def source(rows: set[int]):  # one wanted posting has disappeared since the first read
        for r in sorted(rows)[1:]:
            yield r, postings[r]

    pv = verify_stage.PairVerifier(source, len(postings), None, 1, Phases("test", quiet=True), {})
    with pytest.raises(UserError, match="could not be read again"):
        pv(np.array([0, 2]), np.array([1, 3]), np.zeros(2, np.float32))


def _bom_file(tmp_path, postings: list[dict]) -> str:
    """`postings` as JSON Lines with a byte-order mark, blank lines and no final line break."""
    import orjson

    from service.io import BOM

    lines = [orjson.dumps(p) for p in postings]
    path = tmp_path / "p.jsonl"
    path.write_bytes(BOM + lines[0] + b"\n\n" + b"\n".join(lines[1:-1]) + b"\n  \n" + lines[-1])
    return str(path)


def test_line_spans_read_back_each_first_sighting(tmp_path) -> None:
    """The reading phase's byte spans lead the verifier's workers to each row's first sighting (a byte-order
    mark, blank lines and a re-sighting later in the file included); a changed file is refused."""
    from service import embedded, io

    postings = list(generate(40, seed=3, resight_rate=0.3))
    path = _bom_file(tmp_path, postings)
    store = embedded._Store()
    for fn, args in embedded._tasks(path, "jsonl", None):
        store.add(fn(args))
    first: dict[str, dict] = {}
    for _, p in io.read_postings(path, "jsonl"):
        first.setdefault(p["id"], p)
    assert len(first) < len(postings)  # there were re-sightings
    spans = np.concatenate(store.spans)
    assert verify_stage._read_spans(path, None, spans, store.ids) == [first[i] for i in store.ids]
    with open(path, "rb") as fh:  # the input changed under the run
        body = fh.read()
    with open(path, "wb") as fh:
        fh.write(b"\n" + body)
    with pytest.raises(UserError, match="could not be read again"):
        verify_stage._read_spans(path, None, spans, store.ids)


@pytest.mark.parametrize("workers", [1, 2])
def test_dedup_reads_postings_by_span_like_by_id(tmp_path, monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    """`dedup` whose verifier workers read the postings at their byte spans (unit by unit) writes exactly
    what it writes when the main process reads the file again and finds them by id."""
    import io as stdio

    from service import embedded

    path = _bom_file(tmp_path, list(generate(150, seed=8, resight_rate=0.1)))
    by_span, by_id = stdio.BytesIO(), stdio.BytesIO()
    summary = embedded.dedup_file(path, by_span, workers=workers, quiet=True)
    monkeypatch.setattr(embedded, "LineSpans",
                        lambda path, mapping, spans, ids: verify_stage.file_postings(path, "jsonl", mapping, ids))
    embedded.dedup_file(path, by_id, workers=workers, quiet=True)
    assert summary.phases["verify_pairs"] > 0 and summary.duplicates > 0
    assert by_span.getvalue() == by_id.getvalue()


def test_a_worker_killed_while_sending_its_result_does_not_hang_the_exit() -> None:
    """A worker dies part-way through sending a result (SIGTERM to the process group, or worker_pool's kill after
    Ctrl-C) and the run is interrupted: the process ends. The executor's reader thread, which exit joins, waited
    for the rest of the message for ever (`index` hung on ~1 in 10 Ctrl-C); the partial message is written here
    as such a worker leaves it."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import os, struct, time\n"
            "from service.engine import worker_pool\n"
            "try:\n"
            "    with worker_pool(2) as pool:\n"
            "        os.write(pool._result_queue._writer.fileno(), struct.pack('!i', 1 << 20) + b'x' * 10)\n"
            "        time.sleep(0.5)  # the reader has the header and waits for 1 MB\n"
            "        raise KeyboardInterrupt\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted')\n")
    repo = Path(__file__).resolve().parents[1]
    try:
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=repo,
                             env={"PYTHONPATH": str(repo), "PATH": ""})
    except subprocess.TimeoutExpired:
        pytest.fail("the process did not end")
    assert res.returncode == 0 and res.stdout.strip() == "interrupted", res.stderr
