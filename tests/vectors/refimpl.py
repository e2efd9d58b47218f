# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The stackshift authors
"""tests/vectors/refimpl.py - reference implementations for the known answers.

Written from the specifications, independently of the C code they check:

* ChaCha20 from RFC 8439 (quarter round 2.1, block function 2.3, counter
  mode 2.4), and the fast-key-erasure generator the pool is cut from;
* SipHash-2-4 from Aumasson and Bernstein's paper;
* LFSR113 bit by bit from L'Ecuyer's definition (each component the GF(2)
  recurrence x(n) = x(n-k) XOR x(n-k+q), its n-th word the bits
  x(n*s) .. x(n*s+31), most significant first), not from the word-level
  shift-and-mask step the C code uses.

Standard library only.
"""
import struct

MASK32 = 0xFFFFFFFF
MASK64 = (1 << 64) - 1
OFFSET_MASK = 0x3F0

# ---- ChaCha20 (RFC 8439) ------------------------------------------------


def _rotl32(v, n):
    return ((v << n) | (v >> (32 - n))) & MASK32


def _quarter(x, a, b, c, d):
    x[a] = (x[a] + x[b]) & MASK32; x[d] = _rotl32(x[d] ^ x[a], 16)
    x[c] = (x[c] + x[d]) & MASK32; x[b] = _rotl32(x[b] ^ x[c], 12)
    x[a] = (x[a] + x[b]) & MASK32; x[d] = _rotl32(x[d] ^ x[a], 8)
    x[c] = (x[c] + x[d]) & MASK32; x[b] = _rotl32(x[b] ^ x[c], 7)


def chacha20_block(key, counter, nonce):
    """64 bytes: the block function of section 2.3 for a 32-byte key, a
    32-bit counter and a 12-byte nonce."""
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    state += list(struct.unpack("<8I", key)) + [counter & MASK32]
    state += list(struct.unpack("<3I", nonce))
    x = list(state)
    for _ in range(10):
        for a, b, c, d in ((0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15),
                           (0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14)):
            _quarter(x, a, b, c, d)
    return struct.pack("<16I", *((x[i] + state[i]) & MASK32 for i in range(16)))


def chacha20_stream(key, counter, nonce, length):
    """The keystream of section 2.4 from block `counter` on."""
    out = bytearray()
    while len(out) < length:
        out += chacha20_block(key, counter, nonce)
        counter += 1
    return bytes(out[:length])


def fke_generate(key, length):
    """Fast key erasure: (output, next key). Keystream with the all-zero
    nonce; block 0's first 32 bytes are the next key, the output is the
    keystream from byte 32 on."""
    stream = chacha20_stream(key, 0, bytes(12), 32 + length)
    return stream[32:], stream[:32]


def pool_offsets(key, size, start, refill):
    """The offsets an empty ring of `size` bytes whose head and tail are at
    `start` gives after one refill of up to `refill` bytes with `key`, drawn
    until it is empty: the refill cuts the room into runs up to the end of
    the ring and makes each with fast key erasure, the key carried along."""
    todo = min(size, refill)
    made = bytearray()
    at = start % size
    while len(made) < todo:
        run = min(size - at, todo - len(made))
        out, key = fke_generate(key, run)
        made += out
        at = 0
    return [(b << 4) & OFFSET_MASK for b in made]


# ---- SipHash-2-4 --------------------------------------------------------


def _rotl64(v, n):
    return ((v << n) | (v >> (64 - n))) & MASK64


def _sipround(v):
    v[0] = (v[0] + v[1]) & MASK64; v[1] = _rotl64(v[1], 13); v[1] ^= v[0]; v[0] = _rotl64(v[0], 32)
    v[2] = (v[2] + v[3]) & MASK64; v[3] = _rotl64(v[3], 16); v[3] ^= v[2]
    v[0] = (v[0] + v[3]) & MASK64; v[3] = _rotl64(v[3], 21); v[3] ^= v[0]
    v[2] = (v[2] + v[1]) & MASK64; v[1] = _rotl64(v[1], 17); v[1] ^= v[2]; v[2] = _rotl64(v[2], 32)


def siphash24(key, msg):
    """SipHash-2-4 of the bytes msg under a 16-byte key, as an integer
    (its 8 output bytes read little-endian)."""
    k0, k1 = struct.unpack("<2Q", key)
    v = [k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D,
         k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573]
    tail = len(msg) % 8
    last = msg[len(msg) - tail:] + bytes(7 - tail) + bytes([len(msg) & 0xFF])
    for i in range(0, len(msg) - tail, 8):
        m = struct.unpack("<Q", msg[i:i + 8])[0]
        v[3] ^= m; _sipround(v); _sipround(v); v[0] ^= m
    m = struct.unpack("<Q", last)[0]
    v[3] ^= m; _sipround(v); _sipround(v); v[0] ^= m
    v[2] ^= 0xFF
    for _ in range(4):
        _sipround(v)
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def siphash_offsets(key, cpu, count):
    """The siphash strategy: hash n = SipHash-2-4(key, LE64(n) || LE64(cpu)),
    n = 0, 1, ...; each hash gives ten offsets from its bits 0-5, 6-11, ..."""
    out = []
    n = 0
    while len(out) < count:
        h = siphash24(key, struct.pack("<2Q", n, cpu))
        n += 1
        for i in range(10):
            out.append(((h >> (6 * i)) & 63) << 4)
    return out[:count]


# ---- LFSR113, bit by bit -------------------------------------------------

LFSR113_PARAMS = ((31, 6, 18), (29, 2, 2), (28, 13, 7), (25, 3, 13))


def lfsr113_seed_word(seed, k):
    """The seeding rule: a word whose top k bits are all zero gets 2^(32-k) added."""
    return seed + (1 << (32 - k)) if seed < (1 << (32 - k)) else seed


class Lfsr113Bits:
    """LFSR113 from the bit recurrences. next() returns outputs 1, 2, ...:
    output n is the XOR over the components of bits x(n*s) .. x(n*s+31)."""

    def __init__(self, seed4):
        self.comps = []
        for seed, (k, q, s) in zip(seed4, LFSR113_PARAMS):
            word = lfsr113_seed_word(seed, k)
            bits = [(word >> (31 - i)) & 1 for i in range(k)]  # x(0) .. x(k-1)
            self.comps.append({"k": k, "q": q, "s": s, "bits": bits, "base": 0})
        self.n = 0

    @staticmethod
    def _bit(c, m):
        """x(m) of component c, extending the sequence as needed; only the
        last k + 32 + s bits are kept."""
        bits, k, q = c["bits"], c["k"], c["q"]
        while c["base"] + len(bits) <= m:
            j = len(bits)
            bits.append(bits[j - k] ^ bits[j - k + q])
        return bits[m - c["base"]]

    def next(self):
        self.n += 1
        out = 0
        for c in self.comps:
            word = 0
            for i in range(32):
                word = word << 1 | self._bit(c, self.n * c["s"] + i)
            drop = self.n * c["s"] - c["base"] - c["k"]  # bits no later output needs
            if drop > 64:
                del c["bits"][:drop]
                c["base"] += drop
            out ^= word
        return out
