"""Cost of the service's reads of a big group named by Solr's signature (copies sent straight to Solr).

    python benchmarks/bench_straight_group.py --solr http://127.0.0.1:8983/solr [--n 2000] [--code DIR] [--load]

`--load` deletes every posting of the core and sends N copies of one posting straight to Solr (the configset's
chain signs them alike: one group named by their signature), then one service copy that joins it. Then, with the
code of `--code` (default: this tree; e.g. `git archive main | tar -x -C /tmp/base` to compare), it times 5 calls of
`Ingestor._canonical` (the group's canonical posting) and of `Ingestor._straight_groups` (the group a copy Solr
signs alike joins), and one ingest of a copy that joins the group through its service member: wall and CPU
seconds, ids read by real-time get, queries. Run old and new code alternately: the machine's load moves the wall.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--solr", required=True, help="Solr base URL (core `postings`)")
    ap.add_argument("--n", type=int, default=2000, help="straight copies to load")
    ap.add_argument("--code", default=str(ROOT), help="source tree whose service/ is measured")
    ap.add_argument("--load", action="store_true", help="clear the core and load the group first")
    args = ap.parse_args()
    sys.path[:0] = [args.code, str(ROOT / "tests")]
    from solr_fixture import clear_core, post_docs
    from test_solr_regroup import NURSE, nurse

    from service.ingest import Ingestor
    from service.solr import Solr

    class Counting(Solr):
        got = 0
        queries = 0

        def get(self, ids, fl="*", fresh=True):  # type: ignore[no-untyped-def]
            Counting.got += len(ids)
            return super().get(ids, fl, fresh)

        def query(self, params):  # type: ignore[no-untyped-def]
            Counting.queries += 1
            return super().query(params)

    url = f"{args.solr}/postings"
    if args.load:
        clear_core(args.solr)
        docs = [{**nurse(f"c{i:06d}", 1 + i % 28), "title": "registered nurse"} for i in range(args.n)]
        for k in range(0, len(docs), 500):
            post_docs(args.solr, docs[k:k + 500])
        Solr(url).commit()
        Ingestor(Solr(url), commit_within_ms=200).ingest([{**nurse("y0", 2), "description": NURSE.upper()}])
        Solr(url).commit()
    solr = Counting(url)
    sig = solr.get(["c000000"], fl="dup_group")[0]["dup_group"]
    ing = Ingestor(solr, commit_within_ms=200)
    ing._text_signing()
    ing.schema  # noqa: B018  (read once, not timed)

    def timed(what: str, fn: object) -> object:
        Counting.got = Counting.queries = 0
        c0, w0 = time.process_time(), time.perf_counter()
        out = fn()  # type: ignore[operator]
        print(f"{args.code}: {what}: wall {time.perf_counter() - w0:.3f} s, CPU {time.process_time() - c0:.3f} s, "
              f"{Counting.got:,} ids read, {Counting.queries} queries")
        return out

    timed("5x _canonical", lambda: [ing._canonical({sig}, [], True) for _ in range(5)])
    alike = {0: {**nurse("q1", 3), "description": NURSE.upper()}}
    timed("5x _straight_groups", lambda: [ing._straight_groups(alike, True) for _ in range(5)])
    copy = {**nurse(f"y{time.time_ns()}", 3), "description": "Apply now! Apply now! " + NURSE.upper()}
    (r,) = timed("1 ingest joining it", lambda: ing.ingest([copy]))  # type: ignore[misc]
    assert r.dup_group == sig, r


if __name__ == "__main__":
    main()
