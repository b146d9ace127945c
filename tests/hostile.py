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


def _han(i: int, k: int) -> str:
    """k Han characters that differ from line to line (per-line caches miss), none a place or store suffix."""
    head = (i % 2000, i // 2000 % 2000, i // 4_000_000 % 2000)[:k]  # i in base 2000: distinct for every i
    return "".join(chr(0x4E00 + c) for c in (*head, *((i * 7919 + j * 104729) % 2000 for j in range(3, k))))


def _lines(make: Callable[[int], str]) -> Callable[[int], str]:
    """Lines make(0), make(1), ... up to n characters."""

    def gen(n: int) -> str:
        out, size, i = [], 0, 0
        while size < n:
            out.append(make(i))
            size += len(out[-1]) + 1
            i += 1
        return "\n".join(out)[:n]

    return gen


def _cjk(make: Callable[[int], str], lang: str = "ja") -> Callable[[int], Posting]:
    return lambda n: {**_desc(_lines(make)(n)), "lang": lang}


def _title(make: Callable[[int], str]) -> Callable[[int], Posting]:
    return lambda n: {"id": "hostile", "title": make(n), "description": "x", "lang": "zh"}


#: The text paths issue 9 added: workplace / station / store / address lines and clock ranges (signatures.jobfacts),
#: role lines cut at ' - ' / ' | ' / ': ', 'looking for' sentences, Chinese title hiring verbs, long traditional
#: role names (OpenCC), many CJK roles with Latin modifiers.
_ISSUE9: dict[str, Callable[[int], Posting]] = {
    "workplace lines": _cjk(lambda i: "勤務地：" + _han(i, 150)),
    "workplace sections": _cjk(lambda i: "【勤務地】\n" + _han(i, 150) + "\n" + _han(i + 1, 150)),
    "station lines": _cjk(lambda i: "最寄り駅：" + "線".join(_han(i * 12 + j, 9) for j in range(12)) + "駅"),
    "store lines": _cjk(lambda i: "店舗：" + "店".join(_han(i * 12 + j, 11) for j in range(12))),
    "address lines": _cjk(lambda i: "勤務地：" + "区".join(_han(i * 18 + j, 7) for j in range(18))),
    "clock ranges": _cjk(lambda i: "勤務時間：" + " ".join(
        f"{(i + k) % 24}:{(i * 7 + k) % 60:02d}〜{(i + k + 9) % 24}:{(i * 3) % 60:02d}" for k in range(10))),
    "clock range run": lambda n: _desc("勤務時間\n" + _rep("9:00 〜 ", n)),
    "terms heading lines": lambda n: _desc(_rep("\n給与", n)),
    "role lines ' - '": lambda n: _desc(_lines(lambda i: f"{i}. QA Engineer {i} - €60k - https://x.example/{i}")(n)),
    "role lines ': '": lambda n: _desc(_lines(lambda i: f"Machine Learning Engineer {i}: own our stack {i}")(n)),
    "role lines ' | '": lambda n: _desc(_lines(lambda i: f"Full-Stack Engineers {i} | $120k")(n)),
    "role head cuts": lambda n: _desc("x\n" + _rep("Engineer - A: b | ", n)),
    "looking for runs": lambda n: _desc(_rep("We're looking for ", n)),
    "looking for list": lambda n: _desc("We're looking for " + _rep("a Senior Engineer, ", n)),
    "looking for lines": lambda n: _desc(_lines(lambda i: f"We're looking for a Senior Engineer {i}, a Designer and a PM.")(n)),
    "zh title 招 ": _title(lambda n: _rep("招 ", n)),
    "zh title hiring verbs": _title(lambda n: _rep("诚聘急聘直招热招寻找", n)),
    "zh title han": _title(lambda n: _han(0, n)),
    "zh title traditional": _title(lambda n: _rep("軟體工程師開發", n)),
    "zh title traditional roles": _title(lambda n: "招聘 " + "，".join(_han(i, 10) + "工程師" for i in range(n // 14))),
    "promo title tags": _title(lambda n: _rep("【急募】", n)),
    "promo title unclosed": _title(lambda n: "【" + _rep("急募・", n)),
    "volatile words one line": lambda n: _desc(_rep("福利", n)),
    "volatile headings": _cjk(lambda i: "【福利厚生】"),
    "volatile sections": _cjk(lambda i: "【福利厚生】\n" + _han(i, 20) if i % 20 == 0 else "・" + _han(i, 20)),
    "volatile lines": _cjk(lambda i: "応募締切：" + _han(i, 30)),
    "volatile marks": lambda n: _desc(_rep("■■■ 【", n) + "福利厚生"),
    "zh roles latin modifiers": _cjk(lambda i: f"- x{i}后端工程师", "zh"),
    "zh roles latin words hidden": lambda n: {**_desc(  # each role's Latin word written only inside longer words
        _rep(" ".join(f"x{w}" for w in _LATIN), n) + "\n职位\n" + "\n".join(f"- {w}后端工程师" for w in _LATIN[:12])),
        "title": "", "lang": "zh"},
}
#: Characters NFKC writes as 6 katakana (㌖ = キロメートル): a line under the 160-character cap of a workplace or terms
#: section becomes a CJK run of ~900 characters; every text path sees ~6x the characters of the posting.
_WIDE = "㌖"
#: Session 6 review: NFKC-widened workplace / terms / role lines, location and title; many headings alone, inline,
#: or marked; English terms lines.
_SESSION6: dict[str, Callable[[int], Posting]] = {
    "nfkc wide workplace lines": _cjk(lambda i: "勤務地：" + _han(i, 2) + _WIDE * 150),
    "nfkc wide terms lines": _cjk(lambda i: "給与：" + _han(i, 2) + _WIDE * 150),
    "nfkc wide roles": _cjk(lambda i: "- " + _han(i, 2) + _WIDE * 20 + "工程师", "zh"),
    "nfkc wide location": lambda n: {**_desc("x"), "location": _rep(_WIDE, n)},
    "nfkc wide title": lambda n: {**_desc("x"), "title": _rep(_WIDE, n), "lang": "ja"},
    "workplace headings alone": lambda n: _desc(_rep("【勤務地】\n", n)),
    "workplace headings bare": lambda n: _desc(_rep("勤務地\n", n)),
    "workplace headings marked": lambda n: _desc(_rep("\n■■■■■■■■勤務地", n)),
    "workplace inline stores": _cjk(lambda i: "勤務地：" + _han(i, 8) + "店"),
    "terms inline clock ranges": _cjk(lambda i: f"勤務時間：{i % 24}:{i % 60:02d}〜{(i + 3) % 24}:{i * 7 % 60:02d}"),
    "en pay lines": lambda n: _desc(_lines(lambda i: f"Pay: ${i}/hour, {i % 24}:00-{(i + 8) % 24}:00 shift")(n)),
    "zh title many roles": _title(lambda n: "、".join(_han(i, 3) + "工程师" for i in range(n // 7))),
}
#: Session 7 review: thousands of distinct own sites whose names are 40 letters (employer names from site labels:
#: a substring index of every kept label grew to ~400 MB and 4.5 s for 4,000 of them).
_SESSION7: dict[str, Callable[[int], Posting]] = {
    "emails long domains": lambda n: _desc(" ".join(f"u@{_label40(i)}.io" for i in range(n // 47))),
    "urls long domains": lambda n: _desc(" ".join(f"https://{_label40(i)}.io" for i in range(n // 53))),
}
#: Session 9 review: a Chinese title naming no role outside its brackets ("诚聘【X工程师】【Y工程师】… x，y"): the
#: bracket fallback read every bracket as a role, and roles are compared pairwise (8,874 roles at 80k characters).
#: Two Han characters a role: no role's specialty within another's, so none merges away.
_SESSION9: dict[str, Callable[[int], Posting]] = {
    "zh title many bracketed roles": _title(
        lambda n: "诚聘" + "".join("【" + _han(i, 2) + "工程师】" for i in range(1, n // 7)) + " x，y"),
}


def _label40(i: int) -> str:
    """40 letters that differ from i to i (no label inside another by accident)."""
    return "".join("abcdefghijklmnopqrstuvwxyz"[(i * 7919 + j * 104729 + (i >> j % 16)) % 26] for j in range(40))
_LATIN = [a + b + c for a in "bcdfg" for b in "aeiou" for c in "klmnp"][:40]


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
    # company fields (employer names: legal forms at the end, trade words, Chinese places; session 8 review)
    "company spaces": lambda n: {"id": "hostile", "company": "Acme" + " " * n + "x", "description": "x"},
    "company commas": lambda n: {"id": "hostile", "company": "Acme" + _rep(", ", n) + "x", "description": "x"},
    "company trade words": lambda n: {"id": "hostile", "company": "飞鱼" + _rep("科技", n), "description": "x"},
    "company network words": lambda n: {"id": "hostile", "company": "Mantle " + _rep("network ", n), "description": "x"},
    # new code paths of issue 9 (job facts, role-line heads, sought roles, CJK title roles) and the header split
    "header pipe after ws": lambda n: _desc("Acme | " + "\x0c" * n + "x | Engineer"),
    **_ISSUE9,
    **_SESSION6,
    **_SESSION7,
    **_SESSION9,
    "random brackets": _random("[](){}<>!#*-_ \t\n\x0c:/@.$1kK（）【】|as"),
}
