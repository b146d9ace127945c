"""Time the verifier's batch path (`Verifier.decide_many`: features, model, reasons) on random pairs of one file.

    PYTHONPATH=. python benchmarks/bench_verifier.py ../shared/data/en-hn-hiring.jsonl --pairs 20000
    PYTHONPATH=/other/checkout python benchmarks/bench_verifier.py FILE      # the same on another version

Prints one JSON line: pairs, seconds for feature_matrix alone and for decide_many (best of --repeat, CPU time).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import orjson

from signatures.boilerplate import BoilerplateModel
from signatures.decide import Verifier
from signatures.extract import extract
from signatures.features import feature_matrix


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input")
    ap.add_argument("--pairs", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with open(args.input, "rb") as fh:
        postings = [orjson.loads(line) for line in fh if line.strip()]
    exs = [extract(p) for p in postings]
    v = Verifier(BoilerplateModel.fit(postings))
    prep = [v.prepare(e) for e in exs]
    rng = np.random.default_rng(0)
    ij = rng.integers(0, len(prep), (args.pairs, 2))
    pairs = [(prep[i], prep[j]) for i, j in ij if i != j]
    best_f = best_d = float("inf")
    for _ in range(args.repeat):
        t = time.process_time()
        feature_matrix(pairs)
        best_f = min(best_f, time.process_time() - t)
        t = time.process_time()
        v.decide_many(pairs)
        best_d = min(best_d, time.process_time() - t)
    print(json.dumps({"input": args.input, "pairs": len(pairs), "feature_matrix_s": round(best_f, 3),
                      "decide_many_s": round(best_d, 3), "us_per_pair": round(best_d / len(pairs) * 1e6, 1)}))


if __name__ == "__main__":
    main()
