/* SPDX-License-Identifier: MIT */
/*
 * lib/chacha20.c - ChaCha20 from RFC 8439 (see chacha20.h). Section numbers
 * in the comments are the RFC's. Words are assembled from bytes with shifts,
 * so the code is endian- and alignment-neutral; scratch copies of key
 * material are wiped before returning.
 */
#include "lib/chacha20.h"

/* 2.3: "expand 32-byte k" read as four little-endian words. */
#define CHACHA20_C0 0x61707865u
#define CHACHA20_C1 0x3320646eu
#define CHACHA20_C2 0x79622d32u
#define CHACHA20_C3 0x6b206574u

/* Zero memory in a way the compiler may not drop (dead-store elimination
 * would otherwise remove a memset of a local about to go out of scope). */
static void wipe(void *p, size_t n)
{
    volatile uint8_t *v = p;
    while (n--)
        *v++ = 0;
}

/* The same for word arrays, a word at a time (the hot path's buffers). */
static void wipe_words(uint32_t *p, size_t n)
{
    volatile uint32_t *v = p;
    while (n--)
        *v++ = 0;
}

static inline uint32_t rotl32(uint32_t v, unsigned n)
{
    return (v << n) | (v >> (32 - n)); /* n is 7, 8, 12 or 16: never 0 or 32 */
}

static uint32_t load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void store_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

void chacha20_load_le32(uint32_t *words, const uint8_t *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        words[i] = load_le32(bytes + 4 * i);
}

/* 2.1: a += b; d ^= a; d <<<= 16; c += d; b ^= c; b <<<= 12; and again with
 * rolls of 8 and 7. 2.2 applies it to four words of the 16-word state. */
/* QUARTERROUND on four words held in variables (section 2.1). */
#define QR(a, b, c, d)                                                                             \
    do {                                                                                           \
        a += b;                                                                                    \
        d = rotl32(d ^ a, 16);                                                                     \
        c += d;                                                                                    \
        b = rotl32(b ^ c, 12);                                                                     \
        a += b;                                                                                    \
        d = rotl32(d ^ a, 8);                                                                      \
        c += d;                                                                                    \
        b = rotl32(b ^ c, 7);                                                                      \
    } while (0)

void chacha20_quarter_round(uint32_t x[16], unsigned a, unsigned b, unsigned c, unsigned d)
{
    QR(x[a], x[b], x[c], x[d]);
}

void chacha20_setup(uint32_t state[16], const uint32_t key[8], uint32_t counter,
                    const uint32_t nonce[3])
{
    state[0] = CHACHA20_C0;
    state[1] = CHACHA20_C1;
    state[2] = CHACHA20_C2;
    state[3] = CHACHA20_C3;
    for (int i = 0; i < 8; i++)
        state[4 + i] = key[i];
    state[12] = counter;
    state[13] = nonce[0];
    state[14] = nonce[1];
    state[15] = nonce[2];
}

/* 2.3.1 inner_block: a column round then a diagonal round. */
/*
 * The 20 rounds with the state in sixteen local variables, so the compiler
 * can keep it in registers instead of going through memory for every
 * operation: the pool strategy and the CRNG spend most of their time here.
 */
void chacha20_rounds(uint32_t x[16])
{
    uint32_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7],
             x8 = x[8], x9 = x[9], x10 = x[10], x11 = x[11], x12 = x[12], x13 = x[13], x14 = x[14],
             x15 = x[15];
    for (int i = 0; i < 10; i++) { /* 10 x (column round + diagonal round) */
        /* LAB 3 BEGIN: a column round, then a diagonal round (RFC 8439 2.3.1) */
        QR(x0, x4, x8, x12);
        QR(x1, x5, x9, x13);
        QR(x2, x6, x10, x14);
        QR(x3, x7, x11, x15);
        QR(x0, x5, x10, x15);
        QR(x1, x6, x11, x12);
        QR(x2, x7, x8, x13);
        QR(x3, x4, x9, x14);
        /* LAB 3 STUB
        LAB 3 END */
    }
    x[0] = x0, x[1] = x1, x[2] = x2, x[3] = x3, x[4] = x4, x[5] = x5, x[6] = x6, x[7] = x7;
    x[8] = x8, x[9] = x9, x[10] = x10, x[11] = x11, x[12] = x12, x[13] = x13, x[14] = x14;
    x[15] = x15;
}

void chacha20_block_words(uint32_t out[16], const uint32_t in[16])
{
    uint32_t x[16];
    for (int i = 0; i < 16; i++)
        x[i] = in[i];
    chacha20_rounds(x);
    for (int i = 0; i < 16; i++)
        out[i] = x[i] + in[i];
    wipe_words(x, 16);
}

/* 2.3.1: state = constants | key | counter | nonce; serialise the result
 * word by word in little-endian order. */
void chacha20_block(const uint32_t key[8], uint32_t counter, const uint32_t nonce[3],
                    uint8_t out[CHACHA20_BLOCK_SIZE])
{
    uint32_t state[16], result[16];
    chacha20_setup(state, key, counter, nonce);
    chacha20_block_words(result, state);
    for (int i = 0; i < 16; i++)
        store_le32(out + 4 * i, result[i]);
    wipe_words(state, 16);
    wipe_words(result, 16);
}

/* 2.4.1: block j of the message is XORed with chacha20_block(key, counter+j,
 * nonce); the unused tail of the last keystream block is discarded. */
/* out = in XOR keystream (in NULL: the keystream itself), block by block,
 * straight from the block function's words. */
static void xor_stream(const uint32_t key[8], uint32_t counter, const uint32_t nonce[3],
                       const uint8_t *in, uint8_t *out, size_t len)
{
    uint32_t state[16], ks[16];
    chacha20_setup(state, key, counter, nonce);
    while (len > 0) {
        size_t n = len < CHACHA20_BLOCK_SIZE ? len : CHACHA20_BLOCK_SIZE;
        chacha20_block_words(ks, state);
        state[12]++;
        if (n == CHACHA20_BLOCK_SIZE && !in) {
            for (int i = 0; i < 16; i++)
                store_le32(out + 4 * i, ks[i]);
        } else {
            for (size_t i = 0; i < n; i++)
                out[i] = (uint8_t)((in ? in[i] : 0) ^ (ks[i / 4] >> (8 * (i % 4))));
            if (in)
                in += n;
        }
        out += n;
        len -= n;
    }
    wipe_words(state, 16);
    wipe_words(ks, 16);
}

void chacha20_xor(const uint8_t key[CHACHA20_KEY_SIZE], uint32_t counter,
                  const uint8_t nonce[CHACHA20_NONCE_SIZE], const uint8_t *in, uint8_t *out,
                  size_t len)
{
    uint32_t k[8], n[3];
    chacha20_load_le32(k, key, 8);
    chacha20_load_le32(n, nonce, 3);
    xor_stream(k, counter, n, in, out, len);
    wipe(k, sizeof(k));
}

/* Fast key erasure (see chacha20.h): keystream block 0 gives the new key in
 * its first 32 bytes and the first output bytes in its last 32; blocks 1, 2,
 * ... continue the output. All blocks use the old key, held in k[]. */
void chacha20_generate(uint8_t key[CHACHA20_KEY_SIZE], uint8_t *out, size_t len)
{
    static const uint32_t zero_nonce[3] = {0, 0, 0};
    uint32_t k[8];
    uint8_t first[CHACHA20_BLOCK_SIZE];
    size_t n = len < CHACHA20_BLOCK_SIZE - CHACHA20_KEY_SIZE
                   ? len
                   : CHACHA20_BLOCK_SIZE - CHACHA20_KEY_SIZE;

    chacha20_load_le32(k, key, 8);
    chacha20_block(k, 0, zero_nonce, first);
    for (size_t i = 0; i < CHACHA20_KEY_SIZE; i++)
        key[i] = first[i]; /* the old key is gone from the caller's buffer */
    for (size_t i = 0; i < n; i++)
        out[i] = first[CHACHA20_KEY_SIZE + i];
    xor_stream(k, 1, zero_nonce, NULL, out + n, len - n);
    wipe(first, sizeof(first));
    wipe(k, sizeof(k));
}
