"""`jobdedup eval`: metrics on labeled pairs, baselines, clear errors on bad input."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from service.cli import main
from service.eval import LabeledPair, best_cut, group_folds, pair_groups, score

ROLES = ["Backend Engineer", "Data Scientist", "Product Designer", "Account Executive", "QA Engineer"]
TASKS = ["build the billing API", "model churn", "design onboarding", "close mid-market deals", "automate test suites",
         "run the data warehouse", "shape the mobile app", "own partner renewals"]


def _corpus(seed: int = 1) -> tuple[list[dict], list[dict]]:
    """Small generated corpus: companies with a shared blurb, several roles each, and reposts."""
    rng = random.Random(seed)
    posts, labels = [], []
    for c in range(4):
        company = f"Company{c} Systems"
        blurb = f"{company} makes software for {rng.choice(['ports', 'farms', 'clinics', 'schools'])} in {c + 3} countries."
        jobs = []
        for r, role in enumerate(rng.sample(ROLES, 3)):
            lines = [f"As {role} you will {t} with the {company} team." for t in rng.sample(TASKS, 4)]
            pid = f"c{c}r{r}"
            posts.append({"id": pid, "title": role, "company": company,
                          "description": "\n\n".join([blurb, *lines]), "posted_at": "2026-03-01"})
            jobs.append((pid, role, lines))
            repost = {"id": pid + "b", "title": role, "company": company.upper(),
                      "description": "\n\n".join([blurb, *lines[1:], lines[0]]), "posted_at": "2026-04-02"}
            posts.append(repost)
            labels.append({"a": pid, "b": pid + "b", "label": "TEMPORAL"})
        labels.append({"a": jobs[0][0], "b": jobs[1][0], "label": "PARTIAL"})
        labels.append({"a": jobs[1][0], "b": jobs[2][0] + "b", "label": "PARTIAL"})
    labels.append({"a": "c0r0", "b": "c1r1", "label": "NON"})
    labels.append({"a": "c2r0", "b": "c3r2", "label": "NON"})
    return posts, labels


def _write(tmp: Path, posts: list[dict], labels: list[dict]) -> tuple[str, str]:
    d, lab = tmp / "posts.jsonl", tmp / "pairs.jsonl"
    d.write_text("\n".join(json.dumps(p) for p in posts) + "\n", encoding="utf-8")
    lab.write_text("\n".join(json.dumps(p) for p in labels) + "\n", encoding="utf-8")
    return str(d), str(lab)


def test_score_counts_pairs_by_hand() -> None:
    labels = ["FULL", "TEMPORAL", "PARTIAL", "NON", "SEMANTIC"]
    pred = np.array([True, False, True, False, True])
    r = score("m", "s", pred, labels)
    # tp=2 (FULL, SEMANTIC), fp=1 (PARTIAL), fn=1 (TEMPORAL)
    assert r.precision == pytest.approx(2 / 3) and r.recall == pytest.approx(2 / 3)
    assert r.f1 == pytest.approx(2 / 3) and r.partial_merged == 1.0
    assert r.per_label == {"FULL": 1.0, "SEMANTIC": 1.0, "TEMPORAL": 0.0, "PARTIAL": 1.0, "NON": 0.0}


def test_best_cut_finds_the_separating_threshold() -> None:
    t, pred = best_cut(np.array([0.9, 0.8, 0.3, 0.1]), ["FULL", "TEMPORAL", "PARTIAL", "NON"])
    assert t == 0.8 and pred.tolist() == [True, True, False, False]
    t, pred = best_cut(np.array([1, 2, 30, 40]), ["FULL", "TEMPORAL", "PARTIAL", "NON"], higher_is_dup=False)
    assert t == 2


def test_groups_keep_shared_postings_in_one_fold() -> None:
    pairs = [LabeledPair("a", "b", "FULL"), LabeledPair("b", "c", "NON"), LabeledPair("x", "y", "NON"),
             LabeledPair("p", "q", "PARTIAL")]
    g = pair_groups(pairs)
    assert g[0] == g[1] and len({g[0], g[2], g[3]}) == 3
    folds = group_folds(g, 2)
    assert folds[0] == folds[1]


def test_seeded_group_folds_keep_groups_whole_and_vary_the_split() -> None:
    groups = np.repeat(np.arange(40), np.arange(40) % 4 + 1)
    splits = [group_folds(groups, 5, seed) for seed in (None, 1, 2)]
    for folds in splits:
        assert all(len(set(folds[groups == g].tolist())) == 1 for g in range(40))  # a group never straddles folds
        assert set(folds.tolist()) == set(range(5))
    assert (group_folds(groups, 5) == splits[0]).all() and (group_folds(groups, 5, 1) == splits[1]).all()
    assert not (splits[1] == splits[2]).all()


def test_eval_cli_prints_verifier_and_baselines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    posts, labels = _corpus()
    d, lab = _write(tmp_path, posts, labels)
    main(["eval", "--data", d, "--labels", lab])
    out = capsys.readouterr().out
    assert "pairs.jsonl" in out and "verifier" in out and "SimHash-64" in out and "d <= 3" in out
    assert "Jaccard" in out
    verifier_row = next(line for line in out.splitlines() if line.startswith("| verifier"))
    f1 = float(verifier_row.split("|")[5].strip().strip("*"))
    assert f1 >= 0.9  # reposts of one role vs other roles sharing the blurb: easy for the verifier


def test_eval_cli_json_and_cv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    posts, labels = _corpus(2)
    d, lab = _write(tmp_path, posts, labels)
    main(["eval", "--data", d, "--labels", lab, "--json", "--cv", "2", "--no-baselines", "--no-generated"])
    doc = json.loads(capsys.readouterr().out)
    methods = [r["method"] for r in doc[0]["results"]]
    assert any("CV" in m for m in methods) and not any("SimHash" in m for m in methods)
    assert doc[0]["counts"]["TEMPORAL"] == 12


@pytest.mark.parametrize(
    ("bad", "message"),
    [({"a": "c0r0", "b": "missing", "label": "FULL"}, "not in the --data"),
     ({"a": "c0r0", "b": "c0r1", "label": "SAME"}, "not one of"),
     ({"a": "c0r0", "label": "FULL"}, "needs 'a', 'b' and 'label'"),
     ({"a": "c0r0", "b": "c0r1", "label": "FULL", "split": "holdout"}, "split 'holdout' is not one of")],
)
def test_eval_cli_rejects_bad_labels(tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: dict, message: str) -> None:
    posts, _ = _corpus()
    d, lab = _write(tmp_path, posts, [bad])
    with pytest.raises(SystemExit) as exc:
        main(["eval", "--data", d, "--labels", lab])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_eval_cli_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["eval", "--data", str(tmp_path / "nope.jsonl"), "--labels", str(tmp_path / "l.jsonl")])
    assert "no such file" in capsys.readouterr().err


def test_generated_repost_pairs_are_labeled_and_separated() -> None:
    from service.eval import generated_pairs
    from signatures.decide import load_model

    X, labels = generated_pairs("en", n=120, seed=3)
    lab = np.array(labels)
    assert {"TEMPORAL", "PARTIAL", "NON"} <= set(labels) and len(X) == len(labels)
    from signatures.features import FEATURES

    model = load_model()
    assert len(X[0]) == len(FEATURES)
    p = model.final_scores(X)
    # reposts of one job look like duplicates, other jobs of the same company do not
    assert p[lab == "TEMPORAL"].mean() > model.threshold > p[lab == "PARTIAL"].mean()
    assert score("v", "", p >= model.threshold, labels).f1 > 0.8


def test_eval_cli_generated_only(capsys: pytest.CaptureFixture[str]) -> None:
    main(["eval", "--generated", "60", "--no-baselines", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert [d["labels"].split(" ")[0] for d in doc] == ["generated-en", "generated-zh", "generated-ja"]
    for d in doc:
        assert d["counts"].get("TEMPORAL", 0) > 0 and d["results"][0]["method"].startswith("verifier")


def test_eval_cli_needs_labels_or_generated(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["eval"])
    assert exc.value.code == 2 and "--generated" in capsys.readouterr().err


def test_eval_reads_csv_postings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import csv

    posts, labels = _corpus(4)
    d, lab = _write(tmp_path, posts, labels)
    csv_path = tmp_path / "posts.csv"
    with open(csv_path, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=["id", "title", "company", "description", "posted_at"])
        w.writeheader()
        w.writerows(posts)
    main(["eval", "--data", d, "--labels", lab, "--json", "--no-baselines"])
    from_jsonl = json.loads(capsys.readouterr().out)
    main(["eval", "--data", str(csv_path), "--labels", lab, "--json", "--no-baselines"])
    assert json.loads(capsys.readouterr().out) == from_jsonl


def test_eval_cli_boilerplate_ablation_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    posts, labels = _corpus(5)
    d, lab = _write(tmp_path, posts, labels)
    main(["eval", "--data", d, "--labels", lab, "--json", "--no-baselines", "--no-boilerplate"])
    doc = json.loads(capsys.readouterr().out)
    assert doc[0]["results"][0]["per_label"]["TEMPORAL"] == 1.0  # reposts still found without suppression


def test_recipe_keeps_a_veto_only_when_grouped_cv_says_it_helps() -> None:
    from service.train import TrainingSet, choose, train
    from signatures.decide import VETO_CAP
    from signatures.features import FEATURES

    rng = np.random.default_rng(5)
    n = 240
    X = np.zeros((n, len(FEATURES)))
    X[:, FEATURES.index("spec_jaccard")] = spec = rng.uniform(0, 1, n)
    X[:, FEATURES.index("spec_containment")] = np.clip(spec + rng.normal(0, 0.05, n), 0, 1)
    labels = ["TEMPORAL" if x > 0.5 else "NON" for x in spec]
    moved, relinked = np.arange(0, 20), np.arange(20, 40)
    X[moved, FEATURES.index("spec_jaccard")] = 0.99  # look like duplicates ...
    X[moved, FEATURES.index("places_moved")] = 1.0  # ... but the job moved to another city
    for i in moved:
        labels[i] = "PARTIAL"
    X[relinked, FEATURES.index("spec_jaccard")] = 0.95  # real reposts whose links changed: that veto would hurt
    X[relinked, FEATURES.index("links_changed")] = 1.0
    for i in relinked:
        labels[i] = "TEMPORAL"
    ts = TrainingSet(X, labels, np.arange(n) // 2, np.zeros((0, len(FEATURES))), [])
    recipe = choose(ts, k=4)
    assert ("links_changed", 0.5) not in recipe.vetoes, recipe.log
    assert any("links_changed" in line and "dropped" in line for line in recipe.log)
    assert (recipe.oof[moved] < recipe.threshold).all()  # moved jobs stay apart, as a veto or as learned evidence
    model = train(ts, recipe)
    assert model.vetoes == recipe.vetoes and 0.05 <= model.threshold <= 0.95
    assert "links_changed" in model.features  # a dropped veto is weighed as evidence instead
    assert (model.final_scores(X[moved]) < model.threshold).all()
    assert (model.final_scores(X[relinked]) >= model.threshold).all()
    if ("places_moved", 1.0) in recipe.vetoes:
        assert (model.final_scores(X[moved]) <= VETO_CAP).all()


def test_eval_reports_the_locked_split_cv_curve_and_baselines_chosen_on_train(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    posts, labels = [], []
    for seed in range(1, 5):  # four corpora, companies renamed apart: groups by company
        p, lab = _corpus(seed)
        ren = {q["id"]: f"s{seed}{q['id']}" for q in p}
        for q in p:
            q["id"] = ren[q["id"]]
            q["company"] = q["company"].replace("Company", f"Firm{seed}x")
            q["description"] = q["description"].replace("Company", f"Firm{seed}x")
        for x in lab:
            x["a"], x["b"] = ren[x["a"]], ren[x["b"]]
            x["split"] = "locked" if seed == 4 else "train"
            x["group"] = f"g{seed}-{x['a'][2]}"
        lab[0]["split"] = "excluded" if seed == 1 else lab[0]["split"]
        posts += p
        labels += lab
    d, lab = _write(tmp_path, posts, labels)
    main(["eval", "--data", d, "--labels", lab, "--json", "--cv", "3", "--curve"])
    (rep,) = json.loads(capsys.readouterr().out)
    locked = [x for x in labels if x["split"] == "locked"]
    assert rep["labels"].endswith("locked split") and sum(rep["counts"].values()) == len(locked)
    methods = [r["method"] for r in rep["results"]]
    assert methods[0].startswith("verifier (verifier-")
    assert any(m.startswith("verifier, grouped 3-fold CV on the training side (") for m in methods)
    assert sum(m.startswith("learning curve: trained on whole groups") for m in methods) == 3
    assert any("chosen on the training side" in r["setting"] for r in rep["results"])
    # CV and the curve retrain what ships: the shipped model's learner, vetoes and features, threshold chosen inside
    from service.train import learner_name, parse_learner
    from signatures.decide import load_model

    shipped = load_model()
    note = next(n for n in rep["notes"] if n.startswith("recipe of the given model: "))
    assert learner_name(parse_learner(shipped.meta["learner"])) in note and "CV threshold" in note
    assert all(f in note for f in shipped.features)


def test_pair_groups_join_pairs_of_one_employer_group() -> None:
    pairs = [LabeledPair("a", "b", "NON", group="g1"), LabeledPair("c", "d", "NON", group="g1"),
             LabeledPair("e", "f", "NON", group="g2"), LabeledPair("f", "h", "NON")]
    g = pair_groups(pairs)
    assert g[0] == g[1] and g[2] == g[3] and g[0] != g[2]


def test_pair_groups_by_employer_keep_employers_apart_though_a_posting_links_them() -> None:
    # one posting ("b") paired under two employers chains g1 and g2 into one component; by employer they part
    pairs = [LabeledPair("a", "b", "NON", group="g1"), LabeledPair("b", "c", "NON", group="g2"),
             LabeledPair("c", "d", "FULL", group="g2"), LabeledPair("x", "y", "NON")]
    assert len(set(pair_groups(pairs)[:3].tolist())) == 1
    g = pair_groups(pairs, "employer")
    assert g[0] != g[1] and g[1] == g[2] and g[3] not in (g[0], g[1])


def test_learning_curve_subsets_are_whole_groups_of_about_the_share() -> None:
    from service.eval import group_subset

    groups = np.repeat(np.arange(40), 5)  # 40 groups of 5 pairs
    for share in (0.25, 0.5, 1.0):
        rows = group_subset(groups, share)
        assert len(rows) == round(share * 200)
        kept = set(groups[rows].tolist())
        assert all((groups == g).sum() == (groups[rows] == g).sum() for g in kept)  # whole groups only
