"""What the learning journal costs: learning generated postings into the boilerplate model in batches, in
memory only vs. journaled (service.journal: per batch an fsynced write intent before the Solr write and the
fsynced records after it).

    python benchmarks/bench_journal.py [-n 3000] [--batch 100]

Prints one JSON line: postings learned per second each way and the extra milliseconds per batch (the
journal's fsync depends on the disk under the temporary directory).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.ingest import extract_postings  # noqa: E402
from service.state import BoilerplateState  # noqa: E402
from service.synth import generate  # noqa: E402


def learn(exs: list, batch: int, path: Path | None) -> float:
    """Seconds to journal (when `path`) and learn `exs` in batches, as the ingest path does."""
    state = BoilerplateState(path)
    t0 = time.perf_counter()
    for i in range(0, len(exs), batch):
        chunk = exs[i:i + batch]
        state.intend((ex.id, "0", ex) for ex in chunk)  # before the Solr write
        state.add(state.journal(chunk))                 # after it
    seconds = time.perf_counter() - t0
    state.close()
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=100)
    args = ap.parse_args()
    exs = extract_postings(list(generate(args.n, seed=1)))
    with tempfile.TemporaryDirectory() as d:
        memory = learn(exs, args.batch, None)
        journaled = learn(exs, args.batch, Path(d) / "c" / "boilerplate.jdbp")
    batches = -(-len(exs) // args.batch)
    print(orjson.dumps({"postings": len(exs), "batch": args.batch,
                        "memory_per_s": round(len(exs) / memory), "journaled_per_s": round(len(exs) / journaled),
                        "extra_ms_per_batch": round((journaled - memory) / batches * 1000, 2)}).decode())


if __name__ == "__main__":
    main()
