"""Benchmark and output freeze for content extraction (`signatures.extract.extract`).

    python benchmarks/bench_extract.py FILE.jsonl ...                 # ms per posting, per file
    python benchmarks/bench_extract.py --prepare FILE.jsonl ...       # + the verifier's prepare on top
    python benchmarks/bench_extract.py --record /tmp/ex.pkl FILE ...  # freeze extract() output
    python benchmarks/bench_extract.py --check /tmp/ex.pkl FILE ...   # compare against a freeze

Inputs are postings files (JSON Lines), e.g. ../shared/data/*.jsonl or `jobdedup generate` output.
`--html` also runs every posting again with its description rendered as HTML (paragraphs, lists,
headings), so the HTML path is exercised on generated data. Timings: best of `--repeat` runs of
extract() over all postings of a file (one process, no workers), as process CPU time (robust on a
shared machine) and wall time. Prints one JSON line per file.
"""

from __future__ import annotations

import argparse
import dataclasses
import html
import pickle
import sys
import time
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from signatures.extract import Extracted, extract  # noqa: E402


def as_html(p: dict[str, Any]) -> dict[str, Any]:
    """The posting with its description as HTML: blank-line paragraphs -> <p>, bullet lines -> <li>,
    short lines ending in ':' -> <h3>; text is HTML-escaped."""
    blocks: list[str] = []
    for para in str(p.get("description") or "").split("\n\n"):
        lines = [ln for ln in para.split("\n") if ln.strip()]
        if not lines:
            continue
        if all(ln.startswith(("- ", "* ", "• ", "・")) for ln in lines):
            items = "".join(f"<li>{html.escape(ln[2:] if ln[1] == ' ' else ln[1:])}</li>" for ln in lines)
            blocks.append(f"<ul>{items}</ul>")
        elif len(lines) == 1 and len(lines[0]) < 40 and lines[0].endswith((":", "：")):
            blocks.append(f"<h3>{html.escape(lines[0])}</h3>")
        else:
            blocks.append("<p>" + "<br>".join(html.escape(ln) for ln in lines) + "</p>")
    return {**p, "id": f"{p['id']}-html", "description": "\n".join(blocks)}


def load(paths: list[str], with_html: bool, limit: int) -> dict[str, list[dict[str, Any]]]:
    """Postings per input name (file name, plus `name+html` with --html)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for path in paths:
        with open(path, "rb") as fh:
            posts = [orjson.loads(line) for line in fh if line.strip()]
        if limit:
            posts = posts[:limit]
        out[Path(path).name] = posts
        if with_html:
            out[Path(path).name + "+html"] = [as_html(p) for p in posts]
    return out


def row(e: Extracted) -> tuple:
    """All fields of an Extracted as plain tuples (comparable, picklable)."""
    return dataclasses.astuple(e)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--html", action="store_true", help="also run every posting as HTML")
    ap.add_argument("--limit", type=int, default=0, help="first N postings per file")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--prepare", action="store_true", help="also time the verifier's prepare (features.py)")
    ap.add_argument("--record", help="write extract() output of every posting to this pickle")
    ap.add_argument("--check", help="compare extract() output with this pickle (from --record)")
    args = ap.parse_args()

    sets = load(args.inputs, args.html, args.limit)
    if args.record or args.check:
        got = {name: [row(extract(p)) for p in posts] for name, posts in sets.items()}
        if args.record:
            Path(args.record).write_bytes(pickle.dumps(got, protocol=pickle.HIGHEST_PROTOCOL))
            print(f"recorded {sum(map(len, got.values()))} postings to {args.record}", file=sys.stderr)
        else:
            want = pickle.loads(Path(args.check).read_bytes())
            bad = 0
            for name, rows in got.items():
                if name not in want:
                    sys.exit(f"{name}: not in {args.check}")
                for p, a, b in zip(sets[name], rows, want[name], strict=True):
                    if a != b:
                        bad += 1
                        if bad <= 5:
                            diff = [f.name for f, x, y in zip(dataclasses.fields(Extracted), a, b, strict=True) if x != y]
                            print(f"DIFF {name} {p['id']}: {diff}", file=sys.stderr)
            print(f"checked {sum(map(len, got.values()))} postings: {bad} differ", file=sys.stderr)
            sys.exit(1 if bad else 0)
        return

    for name, posts in sets.items():
        best = wall = float("inf")
        extracted: list[Extracted] = []
        for _ in range(args.repeat):
            t, w = time.process_time(), time.perf_counter()
            extracted = [extract(p) for p in posts]
            best, wall = min(best, time.process_time() - t), min(wall, time.perf_counter() - w)
        res: dict[str, Any] = {"input": name, "postings": len(posts),
                               "extract_ms_per_posting": round(1000 * best / max(len(posts), 1), 3),
                               "extract_wall_ms_per_posting": round(1000 * wall / max(len(posts), 1), 3)}
        if args.prepare:
            from signatures.boilerplate import BoilerplateModel
            from signatures.decide import Verifier

            v = Verifier(BoilerplateModel.fit(extracted))
            pbest = float("inf")
            for _ in range(args.repeat):
                t = time.process_time()
                for e in extracted:
                    v.prepare(e)
                pbest = min(pbest, time.process_time() - t)
            res["prepare_ms_per_posting"] = round(1000 * pbest / max(len(posts), 1), 3)
        print(orjson.dumps(res).decode())


if __name__ == "__main__":
    main()
