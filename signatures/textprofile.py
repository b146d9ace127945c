"""Byte-exact port of Solr's TextProfileSignature (Nutch's fuzzy profile hash) and of the digest
SignatureUpdateProcessorFactory builds over several fields.

Java semantics reproduced: `Character.isLetterOrDigit(char)` / `toLowerCase(char)` on UTF-16 code
units from tables Java 17 generated (signatures/javachars.py), tokens kept when longer than
minTokenLen, `Math.round(maxFreq * quantRate)` in float32, `java.util.HashMap` iteration order
(including red-black tree bins) under a stable sort by count, UTF-8 + MD5, lowercase hex.
Verified against Solr's own class by tests/test_textprofile_java.py.

Two paths, always equal: per text (solr_text_signature: bytes.translate + split + a C counting loop,
HashMap order computed for the kept tokens only) and per batch (solr_text_signatures,
solr_fields_signatures: the numpy kernel in signatures.textprofile_batch, ~3x faster per text; it
hands texts it cannot order exactly, e.g. HashMap tree bins, back to the per-text path).
"""

from __future__ import annotations

import hashlib
import math
import re
import struct
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence, Set
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, filterfalse

import numpy as np

from signatures import javachars
from signatures.textprofile_batch import profile_bytes_batch

try:  # the C counting loop behind Counter.update, without Counter's Python-level overhead
    from collections import _count_elements  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - other Pythons

    def _count_elements(mapping: dict, iterable: Iterable) -> None:  # type: ignore[misc]
        get = mapping.get
        for k in iterable:
            mapping[k] = get(k, 0) + 1

DEFAULT_QUANT_RATE = 0.01
DEFAULT_MIN_TOKEN_LEN = 2

__all__ = [
    "DEFAULT_MIN_TOKEN_LEN",
    "DEFAULT_QUANT_RATE",
    "java_double_to_string",
    "java_profile",
    "java_string_hash",
    "java_string_value",
    "profile_digest",
    "solr_fields_signature",
    "solr_fields_signatures",
    "solr_text_signature",
    "solr_text_signatures",
    "solr_tokens",
    "tokenless_signatures",
]

# --------------------------------------------------------------------------------------------------
# Java primitives


def java_string_hash(s: str) -> int:
    """Java `String.hashCode()` (over UTF-16 code units, int32 overflow), as a signed int."""
    h = 0
    if s.isascii() or max(s) < "\U00010000":
        for ch in s:
            h = (31 * h + ord(ch)) & 0xFFFFFFFF
    else:
        for unit in _utf16_units(s):
            h = (31 * h + unit) & 0xFFFFFFFF
    return h - 0x100000000 if h & 0x80000000 else h


def _utf16_units(s: str) -> list[int]:
    b = s.encode("utf-16-le", "surrogatepass")
    return list(struct.unpack(f"<{len(b) // 2}H", b))


def _spread(h: int) -> int:
    """HashMap.hash(): h ^ (h >>> 16), signed int32."""
    u = h & 0xFFFFFFFF
    u ^= u >> 16
    return u - 0x100000000 if u & 0x80000000 else u


def _java_utf8(s: str) -> bytes:
    """Java `String.getBytes(UTF_8)`: valid surrogate pairs combine, lone surrogates become '?'."""
    try:
        return s.encode("utf-8")
    except UnicodeEncodeError:
        paired = s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
        return paired.encode("utf-8", "replace")


@lru_cache(maxsize=256)
def _float32(x: float) -> float:
    """Java `Float.parseFloat(repr(x))`: the decimal x stands for, correctly rounded to float32."""
    if math.isnan(x):
        return x
    if math.isinf(x):
        return x
    exact = Fraction(repr(x))
    return _round_fraction_to_f32(exact)


def _round_fraction_to_f32(v: Fraction) -> float:
    try:
        f = struct.unpack("<f", struct.pack("<f", float(v)))[0]
    except OverflowError:
        f = math.copysign(math.inf, v)
    if math.isinf(f):
        # float(v) beyond FLT_MAX: Java rounds to +-Infinity only past the midpoint to 2**128
        big = Fraction(2**128 - 2**103)  # FLT_MAX + half an ulp
        if abs(v) < big:
            return math.copysign(3.4028234663852886e38, v)
        return f
    # double rounding (decimal -> double -> float32) can miss by one ulp at exact float32 midpoints
    bits = struct.unpack("<I", struct.pack("<f", f))[0]
    best = f
    for nb in ((bits - 1) & 0xFFFFFFFF, (bits + 1) & 0xFFFFFFFF):
        g = struct.unpack("<f", struct.pack("<I", nb))[0]
        if math.isfinite(g):
            dg, db = abs(Fraction(g) - v), abs(Fraction(best) - v)
            if dg < db or (dg == db and not nb & 1 and struct.unpack("<I", struct.pack("<f", best))[0] & 1):
                best = g
    return best


def _f32_mul(a: float, b: float) -> float:
    """float32 a * float32 b, rounded to float32 (Java `float * float`)."""
    p = a * b  # exact in double: 24 + 24 significant bits
    if math.isnan(p):
        return p
    try:
        return struct.unpack("<f", struct.pack("<f", p))[0]
    except OverflowError:
        return _round_fraction_to_f32(Fraction(p))


def _java_round_f32(x: float) -> int:
    """Java `Math.round(float)`: floor(x + 1/2), NaN -> 0, clamped to int range."""
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return 2**31 - 1 if x > 0 else -(2**31)
    r = math.floor(Fraction(x) + Fraction(1, 2))
    return max(-(2**31), min(2**31 - 1, r))


@lru_cache(maxsize=4096)
def _quant(max_freq: int, quant_rate: float) -> int:
    """TextProfileSignature's QUANT: Math.round(maxFreq * quantRate) in float, at least 2 (1 if maxFreq<=1)."""
    qf = _float32(quant_rate)
    mf = struct.unpack("<f", struct.pack("<f", float(max_freq)))[0] if max_freq < 2**24 else (
        _round_fraction_to_f32(Fraction(max_freq))
    )
    quant = _java_round_f32(_f32_mul(mf, qf))
    if quant < 2:
        quant = 2 if max_freq > 1 else 1
    return quant


# --------------------------------------------------------------------------------------------------
# java.util.HashMap iteration order, simulated exactly (list bins, resizes, red-black tree bins)

_TREEIFY_THRESHOLD = 8
_UNTREEIFY_THRESHOLD = 6
_MIN_TREEIFY_CAPACITY = 64


class _Node:
    __slots__ = ("hash", "key", "cmp", "next", "prev", "left", "right", "parent", "red", "tree")

    def __init__(self, h: int, key: str, cmp: object, nxt: _Node | None) -> None:
        self.hash = h
        self.key = key
        self.cmp = cmp
        self.next = nxt
        self.prev: _Node | None = None
        self.left: _Node | None = None
        self.right: _Node | None = None
        self.parent: _Node | None = None
        self.red = False
        self.tree = False


def _compare_key(key: str | bytes) -> object:
    """A key ordering like Java `String.compareTo` (UTF-16 unit order; UTF-8 bytes of BMP text sort alike)."""
    if isinstance(key, bytes) or key.isascii() or max(key) < "\ud800":
        return key
    return key.encode("utf-16-be", "surrogatepass")


class JavaHashMapOrder:
    """Keys inserted into a default `new HashMap<String, V>()`; `keys()` is its iteration order."""

    def __init__(self) -> None:
        self.table: list[_Node | None] | None = None
        self.size = 0
        self.threshold = 0

    def put(self, key: str | bytes, h: int | None = None) -> bool:
        """Insert `key` (spread hash `h` if known); False if it was present."""
        if h is None:
            h = _spread(java_string_hash(key)) if isinstance(key, str) else _spread_of_bytes(key)
        tab = self.table if self.table is not None else self._resize()
        n = len(tab)
        i = (n - 1) & h
        p = tab[i]
        if p is None:
            tab[i] = _Node(h, key, None, None)
        elif p.hash == h and p.key == key:
            return False
        elif p.tree:
            if not self._put_tree_val(tab, p, h, key):
                return False
        else:
            bin_count = 0
            while True:
                e = p.next
                if e is None:
                    p.next = _Node(h, key, None, None)
                    if bin_count >= _TREEIFY_THRESHOLD - 1:
                        self._treeify_bin(tab, h)
                    break
                if e.hash == h and e.key == key:
                    return False
                p = e
                bin_count += 1
        self.size += 1
        if self.size > self.threshold:
            self._resize()
        return True

    def keys(self) -> list[str]:
        out: list[str] = []
        for e in self.table or ():
            while e is not None:
                out.append(e.key)
                e = e.next
        return out

    # -- resize / split
    def _resize(self) -> list[_Node | None]:
        old = self.table
        old_cap = 0 if old is None else len(old)
        if old_cap > 0:
            new_cap, new_thr = old_cap << 1, self.threshold << 1
        else:
            new_cap, new_thr = 16, 12
        self.threshold = new_thr
        new: list[_Node | None] = [None] * new_cap
        self.table = new
        if old is not None:
            for j in range(old_cap):
                e = old[j]
                if e is None:
                    continue
                old[j] = None
                if e.next is None:
                    new[e.hash & (new_cap - 1)] = e
                elif e.tree:
                    self._split(new, e, j, old_cap)
                else:
                    lo_h = lo_t = hi_h = hi_t = None
                    while e is not None:
                        nxt = e.next
                        if e.hash & old_cap == 0:
                            if lo_t is None:
                                lo_h = e
                            else:
                                lo_t.next = e
                            lo_t = e
                        else:
                            if hi_t is None:
                                hi_h = e
                            else:
                                hi_t.next = e
                            hi_t = e
                        e = nxt
                    if lo_t is not None:
                        lo_t.next = None
                        new[j] = lo_h
                    if hi_t is not None:
                        hi_t.next = None
                        new[j + old_cap] = hi_h
        return new

    def _split(self, tab: list[_Node | None], b: _Node, index: int, bit: int) -> None:
        lo_h = lo_t = hi_h = hi_t = None
        lc = hc = 0
        e: _Node | None = b
        while e is not None:
            nxt = e.next
            e.next = None
            if e.hash & bit == 0:
                e.prev = lo_t
                if lo_t is None:
                    lo_h = e
                else:
                    lo_t.next = e
                lo_t = e
                lc += 1
            else:
                e.prev = hi_t
                if hi_t is None:
                    hi_h = e
                else:
                    hi_t.next = e
                hi_t = e
                hc += 1
            e = nxt
        if lo_h is not None:
            if lc <= _UNTREEIFY_THRESHOLD:
                tab[index] = _untreeify(lo_h)
            else:
                tab[index] = lo_h
                if hi_h is not None:
                    self._treeify(tab, lo_h)
        if hi_h is not None:
            if hc <= _UNTREEIFY_THRESHOLD:
                tab[index + bit] = _untreeify(hi_h)
            else:
                tab[index + bit] = hi_h
                if lo_h is not None:
                    self._treeify(tab, hi_h)

    # -- tree bins
    def _treeify_bin(self, tab: list[_Node | None], h: int) -> None:
        n = len(tab)
        if n < _MIN_TREEIFY_CAPACITY:
            self._resize()
            return
        index = (n - 1) & h
        e = tab[index]
        tl = None
        while e is not None:
            e.tree = True
            e.prev = tl
            e.cmp = _compare_key(e.key)
            tl = e
            e = e.next
        hd = tab[index]
        if hd is not None:
            self._treeify(tab, hd)

    def _treeify(self, tab: list[_Node | None], head: _Node) -> None:
        root: _Node | None = None
        x: _Node | None = head
        while x is not None:
            nxt = x.next
            x.left = x.right = None
            if x.cmp is None:
                x.cmp = _compare_key(x.key)
            if root is None:
                x.parent = None
                x.red = False
                root = x
            else:
                p = root
                while True:
                    d = _dir(p, x.hash, x.cmp)
                    xp = p
                    p = p.left if d <= 0 else p.right
                    if p is None:
                        x.parent = xp
                        if d <= 0:
                            xp.left = x
                        else:
                            xp.right = x
                        root = _balance_insertion(root, x)
                        break
            x = nxt
        _move_root_to_front(tab, root)

    def _put_tree_val(self, tab: list[_Node | None], first: _Node, h: int, key: str) -> bool:
        root = first
        while root.parent is not None:
            root = root.parent
        cmp = _compare_key(key)
        p = root
        while True:
            if p.hash == h and p.key == key:
                return False
            d = _dir(p, h, cmp)
            xp = p
            p = p.left if d <= 0 else p.right
            if p is None:
                xpn = xp.next
                x = _Node(h, key, cmp, xpn)
                x.tree = True
                if d <= 0:
                    xp.left = x
                else:
                    xp.right = x
                xp.next = x
                x.parent = x.prev = xp
                if xpn is not None:
                    xpn.prev = x
                _move_root_to_front(tab, _balance_insertion(root, x))
                return True


def _dir(p: _Node, h: int, cmp: object) -> int:
    """Direction of a new key against tree node p: hash order, then String.compareTo."""
    if p.hash > h:
        return -1
    if p.hash < h:
        return 1
    # equal hashes, distinct strings: compareTo is never 0 (tieBreakOrder is never reached)
    return -1 if cmp < p.cmp else 1  # type: ignore[operator]


def _untreeify(head: _Node) -> _Node:
    e: _Node | None = head
    while e is not None:
        e.tree = False
        e.left = e.right = e.parent = e.prev = None
        e.red = False
        e = e.next
    return head


def _move_root_to_front(tab: list[_Node | None], root: _Node | None) -> None:
    if root is None:
        return
    index = (len(tab) - 1) & root.hash
    first = tab[index]
    if root is not first:
        tab[index] = root
        rp = root.prev
        rn = root.next
        if rn is not None:
            rn.prev = rp
        if rp is not None:
            rp.next = rn
        if first is not None:
            first.prev = root
        root.next = first
        root.prev = None


def _rotate_left(root: _Node, p: _Node | None) -> _Node:
    if p is not None and (r := p.right) is not None:
        rl = p.right = r.left
        if rl is not None:
            rl.parent = p
        pp = r.parent = p.parent
        if pp is None:
            root = r
            r.red = False
        elif pp.left is p:
            pp.left = r
        else:
            pp.right = r
        r.left = p
        p.parent = r
    return root


def _rotate_right(root: _Node, p: _Node | None) -> _Node:
    if p is not None and (lf := p.left) is not None:
        lr = p.left = lf.right
        if lr is not None:
            lr.parent = p
        pp = lf.parent = p.parent
        if pp is None:
            root = lf
            lf.red = False
        elif pp.right is p:
            pp.right = lf
        else:
            pp.left = lf
        lf.right = p
        p.parent = lf
    return root


def _balance_insertion(root: _Node, x: _Node) -> _Node:
    x.red = True
    while True:
        xp = x.parent
        if xp is None:
            x.red = False
            return x
        if not xp.red or (xpp := xp.parent) is None:
            return root
        xppl = xpp.left
        if xp is xppl:
            xppr = xpp.right
            if xppr is not None and xppr.red:
                xppr.red = False
                xp.red = False
                xpp.red = True
                x = xpp
            else:
                if x is xp.right:
                    x = xp
                    root = _rotate_left(root, x)
                    xp = x.parent
                    xpp = None if xp is None else xp.parent
                if xp is not None:
                    xp.red = False
                    if xpp is not None:
                        xpp.red = True
                        root = _rotate_right(root, xpp)
        else:
            if xppl is not None and xppl.red:
                xppl.red = False
                xp.red = False
                xpp.red = True
                x = xpp
            else:
                if x is xp.left:
                    x = xp
                    root = _rotate_right(root, x)
                    xp = x.parent
                    xpp = None if xp is None else xp.parent
                if xp is not None:
                    xp.red = False
                    if xpp is not None:
                        xpp.red = True
                        root = _rotate_left(root, xpp)


def hashmap_order(keys: Sequence[str]) -> list[str]:
    """Iteration order of `new HashMap<String, V>()` after putting distinct `keys` in this order."""
    m = JavaHashMapOrder()
    for k in keys:
        m.put(k)
    return m.keys()


# --------------------------------------------------------------------------------------------------
# Fast path: counts in first-occurrence order, HashMap order computed only for the kept tokens

_CACHE_LIMIT = 1 << 20
_NON_ASCII_RUN = re.compile("[^\x00-\x7f]+")


def _spread_of_str(key: str) -> int:
    return _spread(java_string_hash(key))


def _spread_of_bytes(key: bytes) -> int:
    """Spread Java hash of a UTF-8 token of BMP characters (what solr folding produces)."""
    h = 0
    if key.isascii():
        for b in key:
            h = (31 * h + b) & 0xFFFFFFFF
        h ^= h >> 16
        return h - 0x100000000 if h & 0x80000000 else h
    return _spread(java_string_hash(key.decode("utf-8")))


class _Hashes:
    """Per key type: cached spread Java hashes, and one byte `spread & 63` per key (tree-bin checks)."""

    def __init__(self, fn) -> None:  # type: ignore[no-untyped-def]
        self.fn = fn
        self.spread_cache: dict = {}
        self.low6_cache: dict = {}

    def spreads(self, keys: Sequence) -> list[int]:
        cache = self.spread_cache
        hs = list(map(cache.get, keys))
        if None in hs:
            if len(cache) > _CACHE_LIMIT:
                cache.clear()
            fn = self.fn
            for i, h in enumerate(hs):
                if h is None:
                    hs[i] = cache[keys[i]] = fn(keys[i])
        return hs

    def low6(self, keys: Iterable) -> bytes:
        """One byte (spread hash & 63) per key; `keys` may be any re-iterable (a dict)."""
        cache = self.low6_cache
        parts = list(map(cache.get, keys))
        if None in parts:
            keys = list(keys)
            if len(cache) > _CACHE_LIMIT:
                cache.clear()
            missing = [i for i, b in enumerate(parts) if b is None]
            for i, h in zip(missing, self.spreads([keys[i] for i in missing]), strict=True):
                parts[i] = cache[keys[i]] = _LOW6[h & 63]
        return b"".join(parts)


_LOW6 = [bytes([i]) for i in range(64)]
_HASHES_BYTES = _Hashes(_spread_of_bytes)
_HASHES_STR = _Hashes(_spread_of_str)


def _capacity(n: int) -> int:
    """Table length of a default HashMap holding n keys (no treeifyBin resizes)."""
    cap = 16
    while n > cap * 3 // 4:
        cap <<= 1
    return cap


def _max_bin(hs: Sequence[int], mask: int) -> int:
    return max(Counter([h & mask for h in hs]).values())


def _tree_free(keys: list, cap: int, tied_buckets: Iterable[int], hashes: _Hashes) -> bool:
    """True when no bin the tied buckets descend from was ever a red-black tree and treeifyBin never
    resized the table (a list bin treeifies on reaching 9 nodes; below capacity 64 it resizes instead),
    so HashMap order there is plain insertion order. False: take the exact simulation."""
    n = len(keys)
    if n <= _TREEIFY_THRESHOLD:
        return True
    if n <= 48:  # capacities 16 and 32 held the first 13 / 25 keys
        hs16 = hashes.spreads(keys[:25])
        if _max_bin(hs16[:13], 15) > _TREEIFY_THRESHOLD or _max_bin(hs16, 31) > _TREEIFY_THRESHOLD:
            return False
        if cap < _MIN_TREEIFY_CAPACITY:
            return True
    classes = _class_sizes(hashes.low6(keys))
    hs_all: list[int] | None = None
    bins: dict[int, Counter[int]] = {}  # capacity c -> bin sizes of the first 3c/4+1 keys (built once)
    for f in tied_buckets:
        if classes[f & 63] <= _TREEIFY_THRESHOLD:
            continue  # every ancestor bin (capacity >= 64) is a subset of this class
        if hs_all is None:
            hs_all = hashes.spreads(keys)
        c = 64
        while c <= cap:  # exact: the bin f descends from at capacity c held the first 3c/4+1 keys at most
            m = c - 1
            if c not in bins:
                bins[c] = Counter([h & m for h in hs_all[: c * 3 // 4 + 1]])
            if bins[c][f & m] > _TREEIFY_THRESHOLD:
                return False
            c <<= 1
    return True


def _class_sizes(low6: bytes) -> list[int]:
    """Keys per low-6-bit hash class (one count for all tied buckets instead of a scan per bucket:
    counting per bucket was quadratic on texts of many distinct tokens)."""
    return np.bincount(np.frombuffer(low6, np.uint8), minlength=64).tolist()


def _profile_items(counts: dict, quant_rate: float, hashes: _Hashes, short: Set = frozenset()) -> list[tuple]:
    """(token, quantized count) in TextProfileSignature's output order. `counts` in first-seen order
    (HashMap insertion order); keys in `short` are ignored (tokens Java never put in its map)."""
    n = len(counts) - len(short)
    if n <= 0:
        return []
    if short:
        kept = [k for k, v in counts.items() if v >= 2 and k not in short]
    else:
        kept = [k for k, v in counts.items() if v >= 2]
    if kept:  # maxFreq >= 2, so quant >= 2 and every kept token is in this superset
        qs = list(map(counts.__getitem__, kept))
        quant = _quant(max(qs), quant_rate)
        if quant > 2:
            sel = [i for i, v in enumerate(qs) if v >= quant]
            kept = [kept[i] for i in sel]
            qs = [qs[i] // quant * quant for i in sel]
            if not kept:
                return []
        else:
            qs = [v & -2 for v in qs]
    else:  # every count is 1
        if _quant(1, quant_rate) != 1:
            return []
        kept = [k for k in counts if k not in short] if short else list(counts)
        qs = [1] * n
    mask = _capacity(n) - 1
    hs = hashes.spreads(kept)
    keys = [(h & mask) - (q << 32) for h, q in zip(hs, qs, strict=True)]  # count desc, then bucket
    order = sorted(range(len(keys)), key=keys.__getitem__)  # stable: insertion order within a bucket
    if n > _TREEIFY_THRESHOLD and (n <= 48 or len(set(keys)) < len(keys)):
        sk = list(map(keys.__getitem__, order))
        tied = {a & mask for a, b in zip(sk, sk[1:], strict=False) if a == b}
        if n > 48:
            # quick exact-enough test over every token seen (short ones too: conservative): an ancestor
            # bin at capacity >= 64 holds only keys of its low-6-bit class, so <= 8 there means no tree
            classes = _class_sizes(hashes.low6(counts))
            if all(classes[f & 63] <= _TREEIFY_THRESHOLD for f in tied):
                tied = set()
        if n <= 48 or tied:
            all_keys = [k for k in counts if k not in short] if short else list(counts)
            if not _tree_free(all_keys, mask + 1, tied, hashes):
                return _exact_items(all_keys, counts, _quant(max(counts[k] for k in all_keys), quant_rate), hashes)
    return list(zip(map(kept.__getitem__, order), map(qs.__getitem__, order), strict=False))


def _exact_items(keys: list, counts: dict, quant: int, hashes: _Hashes) -> list[tuple]:
    """Slow exact path: simulate the HashMap (tree bins included) holding `keys` in this order."""
    m = JavaHashMapOrder()
    for k, h in zip(keys, hashes.spreads(keys), strict=True):
        m.put(k, h)
    kept = [(k, c // quant * quant) for k in m.keys() if (c := counts[k]) >= quant]
    kept.sort(key=_neg_second)
    return kept


def _neg_second(t: tuple) -> int:
    return -t[1]


def _fold_bytes(text: str) -> bytes:
    """Text -> UTF-8 bytes where every Java separator unit is b' ' and letters/digits are Java-lowercased."""
    at = javachars.ascii_fold_bytes()
    if text.isascii():
        return text.encode("ascii").translate(at)
    ft = javachars.fold_table()
    folded = _NON_ASCII_RUN.sub(lambda m: m.group().translate(ft), text)
    return folded.encode("utf-8").translate(at)


@lru_cache(maxsize=4)
def _short_ascii(m: int) -> frozenset[bytes]:
    """All ASCII tokens (lowercase letters, digits) of 1..m characters."""
    alnum = [bytes([c]) for c in b"abcdefghijklmnopqrstuvwxyz0123456789"]
    out: set[bytes] = set()
    layer = [b""]
    for _ in range(m):
        layer = [a + c for a in layer for c in alnum]
        out.update(layer)
    return frozenset(out)


def _token_counts(text: str, min_token_len: int) -> tuple[dict[bytes, int], Set]:
    """Counts of the UTF-8 tokens of `text` in first-occurrence order (HashMap insertion order), and
    the set of those too short for Java's map (UTF-16 length <= min_token_len)."""
    b = _fold_bytes(text)
    counts: dict[bytes, int] = {}
    _count_elements(counts, b.split())
    m = min_token_len
    if m < 0:
        if not b or b.endswith(b" "):
            counts[b""] = counts.get(b"", 0) + 1  # Java counts the empty trailing token when 0 > minTokenLen
        return counts, frozenset()
    if m <= 3:
        short: Set = _short_ascii(m).intersection(counts) if m else set()
    else:
        short = {k for k in counts if len(k) <= m}
    if not b.isascii():  # UTF-8 byte length overstates the UTF-16 length of non-ASCII tokens
        m3 = 3 * m
        short |= {k for k in filterfalse(bytes.isascii, counts) if len(k) <= m3 and len(k.decode()) <= m}
    return counts, short


def _profile_bytes(text: str, quant_rate: float, min_token_len: int) -> bytes:
    """UTF-8 of the profile TextProfileSignature.add(text) feeds to MD5."""
    counts, short = _token_counts(text, min_token_len)
    items = _profile_items(counts, quant_rate, _HASHES_BYTES, short)
    return b"\n".join(map(b"%s %d".__mod__, items))


# --------------------------------------------------------------------------------------------------
# Public API


def solr_tokens(text: str, min_token_len: int = DEFAULT_MIN_TOKEN_LEN) -> list[str]:
    """TextProfileSignature's tokens of `text` in order: maximal runs of Java letters/digits over UTF-16
    units, Java-lowercased, kept when longer than `min_token_len` (UTF-16 units)."""
    folded = text.translate(javachars.fold_table())
    toks = [t for t in folded.split(" ") if t and len(t) > min_token_len]
    if min_token_len < 0 and (not folded or folded[-1] == " "):
        toks.append("")  # Java adds the empty trailing token when 0 > minTokenLen
    return toks


def java_profile(tokens: Sequence[str], quant_rate: float = DEFAULT_QUANT_RATE) -> str:
    """The profile string TextProfileSignature builds from already-filtered, lowercased tokens in text
    order: "token count" lines, counts quantized, stable-sorted by count over HashMap iteration order."""
    items = _profile_items(Counter(tokens), quant_rate, _HASHES_STR)
    return "\n".join([f"{k} {q}" for k, q in items])


def reference_profile(tokens: Sequence[str], quant_rate: float = DEFAULT_QUANT_RATE) -> str:
    """java_profile computed the slow, literal way (full HashMap simulation); for tests."""
    counts: dict[str, int] = Counter(tokens)
    quant = _quant(max(counts.values(), default=0), quant_rate)
    kept = [(k, c // quant * quant) for k in hashmap_order(list(counts)) if (c := counts[k]) >= quant]
    kept.sort(key=_neg_second)
    return "\n".join(f"{k} {c}" for k, c in kept)


def profile_digest(profiles: Iterable[str]) -> str:
    """MD5 over the UTF-8 of each profile string fed in order (MD5Signature.add), lowercase hex."""
    md5 = hashlib.md5()
    for p in profiles:
        md5.update(_java_utf8(p))
    return md5.hexdigest()


def solr_text_signature(
    text: str, quant_rate: float = DEFAULT_QUANT_RATE, min_token_len: int = DEFAULT_MIN_TOKEN_LEN
) -> str:
    """What Solr's TextProfileSignature gives for `text` added as one value: lowercase hex MD5."""
    return hashlib.md5(_profile_bytes(text, quant_rate, min_token_len)).hexdigest()


def solr_text_signatures(
    texts: Iterable[str], quant_rate: float = DEFAULT_QUANT_RATE, min_token_len: int = DEFAULT_MIN_TOKEN_LEN
) -> list[str]:
    """solr_text_signature of many texts at once: the batched numpy kernel (signatures.textprofile_batch),
    several times faster per text; texts it cannot order exactly take the single-text path."""
    texts = _checked_texts(texts)
    md5 = hashlib.md5
    if len(texts) < _MIN_KERNEL_BATCH:  # a kernel call costs ~0.4 ms whatever its size
        return [md5(_profile_bytes(t, quant_rate, min_token_len)).hexdigest() for t in texts]
    return [md5(p).hexdigest() for p in profile_bytes_batch(texts, quant_rate, min_token_len, _profile_bytes, _quant)]


_MIN_KERNEL_BATCH = 4


def solr_text_signatures_reference(
    texts: Iterable[str], quant_rate: float = DEFAULT_QUANT_RATE, min_token_len: int = DEFAULT_MIN_TOKEN_LEN
) -> list[str]:
    """solr_text_signature of each text, one at a time (the per-text path the batch kernel is tested
    against)."""
    md5 = hashlib.md5
    return [md5(_profile_bytes(t, quant_rate, min_token_len)).hexdigest() for t in texts]


def _checked_texts(texts: Iterable[str]) -> list[str]:
    out = texts if isinstance(texts, list) else list(texts)
    for t in out:
        if not isinstance(t, str):
            raise TypeError(f"expected str texts, got {type(t).__name__}")
    return out


def solr_fields_signatures(
    postings: Iterable[Mapping[str, object]],
    fields: Sequence[str],
    quant_rate: float = DEFAULT_QUANT_RATE,
    min_token_len: int = DEFAULT_MIN_TOKEN_LEN,
) -> list[str]:
    """solr_fields_signature of many postings at once: every profile of every posting (field names and
    values) goes through the batch kernel in one call, then one MD5 per posting."""
    names = sorted(fields, key=_utf16_sort_key)
    pieces: list[str] = []
    spans: list[tuple[int, int]] = []
    for posting in postings:
        begin = len(pieces)
        for name in names:
            if name not in posting:
                continue
            pieces.append(name)
            value = posting[name]
            values = value if isinstance(value, list | tuple) else [value]
            pieces.extend([java_string_value(v) for v in values])
        spans.append((begin, len(pieces)))
    if len(pieces) < _MIN_KERNEL_BATCH:
        profiles = [_profile_bytes(p, quant_rate, min_token_len) for p in pieces]
    else:
        profiles = profile_bytes_batch(pieces, quant_rate, min_token_len, _profile_bytes, _quant)
    md5 = hashlib.md5
    return [md5(b"".join(profiles[b:e])).hexdigest() for b, e in spans]


@lru_cache(maxsize=32)
def tokenless_signatures(
    fields: tuple[str, ...],
    quant_rate: float = DEFAULT_QUANT_RATE,
    min_token_len: int = DEFAULT_MIN_TOKEN_LEN,
) -> frozenset[str]:
    """The signatures solr_fields_signature gives a posting whose `fields` yield no token (no text,
    punctuation, tokens of `min_token_len` characters or fewer): the profiles of the present fields' names
    alone, one per subset of `fields` present. The same for all such postings, they are no evidence."""
    out = set()
    for r in range(len(fields) + 1):
        for present in combinations(fields, r):
            out.add(solr_fields_signature(dict.fromkeys(present, ""), fields, quant_rate, min_token_len))
    return frozenset(out)


def java_double_to_string(x: float) -> str:
    """Java `Double.toString(double)` for the shortest-repr digits (Java 17 may print more digits for
    a few doubles, JDK-4511638; those differ)."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0.0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    sign = "-" if x < 0 else ""
    r = repr(abs(x))
    mant, _, exp_s = r.partition("e")
    exp = int(exp_s) if exp_s else 0
    int_part, _, frac_part = mant.partition(".")
    digits = (int_part + frac_part).lstrip("0")
    # decimal exponent of the first significant digit
    point = len(int_part) + exp if int_part != "0" else exp - (len(frac_part) - len(frac_part.lstrip("0")))
    digits = digits.rstrip("0") or "0"
    ax = abs(x)
    if 1e-3 <= ax < 1e7:
        if point <= 0:
            return f"{sign}0.{'0' * -point}{digits}"
        ip = digits[:point].ljust(point, "0")
        fp = digits[point:] or "0"
        return f"{sign}{ip}.{fp}"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{point - 1}"


def java_string_value(value: object) -> str:
    """Java `String.valueOf` of a field value as Solr's JSON loader types it (str, int -> Long,
    float -> Double, bool -> Boolean, None -> null, list -> List)."""
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return java_double_to_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(java_string_value(v) for v in value) + "]"
    raise TypeError(f"unsupported field value type {type(value).__name__}: expected str, number, bool, null or list")


def _utf16_sort_key(s: str) -> bytes:
    return s.encode("utf-16-be", "surrogatepass")


def solr_fields_signature(
    posting: Mapping[str, object],
    fields: Sequence[str],
    quant_rate: float = DEFAULT_QUANT_RATE,
    min_token_len: int = DEFAULT_MIN_TOKEN_LEN,
) -> str:
    """What SignatureUpdateProcessorFactory(fields=...) with TextProfileSignature writes into `signature`:
    field names sorted; for each present field its name, then each value, as separate profiles."""
    md5 = hashlib.md5()
    for name in sorted(fields, key=_utf16_sort_key):
        if name not in posting:
            continue
        md5.update(_profile_bytes(name, quant_rate, min_token_len))
        value = posting[name]
        values = value if isinstance(value, list | tuple) else [value]
        for v in values:
            md5.update(_profile_bytes(java_string_value(v), quant_rate, min_token_len))
    return md5.hexdigest()
