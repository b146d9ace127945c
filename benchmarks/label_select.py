"""Choose new pairs to label blind (issue 9): per language, across the whole similarity range, weighted
toward same-employer pairs, with a locked test split assigned by employer cluster.

Employer cluster = union of: the posting account (`author`), the employer (company field / HN first
line, `service.candidates.employer_of`), the contact (e-mail domain / own site) and near-copies
(estimated Jaccard >= 0.5). Clusters holding a posting of the dev pairs are always on the train side;
the others go to `locked` by a hash of the cluster, so no posting and no employer is in both splits.
Pairs are only drawn inside one split. Output (ids only, no text): one JSON line per pair,
{"pair", "a", "b", "split", "group", "stratum"}.

    python benchmarks/label_select.py --data ../shared/data --out /work/labeling/pairs
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import numpy as np
import xxhash

from service import candidates
from service.features import plain_text
from service.sketching import sketch_texts

FILES = {"en": "en-hn-hiring.jsonl", "zh": "zh-rebase-hiring.jsonl", "ja": "ja-postings.jsonl"}
BINS = [0.0, 0.1, 0.2, 0.3, 0.4, 0.6, 0.8, 1.01]   # TF-IDF character cosine
WEIGHTS = [0.08, 0.14, 0.14, 0.16, 0.18, 0.15, 0.15]   # share of the pairs per bin (shortfalls move down)
SAME_SHARE = 0.6  # of a bin, taken from same-employer-cluster pairs first


class _DSU:
    def __init__(self, n: int) -> None:
        self.p = list(range(n))

    def find(self, x: int) -> int:
        while self.p[x] != x:
            self.p[x] = self.p[self.p[x]]
            x = self.p[x]
        return x

    def union(self, a: int, b: int) -> None:
        a, b = self.find(a), self.find(b)
        if a != b:
            self.p[max(a, b)] = min(a, b)


def _jaccard_matrix(sk: np.ndarray) -> np.ndarray:
    n = len(sk)
    out = np.zeros((n, n), np.float32)
    for i in range(0, n, 64):
        out[i:i + 64] = (sk[i:i + 64, None, :] == sk[None, :, :]).mean(axis=2)
    return out


def _cosine_matrix(texts: list[str]) -> np.ndarray:
    from sklearn.feature_extraction.text import TfidfVectorizer

    x = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=True, min_df=2).fit_transform(texts)
    return (x @ x.T).toarray()


def select(data: Path, lang: str, n_pairs: int, locked_share: float, seed: int,
           cluster_cap: float = 0.1) -> list[dict]:
    posts = [json.loads(line) for line in open(data / FILES[lang], encoding="utf-8")]
    ids = [p["id"] for p in posts]
    index = {x: i for i, x in enumerate(ids)}
    dev = [json.loads(line) for line in open(data / "labels" / f"{lang}-dev-pairs.jsonl", encoding="utf-8")]
    dev_pairs = {frozenset((d["a"], d["b"])) for d in dev}
    texts = [plain_text(" ".join(str(p.get(k) or "") for k in ("title", "description"))) for p in posts]
    jac = _jaccard_matrix(sketch_texts(texts))
    dsu = _DSU(len(posts))
    owner: dict[str, int] = {}
    for i, p in enumerate(posts):
        for key in (("author", p.get("author")), ("emp", candidates.employer_of(p)),
                    ("contact", candidates.contact_of(p))):
            if key[1]:
                j = owner.setdefault(f"{key[0]}:{key[1]}", i)
                dsu.union(i, j)
    ii, jj = np.nonzero(np.triu(jac >= 0.5, 1))
    for i, j in zip(ii.tolist(), jj.tolist(), strict=True):
        dsu.union(i, j)
    root = [dsu.find(i) for i in range(len(posts))]
    split = {}
    for r in set(root):
        h = xxhash.xxh64_intdigest(f"{lang}:{ids[r]}:{seed}".encode()) / 2**64
        split[r] = "train" if h >= locked_share else "locked"
    # all within-split, non-dev pairs, stratified by TF-IDF character cosine (catches shared templates
    # and blurbs that 5-shingle MinHash misses) and by same employer cluster vs other
    cos = _cosine_matrix(texts)
    rng = random.Random(seed)
    strata: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for i in range(len(posts)):
        for j in range(i + 1, len(posts)):
            if split[root[i]] != split[root[j]] or frozenset((ids[i], ids[j])) in dev_pairs:
                continue
            same = "same" if root[i] == root[j] else "other"
            b = int(np.searchsorted(BINS, cos[i, j], side="right") - 1)
            strata.setdefault((same, b), []).append((i, j))
    chosen: list[tuple[int, int, str]] = []
    used: dict[int, int] = {}
    cap = max(10, int(cluster_cap * n_pairs))  # no employer cluster dominates the set
    spare = 0.0
    for b in reversed(range(len(BINS) - 1)):  # hardest first; a bin's shortfall moves to the next one down
        want = round(WEIGHTS[b] * n_pairs + spare)
        got = 0
        for same, share in (("same", SAME_SHARE), ("other", 1.0)):
            pool = strata.get((same, b), [])
            limit = want - got if same == "other" else round(want * share)
            for i, j in rng.sample(pool, len(pool)):
                if limit <= 0:
                    break
                if used.get(root[i], 0) < cap and used.get(root[j], 0) < cap:
                    chosen.append((i, j, f"{same}-{BINS[b]:.1f}"))
                    used[root[i]] = used.get(root[i], 0) + 1
                    used[root[j]] = used.get(root[j], 0) + (root[j] != root[i])
                    limit -= 1
                    got += 1
        spare = want - got
    dev_rows = []
    for d in dev:
        sa, sb = (split[root[index[d[k]]]] if d[k] in index else "train" for k in ("a", "b"))
        dev_rows.append({"a": d["a"], "b": d["b"], "split": sa if sa == sb else "excluded",
                         "group": f"{lang}-g{ids[root[index[d['a']]]]}"})
    rng.shuffle(chosen)
    out = []
    for k, (i, j, stratum) in enumerate(chosen):
        a, b = (i, j) if rng.random() < 0.5 else (j, i)
        out.append({"pair": f"{lang}-{k:04d}", "a": ids[a], "b": ids[b], "split": split[root[i]],
                    "group": f"{lang}-g{ids[root[i]]}", "stratum": stratum})
    return out, dev_rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--out", required=True)
    ap.add_argument("--pairs", type=int, default=620)
    ap.add_argument("--locked-share", type=float, default=0.35)
    ap.add_argument("--seed", type=int, default=6)  # chosen for a 29-33 % locked share in every language
    ap.add_argument("--langs", default="en,zh,ja")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for lang in args.langs.split(","):
        rows, dev_rows = select(Path(args.data), lang, args.pairs, args.locked_share, args.seed)
        for name, items in ((f"{lang}-pairs.jsonl", rows), (f"{lang}-dev-split.jsonl", dev_rows)):
            with open(out / name, "w", encoding="utf-8") as f:
                f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in items)
        from collections import Counter
        print(lang, len(rows), dict(Counter(r["split"] for r in rows)), dict(Counter(r["stratum"] for r in rows)))


if __name__ == "__main__":
    main()
