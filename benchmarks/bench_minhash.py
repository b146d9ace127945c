"""MinHash sketching throughput and Jaccard-estimate error: jobdedup vs datasketch vs rensa.

    python benchmarks/bench_minhash.py [--docs 2000] [--repeats 5] [--pairs 1500] [--seeds 10]
                                       [--data /work/shared/data]

Fairness: every method starts from the same raw text and is timed end to end. Normalization and
tokenization (NFKC, casefold, word tokens / single Han-kana characters, as in `signatures.shingles`)
are the same for all; datasketch and rensa get the tokens from the fastest equivalent Python path
(`_token_bytes`: str/bytes translate + split) and their shingles the usual way, one bytes string per
5-token window (b" ".join), fed to their fastest CPU batch APIs (datasketch `MinHash.bulk`, default
sha1 + affine32 scheme; rensa `RMinHash.digest_matrix_from_token_sets`, its `_rho` variant, and
`CMinHash.digests64_from_token_sets`). Ours hashes tokens with XXH3_64 in numpy over the batch and
combines shingle hashes arithmetically. All use 128 permutations and 5-token shingles. Wall-clock and
process CPU time (all threads: rensa may use several) are both reported; each timing is the best of
--repeats runs after one warm-up, with a fresh sketcher per run.

Error: mean absolute error of the estimate vs the exact Jaccard of the shingle sets, over pairs
spread across the whole similarity range (generated pairs; on real data the labeled dev pairs),
averaged over --seeds / --real-seeds hash seeds per method, with the standard error across seeds.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from signatures.minhash import MinHasher, jaccard_pairs  # noqa: E402
from signatures.shingles import _token_bytes  # noqa: E402

K = 5
NUM_PERM = 128

_WORDS = """
the of and to in a is for with on as you be we our are will at your by this an or from that have
team work experience engineering software build product data customers company remote role skills
years across help join looking strong ability development design systems growth platform support
management technical new business opportunity culture benefits salary health time office people
develop including using high quality services solutions working environment responsibilities
requirements knowledge communication written verbal english full part hybrid onsite location city
senior junior lead staff principal engineer manager director analyst scientist designer developer
backend frontend fullstack mobile cloud infrastructure security machine learning python java go rust
typescript javascript react node kubernetes docker aws gcp azure sql postgres kafka spark api apis
distributed scalable reliable performance testing deployment monitoring pipelines tools open source
collaborate closely cross functional stakeholders deliver impact ownership autonomy mission vision
values diverse inclusive equal employer opportunity applicants regardless race gender age disability
veteran status apply today send resume cv email careers page visa sponsorship relocation equity
competitive compensation package insurance dental vision retirement plan paid leave vacation days
flexible hours learning budget conference home stipend laptop equipment startup series funded
investors revenue users million customers worldwide fast paced mentor mentoring code review best
practices architecture microservices databases storage networking linux automation ci cd agile scrum
roadmap features requirements quality assurance qa user experience research analytics metrics sales
marketing operations finance legal hr recruiting hiring process interview stages take home exam
""".split()


def gen_postings(n: int, seed: int, words: int = 360) -> list[str]:
    """English-like postings (~2.3 KB): Zipf-weighted words from a job-ad vocabulary, sentences,
    a header line and some punctuation."""
    rng = np.random.default_rng(seed)
    vocab = np.array(_WORDS + [f"{w}{s}" for w in _WORDS[:200] for s in ("s", "ing", "ed")])
    p = 1.0 / np.arange(1, len(vocab) + 1) ** 0.9
    p /= p.sum()
    out = []
    for i in range(n):
        toks = vocab[rng.choice(len(vocab), size=words, p=p)]
        parts, pos = [], 0
        while pos < words:
            ln = int(rng.integers(6, 20))
            sent = " ".join(toks[pos : pos + ln])
            parts.append(sent[:1].upper() + sent[1:] + rng.choice([".", ".", ",", ";", "!", ":"]))
            pos += ln
        header = f"Company{i % 97} | Engineer {i % 13} | Remote (US/EU) | ${60 + i % 90}k-${100 + i % 120}k\n"
        out.append(header + " ".join(parts))
    return out


def mutate(text: str, frac: float, rng: np.random.Generator) -> str:
    """Reword a text: replace a fraction of its words, and drop/append a few sentences."""
    toks = text.split(" ")
    n = len(toks)
    idx = rng.choice(n, size=int(frac * n), replace=False)
    for i in idx:
        toks[i] = _WORDS[int(rng.integers(len(_WORDS)))]
    if rng.random() < 0.5:
        cut = int(rng.integers(0, max(1, int(frac * n))))
        toks = toks[cut:]
    return " ".join(toks)


def shingle_bytes(text: str, k: int = K) -> list[bytes]:
    """Shingles as byte strings (shared tokenizer, b' '-joined windows; short texts: one shingle)."""
    toks = _token_bytes(text)
    if len(toks) < k:
        return [b" ".join(toks)] if toks else []
    return [b" ".join(toks[i : i + k]) for i in range(len(toks) - k + 1)]


def exact_jaccard(a: str, b: str) -> float:
    sa, sb = set(shingle_bytes(a)), set(shingle_bytes(b))
    if not sa or not sb:
        return 0.0
    return len(sa & sb) / len(sa | sb)


# -- methods: each maps (texts, seed) -> (n, NUM_PERM) array of comparable slot values -------------
def ours(texts: Sequence[str], seed: int) -> np.ndarray:
    return MinHasher(num_perm=NUM_PERM, seed=seed, k=K).sketch_batch(texts)


def ours_kperm(texts: Sequence[str], seed: int) -> np.ndarray:
    """Ablation: our shingle hashes, then classic MinHash with 128 affine permutations
    (a*h+b mod 2**64, odd a, on fmix64-premixed hashes), vectorized per 32-document chunk."""
    from signatures.shingles import Shingler, fmix64

    rng = np.random.default_rng(seed)
    a = rng.integers(0, 2**63, size=NUM_PERM, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    b = rng.integers(0, 2**63, size=NUM_PERM, dtype=np.uint64)
    sh = Shingler(k=K, seed=seed)
    out = np.full((len(texts), NUM_PERM), np.uint64(2**64 - 1))
    for lo in range(0, len(texts), 32):
        h, counts = sh.hashes_batch(texts[lo : lo + 32])
        if not h.size:
            continue
        vals = fmix64(h)[:, None] * a[None, :] + b[None, :]
        offs = np.cumsum(counts) - counts
        nz = np.flatnonzero(counts)
        out[lo + nz] = np.minimum.reduceat(vals, offs[nz], axis=0)
    return out


def datasketch_bulk(texts: Sequence[str], seed: int) -> np.ndarray:
    from datasketch import MinHash

    sh = [shingle_bytes(t) for t in texts]
    return np.array([m.hashvalues for m in MinHash.bulk(sh, num_perm=NUM_PERM, seed=seed)])


def rensa_r(texts: Sequence[str], seed: int) -> np.ndarray:
    from rensa import RMinHash

    sh = [shingle_bytes(t) for t in texts]
    return np.array(RMinHash.digest_matrix_from_token_sets(sh, NUM_PERM, seed).to_rows(), dtype=np.uint64)


def rensa_rho(texts: Sequence[str], seed: int) -> np.ndarray:
    from rensa import RMinHash

    sh = [shingle_bytes(t) for t in texts]
    return np.array(RMinHash.digest_matrix_from_token_sets_rho(sh, NUM_PERM, seed).to_rows(), dtype=np.uint64)


def rensa_c(texts: Sequence[str], seed: int) -> np.ndarray:
    from rensa import CMinHash

    sh = [shingle_bytes(t) for t in texts]
    return np.array(CMinHash.digests64_from_token_sets(sh, NUM_PERM, seed), dtype=np.uint64)


METHODS: dict[str, Callable[[Sequence[str], int], np.ndarray]] = {
    "jobdedup (OPH + optimal densification)": ours,
    "jobdedup shingles + 128 permutations (ablation)": ours_kperm,
    "datasketch MinHash.bulk": datasketch_bulk,
    "rensa RMinHash matrix": rensa_r,
    "rensa RMinHash rho": rensa_rho,
    "rensa CMinHash": rensa_c,
}


def throughput(fn: Callable[[Sequence[str], int], np.ndarray], texts: Sequence[str], repeats: int) -> tuple[float, float, float]:
    """(best docs/s wall, median docs/s wall, best docs/s CPU) over `repeats` runs (after a warm-up)."""
    fn(texts[:50], 1)  # imports, lazily built tables
    walls, cpus = [], []
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        fn(texts, 1)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    n = len(texts)
    return n / min(walls), n / statistics.median(walls), n / min(cpus)


def mae(fn: Callable[[Sequence[str], int], np.ndarray], a: list[str], b: list[str], truth: np.ndarray,
        seeds: int) -> tuple[float, float]:
    """Mean absolute error over pairs, averaged over seeds, and its standard error across seeds."""
    errs = []
    n = len(a)
    for seed in range(1, seeds + 1):
        sk = fn(a + b, seed)
        est = jaccard_pairs(sk[:n].astype(np.uint64), sk[n:].astype(np.uint64), np.arange(n), np.arange(n))
        errs.append(float(np.mean(np.abs(est - truth))))
    return float(np.mean(errs)), float(np.std(errs, ddof=1) / np.sqrt(seeds)) if seeds > 1 else float("nan")


def synthetic_pairs(n: int, seed: int) -> tuple[list[str], list[str]]:
    rng = np.random.default_rng(seed)
    base = gen_postings(n, seed + 1)
    fracs = rng.uniform(0.0, 0.35, size=n) ** 1.5  # word-replacement share -> Jaccard spread over [0, 1]
    return base, [mutate(t, float(f), rng) for t, f in zip(base, fracs, strict=True)]


def load_real(data: Path) -> tuple[dict[str, list[str]], dict[str, tuple[list[str], list[str]]]]:
    """Real postings per language (title, company, description; HTML stripped) and labeled pairs."""
    tag = re.compile(r"<[^>]+>")
    texts: dict[str, list[str]] = {}
    pairs: dict[str, tuple[list[str], list[str]]] = {}
    for lang, fname in (("en", "en-hn-hiring.jsonl"), ("zh", "zh-rebase-hiring.jsonl"), ("ja", "ja-postings.jsonl")):
        path = data / fname
        if not path.exists():
            continue
        by_id = {}
        for line in path.open(encoding="utf-8"):
            d = json.loads(line)
            body = html.unescape(tag.sub(" ", d.get("description") or ""))
            by_id[d["id"]] = "\n".join(x for x in (d.get("title"), d.get("company"), body) if x)
        texts[lang] = list(by_id.values())
        lab = data / "labels" / f"{lang}-dev-pairs.jsonl"
        if lab.exists():
            ps = [json.loads(line) for line in lab.open(encoding="utf-8")]
            ps = [p for p in ps if p["a"] in by_id and p["b"] in by_id]
            pairs[lang] = ([by_id[p["a"]] for p in ps], [by_id[p["b"]] for p in ps])
    return texts, pairs


def report(title: str, texts: list[str], a: list[str], b: list[str], repeats: int, seeds: int) -> None:
    truth = np.array([exact_jaccard(x, y) for x, y in zip(a, b, strict=True)])
    kb = statistics.mean(len(t.encode("utf-8")) for t in texts) / 1024
    print(f"\n### {title}: {len(texts)} docs, mean {kb:.2f} KB; {len(a)} pairs, "
          f"true Jaccard mean {truth.mean():.2f} (quartiles {np.percentile(truth, 25):.2f}/"
          f"{np.percentile(truth, 50):.2f}/{np.percentile(truth, 75):.2f})\n")
    print("| method | docs/s wall (best) | docs/s wall (median) | docs/s CPU (best) | x datasketch (wall / CPU) "
          f"| MAE ± SE ({seeds} seeds) |")
    print("|---|---:|---:|---:|---:|---:|")
    rows = []
    for name, fn in METHODS.items():
        best, med, cpu = throughput(fn, texts, repeats)
        err, se = mae(fn, a, b, truth, seeds) if a else (float("nan"), float("nan"))
        rows.append((name, best, med, cpu, err, se))
    base = next(r for r in rows if r[0].startswith("datasketch"))
    for name, best, med, cpu, err, se in rows:
        print(f"| {name} | {best:,.0f} | {med:,.0f} | {cpu:,.0f} | {best / base[1]:.1f}x / {cpu / base[3]:.1f}x "
              f"| {err:.4f} ± {se:.4f} |")
    sys.stdout.flush()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, default=2000, help="generated postings for the throughput run")
    ap.add_argument("--pairs", type=int, default=1500, help="generated pairs for the error run")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seeds", type=int, default=10, help="hash seeds averaged in the generated error run")
    ap.add_argument("--real-seeds", type=int, default=40,
                    help="hash seeds averaged on the (few) labeled real pairs")
    ap.add_argument("--data", type=Path, default=Path("/work/shared/data"))
    args = ap.parse_args()

    from importlib.metadata import version

    import datasketch

    print(f"numpy {np.__version__}, datasketch {datasketch.__version__}, rensa {version('rensa')}; "
          f"num_perm={NUM_PERM}, k={K}")
    texts = gen_postings(args.docs, 7)
    a, b = synthetic_pairs(args.pairs, 11)
    report("Generated English postings", texts, a, b, args.repeats, args.seeds)
    if args.data.exists():
        real, pairs = load_real(args.data)
        for lang, ts in real.items():
            pa, pb = pairs.get(lang, ([], []))
            report(f"Real postings ({lang}, {args.data})", ts, pa, pb, args.repeats, args.real_seeds)


if __name__ == "__main__":
    main()
