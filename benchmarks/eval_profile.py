"""Quality of "equal signature => duplicate" on the labeled dev pairs: profile_sig vs stock Solr.

    python benchmarks/eval_profile.py [--data ../shared/data] [--langs zh,ja,en] [--ablations]
    python benchmarks/eval_profile.py --jieba-agreement

For each language: precision / recall of signature equality on labels/{lang}-dev-pairs.jsonl
(duplicate = FULL, SEMANTIC or TEMPORAL), for our `profile_sig` and for stock TextProfileSignature
(SignatureUpdateProcessorFactory over title, company, description). Then two precision views:
* all postings of the file: how many postings share a signature, how many pairs collide, how many of
  those pairs are labeled duplicate / labeled non-duplicate / unlabeled, and how many colliding pairs
  have dissimilar descriptions (character 4-gram Jaccard < 0.5) - candidates for false merges;
* stress (generated from the dev pairs): every non-duplicate pair (a, b) with b given a's title and
  company, i.e. different jobs with identical titles sharing an employer's boilerplate; counted:
  how many still collide.
--ablations reruns zh/ja with one rule changed at a time (the evidence for the chosen rules).
Reads data only from --data; nothing is written.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from signatures import profile, segment, textprofile  # noqa: E402
from signatures.segment_zh import RJiebaSegmenter  # noqa: E402

FILES = {"zh": "zh-rebase-hiring.jsonl", "ja": "ja-postings.jsonl", "en": "en-hn-hiring.jsonl"}
DUP_LABELS = {"FULL", "SEMANTIC", "TEMPORAL"}
Signer = Callable[[dict], str]


def stock(posting: dict) -> str:
    """Solr's `signature` over the same fields (TextProfileSignature, quantRate 0.01, minTokenLen 2)."""
    return textprofile.solr_fields_signature(posting, profile.PROFILE_FIELDS)


def load(data: Path, lang: str) -> tuple[dict[str, dict], list[dict]]:
    posts = {}
    with open(data / FILES[lang], "rb") as fh:
        for line in fh:
            if line.strip():
                p = orjson.loads(line)
                posts[p["id"]] = p
    with open(data / "labels" / f"{lang}-dev-pairs.jsonl", "rb") as fh:
        pairs = [orjson.loads(line) for line in fh if line.strip()]
    return posts, pairs


_WS = re.compile(r"\s+")


def _grams(text: str) -> set[str]:
    t = _WS.sub("", text)
    return {t[i : i + 4] for i in range(len(t) - 3)}


def evaluate(posts: dict[str, dict], pairs: list[dict], sign: Signer) -> dict[str, object]:
    t0 = time.perf_counter()
    sigs = {k: sign(p) for k, p in posts.items()}
    secs = time.perf_counter() - t0
    tp = fp = fn = tn = 0
    labels: dict[frozenset[str], str] = {}
    for pr in pairs:
        labels[frozenset((pr["a"], pr["b"]))] = pr["label"]
        eq = sigs[pr["a"]] == sigs[pr["b"]]
        dup = pr["label"] in DUP_LABELS
        tp += eq and dup
        fp += eq and not dup
        fn += dup and not eq
        tn += not eq and not dup
    groups: dict[str, list[str]] = defaultdict(list)
    for k, s in sigs.items():
        groups[s].append(k)
    coll_posts = sum(len(g) for g in groups.values() if len(g) > 1)
    coll = lab_dup = lab_non = dissimilar = 0
    for g in groups.values():
        for a, b in itertools.combinations(g, 2):
            coll += 1
            lab = labels.get(frozenset((a, b)))
            if lab is not None:
                lab_dup += lab in DUP_LABELS
                lab_non += lab not in DUP_LABELS
            else:
                ga = _grams(str(posts[a].get("description") or ""))
                gb = _grams(str(posts[b].get("description") or ""))
                if len(ga & gb) < 0.5 * max(1, len(ga | gb)):
                    dissimilar += 1
    stress = stress_coll = 0
    for pr in pairs:
        if pr["label"] in DUP_LABELS:
            continue
        a, b = posts[pr["a"]], dict(posts[pr["b"]])
        if a.get("description") == b.get("description"):
            continue
        for f in ("title", "company"):
            if f in a:
                b[f] = a[f]
            else:
                b.pop(f, None)
        stress += 1
        stress_coll += sign(a) == sign(b)
    return {
        "P": tp / (tp + fp) if tp + fp else float("nan"),
        "R": tp / (tp + fn) if tp + fn else float("nan"),
        "tp": tp, "fp": fp, "fn": fn, "tn": tn,
        "postings": len(posts), "coll_posts": coll_posts, "coll_pairs": coll,
        "coll_dup": lab_dup, "coll_non": lab_non, "coll_dissimilar": dissimilar,
        "stress": f"{stress_coll}/{stress}",
        "per_s": len(posts) / secs if secs else float("inf"),
    }  # fmt: skip


HEADER = (
    f"{'lang':4} {'method':34} {'P':>6} {'R':>6} {'TP':>3} {'FP':>3} {'FN':>3} | {'coll.posts':>10} "
    f"{'coll.pairs':>10} {'=dup':>4} {'=non':>4} {'dissim':>6} | {'stress':>7} | {'post/s':>7}"
)


def row(lang: str, name: str, r: dict[str, object]) -> str:
    return (
        f"{lang:4} {name:34} {r['P']:6.3f} {r['R']:6.3f} {r['tp']:3} {r['fp']:3} {r['fn']:3} | "
        f"{r['coll_posts']:>10} {r['coll_pairs']:>10} {r['coll_dup']:>4} {r['coll_non']:>4} "
        f"{r['coll_dissimilar']:>6} | {r['stress']:>7} | {r['per_s']:7.0f}"
    )


# --- ablations: one rule changed at a time ---------------------------------------------------------


@contextlib.contextmanager
def patched(obj: object, name: str, value: object) -> Iterator[None]:
    old = getattr(obj, name)
    setattr(obj, name, value)
    try:
        yield
    finally:
        setattr(obj, name, old)


def _stock_quant_profile(tokens, quant_rate=Fraction(1, 100)) -> str:  # noqa: ANN001
    """Stock quant rule (quant >= 2 once any token repeats) on segmented words, for the ablation."""
    from collections import Counter

    counts = Counter(tokens)
    if not counts:
        return ""
    mx = max(counts.values())
    q = max(int(mx * quant_rate + Fraction(1, 2)), 2 if mx > 1 else 1)
    kept = sorted(((k, c // q * q) for k, c in counts.items() if c >= q), key=lambda kc: (-kc[1], kc[0]))
    return "\n".join(f"{k} {c}" for k, c in kept)


def ablations() -> list[tuple[str, Callable[[], contextlib.AbstractContextManager]]]:
    out: list[tuple[str, Callable[[], contextlib.AbstractContextManager]]] = [
        ("stock quant (>=2), quantRate 0.01", lambda: patched(profile, "cjk_profile", _stock_quant_profile)),
        ("CJK words from 1 char", lambda: patched(profile, "CJK_MIN_WORD_LEN", 1)),
        ("keep URLs / e-mails", lambda: patched(profile, "strip_contacts", lambda t: t)),
    ]
    for rate in (Fraction(1, 10), Fraction(2, 10), Fraction(3, 10), Fraction(1, 2), Fraction(6, 10)):
        out.append(
            (f"quant rate {float(rate):.2f}", lambda rate=rate: patched(profile, "CJK_QUANT_RATE", rate))
        )

    @contextlib.contextmanager
    def hmm_on() -> Iterator[None]:
        old = segment._INSTANCES.get("zh")
        segment._INSTANCES["zh"] = RJiebaSegmenter(hmm=True)
        try:
            yield
        finally:
            if old is None:
                segment._INSTANCES.pop("zh", None)
            else:
                segment._INSTANCES["zh"] = old

    out.append(("jieba HMM on (zh only)", hmm_on))
    return out


def jieba_agreement(posts: dict[str, dict]) -> None:
    """Token-level agreement of jieba-rs (rjieba) with jieba 0.42.1 on the real Chinese postings:
    whole texts vs the pure-Han runs profile_sig segments, HMM off and on."""
    import difflib

    from signatures import script
    from signatures.segment_zh import JiebaSegmenter

    texts = ["\n".join(str(p.get(f) or "") for f in profile.PROFILE_FIELDS) for p in posts.values()]
    for hmm in (False, True):
        fast, ref = RJiebaSegmenter(hmm=hmm), JiebaSegmenter(hmm=hmm)
        for unit in ("whole text", "CJK runs (profile_sig)"):
            total = same = differing = 0
            example = ""
            for t in texts:
                if unit == "whole text":
                    a, b = ref.cut(t), fast.cut(t)
                else:
                    runs = script.CJK_RE.findall(t)
                    a, b = ref.words(runs), fast.words(runs)
                total += max(len(a), len(b))
                if a == b:
                    same += len(a)
                    continue
                differing += 1
                sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
                same += sum(m.size for m in sm.get_matching_blocks())
                if not example:
                    op = next(o for o in sm.get_opcodes() if o[0] != "equal")
                    example = f" e.g. jieba {a[op[1] : op[2]]} vs rjieba {b[op[3] : op[4]]}"
            print(
                f"zh   rjieba vs jieba, HMM {'on ' if hmm else 'off'}, {unit:23}: {total:7} tokens, "
                f"agreement {same / total:.4%}, postings differing {differing}/{len(texts)}{example}"
            )


def _profile_sig(posting: dict) -> str:
    # late binding, so ablation patches of module attributes take effect
    return profile.posting_profile_signature(posting)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    ap.add_argument("--langs", default="zh,ja,en")
    ap.add_argument(
        "--ablations", action="store_true", help="also rerun zh/ja with one rule changed at a time"
    )
    ap.add_argument(
        "--jieba-agreement", action="store_true", help="only: rjieba vs jieba tokens on zh postings"
    )
    args = ap.parse_args(argv)
    if not (args.data / "labels").is_dir():
        print(f"no labeled data under {args.data}", file=sys.stderr)
        return 2
    if args.jieba_agreement:
        jieba_agreement(load(args.data, "zh")[0])
        return 0
    langs = [x.strip() for x in args.langs.split(",") if x.strip()]
    print(HEADER)
    for lang in langs:
        posts, pairs = load(args.data, lang)
        print(row(lang, "stock TextProfileSignature", evaluate(posts, pairs, stock)))
        print(row(lang, "profile_sig", evaluate(posts, pairs, _profile_sig)))
        same = sum(_profile_sig(p) == stock(p) for p in posts.values())
        print(f"{lang:4}   profile_sig == stock signature on {same}/{len(posts)} postings")
        if args.ablations and lang in ("zh", "ja"):
            for name, ctx in ablations():
                if "zh only" in name and lang != "zh":
                    continue
                with ctx():
                    print(row(lang, "  " + name, evaluate(posts, pairs, _profile_sig)))
    print(
        "P/R: signature equality on dev pairs (dup = FULL/SEMANTIC/TEMPORAL). coll.*: all postings of the "
        "file; =dup/=non: colliding pairs labeled dup/non-dup; dissim: unlabeled colliding pairs with "
        "description 4-gram Jaccard < 0.5. stress: non-dup pairs given identical title+company that still "
        "collide. post/s includes one-off dictionary loading."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
