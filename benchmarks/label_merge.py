"""Merge blind labeling passes into one labeled pair file per language, and report agreement.

Every pair is labeled by two labelers independently (passes 1 and 2); where they disagree, a third
(pass 3) decides; until then a pair whose labels differ on duplicate-or-not is left out. A pair with one pass only keeps that label and says so
(`"labelers": 1`). Agreement is reported on pairs with two labels: the five-way label and the binary
duplicate decision (FULL/SEMANTIC/TEMPORAL vs PARTIAL/NON) — the ceiling of any model on the set.

    python benchmarks/label_merge.py --pairs /work/labeling/pairs --passes /work/labeling/out --out benchmarks/labels

A later round (its own pair file, pair ids that never repeat) is added to the existing files with
`--pairs-name 'round3-{lang}.jsonl' --append`: its pairs replace any earlier merge of the same ids.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from service.files import atomic_output

LABELS = {"FULL", "SEMANTIC", "TEMPORAL", "PARTIAL", "NON"}
DUP = {"FULL", "SEMANTIC", "TEMPORAL"}


def _passes(passes: Path, lang: str) -> dict[int, dict[str, dict]]:
    """pass number -> pair id -> the labeler's line, from `<job>-p<N>/batch_*.jsonl` of the language."""
    out: dict[int, dict[str, dict]] = {}
    for d in sorted(passes.glob(f"{lang}-*-p*")):
        n = int(d.name.rsplit("-p", 1)[1])
        for f in sorted(d.glob("batch_*.jsonl")):
            for line in f.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    row = json.loads(line)
                    label = str(row.get("label", "")).upper()
                    if label in LABELS:
                        out.setdefault(n, {})[row["pair"]] = {**row, "label": label}
    return out


def pair_list(pairs_dir: Path, lang: str, name: str = "{lang}-pairs.jsonl") -> list[dict]:
    """The selected pairs of a language (label_select.py output)."""
    return [json.loads(x) for x in open(pairs_dir / name.replace("{lang}", lang), encoding="utf-8")]


def merge(pairs_dir: Path, passes: Path, lang: str, name: str = "{lang}-pairs.jsonl") -> tuple[list[dict], dict]:
    pairs = pair_list(pairs_dir, lang, name)
    by_pass = _passes(passes, lang)
    rows, stats = [], Counter()
    for p in pairs:
        got = [by_pass.get(n, {}).get(p["pair"]) for n in (1, 2, 3)]
        first, second, third = got
        if first is None and second is None:
            continue
        row = {"a": p["a"], "b": p["b"], "split": p["split"], "group": p["group"], "pair": p["pair"]}
        if first is not None and second is not None:
            stats["double"] += 1
            same_label = first["label"] == second["label"]
            same_side = (first["label"] in DUP) == (second["label"] in DUP)
            stats["agree5"] += same_label
            stats["agree2"] += same_side
            if same_label:
                pick = first
            elif third is not None:  # any disagreement goes to a third labeler, who decides
                pick = third
                stats["adjudicated"] += 1
            elif same_side:  # same decision, other label: provisional until the third has read it
                pick = first
                stats["awaiting"] += 1
            else:
                stats["unresolved"] += 1
                continue
            row["labelers"] = 2 if same_label else 3 if third is not None else 2
        else:
            pick = first or second
            row["labelers"] = 1
        row.update(label=pick["label"], why=pick.get("why", ""),
                   ambiguous=bool(any(g and g.get("ambiguous") for g in got)),
                   passes=[g["label"] if g else None for g in got])
        rows.append(row)
    return rows, stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", required=True, help="directory of label_select.py output")
    ap.add_argument("--passes", required=True, help="directory of <job>-p<N>/batch_*.jsonl labeler outputs")
    ap.add_argument("--out", required=True)
    ap.add_argument("--langs", default="en,zh,ja")
    ap.add_argument("--pairs-name", default="{lang}-pairs.jsonl", help="pair file in --pairs ({lang} replaced)")
    ap.add_argument("--append", action="store_true",
                    help="keep the out file's other pairs and append these (re-running replaces them)")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for lang in args.langs.split(","):
        rows, st = merge(Path(args.pairs), Path(args.passes), lang, args.pairs_name)
        target = out / f"{lang}-pairs.jsonl"
        kept = []
        if args.append and target.exists():
            drop = {p["pair"] for p in pair_list(Path(args.pairs), lang, args.pairs_name)}
            kept = [x for x in target.read_text(encoding="utf-8").splitlines()
                    if x.strip() and json.loads(x)["pair"] not in drop]
        with atomic_output(target) as f:  # a failed run leaves the existing file whole
            f.writelines((x + "\n").encode() for x in kept)
            f.writelines((json.dumps(r, ensure_ascii=False) + "\n").encode() for r in rows)
        if kept:
            print(f"{lang}: kept {len(kept)} earlier pairs of {target}")
        d = st["double"] or 1
        print(f"{lang}: {len(rows)} pairs ({Counter(r['split'] for r in rows)}), "
              f"labels {dict(Counter(r['label'] for r in rows))}; double-labeled {st['double']}: "
              f"5-way agreement {st['agree5'] / d:.3f}, duplicate-or-not agreement {st['agree2'] / d:.3f} "
              f"(disagreement {1 - st['agree2'] / d:.3f}); adjudicated {st['adjudicated']}, "
              f"awaiting a third labeler {st['unresolved']} (+{st['awaiting']} with the same decision)")


if __name__ == "__main__":
    main()
