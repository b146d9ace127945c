"""Throughput of profile_sig (posting_profile_signatures) on real postings.

    python benchmarks/bench_profile.py [--data ../shared/data] [--langs zh,ja,en] [--repeat 5] [--workers 2]

Per language and pass over the whole file: postings per CPU-second of this process
(time.process_time: what one core does, less sensitive to other work on a shared machine) and
postings per wall-clock second; best and median of --repeat passes, dictionaries loaded beforehand.
Japanese twice: "cold" = the per-run word cache emptied before every pass (every phrase parsed by
MeCab once per pass; repeats inside the file still hit), "warm" = cache kept across passes (a stream
in which the phrases were seen before, as with reposts). "reference" lines: the tokenizer alone on
the same texts in the same run (a yardstick when the machine is busy). With --workers N > 1 the
batch API's process pool is timed too (wall clock; CPU = this process + its children); each pass
is the file repeated to at least 2,000 postings, and the pool starts afresh every pass.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from signatures import profile, segment  # noqa: E402

FILES = {"zh": "zh-rebase-hiring.jsonl", "ja": "ja-postings.jsonl", "en": "en-hn-hiring.jsonl"}


def load(path: Path) -> list[dict]:
    with open(path, "rb") as fh:
        return [orjson.loads(line) for line in fh if line.strip()]


def _cpu() -> float:
    """CPU seconds of this process and its waited-for children (pool workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def passes(
    postings: list[dict],
    repeat: int,
    before: Callable[[], None] = lambda: None,
    work: Callable[[list[dict]], object] = profile.posting_profile_signatures,
) -> tuple[list[float], list[float]]:
    """(postings per CPU-second, postings per wall-second) of each pass."""
    cpu, wall = [], []
    for _ in range(repeat):
        before()
        c0, w0 = _cpu(), time.perf_counter()
        work(postings)
        c1, w1 = _cpu(), time.perf_counter()
        cpu.append(len(postings) / max(c1 - c0, 1e-9))
        wall.append(len(postings) / (w1 - w0))
    return cpu, wall


def _texts(postings: list[dict]) -> list[str]:
    return ["\n".join(str(p.get(f) or "") for f in profile.PROFILE_FIELDS) for p in postings]


def report(lang: str, name: str, postings: list[dict], rates: tuple[list[float], list[float]]) -> None:
    size = sum(len("".join(str(p.get(f) or "") for f in profile.PROFILE_FIELDS).encode()) for p in postings)
    cpu, wall = rates
    print(
        f"{lang:3} {name:34} {len(postings):5} postings, {size / len(postings) / 1000:4.2f} KB avg: "
        f"CPU best {max(cpu):7.0f}/s median {statistics.median(cpu):7.0f}/s | "
        f"wall best {max(wall):7.0f}/s median {statistics.median(wall):7.0f}/s",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    ap.add_argument("--langs", default="zh,ja,en")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--workers", type=int, default=2, help="also time the process pool (1 = skip)")
    args = ap.parse_args(argv)
    for lang in [x.strip() for x in args.langs.split(",") if x.strip()]:
        postings = load(args.data / FILES[lang])
        profile.posting_profile_signatures(postings[:20])  # load dictionaries
        texts = _texts(postings)
        clear: Callable[[], None] = lambda: None  # noqa: E731
        if lang == "zh":
            report(lang, "profile_sig (rjieba)", postings, passes(postings, args.repeat))
            cut = segment.get_segmenter("zh").cut  # type: ignore[attr-defined]
            raw = passes(postings, args.repeat, work=lambda _, f=cut, ts=texts: [f(t) for t in ts])
            report(lang, "  reference: rjieba cut alone", postings, raw)
        elif lang == "ja":
            seg = segment.get_segmenter("ja")
            clear = seg.cache_clear  # type: ignore[attr-defined]
            report(lang, "profile_sig cold run cache", postings, passes(postings, args.repeat, clear))
            report(lang, "profile_sig warm run cache", postings, passes(postings, args.repeat))
            parse = seg._parse  # type: ignore[attr-defined]
            raw = passes(postings, args.repeat, work=lambda _, f=parse, ts=texts: [f(t) for t in ts])
            report(lang, "  reference: MeCab parse alone", postings, raw)
        else:
            report(lang, "profile_sig (= Solr signature)", postings, passes(postings, args.repeat))
        if args.workers > 1:
            pool = passes(
                postings,
                max(1, args.repeat // 2),
                clear,
                work=lambda ps, n=args.workers: profile.posting_profile_signatures(ps, workers=n),
            )
            report(lang, f"  batch API, {args.workers} worker processes", postings, pool)
    return 0


if __name__ == "__main__":
    sys.exit(main())
