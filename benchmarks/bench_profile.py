"""Throughput of profile_sig (posting_profile_signature) on real postings, one process, one core.

    python benchmarks/bench_profile.py [--data ../shared/data] [--langs zh,ja,en] [--repeat 5]

Per language: postings/s over the whole file, best and median of --repeat passes, dictionaries
loaded beforehand. Chinese also with the pure-Python jieba reference segmenter (same words).
Japanese twice: "cold" = the per-run word cache emptied before every pass (every phrase parsed by
MeCab once per pass; repeats inside the file still hit), "warm" = cache kept across passes (a stream
in which the phrases were seen before, as with reposts). "reference" lines: the tokenizer alone on
the same texts in the same run (the ceiling; also a yardstick when the machine is busy).
"""

from __future__ import annotations

import argparse
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


def passes(
    postings: list[dict],
    repeat: int,
    before: Callable[[], None] = lambda: None,
    work: Callable[[list[dict]], object] = profile.posting_profile_signatures,
) -> list[float]:
    rates = []
    for _ in range(repeat):
        before()
        t0 = time.perf_counter()
        work(postings)
        rates.append(len(postings) / (time.perf_counter() - t0))
    return rates


def _texts(postings: list[dict]) -> list[str]:
    return ["\n".join(str(p.get(f) or "") for f in profile.PROFILE_FIELDS) for p in postings]


def report(lang: str, name: str, postings: list[dict], rates: list[float]) -> None:
    size = sum(len("".join(str(p.get(f) or "") for f in profile.PROFILE_FIELDS).encode()) for p in postings)
    print(
        f"{lang:3} {name:34} {len(postings):5} postings, {size / len(postings) / 1000:4.2f} KB avg: "
        f"best {max(rates):8.0f}/s  median {statistics.median(rates):8.0f}/s"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    ap.add_argument("--langs", default="zh,ja,en")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    for lang in [x.strip() for x in args.langs.split(",") if x.strip()]:
        postings = load(args.data / FILES[lang])
        profile.posting_profile_signatures(postings[:20])  # load dictionaries
        if lang == "zh":
            report(lang, "profile_sig (rjieba)", postings, passes(postings, args.repeat))
            fast = segment.get_segmenter("zh")
            texts = _texts(postings)
            raw = passes(postings, args.repeat, work=lambda _, f=fast.cut, ts=texts: [f(t) for t in ts])
            report(lang, "  reference: rjieba cut alone", postings, raw)
            segment._INSTANCES["zh"] = segment.get_segmenter("zh-jieba")
            try:
                report(
                    lang,
                    "profile_sig (pure-Python jieba)",
                    postings,
                    passes(postings, max(1, args.repeat // 2)),
                )
            finally:
                segment._INSTANCES["zh"] = fast
        elif lang == "ja":
            seg = segment.get_segmenter("ja")
            clear = seg._run_words.cache_clear  # type: ignore[attr-defined]
            report(lang, "profile_sig cold run cache", postings, passes(postings, args.repeat, clear))
            report(lang, "profile_sig warm run cache", postings, passes(postings, args.repeat))
            texts = _texts(postings)
            parse = seg._tagger.parse  # type: ignore[attr-defined]
            raw = passes(postings, args.repeat, work=lambda _, f=parse, ts=texts: [f(t) for t in ts])
            report(lang, "  reference: MeCab parse alone", postings, raw)
        else:
            report(lang, "profile_sig (= Solr signature)", postings, passes(postings, args.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
