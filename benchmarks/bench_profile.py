"""Throughput of profile_sig (posting_profile_signatures) per core, with its floors in the same run.

    python benchmarks/bench_profile.py [--data ../shared/data] [--langs zh,ja,en] [--repeat 5]
                                       [--workers 2] [--root PATH]

Rates are postings per CPU-second of this process (time.process_time, ns resolution: what one core
does, less sensitive to other work on a shared machine than wall time; the machine's speed still
varies, so compare lines of one run), best and median of --repeat passes over the whole file,
dictionaries loaded beforehand. Real postings from --data when present, else generated ones
(service.synth). Lines:

* zh: profile_sig; "floor: rjieba cut of the Han runs" = the segmenter alone on exactly the text
  profile_sig hands it (no caching for Chinese: new text and real data take the same path).
* ja, three cache states of the per-run word cache: "new text" = cache off (every CJK run parsed: text
  never seen before), "real data, first sight" = cache emptied before each pass (repeats inside the
  file hit, as in a stream), "real data, warm" = cache kept (reposts). Floors: "MeCab parse of the
  runs" = the segmenter's own MeCab call on every run (what new text costs before any Python work),
  "raw MeCab ceiling" = MeCab with wakati output (lattice + Viterbi, minimal formatting) on the same
  runs: no MeCab-based profile_sig can beat it on new text.
* en: profile_sig (= Solr's signature).
* --workers N > 1: the batch API's process pool (CPU = this process + its children, wall clock).
* --root PATH: import `signatures` from another checkout (e.g. an older commit unpacked with
  `git archive`) to time a before/after pair on the same machine state.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
FILES = {"zh": "zh-rebase-hiring.jsonl", "ja": "ja-postings.jsonl", "en": "en-hn-hiring.jsonl"}


def load(data: Path, lang: str) -> tuple[list[dict], str]:
    """Real postings of `lang`, else 1,000 generated ones."""
    path = data / FILES[lang]
    if path.exists():
        with open(path, "rb") as fh:
            return [orjson.loads(line) for line in fh if line.strip()], path.name
    sys.path.insert(1, str(ROOT))
    from service import synth

    return list(synth.generate(1000, lang=lang, seed=1)), "generated"


def _cpu(children: bool) -> float:
    if not children:
        return time.process_time()
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + ru.ru_utime + ru.ru_stime


def passes(
    n: int,
    repeat: int,
    work: Callable[[], object],
    before: Callable[[], None] = lambda: None,
    children: bool = False,
) -> tuple[list[float], list[float]]:
    """(items per CPU-second, items per wall-second) of each pass."""
    cpu, wall = [], []
    for _ in range(repeat):
        before()
        c0, w0 = _cpu(children), time.perf_counter()
        work()
        c1, w1 = _cpu(children), time.perf_counter()
        cpu.append(n / max(c1 - c0, 1e-9))
        wall.append(n / (w1 - w0))
    return cpu, wall


def report(lang: str, name: str, n: int, kb: float, rates: tuple[list[float], list[float]]) -> None:
    cpu, wall = rates
    print(
        f"{lang:3} {name:42} {n:5} postings, {kb:4.2f} KB avg: CPU best {max(cpu):7.0f}/s "
        f"median {statistics.median(cpu):7.0f}/s | wall best {max(wall):7.0f}/s median {statistics.median(wall):7.0f}/s",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--langs", default="zh,ja,en")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--workers", type=int, default=1, help="also time the process pool (1 = skip)")
    ap.add_argument("--root", type=Path, default=ROOT, help="checkout whose `signatures` is timed")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(args.root.resolve()))
    from signatures import profile, script, segment

    print(f"signatures from {Path(profile.__file__).parent}", flush=True)
    for lang in [x.strip() for x in args.langs.split(",") if x.strip()]:
        postings, source = load(args.data, lang)
        n = len(postings)
        texts = [
            str(p.get(f) or "") for p in postings for f in profile.PROFILE_FIELDS if isinstance(p.get(f), str)
        ]
        kb = sum(len(t.encode()) for t in texts) / n / 1000
        sign = profile.posting_profile_signatures
        sign(postings[:20])  # load dictionaries
        run = lambda sign=sign, postings=postings: sign(postings)  # noqa: E731
        clear: Callable[[], None] = lambda: None  # noqa: E731
        print(f"{lang}: {source}", flush=True)
        if lang == "zh":
            report(lang, "profile_sig", n, kb, passes(n, args.repeat, run))
            cut = segment.get_segmenter("zh").cut  # type: ignore[attr-defined]
            han = [" ".join(script.CJK_RE.findall(t)) for t in texts]
            report(
                lang,
                "  floor: rjieba cut of the Han runs",
                n,
                kb,
                passes(n, args.repeat, lambda cut=cut, han=han: [cut(h) for h in han]),
            )
        elif lang == "ja":
            seg = segment.get_segmenter("ja")
            clear = seg.cache_clear  # type: ignore[attr-defined]
            size = getattr(seg, "cache_runs", None)
            if size is not None:
                seg.cache_runs = 0  # type: ignore[attr-defined]
                report(
                    lang, "profile_sig new text (run cache off)", n, kb, passes(n, args.repeat, run, clear)
                )
                seg.cache_runs = size  # type: ignore[attr-defined]
            report(lang, "profile_sig real data, first sight", n, kb, passes(n, args.repeat, run, clear))
            report(lang, "profile_sig real data, warm cache", n, kb, passes(n, args.repeat, run))
            runs = [r for t in texts for r in script.CJK_RE.findall(t) if len(r) >= profile.CJK_MIN_WORD_LEN]
            parse = seg._parse  # type: ignore[attr-defined]
            report(
                lang,
                "  floor: MeCab parse of the runs",
                n,
                kb,
                passes(n, args.repeat, lambda parse=parse, runs=runs: [parse(r) for r in runs]),
            )
            import shlex

            import fugashi
            import unidic_lite

            d = unidic_lite.DICDIR
            wakati = fugashi.GenericTagger(
                f"-d {shlex.quote(d)} -r {shlex.quote(d + '/mecabrc')} -Owakati"
            ).parse
            report(
                lang,
                "  raw MeCab ceiling (wakati, same runs)",
                n,
                kb,
                passes(n, args.repeat, lambda wakati=wakati, runs=runs: [wakati(r) for r in runs]),
            )
        else:
            report(lang, "profile_sig (= Solr signature)", n, kb, passes(n, args.repeat, run))
        if args.workers > 1:
            big = postings * max(1, -(-2000 // n))
            pool = passes(
                len(big),
                max(1, args.repeat // 2),
                lambda w=args.workers, b=big, sign=sign: sign(b, workers=w),
                clear,
                children=True,
            )
            report(lang, f"  batch API, {args.workers} worker processes", len(big), kb, pool)
    return 0


if __name__ == "__main__":
    sys.exit(main())
