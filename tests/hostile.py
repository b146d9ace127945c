"""Adversarial postings for the linear-time tests and benchmarks/bench_hostile.py: each generator makes a
posting of about n characters built to hit one super-linear pattern (brackets without closers, tags
without '>', attribute floods, long runs of one character or of exotic whitespace, many distinct or
repeated tokens, nested and unclosed markup, many e-mails / URLs / phones)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

Posting = dict[str, Any]


def _rep(unit: str, n: int) -> str:
    return (unit * (n // len(unit) + 1))[:n]


def _desc(text: str) -> Posting:
    return {"id": "hostile", "title": "Backend Engineer", "company": "Acme", "description": text}


def _runs(unit: str) -> Callable[[int], Posting]:
    return lambda n: _desc(_rep(unit, n))


def _spaced(before: str, ws: str, after: str) -> Callable[[int], Posting]:
    return lambda n: _desc(before + ws * n + after)


def _random(alphabet: str, seed: int = 1) -> Callable[[int], Posting]:
    def gen(n: int) -> Posting:
        rnd = random.Random(seed)
        return _desc("".join(rnd.choice(alphabet) for _ in range(n)))

    return gen


GENERATORS: dict[str, Callable[[int], Posting]] = {
    # openers without closers, and closers preceded by many openers
    **{f"run {u!r}": _runs(u) for u in (
        "[", "(", "（", "【", "[[", "[a", "(a", "1(", "1 (", "![", "](", "[a](", "<", "<p", "<a ", "<p a='",
        "<li", "<h2", "<![CDATA[", "&#", "**", "@", "a@", "a.", "-", "#", "# a ", "|", ":", "1", "$1 ", "1k-",
        "a", "engineer ", "salary ", "hiring: a, ", "tg ", "a (at) b ", "http://", "工程师", "招聘",
    )},
    # long runs of whitespace the line normalization keeps, between the words patterns look for
    **{f"ws {b!r}+{ws!r}": _spaced(b, ws, a) for ws in ("\x0c", "\u2003", "\x85") for b, a in (
        ("# a", "b"), ("salary ", "x"), ("$1", "x"), ("tg", "x"), ("location", "x"), ("hiring", "x"),
        ("<", "p"), ("a", "(at) b"), ("Engineer", ", x"),
    )},
    "attribute flood": lambda n: _desc("<p " + " ".join(f'a{i}="x"' for i in range(n // 8)) + ">hi</p>"),
    "distinct tokens": lambda n: _desc(" ".join(f"a{i} x" for i in range(n // 6))),
    "repeated token": lambda n: _desc(_rep("engineer ", n)),
    "nested divs": lambda n: _desc("<div>" * (n // 11) + "text" + "</div>" * (n // 11)),
    "unclosed tags": lambda n: _desc(_rep('<a href="', n)),
    "emails": lambda n: _desc(" ".join(f"u{i}@d{i}.example" for i in range(n // 16))),
    "urls": lambda n: _desc(" ".join(f"https://e{i}.example/p/{i}" for i in range(n // 26))),
    "phones": lambda n: _desc(" ".join(f"+1 (555) 555-{i % 10000:04d}" for i in range(n // 18))),
    "short lines": lambda n: _desc("\n".join(f"- Engineer {i}" for i in range(n // 14))),
    "markdown links": lambda n: _desc(" ".join(f"[a{i}](http://x{i}" for i in range(n // 16))),
    "bracketed title": lambda n: {"id": "hostile", "title": _rep("[a", n), "description": "x"},
    "pay words title": lambda n: {"id": "hostile", "title": _rep("salary薪水", n) + "\nx", "description": "x"},
    "long url": lambda n: {"id": "hostile", "url": "https://a.example/?" + _rep("utm_a=b&", n), "description": "x"},
    # new code paths of issue 9 (job facts, role-line heads, sought roles, CJK title roles) and the header split
    "header pipe after ws": lambda n: _desc("Acme | " + "\x0c" * n + "x | Engineer"),
    "random brackets": _random("[](){}<>!#*-_ \t\n\x0c:/@.$1kK（）【】|as"),
}
