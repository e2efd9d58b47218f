#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/health_ref.py - SP 800-90B cut-offs, computed independently.

Recomputes the table in lib/health.h (and in tests/host/test_health.c) with
exact binomial coefficients and 60-digit decimal arithmetic, straight from
the formulas of NIST SP 800-90B:

* 4.4.1 RCT: C = 1 + ceil(-log2(alpha) / H);
* 4.4.2 APT: C = 1 + CRITBINOM(W, 2^-H, 1 - alpha), the smallest c with
  P[X >= c] <= alpha for X ~ Binomial(W, 2^-H); the library uses at least 2;

and, for a source whose most likely value has probability 2^(1-H) (twice
the claim), the chance that a window starting with that value alarms,
P[Binomial(W-1, 2^(1-H)) >= C-1]. Standard library only; run it by hand:
    python3 tests/host/health_ref.py
"""
from decimal import Decimal, getcontext
from fractions import Fraction
from math import ceil, comb

getcontext().prec = 60


def two_to_minus(h):
    """2^-h as a Decimal, h an int or a Fraction."""
    h = Fraction(h)
    return Decimal(2) ** (-Decimal(h.numerator) / Decimal(h.denominator))


def rct_cutoff(h, alpha_log2):
    return 1 + ceil(Fraction(alpha_log2) / Fraction(h))


def pmf(n, p, k):
    return Decimal(comb(n, k)) * p ** k * (1 - p) ** (n - k)


def apt_cutoff(h, alpha_log2, w):
    p, alpha, tail = two_to_minus(h), two_to_minus(alpha_log2), Decimal(0)
    for k in range(w, 0, -1):
        tail += pmf(w, p, k)  # P[X >= k]
        if tail > alpha:
            return max(k + 1, 2)
    return 2


def detection(h, alpha_log2, w):
    q = 2 * two_to_minus(h)
    if q >= 1:
        return Decimal(1)
    c = apt_cutoff(h, alpha_log2, w)
    return sum(pmf(w - 1, q, k) for k in range(c - 1, w))


def main():
    print("H      RCT 2^-20 2^-30   APT W=512 2^-20 2^-30   W=1024 2^-20 2^-30")
    for h in (Fraction(1, 2), 1, 2, 4, 8):
        row = [rct_cutoff(h, 20), rct_cutoff(h, 30),
               apt_cutoff(h, 20, 512), apt_cutoff(h, 30, 512)]
        row += [apt_cutoff(h, 20, 1024), apt_cutoff(h, 30, 1024)] if h <= 1 else ["-", "-"]
        print("%-6s %9s %5s %15s %5s %12s %5s" % (float(h), *row))
    print("\n2x-biased source, per-window APT detection (W = 512):")
    for h in (2, Fraction(5, 2), 3, Fraction(7, 2), 4, 8):
        print("H = %-4s alpha 2^-20: %.4f   2^-30: %.4f"
              % (float(h), detection(h, 20, 512), detection(h, 30, 512)))


if __name__ == "__main__":
    main()
