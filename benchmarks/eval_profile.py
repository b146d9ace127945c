"""Quality of "equal signature => duplicate" on labeled pairs: profile_sig vs its previous version
(v1: title, company, description; whole title; any Han/kana -> CJK path) vs stock Solr.

    python benchmarks/eval_profile.py --data ../shared/data [--pairs DIR] [--split train] [--langs zh,ja,en]
    python benchmarks/eval_profile.py --data ../shared/data --split locked     # once, at the very end
    python benchmarks/eval_profile.py --data ../shared/data --ablations
    python benchmarks/eval_profile.py --data ../shared/data --jieba-agreement
    python benchmarks/eval_profile.py --synthetic 200 [--langs ja,zh]       # generated job-board classes

Pair sets (duplicate = FULL, SEMANTIC or TEMPORAL), only those of the chosen --split (default train;
the split is by employer cluster, see the pairs README):
* dev: labels/{lang}-dev-pairs.jsonl whose entry in DIR/{lang}-dev-split.jsonl has that split
  (locked dev pairs are never read; with --split locked the dev pairs are skipped);
* new: the blind-labeled DIR/{lang}-pairs.jsonl rows with that split.
DIR defaults to benchmarks/labels when it holds the files, else ../labeling/final next to --data's parent.
Per method and set: precision / recall of signature equality (and recall on FULL pairs alone). Then, over all postings of the file:
* collisions: how many postings share a signature, how many pairs collide, how many of those pairs are
  labeled duplicate / non-duplicate (chosen split only) or unlabeled with dissimilar descriptions
  (character 4-gram Jaccard < 0.5) - candidates for false merges;
* stress (from the chosen non-duplicate pairs): b given a's title and company, i.e. different jobs with
  identical titles sharing an employer's boilerplate; counted: how many still collide;
* robustness: the share of postings whose signature is unchanged when a site reformats the metadata
  (company removed or a company added; a site category appended to the title, in brackets or after a
  separator; a platform footer appended to the description). Generated strings, no posting text.
--ablations reruns zh/ja with one rule changed at a time (the evidence for the chosen rules).
--synthetic N: N generated job-board ad pairs per class (tests/jobboard.py, no posting text): the share
of pairs whose signatures are equal, per revision class of one ad (should be 1.0) and per class of
another ad from the same template (another store, employment type, occupation, shift: should be 0.0).
Reads data only from --data and DIR; nothing is written.
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


V1_FIELDS = ("title", "company", "description")
"""What profile_sig and Solr's `signature` signed before SIG_VERSION 2."""


def stock(posting: dict) -> str:
    """Solr's `signature` as the configset computed it before (TextProfileSignature over V1_FIELDS)."""
    return textprofile.solr_fields_signature(posting, V1_FIELDS)


def stock_now(posting: dict) -> str:
    """Solr's `signature` with the configset's fields now (profile.PROFILE_FIELDS)."""
    return textprofile.solr_fields_signature(posting, profile.PROFILE_FIELDS)


def _jsonl(path: Path) -> list[dict]:
    with open(path, "rb") as fh:
        return [orjson.loads(line) for line in fh if line.strip()]


def load_posts(data: Path, lang: str) -> dict[str, dict]:
    return {p["id"]: p for p in _jsonl(data / FILES[lang])}


def load(data: Path, lang: str) -> tuple[dict[str, dict], list[dict]]:
    """Postings and ALL dev pairs (for --ablations' history and --jieba-agreement only)."""
    return load_posts(data, lang), _jsonl(data / "labels" / f"{lang}-dev-pairs.jsonl")


def load_pair_sets(data: Path, pairs_dir: Path, lang: str, split: str) -> dict[str, list[dict]]:
    """{"dev": dev pairs of `split`, "new": new blind-labeled pairs of `split`}; pairs of any other
    split are dropped before anything reads their labels."""
    out: dict[str, list[dict]] = {}
    split_file = pairs_dir / f"{lang}-dev-split.jsonl"
    dev_file = pairs_dir / f"{lang}-dev-pairs.jsonl"  # benchmarks/labels: the dev pairs with their split
    if split != "locked" and dev_file.is_file():
        out["dev"] = [r for r in _jsonl(dev_file) if r.get("split") == split]
    elif split != "locked" and split_file.is_file():
        keep = {frozenset((r["a"], r["b"])) for r in _jsonl(split_file) if r["split"] == split}
        dev = _jsonl(data / "labels" / f"{lang}-dev-pairs.jsonl")
        out["dev"] = [r for r in dev if frozenset((r["a"], r["b"])) in keep]
    new_file = pairs_dir / f"{lang}-pairs.jsonl"
    if new_file.is_file():
        out["new"] = [r for r in _jsonl(new_file) if r.get("split") == split]
    return out


def default_pairs_dir(data: Path) -> Path:
    here = Path(__file__).resolve().parent / "labels"
    if any(here.glob("*-pairs.jsonl")):
        return here
    return data.resolve().parents[1] / "labeling" / "final"


_WS = re.compile(r"\s+")


def _grams(text: str) -> set[str]:
    t = _WS.sub("", text)
    return {t[i : i + 4] for i in range(len(t) - 3)}


def _pr(sigs: dict[str, str], pairs: list[dict]) -> tuple[int, int, int]:
    """(tp, fp, fn) of "equal signature => duplicate" over `pairs`."""
    tp = fp = fn = 0
    for pr in pairs:
        eq = sigs[pr["a"]] == sigs[pr["b"]]
        dup = pr["label"] in DUP_LABELS
        tp += eq and dup
        fp += eq and not dup
        fn += dup and not eq
    return tp, fp, fn


def _stress(posts: dict[str, dict], pairs: list[dict], sign: Signer) -> str:
    """Non-duplicate pairs (a, b) with b given a's title and company: how many still collide."""
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
    return f"{stress_coll}/{stress}"


# Site reformatting, generated (no posting text): categories appended to a title, a company filled in
# by one site, a platform footer appended to the description.
TITLE_TAGS = {
    "ja": (" ／ 営業職", "｜エンジニア", "【正社員】", " [Engineering]", "（事務・管理）", " - 販売・サービス"),
    "zh": ("｜技术类", "【研发】", " [Engineering]", " - 产品", " / 运营", "（全职）"),
    "en": (" [Engineering]", " | Sales", " - Full-time", " (Remote)", " / Operations", "【Engineering】"),
}
COMPANY = {"ja": "サンプル株式会社", "zh": "示例科技有限公司", "en": "Example Corp"}
FOOTER = {
    "ja": "\n\nこの求人情報は求人サイトに掲載されています。応募は下のボタンからどうぞ。求人番号 12345",
    "zh": "\n\n本职位信息由招聘平台发布，投递简历请点击下方按钮。职位编号 12345",
    "en": "\n\nPosted via an example board. Apply with one click below; reference 12345",
}


def robustness(posts: dict[str, dict], sigs: dict[str, str], sign: Signer, lang: str) -> dict[str, float]:
    """Share of postings whose signature survives each site reformatting (1.0 = fully robust)."""
    same: dict[str, int] = defaultdict(int)
    items = list(posts.items())
    for i, (k, p) in enumerate(items):
        q = dict(p)
        if q.get("company"):
            q.pop("company")
        else:
            q["company"] = COMPANY[lang]
        same["company"] += sign(q) == sigs[k]
        q = dict(p)
        q["title"] = str(p.get("title") or "") + TITLE_TAGS[lang][i % len(TITLE_TAGS[lang])]
        same["title_tag"] += sign(q) == sigs[k]
        q = dict(p)
        q["description"] = str(p.get("description") or "") + FOOTER[lang]
        same["footer"] += sign(q) == sigs[k]
    return {name: n / len(items) for name, n in same.items()}


def evaluate(
    posts: dict[str, dict], sets: dict[str, list[dict]], sign: Signer, lang: str, robust: bool = True
) -> dict[str, object]:
    t0 = time.perf_counter()
    sigs = {k: sign(p) for k, p in posts.items()}
    secs = time.perf_counter() - t0
    out: dict[str, object] = {"per_s": len(posts) / secs if secs else float("inf")}
    all_pairs = [pr for pairs in sets.values() for pr in pairs if pr["a"] in posts and pr["b"] in posts]
    for name, pairs in {**sets, "all": all_pairs}.items():
        out[name] = _pr(sigs, [pr for pr in pairs if pr["a"] in posts and pr["b"] in posts])
    full = [pr for pr in all_pairs if pr["label"] == "FULL"]
    out["full"] = (sum(sigs[pr["a"]] == sigs[pr["b"]] for pr in full), len(full))
    labels = {frozenset((pr["a"], pr["b"])): pr["label"] for pr in all_pairs}
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
    out.update(coll_posts=coll_posts, coll_pairs=coll, coll_dup=lab_dup, coll_non=lab_non,
               coll_dissimilar=dissimilar, stress=_stress(posts, all_pairs, sign))
    if robust:
        out["robust"] = robustness(posts, sigs, sign, lang)
    return out


def _fmt_pr(tp_fp_fn: tuple[int, int, int]) -> str:
    tp, fp, fn = tp_fp_fn
    p = f"{tp / (tp + fp):.3f}" if tp + fp else "  -  "
    r = f"{tp / (tp + fn):.3f}" if tp + fn else "  -  "
    return f"{p}/{r} {tp:3}/{fp:2}/{fn:3}"


HEADER = (
    f"{'lang':4} {'method':30} {'dev P/R':>11} {'TP/FP/FN':>10} | {'new P/R':>11} {'TP/FP/FN':>10} | "
    f"{'all P/R':>11} {'TP/FP/FN':>10} {'FULL R':>12} | {'coll.posts':>10} {'coll.pairs':>10} {'=dup':>4} {'=non':>4} "
    f"{'dissim':>6} | {'stress':>7} | {'company':>7} {'title+tag':>9} {'footer':>6} | {'post/s':>7}"
)


def row(lang: str, name: str, r: dict[str, object]) -> str:
    rob = r.get("robust") or {}
    cells = " | ".join(_fmt_pr(r[k]) if k in r else f"{'-':>22}" for k in ("dev", "new", "all"))
    hit, n_full = r["full"]  # type: ignore[misc]
    cells += f" {hit / n_full if n_full else float('nan'):5.3f} {hit:3}/{n_full:<3}"
    robust = (f"{rob['company']:7.3f} {rob['title_tag']:9.3f} {rob['footer']:6.3f}" if rob
              else f"{'':7} {'':9} {'':6}")
    return (
        f"{lang:4} {name:30} {cells} | {r['coll_posts']:>10} {r['coll_pairs']:>10} {r['coll_dup']:>4} "
        f"{r['coll_non']:>4} {r['coll_dissimilar']:>6} | {r['stress']:>7} | {robust} | {r['per_s']:7.0f}"
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
        ("company signed too", _with_company),
        ("whole title (no title_core)", _whole_title),
        ("any Han/kana: CJK path (share 0)", lambda: patched(profile, "CJK_MIN_SHARE", Fraction(0))),
        ("CJK path from share 0.2", lambda: patched(profile, "CJK_MIN_SHARE", Fraction(1, 5))),
        ("leading title tags dropped too", _leading_tags_too),
        ("numbers dropped from titles", lambda: _title_variant(lambda t: _TITLE_NUMBER.sub(" ", t))),
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

    texts = ["\n".join(str(p.get(f) or "") for f in V1_FIELDS) for p in posts.values()]
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


def _with_company() -> contextlib.AbstractContextManager:
    stack = contextlib.ExitStack()
    stack.enter_context(patched(profile, "PROFILE_FIELDS", V1_FIELDS))
    stack.enter_context(patched(profile, "_SORTED_FIELDS", tuple(sorted(V1_FIELDS))))
    return stack


def _whole_title() -> contextlib.AbstractContextManager:
    return patched(profile, "title_core", lambda title: title)


_LEADING_TAG = re.compile(r"\A\s*[\[［【〔〈《＜(（〖][^\]］】〕〉》＞)）〗]{1,20}[\]］】〕〉》＞)）〗]\s*")
_TITLE_NUMBER = re.compile(r"[A-Za-z0-9０-９Ａ-Ｚａ-ｚ.,]*[0-9０-９][A-Za-z0-9０-９Ａ-Ｚａ-ｚ.,]*")


def _title_variant(rule: Callable[[str], str]) -> contextlib.AbstractContextManager:
    """title_core with one more rule applied to the title first."""
    core = profile.title_core
    return patched(profile, "title_core", lambda title: core(rule(title)))


def _leading_tags_too() -> contextlib.AbstractContextManager:
    def strip(title: str) -> str:
        rest = _LEADING_TAG.sub("", title)
        return rest if len(re.findall(r"[^\W_]", rest)) >= 2 else title

    return _title_variant(strip)


def _v1() -> contextlib.AbstractContextManager:
    stack = contextlib.ExitStack()
    stack.enter_context(_with_company())
    stack.enter_context(_whole_title())
    stack.enter_context(patched(profile, "CJK_MIN_SHARE", Fraction(0)))
    return stack


def profile_sig_v1(posting: dict) -> str:
    """profile_sig before SIG_VERSION 2: title, company, description; the whole title; any Han/kana
    puts a posting on the CJK path."""
    with _v1():
        return profile.posting_profile_signature(posting)


def synthetic(n: int, langs: list[str]) -> None:
    """Per class of tests/jobboard.py: the share of `n` generated pairs whose signatures are equal."""
    from tests import jobboard

    methods: list[tuple[str, Signer]] = [("profile_sig", _profile_sig), ("Solr signature now", stock_now)]
    classes = jobboard.SAME_CLASSES + jobboard.APART_CLASSES
    print(f"{'lang':4} {'method':20} " + " ".join(f"{c[:11]:>11}" for c in classes)
          + f" | {'same':>5} {'apart':>5}")
    for lang in langs:
        pairs = jobboard.class_pairs(lang, n)
        for name, sign in methods:
            share = {c: sum(sign(a) == sign(b) for a, b in pairs[c]) / n for c in classes}
            same = sum(share[c] for c in jobboard.SAME_CLASSES) / len(jobboard.SAME_CLASSES)
            apart = sum(share[c] for c in jobboard.APART_CLASSES) / len(jobboard.APART_CLASSES)
            print(f"{lang:4} {name:20} " + " ".join(f"{share[c]:11.3f}" for c in classes)
                  + f" | {same:5.3f} {apart:5.3f}")
    print("Share of pairs with equal signatures; revision classes (the same ad, FULL/TEMPORAL) first, then "
          "another ad of one template (PARTIAL): store, employment, occupation, shift. same / apart: the "
          "mean over each group (1.0 / 0.0 is ideal).")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    ap.add_argument("--pairs", type=Path, default=None, help="labeled pairs directory (see above)")
    ap.add_argument("--split", default="train", help="pairs of this split only (train; locked at the end)")
    ap.add_argument("--langs", default="zh,ja,en")
    ap.add_argument(
        "--ablations", action="store_true", help="also rerun zh/ja with one rule changed at a time"
    )
    ap.add_argument(
        "--jieba-agreement", action="store_true", help="only: rjieba vs jieba tokens on zh postings"
    )
    ap.add_argument("--synthetic", type=int, default=0, metavar="N",
                    help="only: N generated job-board pairs per class (tests/jobboard.py)")
    args = ap.parse_args(argv)
    if args.synthetic:
        synthetic(args.synthetic, [x.strip() for x in args.langs.split(",") if x.strip() in ("ja", "zh")])
        return 0
    if not (args.data / "labels").is_dir():
        print(f"no labeled data under {args.data}", file=sys.stderr)
        return 2
    if args.jieba_agreement:
        jieba_agreement(load_posts(args.data, "zh"))
        return 0
    pairs_dir = args.pairs or default_pairs_dir(args.data)
    langs = [x.strip() for x in args.langs.split(",") if x.strip()]
    print(f"pairs: {pairs_dir}, split {args.split!r}")
    print(HEADER)
    for lang in langs:
        posts = load_posts(args.data, lang)
        sets = load_pair_sets(args.data, pairs_dir, lang, args.split)
        sizes = ", ".join(f"{k} {len(v)} ({sum(r['label'] in DUP_LABELS for r in v)} dup)" for k, v in sets.items())
        print(f"{lang:4}   pairs: {sizes}")
        print(row(lang, "Solr signature v1 (+company)", evaluate(posts, sets, stock, lang)))
        print(row(lang, "Solr signature now", evaluate(posts, sets, stock_now, lang)))
        print(row(lang, "profile_sig v1", evaluate(posts, sets, profile_sig_v1, lang)))
        print(row(lang, "profile_sig", evaluate(posts, sets, _profile_sig, lang)))
        same = sum(_profile_sig(p) == stock_now(p) for p in posts.values())
        print(f"{lang:4}   profile_sig == Solr signature on {same}/{len(posts)} postings")
        if args.ablations and lang in ("zh", "ja"):
            for name, ctx in ablations():
                if "zh only" in name and lang != "zh":
                    continue
                with ctx():
                    print(row(lang, "  " + name, evaluate(posts, sets, _profile_sig, lang, robust=False)))
    print(
        "P/R: signature equality on the pairs of the split (dup = FULL/SEMANTIC/TEMPORAL), TP/FP/FN counts; "
        "FULL R: recall on the pairs labeled FULL alone (the same ad; a reworded one is not expected to match). "
        "coll.*: all postings of the file; =dup/=non: colliding pairs labeled dup/non-dup; dissim: unlabeled "
        "colliding pairs with description 4-gram Jaccard < 0.5. stress: non-dup pairs given identical "
        "title+company that still collide. company / title+tag / footer: share of postings whose signature "
        "is unchanged by that site reformatting. post/s includes one-off dictionary loading."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
