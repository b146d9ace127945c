"""Throughput of the Solr-exact TextProfileSignature port (signatures.textprofile).

Generated English postings of ~2.3 KB (deterministic), and real English postings from ../shared/data
when present. Reports postings/s per CPU second (time.process_time: one core, immune to waiting for
the CPU on a shared machine) and per wall second, best and median of several rounds, for the batch
kernel (solr_text_signatures), the per-text path it replaced (solr_text_signatures_reference), the
literal reference path (char tables + full HashMap simulation), and the batch kernel's sensitivity to
the number of texts per call and to its chunk size (code units per kernel call).

    python benchmarks/bench_textprofile.py [--postings 3000] [--rounds 5] [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import time
from collections import Counter
from pathlib import Path

from signatures import textprofile as tp
from signatures import textprofile_batch as tb

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "en-hn-hiring.jsonl"

COMMON = (
    "the and to of a in for with you we our is are on be as will at your team work experience "
    "that this an or by from have who can us it about all their join build help looking data "
    "engineering software engineer senior product customers company new skills years strong "
    "remote role more design development across high working systems develop platform ability "
    "knowledge support including people technical teams what do make time based its other "
    "growth opportunity business using tools great building services position benefits apply "
    "python java javascript typescript react node cloud aws kubernetes docker sql postgres "
    "backend frontend fullstack stack infrastructure scale security machine learning models "
    "salary equity health insurance vacation office hybrid onsite location york london berlin"
).split()
PUNCT = [",", ",", ".", ".", ";", ":", " -", " (", ")", "!", "/"]


def _pseudo_words(rng: random.Random, n: int) -> list[str]:
    cons, vow = "bcdfghjklmnprstvwz", "aeiou"
    out = set()
    while len(out) < n:
        k = rng.randint(2, 5)
        out.add("".join(rng.choice(cons) + rng.choice(vow) for _ in range(k // 2 + 1))[: rng.randint(3, 12)])
    return sorted(out)


def generate_postings(n: int, size: int = 2300, seed: int = 42, non_ascii: float = 0.0) -> list[str]:
    """n English-like postings of about `size` characters: Zipf-distributed words, capitals, numbers,
    punctuation; with probability `non_ascii` a posting also gets typographic quotes/bullets/accents."""
    vocab = COMMON + _pseudo_words(random.Random(42), 6000)  # one English-like vocabulary for all seeds
    rng = random.Random(seed)
    cum = list(itertools.accumulate(1.0 / (i + 1) ** 1.05 for i in range(len(vocab))))
    texts = []
    for _ in range(n):
        parts: list[str] = []
        length = 0
        start = True
        fancy = rng.random() < non_ascii
        while length < size:
            w = rng.choices(vocab, cum_weights=cum)[0] if rng.random() > 0.03 else str(rng.randint(1, 2030))
            if start or rng.random() < 0.04:
                w = w.capitalize()
            if fancy and rng.random() < 0.02:
                w = rng.choice(["café", "naïve", "’s", "“" + w + "”", "• " + w, "–", "résumé"])
            parts.append(w)
            start = False
            if rng.random() < 0.12:
                p = rng.choice(PUNCT)
                parts[-1] += p
                start = p in (".", "!")
            length += len(w) + 1
        texts.append(" ".join(parts)[:size])
    return texts


def real_postings() -> list[str]:
    if not SHARED.is_file():
        return []
    out = []
    for line in SHARED.read_text(encoding="utf-8").split("\n"):
        if line.strip():
            p = json.loads(line)
            out.append(" ".join(str(p.get(f) or "") for f in ("title", "company", "description")))
    return out


def reference_signatures(texts: list[str]) -> list[str]:
    return [tp.profile_digest([tp.reference_profile(tp.solr_tokens(t))]) for t in texts]


def floor_split_count(texts: list[str]) -> None:
    """Lower bound for any pure-Python port: fold ASCII, split, count. No ordering, no digest."""
    table = bytes(c + 32 if 65 <= c <= 90 else c if chr(c).isalnum() else 32 for c in range(128)) + bytes(
        range(128, 256)
    )
    for t in texts:
        Counter(t.encode("utf-8").translate(table).split())


def measure(fn, texts: list[str], rounds: int) -> dict:  # type: ignore[no-untyped-def]
    cpu, wall = [], []
    for _ in range(rounds):
        t0, c0 = time.perf_counter(), time.process_time()
        fn(texts)
        cpu.append(len(texts) / max(time.process_time() - c0, 1e-9))
        wall.append(len(texts) / max(time.perf_counter() - t0, 1e-9))
    return {
        "postings": len(texts),
        "avg_chars": round(statistics.mean(map(len, texts)) if texts else 0),
        "cpu_best": round(max(cpu)),
        "cpu_median": round(statistics.median(cpu)),
        "wall_best": round(max(wall)),
        "wall_median": round(statistics.median(wall)),
    }


def per_call(size: int):  # type: ignore[no-untyped-def]
    """solr_text_signatures called on `size` texts at a time."""
    def run(texts: list[str]) -> None:
        for i in range(0, len(texts), size):
            tp.solr_text_signatures(texts[i : i + size])
    return run


def chunked(max_units: int):  # type: ignore[no-untyped-def]
    """The batch kernel with `max_units` code units per kernel call."""
    def run(texts: list[str]) -> None:
        tb.profile_bytes_batch(texts, tp.DEFAULT_QUANT_RATE, tp.DEFAULT_MIN_TOKEN_LEN, tp._profile_bytes, tp._quant,
                               max_units)
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--postings", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = ap.parse_args()

    gen = generate_postings(args.postings)
    gen_mixed = generate_postings(args.postings, seed=7, non_ascii=0.5)
    real = real_postings()
    assert tp.solr_text_signatures(gen[:200]) == reference_signatures(gen[:200])
    assert tp.solr_text_signatures(gen_mixed) == tp.solr_text_signatures_reference(gen_mixed)
    # warm the per-text path's token-hash cache on other postings of the same vocabulary, as a running
    # service would be (the batch kernel keeps no cache)
    tp.solr_text_signatures_reference(generate_postings(1000, seed=1))
    results = {
        "generated_en_ascii_batch": measure(tp.solr_text_signatures, gen, args.rounds),
        "generated_en_ascii_per_text": measure(tp.solr_text_signatures_reference, gen, args.rounds),
        "generated_en_mixed_batch": measure(tp.solr_text_signatures, gen_mixed, args.rounds),
        "generated_en_mixed_per_text": measure(tp.solr_text_signatures_reference, gen_mixed, args.rounds),
        "generated_en_floor_split_count": measure(floor_split_count, gen, args.rounds),
        "generated_en_reference": measure(reference_signatures, gen[: max(50, args.postings // 20)], 2),
    }
    if real:
        assert tp.solr_text_signatures(real) == tp.solr_text_signatures_reference(real)
        results["real_en_batch"] = measure(tp.solr_text_signatures, real, args.rounds)
        results["real_en_per_text"] = measure(tp.solr_text_signatures_reference, real, args.rounds)
        results["real_en_reference"] = measure(reference_signatures, real[:200], 2)
    for size in (1, 10, 100, 1000):
        if size < args.postings:
            results[f"generated_en_batch_{size}_per_call"] = measure(per_call(size), gen, max(1, args.rounds // 2))
    for units in (1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22):
        results[f"generated_en_batch_chunk_{units}_units"] = measure(chunked(units), gen, max(1, args.rounds // 2))
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"{'case':40s} {'n':>6s} {'chars':>6s} {'cpu best/s':>11s} {'cpu med/s':>10s} {'wall best/s':>12s}")
    for name, r in results.items():
        print(f"{name:40s} {r['postings']:6d} {r['avg_chars']:6d} {r['cpu_best']:11d} {r['cpu_median']:10d} "
              f"{r['wall_best']:12d}")


if __name__ == "__main__":
    main()
