/* SPDX-License-Identifier: MIT */
/*
 * lib/chacha20_kat.h - the ChaCha20 known-answer tests of RFC 8439, kept in
 * one place: the kernel runs them at boot (a CRNG whose self-test fails must
 * never report ready) and the host unit tests check the same table.
 *
 * The vectors are the RFC's: the quarter round of 2.1.1, the block function
 * of 2.3.2 and A.1 #1-#5, the cipher of 2.4.2 and A.2 #1-#3. They are stored
 * as plain bytes (the kernel has no hex parser). The intermediate states the
 * RFC also prints are checked by the host tests only.
 */
#ifndef LIB_CHACHA20_KAT_H
#define LIB_CHACHA20_KAT_H

#include <stddef.h>
#include <stdint.h>

/* 2.1.1: QUARTERROUND(a, b, c, d) on the four words a, b, c, d. */
struct chacha20_kat_qr {
    const char *name; /* "RFC 8439 2.1.1" */
    uint32_t in[4];   /* a, b, c, d before */
    uint32_t out[4];  /* a, b, c, d after */
};

/*
 * A block-function or cipher vector.
 *  - Block function (2.3.2, A.1): plaintext == NULL, len == 64 and expected
 *    is chacha20_block(key, counter, nonce) serialised, i.e. the keystream.
 *  - Cipher (2.4.2, A.2): expected is the ciphertext of the len bytes at
 *    plaintext, the keystream starting with block counter.
 */
struct chacha20_kat {
    const char *name;         /* "RFC 8439 A.1 #3" */
    const uint8_t *key;       /* CHACHA20_KEY_SIZE bytes */
    const uint8_t *nonce;     /* CHACHA20_NONCE_SIZE bytes */
    uint32_t counter;         /* the (first) block counter */
    const uint8_t *plaintext; /* len bytes, or NULL for a block-function vector */
    const uint8_t *expected;  /* len bytes: keystream or ciphertext */
    size_t len;
};

/* Index of each vector in chacha20_kats[], in the RFC's order. */
enum chacha20_kat_id {
    CHACHA20_KAT_2_3_2, /* block function */
    CHACHA20_KAT_2_4_2, /* cipher, 114 bytes */
    CHACHA20_KAT_A1_1,  /* block function test vectors #1-#5 */
    CHACHA20_KAT_A1_2,
    CHACHA20_KAT_A1_3,
    CHACHA20_KAT_A1_4,
    CHACHA20_KAT_A1_5,
    CHACHA20_KAT_A2_1, /* encryption test vectors #1-#3 */
    CHACHA20_KAT_A2_2,
    CHACHA20_KAT_A2_3,
    CHACHA20_KAT_COUNT
};

#define CHACHA20_KAT_MAX_LEN 375 /* A.2 #2, the longest vector */

extern const struct chacha20_kat_qr chacha20_kat_quarter_round;
extern const struct chacha20_kat chacha20_kats[CHACHA20_KAT_COUNT];

/*
 * Run every vector through the public API of lib/chacha20.h: the quarter
 * round through chacha20_quarter_round(); block-function vectors through
 * chacha20_block() and chacha20_xor() with in == NULL; cipher vectors
 * through chacha20_xor(), encrypting and then decrypting in place. Returns
 * the number of failing vectors (0 = all passed) and, when failed is not
 * NULL, sets *failed to the first failing vector's name (NULL if none).
 * Needs about 1 KiB of stack, callees included (a 384-byte buffer), and no
 * other memory.
 */
int chacha20_selftest(const char **failed);

#endif
