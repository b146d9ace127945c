"""Batched numpy kernel for Solr's TextProfileSignature: the profile bytes of many texts in a few
array passes instead of per-token Python, byte-identical to signatures.textprofile's exact path.

How (per batch of texts, one UTF-16 code-unit array; an all-ASCII batch uses one byte per unit):
* Java's isLetterOrDigit/toLowerCase(char) by table lookup (separators become 0; texts are joined by a
  separator so no token crosses texts); token starts/ends from the transitions of the letter flag.
* Token identity: a token of <= 8 bytes (8 ASCII / 4 UTF-16 units) is its own packed 64-bit word
  (exact); a longer one gets a 64-bit hash of its words. One np.sort of (text | hash bits | position)
  groups equal tokens of a text with the first occurrence first. Every occurrence is then checked
  against its group's first occurrence (packed word, length, and every word of long tokens), so a hash
  collision can never merge two tokens: a text with any mismatch goes to the exact path.
* java.util.HashMap order: Java String.hashCode of each distinct token (from its words, mod 2**32),
  spread; iteration order = (bucket at the final capacity, first occurrence) because resize splits keep
  relative order -- unless a bin ever reached 9 nodes (treeifyBin: a tree bin from capacity 64, an
  early resize below it). That is checked exactly at every capacity the table went through (keys
  inserted while it had that capacity) and such texts take the exact path.
* Quant per text with textprofile's float32 Math.round; one sort of the kept tokens by (text, count
  desc, bucket, first occurrence); "token count" lines assembled as one array and split per text.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from functools import cache

import numpy as np

from signatures import javachars

__all__ = ["MAX_BATCH_UNITS", "profile_bytes_batch"]

MAX_BATCH_UNITS = 1 << 18
"""Code units per kernel call (texts are grouped up to this size; a longer text goes alone)."""

_TREEIFY = 8  # a list bin that gets its 9th node is treeified (or, below capacity 64, the table resized)
_U64 = np.uint64
_M32 = _U64(0xFFFFFFFF)
_GOLDEN = _U64(0x9E3779B97F4A7C15)
_INV31 = pow(31, -1, 1 << 32)


@cache
def _ascii_table() -> bytes:
    """bytes.translate table for ASCII: letters/digits -> Java lowercase, separators -> 0."""
    t = javachars.java_table()
    return bytes(t[b] if b < 128 else 0 for b in range(256))


@cache
def _unit_table() -> np.ndarray:
    """uint16[65536]: Java toLowerCase(c) when isLetterOrDigit(c), else 0."""
    return np.frombuffer(javachars.java_table().tobytes(), dtype=np.uint16).astype(np.uint16)


_POW_TABLE_SIZE = 1 << 16


@cache
def _pow_table(base: int) -> np.ndarray:
    """uint32[65536]: base**i mod 2**32."""
    out = np.full(_POW_TABLE_SIZE, base, dtype=_U64)
    out[0] = 1
    return (np.cumprod(out, dtype=_U64) & _M32).astype(np.uint32)


def _pow_at(base: int, exps: np.ndarray) -> np.ndarray:
    """base**e mod 2**32 (uint32) for every e in `exps` (table lookup; squaring for huge e)."""
    table = _pow_table(base)
    if not len(exps) or int(exps.max()) < _POW_TABLE_SIZE:
        return table[exps]
    out = table[np.minimum(exps, _POW_TABLE_SIZE - 1)]
    big = np.flatnonzero(exps >= _POW_TABLE_SIZE)
    e = exps[big].astype(np.int64)
    r = np.ones(len(big), dtype=np.uint32)
    b = np.full(len(big), base & 0xFFFFFFFF, dtype=np.uint32)
    while e.any():
        odd = (e & 1).astype(bool)
        r[odd] *= b[odd]
        b *= b
        e >>= 1
    out[big] = r
    return out


def _ranges(lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For items with `lengths`: (item index, offset inside the item) of every element, concatenated."""
    total = int(lengths.sum())
    item = np.repeat(np.arange(len(lengths)), lengths)
    starts = np.cumsum(lengths) - lengths
    off = np.arange(total, dtype=np.int64) - np.repeat(starts, lengths)
    return item, off


class _Units:
    """The batch as code units (uint8 for an all-ASCII batch, else uint16), Java-lowered, separators 0,
    with a leading separator and >= 8 bytes of zero padding; `words[i]` = the 8 bytes from unit i."""

    def __init__(self, texts: Sequence[str], ascii_only: bool) -> None:
        if ascii_only:
            self.width = 1
            lens = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
            raw = (" " + " ".join(texts) + " " * 9).encode("ascii").translate(_ascii_table())
            self.units = np.frombuffer(raw, dtype=np.uint8)
        else:
            self.width = 2
            encs = [t.encode("utf-16-le", "surrogatepass") for t in texts]
            lens = np.fromiter(map(len, encs), dtype=np.int64, count=len(encs)) // 2
            raw = b"\0\0" + b"\0\0".join(encs) + b"\0\0" * 5
            self.units = _unit_table()[np.frombuffer(raw, dtype=np.uint16)]
        n_units = len(self.units) - 8 // self.width
        self.words = np.ndarray(shape=(n_units,), dtype="<u8", buffer=self.units, strides=(self.width,))
        self.per_word = 8 // self.width
        self.text_start = np.cumsum(lens + 1) - lens  # unit index of each text's first unit
        bits = 8 * self.width
        self.masks = np.array([(1 << (bits * k)) - 1 for k in range(self.per_word)] + [(1 << 64) - 1], dtype=_U64)


def _token_spans(u: _Units, min_token_len: int) -> tuple[np.ndarray, np.ndarray]:
    """(start unit, length) of the tokens longer than min_token_len, in text order, as int64 (numpy
    gathers with int32 indices are slower); filtered in int32 when the call holds < 2**31 units."""
    flag = u.units != 0
    # transitions alternate: the unit before a start, the last unit of a token
    index = np.int32 if len(u.units) < 2**31 else np.int64
    edges = np.flatnonzero(flag[1:] != flag[:-1]).astype(index).reshape(-1, 2)
    before = edges[:, 0]
    lengths = edges[:, 1] - before
    if min_token_len > 0:
        keep = np.flatnonzero(lengths > min_token_len)  # (flatnonzero + take beats a boolean mask)
        before, lengths = before.take(keep), lengths.take(keep)
    return before.astype(np.int64) + 1, lengths.astype(np.int64)


def _extra_words(u: _Units, starts: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The words after the first of tokens longer than one word: (token index, word index >= 1 in the
    token, masked 64-bit word)."""
    extra = (lengths - 1) // u.per_word
    item, k = _ranges(extra)
    k += 1
    rem = lengths[item] - k * u.per_word
    w = u.words[starts[item] + k * u.per_word] & u.masks.take(np.minimum(rem, u.per_word))
    return item, k, w


def _starts_of(item: np.ndarray) -> np.ndarray:
    """Start index of each run in a sorted item array where every item occurs at least once."""
    new = np.empty(len(item), dtype=bool)
    new[:1] = True
    np.not_equal(item[1:], item[:-1], out=new[1:])
    return np.flatnonzero(new)


def _lane_sums(u: _Units, w: np.ndarray) -> np.ndarray:
    """sum_i unit_i(w) * 31**-i mod 2**32 for each word (uint32)."""
    inv = _pow_table(_INV31)[: u.per_word]
    lanes = w.view(np.uint8 if u.width == 1 else np.uint16).reshape(-1, u.per_word)
    acc = lanes[:, 0].astype(np.uint32)
    for i in range(1, u.per_word):
        acc += lanes[:, i].astype(np.uint32) * inv[i]
    return acc


def _java_hashes(u: _Units, first: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Java String.hashCode (as uint32) of tokens given their masked first words:
    31**(L-1) * sum_j c_j * 31**-j mod 2**32."""
    s = _lane_sums(u, first)
    long_idx = np.flatnonzero(lengths > u.per_word)
    if len(long_idx):
        item, k, w = _extra_words(u, starts[long_idx], lengths[long_idx])
        s[long_idx] += np.add.reduceat(_lane_sums(u, w) * _pow_at(_INV31, k * u.per_word), _starts_of(item))
    return _pow_at(31, lengths - 1) * s


def _identity_keys(u: _Units, starts: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(key, masked first word) per token: the packed word for short tokens (exact), a 64-bit hash of
    the words for long ones."""
    first = u.words[starts] & u.masks.take(np.minimum(lengths, u.per_word))
    keys = first.copy()
    long_idx = np.flatnonzero(lengths > u.per_word)
    if len(long_idx):
        item, k, w = _extra_words(u, starts[long_idx], lengths[long_idx])
        mixed = (w ^ (k.astype(_U64) * _GOLDEN)) * _U64(0xBF58476D1CE4E5B9)
        mixed ^= mixed >> _U64(31)
        h = first[long_idx] * _U64(0xD6E8FEB86659FD93)
        h += np.add.reduceat(mixed, _starts_of(item))
        keys[long_idx] = (h ^ (lengths[long_idx].astype(_U64) * _U64(0x94D049BB133111EB))) | _U64(1 << 63)
    return keys, first


def _capacities(n: np.ndarray) -> np.ndarray:
    """Table length of a default HashMap holding n keys (no treeifyBin resizes)."""
    cap = np.full(len(n), 16, dtype=np.int64)
    while True:
        grow = n > cap * 3 // 4
        if not grow.any():
            return cap
        cap[grow] <<= 1


def _bit_length(x: np.ndarray) -> np.ndarray:
    """int.bit_length for non-negative int64 values below 2**53."""
    return np.frexp(x.astype(np.float64))[1].astype(np.int64)


def _over_full_bins(t: np.ndarray, rank: np.ndarray, spread: np.ndarray, lg_cap: np.ndarray,
                    k_lo: int) -> np.ndarray:
    """Texts (indices) where a bin got a 9th key, counting only these keys (text t, insertion rank,
    spread hash) at capacities 2**k for k_lo <= k <= lg_cap[t]; at capacity c the table held the keys
    of rank 0 .. 3c/4, so a key of rank r counts at every c >= 4r/3."""
    kmin = np.maximum(k_lo, _bit_length((rank + 2) // 3 - 1) + 2)  # smallest k with 3 * 2**k / 4 >= rank
    nl = np.maximum(lg_cap[t] - kmin + 1, 0)
    if not nl.any():
        return np.zeros(0, dtype=np.int64)
    item, j = _ranges(nl)
    k = kmin[item] + j
    ti = t[item]
    # a bucket = (text, k, spread & (2**k - 1)); pack into one int64 and count equal values
    key = (ti.astype(np.int64) << 40) | (k << 34) | (spread[item].astype(np.int64) & ((1 << k) - 1))
    key.sort()
    edge = np.flatnonzero(np.diff(key) != 0)
    bounds = np.concatenate(([0], edge + 1, [len(key)]))
    full = np.flatnonzero(np.diff(bounds) > _TREEIFY)
    return np.unique(key[bounds[full]] >> 40)


def _tree_texts(ins_text: np.ndarray, ins_spread: np.ndarray, n_t: np.ndarray, cap_t: np.ndarray) -> np.ndarray:
    """Texts where some HashMap bin ever got a 9th key (a tree bin, or a resize below capacity 64).
    Keys in insertion order, text-major. Capacities 16 and 32 (keys of rank <= 24) are checked exactly;
    from 64 on a bin only holds keys of one class spread & 63, so only classes with >= 9 keys of a
    text are checked exactly, level by level."""
    n = len(n_t)
    bad = np.zeros(n, dtype=bool)
    risky = np.flatnonzero(n_t > _TREEIFY)
    if not len(risky):
        return bad
    lg_cap = _bit_length(cap_t) - 1
    g_off = np.cumsum(n_t) - n_t
    # capacity 16 held the first 13 keys, capacity 32 the first 25: a (text, 25) matrix of spreads
    j = np.arange(25)
    valid = j < n_t[risky][:, None]
    sp = ins_spread[np.where(valid, g_off[risky][:, None] + j, 0)].astype(np.int64)
    r = np.arange(len(risky))[:, None]
    for cap, first_n in ((16, 13), (32, 25)):
        ok = valid[:, :first_n] & (cap_t[risky] >= cap)[:, None]
        idx = (r * cap + (sp[:, :first_n] & (cap - 1)))[ok]
        full = np.flatnonzero(np.bincount(idx, minlength=len(risky) * cap) > _TREEIFY)
        bad[risky[full // cap]] = True
    # capacities >= 64: classes spread & 63 with >= 9 keys
    big = cap_t >= 64
    if big.any():
        cls = ins_text * 64 + (ins_spread & 63).astype(np.int64)
        crowded = (np.bincount(cls, minlength=n * 64) > _TREEIFY).reshape(n, 64)
        crowded[~big] = False
        sel = np.flatnonzero(crowded.reshape(-1)[cls])
        if len(sel):
            t = ins_text[sel]
            bad[_over_full_bins(t, sel - g_off[t], ins_spread[sel], lg_cap, 6)] = True
    return bad


def _bits(x: int) -> int:
    return max(1, int(x).bit_length())


def _kernel(texts: Sequence[str], ascii_only: bool, quant_rate: float, min_token_len: int,
            quant: Callable[[int, float], int]) -> tuple[list[bytes], np.ndarray]:
    """Profile bytes per text, and a mask of texts the caller must compute with the exact path."""
    n = len(texts)
    u = _Units(texts, ascii_only)
    starts, lengths = _token_spans(u, min_token_len)
    T = len(starts)
    tok_off = np.searchsorted(starts, u.text_start)
    tok_off = np.append(tok_off, T)
    per_text = np.diff(tok_off)
    text_of = np.repeat(np.arange(n, dtype=np.int64), per_text)
    fallback = np.zeros(n, dtype=bool)
    if T == 0:
        return [b""] * n, fallback

    keys, first = _identity_keys(u, starts, lengths)
    bt, bo = _bits(n - 1), _bits(T - 1)
    bh = 64 - bt - bo
    if bh < 20:
        raise ValueError("batch too large for the sort key")
    # one sort of (text | hash bits | occurrence): a text's equal tokens end up adjacent, first
    # occurrence first
    sk = (keys * _GOLDEN) >> _U64(64 - bh)
    sk <<= _U64(bo)
    sk |= np.arange(T, dtype=_U64)
    sk |= text_of.astype(_U64) << _U64(64 - bt)
    sk.sort()
    occ = (sk & _U64((1 << bo) - 1)).astype(np.int64)
    grp = sk >> _U64(bo)
    same = grp[1:] == grp[:-1]  # position p+1 continues the group of p
    gstart = np.flatnonzero(np.concatenate(([True], ~same)))
    G = len(gstart)
    counts = np.diff(np.append(gstart, T))
    rep = occ[gstart]  # first occurrence of each group
    text_g = text_of[rep]

    # exactness: every occurrence equals the previous one of its group (so all equal the first)
    ks, ls = keys[occ], lengths[occ]
    bad = same & ((ks[1:] != ks[:-1]) | (ls[1:] != ls[:-1]))  # short tokens: the key is the token
    long_m = np.flatnonzero(same & (ls[1:] > u.per_word)) + 1  # long non-first occurrences
    if len(long_m):  # same first word and same further words as the occurrence before
        m_occ, m_prev = occ[long_m], occ[long_m - 1]
        bad[long_m - 1] |= first[m_occ] != first[m_prev]
        ok = np.flatnonzero(~bad[long_m - 1])
        m_occ, m_prev = m_occ[ok], m_prev[ok]
        item, _, w = _extra_words(u, starts[m_occ], lengths[m_occ])
        w_prev = _extra_words(u, starts[m_prev], lengths[m_prev])[2]
        diff = np.flatnonzero(w != w_prev)
        if len(diff):
            bad[long_m[ok[item[diff]]] - 1] = True
    if bad.any():
        fallback[text_of[occ[1:][bad]]] = True

    # insertion order (first occurrence) of the groups, text-major
    gid_at = np.empty(T, dtype=np.int64)
    gid_at[rep] = np.arange(G)
    is_first = np.zeros(T, dtype=bool)
    is_first[rep] = True
    ins = gid_at[np.flatnonzero(is_first)]
    n_t = np.bincount(text_g, minlength=n)
    g_off = np.cumsum(n_t) - n_t
    rank = np.empty(G, dtype=np.int64)
    rank[ins] = np.arange(G) - g_off[text_g[ins]]

    max_f = np.zeros(n, dtype=np.int64)
    has = n_t > 0  # groups are text-major (text is the top of the sort key)
    max_f[has] = np.maximum.reduceat(counts, g_off[has])
    cap_t = _capacities(n_t)
    spread = _java_hashes(u, first[rep], starts[rep], lengths[rep])
    spread ^= spread >> np.uint32(16)
    fallback |= _tree_texts(text_g[ins], spread[ins], n_t, cap_t)

    q_t = np.array([quant(f, quant_rate) if f else 1 for f in max_f.tolist()], dtype=np.int64)
    qg = q_t[text_g]
    kept = np.flatnonzero((counts >= qg) & ~fallback[text_g])
    qc = counts[kept] // qg[kept] * qg[kept]
    kt = text_g[kept]
    bucket = spread[kept].astype(np.int64) & (cap_t[kt] - 1)
    bc, bb, br = _bits(int(qc.max(initial=1))), _bits(int(cap_t.max()) - 1), _bits(int(n_t.max()) - 1)
    if bt + bc + bb + br <= 64:  # (text, count desc, bucket, insertion rank) is unique: sort it, decode
        ck = kt.astype(_U64) << _U64(bc + bb + br)
        ck |= (((1 << bc) - 1) - qc).astype(_U64) << _U64(bb + br)
        ck |= bucket.astype(_U64) << _U64(br)
        ck |= rank[kept].astype(_U64)
        ck.sort()
        kt = (ck >> _U64(bc + bb + br)).astype(np.int64)
        qc = ((1 << bc) - 1) - ((ck >> _U64(bb + br)) & _U64((1 << bc) - 1)).astype(np.int64)
        kept = ins[g_off[kt] + (ck & _U64((1 << br) - 1)).astype(np.int64)]
    else:  # pragma: no cover - only for absurd batch shapes
        order = np.lexsort((rank[kept], bucket, -qc, kt))
        kept, qc, kt = kept[order], qc[order], kt[order]

    # "token count\n" lines as one unit array
    a, ln = starts[rep[kept]], lengths[rep[kept]]
    nd = np.ones(len(qc), dtype=np.int64)
    p = 10
    while True:
        more = qc >= p
        if not more.any():
            break
        nd += more
        p *= 10
    line = ln + nd + 2
    lstart = np.cumsum(line) - line
    out = np.zeros(int(line.sum()), dtype=u.units.dtype)
    item, off = _ranges(ln)
    out[lstart[item] + off] = u.units[a[item] + off]
    out[lstart + ln] = 32
    rest = qc.copy()
    for d in range(int(nd.max(initial=1))):
        has = nd > d
        out[(lstart + ln + nd - d)[has]] = 48 + rest[has] % 10
        rest //= 10
    out[lstart + line - 1] = 10
    lines_per_text = np.bincount(kt, minlength=n)
    t_end = np.cumsum(np.bincount(kt, weights=line, minlength=n).astype(np.int64))
    t_begin = t_end - np.bincount(kt, weights=line, minlength=n).astype(np.int64)
    t_stop = t_end - (lines_per_text > 0)  # no newline after the last line
    if u.width == 1:
        buf = out.tobytes()
        profiles = [buf[b:e] for b, e in zip(t_begin.tolist(), t_stop.tolist(), strict=True)]
    else:
        s = out.tobytes().decode("utf-16-le")  # tokens hold no surrogates: one unit is one character
        profiles = [s[b:e].encode("utf-8") for b, e in zip(t_begin.tolist(), t_stop.tolist(), strict=True)]
    return profiles, fallback


def profile_bytes_batch(texts: Sequence[str], quant_rate: float, min_token_len: int,
                        exact: Callable[[str, float, int], bytes], quant: Callable[[int, float], int],
                        max_units: int = MAX_BATCH_UNITS) -> list[bytes]:
    """For every text, the UTF-8 profile TextProfileSignature.add(text) feeds to MD5. `exact(text, q, m)`
    is the exact single-text path (for texts the kernel hands back), `quant(maxFreq, q)` Java's QUANT."""
    out: list[bytes | None] = [None] * len(texts)
    if min_token_len < 0 or sys.byteorder != "little":
        # Java then also counts the empty trailing token (rare); the word views assume little-endian
        return [exact(t, quant_rate, min_token_len) for t in texts]
    max_units = max(1, min(max_units, 1 << 22))  # keeps >= 20 hash bits in the grouping sort key
    groups: dict[bool, list[int]] = {True: [], False: []}
    for i, t in enumerate(texts):
        groups[t.isascii()].append(i)
    for ascii_only, idx in groups.items():
        start = 0
        while start < len(idx):
            stop, units = start, 0
            while stop < len(idx) and (stop == start or units + len(texts[idx[stop]]) <= max_units):
                units += len(texts[idx[stop]]) + 1
                stop += 1
            chunk = idx[start:stop]
            profiles, fallback = _kernel([texts[i] for i in chunk], ascii_only, quant_rate, min_token_len, quant)
            for j, i in enumerate(chunk):
                out[i] = exact(texts[i], quant_rate, min_token_len) if fallback[j] else profiles[j]
            start = stop
    return out  # type: ignore[return-value]
