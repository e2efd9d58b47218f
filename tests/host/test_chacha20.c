/* SPDX-License-Identifier: MIT */
/*
 * Host tests for lib/chacha20.c and lib/chacha20_kat.c: every ChaCha20 test
 * vector of RFC 8439. The vectors the kernel also checks at boot (2.1.1,
 * 2.3.2, 2.4.2, A.1 #1-#5, A.2 #1-#3) come from the shared table in
 * lib/chacha20_kat.c; typed in here, from the RFC text, are only what the
 * boot self-test does not need: the intermediate states the RFC prints
 * (2.2.1 quarter round on the state, 2.3.2 setup and rounds, 2.4.2 blocks
 * and keystream) and the Poly1305 key-generation blocks of A.4 #1-#3 and
 * A.5. Then chacha20_selftest() itself, the streaming API's edge cases and
 * chacha20_generate()'s fast key erasure.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "lib/chacha20.h"
#include "lib/chacha20_kat.h"

/* Parse hex digits into bytes, skipping spaces, colons and newlines. */
static size_t unhex(const char *s, uint8_t *out, size_t max)
{
    size_t n = 0;
    int hi = -1;
    for (; *s; s++) {
        int v;
        if (*s >= '0' && *s <= '9')
            v = *s - '0';
        else if (*s >= 'a' && *s <= 'f')
            v = *s - 'a' + 10;
        else
            continue;
        if (hi < 0) {
            hi = v;
        } else {
            if (n < max)
                out[n] = (uint8_t)(hi << 4 | v);
            n++;
            hi = -1;
        }
    }
    return n;
}

/* Compare bytes, reporting the first difference. */
static void check_bytes(const uint8_t *got, const uint8_t *want, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            printf("    # %s: byte %zu is %02x, expected %02x\n", what, i, got[i], want[i]);
            check_failures++;
            return;
        }
    }
}

static void check_words(const uint32_t *got, const uint32_t *want, int n, const char *what)
{
    for (int i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            printf("    # %s: word %d is %08x, expected %08x\n", what, i, got[i], want[i]);
            check_failures++;
            return;
        }
    }
}

static const struct chacha20_kat *kat(enum chacha20_kat_id id)
{
    return &chacha20_kats[id];
}

/* The block function from key and nonce bytes, as words and as bytes. */
static void block_both(const uint8_t key_bytes[32], uint32_t counter, const uint8_t nonce_bytes[12],
                       uint32_t words[16], uint8_t bytes[64])
{
    uint32_t key[8], nonce[3], state[16];
    chacha20_load_le32(key, key_bytes, 8);
    chacha20_load_le32(nonce, nonce_bytes, 3);
    chacha20_setup(state, key, counter, nonce);
    chacha20_block_words(words, state);
    chacha20_block(key, counter, nonce, bytes);
}

/*
 * One vector of the shared table, with diagnostics. A block-function vector
 * through chacha20_block_words() (against its bytes read as little-endian
 * words), chacha20_block() and the keystream of chacha20_xor(); a cipher
 * vector by encrypting, then decrypting in place.
 */
static void check_kat(enum chacha20_kat_id id)
{
    const struct chacha20_kat *v = kat(id);
    uint8_t out[CHACHA20_KAT_MAX_LEN];
    char what[80];
    int well_formed = v->name && v->key && v->nonce && v->expected && v->len <= sizeof(out);

    CHECK(well_formed);
    if (!well_formed)
        return;
    if (!v->plaintext) {
        uint32_t words[16], want[16];
        uint8_t bytes[64];
        CHECK_EQ_INT(v->len, 64);
        block_both(v->key, v->counter, v->nonce, words, bytes);
        chacha20_load_le32(want, v->expected, 16);
        snprintf(what, sizeof(what), "%s state at the end", v->name);
        check_words(words, want, 16, what);
        snprintf(what, sizeof(what), "%s serialized block", v->name);
        check_bytes(bytes, v->expected, 64, what);
        chacha20_xor(v->key, v->counter, v->nonce, NULL, out, v->len);
        snprintf(what, sizeof(what), "%s keystream", v->name);
        check_bytes(out, v->expected, v->len, what);
        return;
    }
    chacha20_xor(v->key, v->counter, v->nonce, v->plaintext, out, v->len);
    snprintf(what, sizeof(what), "%s ciphertext", v->name);
    check_bytes(out, v->expected, v->len, what);
    chacha20_xor(v->key, v->counter, v->nonce, out, out, v->len); /* decrypt in place */
    snprintf(what, sizeof(what), "%s decrypted", v->name);
    check_bytes(out, v->plaintext, v->len, what);
}

/* The table has every vector, in its slot, with the RFC's lengths. */
TEST(kat_table)
{
    static const struct {
        const char *name;
        size_t len;
        int block; /* a block-function vector: no plaintext */
    } want[CHACHA20_KAT_COUNT] = {
        [CHACHA20_KAT_2_3_2] = {"RFC 8439 2.3.2", 64, 1},
        [CHACHA20_KAT_2_4_2] = {"RFC 8439 2.4.2", 114, 0},
        [CHACHA20_KAT_A1_1] = {"RFC 8439 A.1 #1", 64, 1},
        [CHACHA20_KAT_A1_2] = {"RFC 8439 A.1 #2", 64, 1},
        [CHACHA20_KAT_A1_3] = {"RFC 8439 A.1 #3", 64, 1},
        [CHACHA20_KAT_A1_4] = {"RFC 8439 A.1 #4", 64, 1},
        [CHACHA20_KAT_A1_5] = {"RFC 8439 A.1 #5", 64, 1},
        [CHACHA20_KAT_A2_1] = {"RFC 8439 A.2 #1", 64, 0},
        [CHACHA20_KAT_A2_2] = {"RFC 8439 A.2 #2", 375, 0},
        [CHACHA20_KAT_A2_3] = {"RFC 8439 A.2 #3", 127, 0},
    };
    CHECK_EQ_STR(chacha20_kat_quarter_round.name, "RFC 8439 2.1.1");
    for (int i = 0; i < CHACHA20_KAT_COUNT; i++) {
        const struct chacha20_kat *v = kat(i);
        CHECK(v->name != NULL);
        if (v->name)
            CHECK_EQ_STR(v->name, want[i].name);
        CHECK_EQ_INT(v->len, want[i].len);
        CHECK_EQ_INT(v->plaintext == NULL, want[i].block);
        CHECK(v->len <= CHACHA20_KAT_MAX_LEN);
    }
}

TEST(rfc_2_1_1_quarter_round)
{
    const struct chacha20_kat_qr *v = &chacha20_kat_quarter_round;
    uint32_t x[16] = {v->in[0], v->in[1], v->in[2], v->in[3]};
    chacha20_quarter_round(x, 0, 1, 2, 3);
    CHECK_EQ_INT(x[0], v->out[0]);
    CHECK_EQ_INT(x[1], v->out[1]);
    CHECK_EQ_INT(x[2], v->out[2]);
    CHECK_EQ_INT(x[3], v->out[3]);
}

TEST(rfc_2_2_1_quarter_round_on_state)
{
    uint32_t x[16] = {0x879531e0, 0xc5ecf37d, 0x516461b1, 0xc9a62f8a, 0x44c20ef3, 0x3390af7f,
                      0xd9fc690b, 0x2a5f714c, 0x53372767, 0xb00a5631, 0x974c541a, 0x359e9963,
                      0x5c971061, 0x3d631689, 0x2098d9d6, 0x91dbd320};
    static const uint32_t want[16] = {0x879531e0, 0xc5ecf37d, 0xbdb886dc, 0xc9a62f8a,
                                      0x44c20ef3, 0x3390af7f, 0xd9fc690b, 0xcfacafd2,
                                      0xe46bea80, 0xb00a5631, 0x974c541a, 0x359e9963,
                                      0x5c971061, 0xccc07c79, 0x2098d9d6, 0x91dbd320};
    chacha20_quarter_round(x, 2, 7, 8, 13);
    check_words(x, want, 16, "QUARTERROUND(2, 7, 8, 13)");
}

/* The key, nonce and serialized block are the table's; the three states
 * are the RFC's intermediates. */
TEST(rfc_2_3_2_block_function)
{
    static const uint32_t setup[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
                                       0x03020100, 0x07060504, 0x0b0a0908, 0x0f0e0d0c,
                                       0x13121110, 0x17161514, 0x1b1a1918, 0x1f1e1d1c,
                                       0x00000001, 0x09000000, 0x4a000000, 0x00000000};
    static const uint32_t after_rounds[16] = {0x837778ab, 0xe238d763, 0xa67ae21e, 0x5950bb2f,
                                              0xc4f2d0c7, 0xfc62bb2f, 0x8fa018fc, 0x3f5ec7b7,
                                              0x335271c2, 0xf29489f3, 0xeabda8fc, 0x82e46ebd,
                                              0xd19c12b4, 0xb04e16de, 0x9e83d0cb, 0x4e3c50a2};
    static const uint32_t at_end[16] = {0xe4e7f110, 0x15593bd1, 0x1fdd0f50, 0xc47120a3,
                                        0xc7f4d1c7, 0x0368c033, 0x9aaa2204, 0x4e6cd4c3,
                                        0x466482d2, 0x09aa9f07, 0x05d7c214, 0xa2028bd9,
                                        0xd19c12b5, 0xb94e16de, 0xe883d0cb, 0x4e3c50a2};
    const struct chacha20_kat *v = kat(CHACHA20_KAT_2_3_2);
    uint32_t key[8], nonce[3], state[16], x[16], words[16];
    CHECK_EQ_INT(v->counter, 1);
    chacha20_load_le32(key, v->key, 8);
    chacha20_load_le32(nonce, v->nonce, 3);
    chacha20_setup(state, key, v->counter, nonce);
    check_words(state, setup, 16, "state with the key setup");
    memcpy(x, state, sizeof(x));
    chacha20_rounds(x);
    check_words(x, after_rounds, 16, "state after 20 rounds");
    chacha20_block_words(words, state);
    check_words(words, at_end, 16, "state at the end");
    check_kat(CHACHA20_KAT_2_3_2);
}

/* Key, nonce, plaintext and ciphertext are the table's; the two blocks and
 * the keystream are the RFC's intermediates. */
TEST(rfc_2_4_2_cipher)
{
    static const uint32_t block1[16] = {0xf3514f22, 0xe1d91b40, 0x6f27de2f, 0xed1d63b8,
                                        0x821f138c, 0xe2062c3d, 0xecca4f7e, 0x78cff39e,
                                        0xa30a3b8a, 0x920a6072, 0xcd7479b5, 0x34932bed,
                                        0x40ba4c79, 0xcd343ec6, 0x4c2c21ea, 0xb7417df0};
    static const uint32_t block2[16] = {0x9f74a669, 0x410f633f, 0x28feca22, 0x7ec44dec,
                                        0x6d34d426, 0x738cb970, 0x3ac5e9f3, 0x45590cc4,
                                        0xda6e8b39, 0x892c831a, 0xcdea67c1, 0x2b7e1d90,
                                        0x037463f3, 0xa11a2073, 0xe8bcfb88, 0xedc49139};
    static const char keystream[] =
        "22:4f:51:f3:40:1b:d9:e1:2f:de:27:6f:b8:63:1d:ed:8c:13:1f:82:3d:2c:06"
        "e2:7e:4f:ca:ec:9e:f3:cf:78:8a:3b:0a:a3:72:60:0a:92:b5:79:74:cd:ed:2b"
        "93:34:79:4c:ba:40:c6:3e:34:cd:ea:21:2c:4c:f0:7d:41:b7:69:a6:74:9f:3f"
        "63:0f:41:22:ca:fe:28:ec:4d:c4:7e:26:d4:34:6d:70:b9:8c:73:f3:e9:c5:3a"
        "c4:0c:59:45:39:8b:6e:da:1a:83:2c:89:c1:67:ea:cd:90:1d:7e:2b:f3:63";
    const struct chacha20_kat *v = kat(CHACHA20_KAT_2_4_2);
    uint8_t want_ks[114], out[114], bytes[64];
    uint32_t words[16];
    CHECK_EQ_INT(v->len, 114);
    CHECK_EQ_INT(v->counter, 1);
    CHECK_EQ_INT(unhex(keystream, want_ks, 114), 114);
    block_both(v->key, v->counter, v->nonce, words,
               bytes); /* "First block after block operation" */
    check_words(words, block1, 16, "first block");
    block_both(v->key, v->counter + 1, v->nonce, words, bytes);
    check_words(words, block2, 16, "second block");
    chacha20_xor(v->key, v->counter, v->nonce, NULL, out, v->len);
    check_bytes(out, want_ks, v->len, "keystream");
    check_kat(CHACHA20_KAT_2_4_2);
}

/* RFC 8439 appendix A.1: block function test vectors #1-#5. */
TEST(rfc_a_1_block_vectors)
{
    for (int id = CHACHA20_KAT_A1_1; id <= CHACHA20_KAT_A1_5; id++)
        check_kat(id);
}

/* RFC 8439 appendix A.2: encryption test vectors #1-#3. */
TEST(rfc_a_2_encryption_vectors)
{
    for (int id = CHACHA20_KAT_A2_1; id <= CHACHA20_KAT_A2_3; id++)
        check_kat(id);
}

/* A.4: the Poly1305 one-time key is the first 32 bytes of block 0, under
 * the keys and nonces of A.2 #1-#3; A.5 prints that block's state too (A.2
 * #3's key, nonce 00000000 01020304 05060708). */
TEST(rfc_a_4_a_5_key_generation_blocks)
{
    static const struct {
        enum chacha20_kat_id from; /* the vector whose key and nonce A.4 uses */
        const char *otk;
    } a4[] = {
        {CHACHA20_KAT_A2_1, "76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 53 86 bd 28"
                            "bd d2 19 b8 a0 8d ed 1a a8 36 ef cc 8b 77 0d c7"},
        {CHACHA20_KAT_A2_2, "ec fa 25 4f 84 5f 64 74 73 d3 cb 14 0d a9 e8 76"
                            "06 cb 33 06 6c 44 7b 87 bc 26 66 dd e3 fb b7 39"},
        {CHACHA20_KAT_A2_3, "96 5e 3b c6 f9 ec 7e d9 56 08 08 f4 d2 29 f9 4b"
                            "13 7f f2 75 ca 9b 3f cb dd 59 de aa d2 33 10 ae"},
    };
    static const char a5_otk[] = "bd f0 4a a9 5c e4 de 89 95 b1 4b b6 a1 8f ec af"
                                 "26 47 8f 50 c0 54 f5 63 db c0 a2 1e 26 15 72 aa";
    static const uint32_t a5_setup[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
                                          0xa540921c, 0x8ad355eb, 0x868833f3, 0xf0b5f604,
                                          0xc1173947, 0x09802b40, 0xbc5cca9d, 0xc0757020,
                                          0x00000000, 0x00000000, 0x04030201, 0x08070605};
    static const uint32_t a5_end[16] = {0xa94af0bd, 0x89dee45c, 0xb64bb195, 0xafec8fa1,
                                        0x508f4726, 0x63f554c0, 0x1ea2c0db, 0xaa721526,
                                        0x11b1e514, 0xa0bacc0f, 0x828a6015, 0xd7825481,
                                        0xe8a4a850, 0xd9dcbbd6, 0x4c2de33a, 0xf8ccd912};
    uint32_t words[16];
    uint8_t bytes[64], want[32];
    for (unsigned i = 0; i < sizeof(a4) / sizeof(a4[0]); i++) {
        CHECK_EQ_INT(unhex(a4[i].otk, want, 32), 32);
        block_both(kat(a4[i].from)->key, 0, kat(a4[i].from)->nonce, words, bytes);
        check_bytes(bytes, want, 32, "A.4 one-time key");
    }
    uint8_t nb[12];
    uint32_t key[8], nonce[3], x[16];
    CHECK_EQ_INT(unhex("00 00 00 00 01 02 03 04 05 06 07 08", nb, 12), 12);
    CHECK_EQ_INT(unhex(a5_otk, want, 32), 32);
    block_both(kat(CHACHA20_KAT_A2_3)->key, 0, nb, words, bytes);
    check_bytes(bytes, want, 32, "A.5 one-time key");
    chacha20_load_le32(key, kat(CHACHA20_KAT_A2_3)->key, 8);
    chacha20_load_le32(nonce, nb, 3);
    chacha20_setup(x, key, 0, nonce);
    check_words(x, a5_setup, 16, "A.5 state with key setup");
    /* A.5 labels this "state after 20 rounds", but its words serialise to
     * the one-time key above: it is the state after the final addition. */
    chacha20_block_words(x, x);
    check_words(x, a5_end, 16, "A.5 state at the end");
}

/* The kernel's boot self-test: every vector of the table passes. */
TEST(selftest_passes)
{
    const char *failed = "(not set)";
    int n = chacha20_selftest(&failed);
    if (n != 0)
        printf("    # chacha20_selftest: %d failing, the first %s\n", n,
               failed ? failed : "(null)");
    CHECK_EQ_INT(n, 0);
    CHECK(failed == NULL);
    CHECK_EQ_INT(chacha20_selftest(NULL), 0); /* failed may be NULL */
}

/* Splitting a message anywhere, continuing with counter + blocks done,
 * gives the one-shot result; the counter wraps mod 2^32 (2.4.1's
 * counter+j on a 32-bit word). */
TEST(streaming_and_counter)
{
    uint8_t key[32], nonce[12], whole[300], part[300];
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)(i * 37 + 5);
    for (int i = 0; i < 12; i++)
        nonce[i] = (uint8_t)(200 - i);
    chacha20_xor(key, 7, nonce, NULL, whole, sizeof(whole));
    for (size_t split = 0; split <= sizeof(whole); split += 64) {
        chacha20_xor(key, 7, nonce, NULL, part, split);
        chacha20_xor(key, 7 + (uint32_t)(split / 64), nonce, NULL, part + split,
                     sizeof(part) - split);
        check_bytes(part, whole, sizeof(whole), "split stream");
    }
    uint32_t k[8], n[3];
    uint8_t b0[64], bmax[64], wrap[128];
    chacha20_load_le32(k, key, 8);
    chacha20_load_le32(n, nonce, 3);
    chacha20_block(k, 0xffffffffu, n, bmax);
    chacha20_block(k, 0, n, b0);
    chacha20_xor(key, 0xffffffffu, nonce, NULL, wrap, 128);
    check_bytes(wrap, bmax, 64, "block 0xffffffff");
    check_bytes(wrap + 64, b0, 64, "wrapped block 0");
    CHECK(memcmp(b0, bmax, 64) != 0);
}

/* chacha20_generate: new key = keystream bytes 0..31 of the old key
 * (counter 0, zero nonce), output = bytes 32.., never the key bytes. */
TEST(fast_key_erasure)
{
    static const size_t lens[] = {0, 1, 31, 32, 33, 63, 64, 100, 1000};
    static const uint8_t zero_nonce[12];
    uint8_t key[32], old[32], out[1000], ks[1032], prev_out[1000];
    size_t prev_len = 0;
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)i;
    for (int round = 0; round < 3; round++) {
        for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
            size_t len = lens[i];
            memcpy(old, key, 32);
            chacha20_xor(old, 0, zero_nonce, NULL, ks, 32 + len);
            memset(out, 0xa5, sizeof(out));
            chacha20_generate(key, out, len);
            CHECK(memcmp(key, old, 32) != 0);                  /* the key changed */
            check_bytes(key, ks, 32, "new key");               /* to keystream 0..31 */
            check_bytes(out, ks + 32, len, "generate output"); /* output is 32.. */
            if (len < sizeof(out))
                CHECK_EQ_INT(out[len], 0xa5); /* nothing written past len */
            size_t common = len < prev_len ? len : prev_len;
            if (common >= 16)
                CHECK(memcmp(out, prev_out, common) != 0); /* outputs differ */
            memcpy(prev_out, out, len);
            prev_len = len;
        }
    }
}

RUN_TESTS("chacha20", CASE(kat_table), CASE(rfc_2_1_1_quarter_round),
          CASE(rfc_2_2_1_quarter_round_on_state), CASE(rfc_2_3_2_block_function),
          CASE(rfc_2_4_2_cipher), CASE(rfc_a_1_block_vectors), CASE(rfc_a_2_encryption_vectors),
          CASE(rfc_a_4_a_5_key_generation_blocks), CASE(selftest_passes),
          CASE(streaming_and_counter), CASE(fast_key_erasure))
