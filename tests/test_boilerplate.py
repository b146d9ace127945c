"""Boilerplate learned from a corpus: company-wide paragraphs are down-weighted, job text is not."""

from __future__ import annotations

import json
import zlib

import numpy as np
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from signatures.boilerplate import BoilerplateModel
from signatures.extract import extract

BLURB = "Northwind Robotics builds autonomous forklifts for warehouses in twelve countries."
EEO = "Northwind is an equal opportunity employer and values diversity of every kind."
ROLES = ["Backend Engineer", "Product Designer", "Sales Manager", "Data Analyst"]


def _post(i: int, role: str, extra: str) -> dict:
    return {
        "id": f"n{i}", "title": role, "company": "Northwind Robotics", "source": "boardA",
        "description": f"{BLURB}\n\nAs our {role} you will {extra}.\n\n{EEO}",
    }


def _corpus() -> list[dict]:
    tasks = ["own the fleet API", "design the operator console", "grow the DACH pipeline", "model pick rates"]
    return [_post(i, r, t) for i, (r, t) in enumerate(zip(ROLES, tasks, strict=True))]


def test_blurb_recurring_across_jobs_is_boilerplate() -> None:
    posts = _corpus()
    model = BoilerplateModel.fit(posts)
    ex = extract(posts[0])
    w = model.line_weights(ex)
    by_line = dict(zip(ex.lines, w.tolist(), strict=True))
    assert by_line[BLURB] < 1.0 and by_line[EEO] < 1.0
    assert by_line["As our Backend Engineer you will own the fleet API."] == 1.0
    assert model.boilerplate_lines(ex) == [BLURB, EEO]


def test_job_text_drops_boilerplate_lines() -> None:
    posts = _corpus()
    model = BoilerplateModel.fit(posts)
    assert model.job_text(posts[2]) == "As our Sales Manager you will grow the DACH pipeline."
    lonely = {"id": "x", "company": "Northwind Robotics", "title": "Intern", "description": f"{BLURB}\n\n{EEO}"}
    assert model.job_text(lonely) == f"{BLURB}\n{EEO}"  # nothing job-specific left: keep the text


def test_reposts_of_one_job_do_not_make_boilerplate() -> None:
    posts = [_post(i, "Backend Engineer", "own the fleet API") for i in range(6)]
    model = BoilerplateModel.fit(posts)
    assert (model.line_weights(extract(posts[0])) == 1.0).all()


def test_other_company_is_not_affected_by_scoped_counts() -> None:
    model = BoilerplateModel.fit(_corpus())
    other = {"id": "o1", "company": "Contoso", "source": "boardB", "title": "Nurse",
             "description": f"{BLURB}\n\nNight shifts at the ward."}
    # seen with 4 jobs globally, below the global threshold (6): not boilerplate for another company
    assert (model.line_weights(extract(other)) == 1.0).all()


def test_roundtrip_bytes_and_incremental_add() -> None:
    posts = _corpus()
    model = BoilerplateModel.fit(posts[:2])
    data = model.to_bytes()
    again = BoilerplateModel.from_bytes(data)
    for p in posts[2:]:
        model.add(p)
        again.add(p)
    ex = extract(posts[1])
    assert np.array_equal(model.line_weights(ex), again.line_weights(ex))
    assert again.postings == 4 and len(again) == len(model)


def test_from_bytes_rejects_garbage() -> None:
    with pytest.raises(ValueError):
        BoilerplateModel.from_bytes(b"not a model")
    with pytest.raises(ValueError):
        BoilerplateModel.from_bytes(b"JDBP\x00\x01garbage")


def test_parameters_are_checked() -> None:
    with pytest.raises(ValueError):
        BoilerplateModel(min_jobs=1)
    with pytest.raises(ValueError):
        BoilerplateModel(weight=2.0)


@pytest.mark.parametrize("cut", [0, 7, 150, 300])
def test_stacked_layers_weigh_like_one_model_of_them_all(cut: int) -> None:
    """StackedBoilerplate (the service's collection model plus the postings being decided) weighs every line
    like one model that counted both layers' postings, job keys capped alike; it is read-only."""
    from service.synth import generate
    from signatures.boilerplate import StackedBoilerplate

    posts = [*generate(200, seed=5), *generate(100, lang="zh", seed=5), *_corpus()]
    exs = [extract(p) for p in posts]
    one = BoilerplateModel.fit(exs)
    stacked = StackedBoilerplate(BoilerplateModel.fit(exs[:cut]), BoilerplateModel.fit(exs[cut:]))
    assert stacked.postings == one.postings == len(exs)
    flagged = 0
    for ex in exs:
        w = one.line_weights(ex)
        assert np.array_equal(stacked.line_weights(ex), w)
        flagged += int((w < 1).sum())
    assert flagged > 0
    assert stacked.jobs_with_line(exs[-1], BLURB) == one.jobs_with_line(exs[-1], BLURB) >= 3
    with pytest.raises(TypeError):
        stacked.add(exs[0])


@pytest.mark.parametrize("global_min_jobs", [3, 6])
def test_line_weights_are_the_per_line_job_counts(global_min_jobs: int) -> None:
    """line_weights (all lines of a posting at once, from its `line_hashes` or not) flags exactly the lines whose
    `jobs_with_line` reaches min_jobs, for one model and for stacked layers (job keys united across them)."""
    from service.synth import generate
    from signatures.boilerplate import StackedBoilerplate, line_hashes

    posts = [*generate(200, seed=8), *generate(80, lang="zh", seed=8), *_corpus()]
    exs = [extract(p) for p in posts]
    kw = {"min_jobs": 3, "global_min_jobs": global_min_jobs}
    models = [BoilerplateModel.fit(exs, **kw),
              StackedBoilerplate(BoilerplateModel.fit(exs[::2], **kw), BoilerplateModel.fit(exs[1::2], **kw))]
    for model in models:
        flagged = 0
        for ex in exs:
            want = np.array([0.1 if model.jobs_with_line(ex, ln) >= 3 else 1.0 for ln in ex.lines], np.float32)
            assert np.array_equal(model.line_weights(ex), want)
            assert np.array_equal(model.line_weights(ex, line_hashes(ex)), want)
            flagged += int((want < 1).sum())
        assert flagged > 0


def test_adding_to_the_top_layer_names_every_line_whose_weight_changed() -> None:
    """StackedBoilerplate.add_to_top counts a posting like one model would and returns the line hashes whose
    boilerplate status it changed in which scope: a posting none of whose scopes and lines is among them keeps its weights (the service
    reuses its prepared form then)."""
    from service.synth import generate
    from signatures.boilerplate import StackedBoilerplate, learning_record

    posts = [*generate(120, seed=6), *generate(60, lang="zh", seed=6), *_corpus()]
    exs = [extract(p) for p in posts]
    base = BoilerplateModel.fit(exs[::3])
    stacked = StackedBoilerplate(base, BoilerplateModel())
    one = BoilerplateModel.fit(exs[::3])
    watch = exs[:12] + exs[120:126] + exs[-len(_corpus()):]
    before = [one.line_weights(ex) for ex in watch]
    changed_any = 0
    for ex in [e for k, e in enumerate(exs) if k % 3]:
        changed = stacked.add_to_top(learning_record(ex))
        one.add(ex)
        changed_any += bool(changed)
        for k, w in enumerate(watch):
            now = one.line_weights(w)
            assert np.array_equal(stacked.line_weights(w), now)
            if not np.array_equal(now, before[k]):
                _, scopes, hashes = learning_record(w)
                assert set(changed) & {(s, h) for s in scopes for h in hashes}
            before[k] = now
    assert changed_any > 0
    assert stacked.postings == one.postings


def test_array_model_gives_the_same_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    """ArrayBoilerplate (sorted arrays, reduced in steps) weighs every line exactly like the dict model."""
    from service.synth import generate
    from signatures import boilerplate

    monkeypatch.setattr(boilerplate._KeyCounts, "_STEP", 500)  # many reductions on a small corpus
    posts = [*generate(300, seed=4), *generate(120, lang="zh", seed=4), *_corpus()]
    exs = [extract(p) for p in posts]
    dict_model = BoilerplateModel.fit(exs)
    array_model = boilerplate.ArrayBoilerplate.fit(exs).finish()
    assert array_model.postings == dict_model.postings == len(exs)
    flagged = 0
    for ex in exs:
        w = dict_model.line_weights(ex)
        assert np.array_equal(array_model.line_weights(ex), w)
        assert np.array_equal(array_model.line_weights(ex, boilerplate.line_hashes(ex)), w)
        flagged += int((w < 1).sum())
    assert flagged > 0  # the comparison covered boilerplate lines, not only job text
    many = array_model.line_weights_many(exs, [boilerplate.line_hashes(ex) for ex in exs])
    assert all(np.array_equal(m, dict_model.line_weights(ex)) for m, ex in zip(many, exs, strict=True))
    assert array_model.line_weights_many([], []) == []
    again = boilerplate.ArrayBoilerplate.from_arrays(array_model.arrays())
    assert all(np.array_equal(again.line_weights(ex), array_model.line_weights(ex)) for ex in exs[:50])
    assert again.jobs_with_line(exs[-1], BLURB) == dict_model.jobs_with_line(exs[-1], BLURB) >= 3
    from_records = boilerplate.ArrayBoilerplate()
    for ex in exs:
        from_records.add_record(boilerplate.learning_record(ex))
    from_records.finish()
    assert all(np.array_equal(from_records.line_weights(ex), dict_model.line_weights(ex)) for ex in exs)
    batched = boilerplate.ArrayBoilerplate()  # keys of whole batches, as the verifier's workers give them
    for s in range(0, len(exs), 64):
        batch = exs[s:s + 64]
        batched.add_keys(*boilerplate.line_keys_many(batch, [boilerplate.line_hashes(ex) for ex in batch]), len(batch))
    batched.finish()
    assert all(np.array_equal(batched.arrays()[k], array_model.arrays()[k]) for k in ("params", "gk", "gn", "sk", "sn"))
    one = [boilerplate.line_keys(ex) for ex in exs[:80]]
    g, gj, sk, sj = boilerplate.line_keys_many(exs[:80], [boilerplate.line_hashes(ex) for ex in exs[:80]])
    assert sorted(zip(g.tolist(), gj.tolist(), strict=True)) == sorted((k, jk) for glob, _, jk in one for k in glob.tolist())
    assert sorted(zip(sk.tolist(), sj.tolist(), strict=True)) == sorted((k, jk) for _, sc, jk in one for k in sc.tolist())
    assert all(len(x) == 0 for x in boilerplate.line_keys_many([], []))


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2 ** 70), max_value=2 ** 70)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20)
_VALID = orjson.loads(zlib.decompress(BoilerplateModel.fit(_corpus()).to_bytes()[4:]))


def _jdbp(doc: object) -> bytes:
    return b"JDBP" + zlib.compress(json.dumps(doc).encode())  # json, not orjson: any int, NaN


def _loads_or_refuses(data: bytes) -> None:
    """from_bytes gives a model that works, or raises ValueError -- never another exception."""
    try:
        model = BoilerplateModel.from_bytes(data)
    except ValueError:
        return
    ex = extract(_corpus()[0])
    assert len(model.line_weights(ex)) == len(ex.lines)
    model.add(_corpus()[1])
    assert BoilerplateModel.from_bytes(model.to_bytes()).postings == model.postings


@settings(max_examples=300, deadline=None)
@given(doc=_JSON)
def test_from_bytes_refuses_any_json_shape(doc: object) -> None:
    _loads_or_refuses(_jdbp(doc))


@settings(max_examples=300, deadline=None)
@given(field=st.sampled_from(sorted(_VALID)), value=_JSON, scope_rows=_JSON)
def test_from_bytes_refuses_a_valid_model_with_one_wrong_field(field: str, value: object, scope_rows: object) -> None:
    _loads_or_refuses(_jdbp({**_VALID, field: value}))
    _loads_or_refuses(_jdbp({**_VALID, "table": {**_VALID["table"], "*": scope_rows}}))


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=64))
def test_from_bytes_refuses_any_bytes(data: bytes) -> None:
    _loads_or_refuses(b"JDBP" + data)
    _loads_or_refuses(b"JDBP" + zlib.compress(data))
