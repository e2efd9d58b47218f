# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The stackshift authors
"""lib/kstack/verify/lfsr_bv.py - the LFSR113 step's liveness as 32-bit
bit-vector goals for why3 (make verify's line verify.bitvector.kstack_lfsr_step).

WP 25 hands C's bit operations to the provers as functions over unbounded
integers, and no prover proves the step's liveness from them. why3, WP's own
back end, has a theory of 32-bit vectors (bv.BV32) that z3 decides directly.
This module writes that theory from kstack.h's text, so the goals cannot
drift from the C:
  * the body of kstack_lfsr_step() (its `uint32_t name = expr;` lines and its
    `return expr;`), translated operator by operator to BV32 (every value is
    a 32-bit unsigned int in C, so every operation wraps at 2^32 in both);
  * the four (k, q, s) of kstack_prng_next()'s calls;
  * each component's minimum from the ACSL function kstack_prng_minimum().
One goal per component, alive_<k>: for every 32-bit z at or above the
minimum, the step's result is at or above it too. A body outside this small
subset of C (other statements, operators, a shift by 32 or more) is an
error, never a silent skip. Python standard library.
"""
import re

# C's precedence, loosest first: | then ^ then & then shifts then + and -.
LEVELS = [["|"], ["^"], ["&"], ["<<", ">>"], ["+", "-"]]
BV_OP = {"|": "bw_or", "^": "bw_xor", "&": "bw_and", "<<": "lsl_bv", ">>": "lsr_bv",
         "+": "add", "-": "sub"}
TOKEN = re.compile(r"\s*(0[xX][0-9a-fA-F]+[uU]?|\d+[uU]?|[A-Za-z_]\w*|<<|>>|[|^&+\-()])")
MASK = 0xFFFFFFFF


def tokens(text):
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise ValueError(f"cannot translate {text[pos:]!r}")
        out.append(m.group(1))
        pos = m.end()
    return out


def parse(toks, env, level=0):
    """The expression at toks[0:] (consumed) as (constant int or None, BV32
    term). Constants are folded as C folds unsigned ints: modulo 2^32."""
    if level == len(LEVELS):
        return atom(toks, env)
    left = parse(toks, env, level + 1)
    while toks and toks[0] in LEVELS[level]:
        op = toks.pop(0)
        left = combine(op, left, parse(toks, env, level + 1))
    return left


def atom(toks, env):
    tok = toks.pop(0)
    if tok == "(":
        inner = parse(toks, env)
        if not toks or toks.pop(0) != ")":
            raise ValueError("unbalanced parentheses")
        return inner
    if re.fullmatch(r"(0[xX][0-9a-fA-F]+|\d+)[uU]?", tok):
        value = int(tok.rstrip("uU"), 0)
        if value > MASK:
            raise ValueError(f"{tok} is wider than 32 bits")
        return value, f"(of_int {value})"
    if tok in env:
        return env[tok]
    raise ValueError(f"unknown name {tok}")


def combine(op, a, b):
    (ca, ta), (cb, tb) = a, b
    if op in ("<<", ">>") and (cb is None or not 0 <= cb < 32):
        raise ValueError(f"shift by {tb}: not a constant below 32 (undefined in C)")
    if ca is not None and cb is not None:
        value = {"|": ca | cb, "^": ca ^ cb, "&": ca & cb, "<<": ca << cb, ">>": ca >> cb,
                 "+": ca + cb, "-": ca - cb}[op] & MASK
        return value, f"(of_int {value})"
    return None, f"({BV_OP[op]} {ta} {tb})"


def step_term(body, k, q, s):
    """The BV32 term of the step's body for one component, z free."""
    env = {"z": (None, "z"), "k": (k, f"(of_int {k})"), "q": (q, f"(of_int {q})"),
           "s": (s, f"(of_int {s})")}
    for stmt in [x.strip() for x in body.split(";") if x.strip()]:
        m = re.fullmatch(r"(?:uint32_t\s+([A-Za-z_]\w*)\s*=|return)\s+(.+)", stmt, re.S)
        if not m:
            raise ValueError(f"a statement lfsr_bv.py does not translate: {stmt!r}")
        toks = tokens(m.group(2))
        value = parse(toks, env)
        if toks:
            raise ValueError(f"left over in {stmt!r}: {' '.join(toks)}")
        if not m.group(1):
            return value[1]
        env[m.group(1)] = value
    raise ValueError("the step has no return statement")


def theory(header):
    """(WhyML text, goal names) for kstack.h's text."""
    body = re.search(r"static inline uint32_t kstack_lfsr_step\(uint32_t z, unsigned k, "
                     r"unsigned q, unsigned s\)\n\{\n(.*?)\n\}\n", header, re.S)
    calls = re.findall(r"kstack_lfsr_step\(g->z\[\d\], (\d+), (\d+), (\d+)\)", header)
    minimum = dict(re.findall(r"k == (\d+) \? (\d+)", header))
    if not body or len(calls) != 4:
        raise ValueError("kstack_lfsr_step() or kstack_prng_next()'s four calls not found")
    out = ["theory Lfsr113Step", "  use bv.BV32"]
    goals = []
    for k, q, s in ((int(a), int(b), int(c)) for a, b, c in calls):
        if str(k) not in minimum:
            raise ValueError(f"no minimum for k = {k} in kstack_prng_minimum")
        low = int(minimum[str(k)])
        goals.append(f"alive_{k}")
        out += [f"  function step_{k} (z: t) : t =", f"    {step_term(body.group(1), k, q, s)}",
                f"  goal alive_{k}: forall z: t. uge z (of_int {low}) -> "
                f"uge (step_{k} z) (of_int {low})"]
    return "\n".join(out + ["end"]) + "\n", goals
