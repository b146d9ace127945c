"""The ingest's recent window (service.ingest.RecentWindow) against a plain key -> set-of-ids reference (its
groups against its postings' dup_group), and the garbage-collector settings the ingest runs under (service.gctune)."""

from __future__ import annotations

import gc

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from service.gctune import LONG_LIVED_THRESHOLDS, long_lived_heap
from service.ingest import RecentWindow, _Rec

KEYS = [f"k{i}" for i in range(6)]
IDS = [f"p{i}" for i in range(8)]


def _rec(pid: str, keys: list[str]) -> _Rec:
    return _Rec(pid, {}, np.zeros(4, np.uint32), pid, keys)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(IDS), st.lists(st.sampled_from(KEYS), max_size=4)), max_size=40),
       st.integers(1, 5))
def test_window_finds_what_a_set_index_finds(adds: list[tuple[str, list[str]]], size: int) -> None:
    """Re-adds, shared keys, repeated keys in one posting and FIFO eviction: the candidates of every key are
    the postings in the window that hold it, and no key is left pointing at a posting that is gone."""
    w = RecentWindow(size)
    held: dict[str, list[str]] = {}  # id -> keys, oldest first
    for pid, keys in adds:
        w.add(_rec(pid, keys))
        held.pop(pid, None)
        held[pid] = keys
        while len(held) > size:
            held.pop(next(iter(held)))
        assert list(w.recs) == list(held)
        for k in KEYS:
            assert {r.id for r in w.candidates([k])} == {p for p, ks in held.items() if k in ks}
        assert {r.id for r in w.candidates(KEYS)} == {p for p, ks in held.items() if ks}
        assert set(w.index) == {k for ks in held.values() for k in ks}
        assert all(len(v) >= 2 for v in w.index.values() if isinstance(v, set))



GROUPS = [f"g{i}" for i in range(3)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["add", "regroup", "remove"]), st.sampled_from(IDS),
                          st.sampled_from(GROUPS)), max_size=40), st.integers(1, 5))
def test_window_members_are_its_postings_in_the_group(ops: list[tuple[str, str, str]], size: int) -> None:
    """Adds (re-adds into another group), regroups, removes and FIFO eviction: the window's members of a group
    are the postings it holds whose dup_group is that group, and no empty group is left behind."""
    w = RecentWindow(size)
    for op, pid, g in ops:
        if op == "add":
            rec = _rec(pid, [])
            rec.dup_group = g
            w.add(rec)
        elif op == "regroup":
            w.regroup(pid, g)
        else:
            w.remove(pid)
        for group in GROUPS:
            assert set(w.members([group])) == {p for p, r in w.recs.items() if r.dup_group == group}
        assert set(w.members(GROUPS)) == set(w.recs)
        assert set(w.groups) == {r.dup_group for r in w.recs.values()}

def test_window_remove_leaves_nothing_behind() -> None:
    w = RecentWindow()
    w.add(_rec("a", ["x", "y"]))
    w.add(_rec("b", ["x"]))
    w.add(_rec("c", ["x"]))
    assert w.index["x"] == {"a", "b", "c"} and w.index["y"] == "a"
    w.remove("b")
    w.remove("a")
    assert w.index == {"x": "c"}
    w.remove("c")
    w.remove("c")  # unknown id: nothing happens
    assert w.index == {} and not w.recs and w.candidates(["x"]) == []


def test_long_lived_heap_restores_the_thresholds() -> None:
    before = gc.get_threshold()
    with long_lived_heap():
        assert gc.get_threshold() == LONG_LIVED_THRESHOLDS
    assert gc.get_threshold() == before
    try:
        with long_lived_heap():
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert gc.get_threshold() == before


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(IDS), st.sampled_from(IDS)), max_size=30), st.integers(1, 6))
def test_absorbed_groups_follow_the_last_merges(merges: list[tuple[str, str]], size: int) -> None:
    """The groups merged into others lately (`merged`, at most `size` remembered, the latest merge of a group
    replacing an earlier one): `absorbed(groups)` are those a chain of remembered merges leads into `groups`,
    each with the group it leads into."""
    w = RecentWindow(size)
    held: dict[str, str] = {}  # loser -> winner, oldest first
    for loser, winner in merges:
        if loser == winner:
            continue
        w.merged(loser, winner)
        held.pop(loser, None)
        held[loser] = winner
        while len(held) > size:
            del held[next(iter(held))]
    for g in IDS:
        want: dict[str, str] = {}
        todo = [g]
        while todo:
            top = todo.pop()
            for loser, winner in held.items():
                if winner == top and loser not in want and loser != g:
                    want[loser] = g
                    todo.append(loser)
        got = w.absorbed([g])
        got.pop(g, None)  # a cycle of merges leads back (never in the service: a loser's postings all move)
        assert got == want


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(IDS), st.sampled_from(IDS), st.floats(0, 3)), max_size=40),
       st.integers(1, 4))
def test_window_keeps_what_solr_may_not_show_yet(steps: list[tuple[str, str, float]], size: int) -> None:
    """With `keep`: a posting added less than `keep` seconds ago is not evicted by count (Solr's search may not
    show it yet) up to a hard cap of 2x size; older ones go by count as before. A merge is remembered exactly
    while younger than `keep` (and among the last 2x size)."""
    now = [0.0]
    keep = 2.0
    w = RecentWindow(size, keep=keep, clock=lambda: now[0])
    held: dict[str, float] = {}  # id -> when added, oldest first
    merges: dict[str, tuple[str, float]] = {}  # loser -> (winner, when), oldest first
    for pid, other, dt in steps:
        now[0] += dt
        w.add(_rec(pid, [pid]))
        held.pop(pid, None)
        held[pid] = now[0]
        while len(held) > size and (len(held) > 2 * size or now[0] - next(iter(held.values())) >= keep):
            held.pop(next(iter(held)))
        assert list(w.recs) == list(held)
        times = list(held.values())
        assert len(times) <= 2 * size and all(now[0] - t < keep for t in times[:max(0, len(times) - size)])
        if pid != other:
            w.merged(pid, other)
            merges.pop(pid, None)
            merges[pid] = (other, now[0])
            while len(merges) > 2 * size:
                merges.pop(next(iter(merges)))
        young = {loser: winner for loser, (winner, t) in merges.items() if now[0] - t < keep}
        w.absorbed(IDS)  # (chains of merges: test_absorbed_groups_follow_the_last_merges)
        assert dict(w._merged) == young
