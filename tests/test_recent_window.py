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
