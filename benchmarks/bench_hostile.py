"""Seconds per pathological posting (just under the 200,000-character cap) for each text path: the
reproductions of issue 10 and the other super-linear cases tests/hostile.py covers, and the session-6 and
session-7 reviews' cases (tests/hostile.py `_SESSION6`, `_SESSION7`, 199,000 characters); `pair` is
pair_features of the posting and a copy of it, prepared beforehand.

    python benchmarks/bench_hostile.py [--limit 120] [--only NAME]

A stage that runs past --limit seconds is reported as "> limit" (ended by an alarm).
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from hostile import _SESSION6, _SESSION7  # noqa: E402

from service.features import compute_features  # noqa: E402
from signatures import features as sf  # noqa: E402
from signatures import profile, textprofile  # noqa: E402
from signatures.extract import extract  # noqa: E402


def _desc(text: str) -> dict[str, Any]:
    return {"id": "hostile", "title": "Backend Engineer", "company": "Acme", "description": text}


CASES: dict[str, Callable[[], dict[str, Any]]] = {
    '"[" x 199,000': lambda: _desc("[" * 199_000),
    '"a0 x a1 x ..." 168 KB': lambda: _desc(" ".join(f"a{i} x" for i in range(24_000))[:168_000]),
    "20,000 HTML attributes": lambda: _desc("<p " + " ".join(f'a{i}="x"' for i in range(20_000)) + ">hi</p>"),
    '"(" x 199,000': lambda: _desc("(" * 199_000),
    '"<p" x 99,500': lambda: _desc("<p" * 99_500),
    '"[a](" x 49,000': lambda: _desc("[a](" * 49_000),
    '"# a" + 199,000 x "\\f" + "b"': lambda: _desc("# a" + "\x0c" * 199_000 + "b"),
    '"salary " + 199,000 x "\\f" + "x"': lambda: _desc("salary " + "\x0c" * 199_000 + "x"),
    '"tg" + 199,000 x "\\f" + "x"': lambda: _desc("tg" + "\x0c" * 199_000 + "x"),
    'header "Acme \\| " + 199,000 x "\\f" + "x \\| Engineer"': lambda: _desc("Acme | " + "\x0c" * 199_000 + "x | Engineer"),
    'title "[a" x 99,000': lambda: {"id": "hostile", "title": "[a" * 99_000, "description": "x"},
    'title "薪水" x 99,000 + "\\nx"': lambda: {"id": "hostile", "title": "薪水" * 99_000 + "\nx", "description": "x"},
    **{name: (lambda make=make: make(199_000)) for name, make in {**_SESSION6, **_SESSION7}.items()},
}
STAGES: dict[str, Callable[[dict[str, Any]], object]] = {
    "extract": extract,
    "prepare": sf.prepare,
    "profile_sig": profile.posting_profile_signature,
    "textprofile": lambda p: textprofile.solr_fields_signature(p, ["title", "company", "description"]),
    "features": lambda p: compute_features([p], with_keys=True),
    "pair": lambda p: sf.pair_features(*p["_prepared"]),
}


class _Late(Exception):
    pass


def _alarm(*_: object) -> None:
    raise _Late


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=float, default=120.0, help="seconds before a stage is given up")
    ap.add_argument("--only", default="", help="run the cases whose name contains this")
    args = ap.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    extract(_desc("warm up")), sf.prepare(_desc("warm up"))
    print("| case | " + " | ".join(STAGES) + " |")
    print("|---|" + "---|" * len(STAGES))
    for name, make in CASES.items():
        if args.only not in name:
            continue
        posting = make()
        cells = []
        for stage, fn in STAGES.items():
            if stage == "pair":
                posting["_prepared"] = (sf.prepare(posting), sf.prepare({**posting, "id": "hostile-2"}))
            signal.setitimer(signal.ITIMER_REAL, args.limit)
            t0 = time.perf_counter()
            try:
                fn(posting)
                cells.append(f"{time.perf_counter() - t0:.3f}")
            except _Late:
                cells.append(f"> {args.limit:g}")
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
