/* SPDX-License-Identifier: MIT */
/*
 * tests/verify/eva_chacha20.c - EVA's entry point over lib/chacha20.c (make
 * verify, docs/verification.md): every exported function with unknown key,
 * nonce, counter and input bytes, at the lengths around a block's edges,
 * in place and not; zero alarms means no undefined behaviour for any of
 * those bytes.
 */
#include "lib/chacha20.c"

static volatile uint8_t any_byte; /* volatile reads: any value to EVA */
static volatile uint32_t any_word;

void Frama_C_show_each_reached_the_end(int yes);

static void unknown(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = any_byte;
}

void eva_main(void)
{
    static const size_t lengths[] = {0, 1, 31, 32, 33, 63, 64, 65, 130};
    uint8_t key[CHACHA20_KEY_SIZE], nonce[CHACHA20_NONCE_SIZE], in[130], out[130];
    uint32_t words[16];
    unknown(key, sizeof(key));
    unknown(nonce, sizeof(nonce));
    unknown(in, sizeof(in));
    for (int i = 0; i < 16; i++)
        words[i] = any_word;
    chacha20_quarter_round(words, 0, 4, 8, 12);
    chacha20_block((const uint32_t *)words, any_word, words + 8, out);
    for (unsigned i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
        size_t n = lengths[i];
        chacha20_xor(key, any_word % 0xFFFFFFFDu, nonce, NULL, out, n);
        chacha20_xor(key, any_word % 0xFFFFFFFDu, nonce, in, out, n);
        chacha20_xor(key, any_word % 0xFFFFFFFDu, nonce, in, in, n);
        chacha20_generate(key, out, n);
    }
    Frama_C_show_each_reached_the_end(1);
}
