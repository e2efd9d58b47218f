/* SPDX-License-Identifier: MIT */
/*
 * Host tests for lib/chacha20.c: every ChaCha20 test vector of RFC 8439,
 * typed in from the RFC text, checked at the state-word level where the RFC
 * prints the state (2.1.1 quarter round, 2.2.1 quarter round on the state,
 * 2.3.2 block function, 2.4.2 cipher, A.1 #1-#5, A.2 #1-#3, A.4 #1-#3 and
 * the one-time-key block of A.5), then the streaming API's edge cases and
 * chacha20_generate()'s fast key erasure.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "lib/chacha20.h"

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

static const char KEY_00_1F[] = "000102030405060708090a0b0c0d0e0f"
                                "101112131415161718191a1b1c1d1e1f";
static const char KEY_ZERO[] = "00000000000000000000000000000000"
                               "00000000000000000000000000000000";
static const char KEY_01[] = "00000000000000000000000000000000"
                             "00000000000000000000000000000001";
static const char KEY_1C92[] = "1c 92 40 a5 eb 55 d3 8a f3 33 88 86 04 f6 b5 f0"
                               "47 39 17 c1 40 2b 80 09 9d ca 5c bc 20 70 75 c0";
static const char NONCE_ZERO[] = "00 00 00 00 00 00 00 00 00 00 00 00";
static const char NONCE_02[] = "00 00 00 00 00 00 00 00 00 00 00 02";

/* Run chacha20_xor from hex key and nonce strings. */
static void xor_hex(const char *key_hex, uint32_t counter, const char *nonce_hex, const uint8_t *in,
                    uint8_t *out, size_t len)
{
    uint8_t key[32], nonce[12];
    CHECK_EQ_INT(unhex(key_hex, key, 32), 32);
    CHECK_EQ_INT(unhex(nonce_hex, nonce, 12), 12);
    chacha20_xor(key, counter, nonce, in, out, len);
}

/* The block function from hex key and nonce, as words and as bytes. */
static void block_hex(const char *key_hex, uint32_t counter, const char *nonce_hex,
                      uint32_t words[16], uint8_t bytes[64])
{
    uint8_t kb[32], nb[12];
    uint32_t key[8], nonce[3], state[16];
    CHECK_EQ_INT(unhex(key_hex, kb, 32), 32);
    CHECK_EQ_INT(unhex(nonce_hex, nb, 12), 12);
    chacha20_load_le32(key, kb, 8);
    chacha20_load_le32(nonce, nb, 3);
    chacha20_setup(state, key, counter, nonce);
    chacha20_block_words(words, state);
    chacha20_block(key, counter, nonce, bytes);
}

TEST(rfc_2_1_1_quarter_round)
{
    uint32_t x[16] = {0x11111111, 0x01020304, 0x9b8d6f43, 0x01234567};
    chacha20_quarter_round(x, 0, 1, 2, 3);
    CHECK_EQ_INT(x[0], 0xea2a92f4);
    CHECK_EQ_INT(x[1], 0xcb1cf8ce);
    CHECK_EQ_INT(x[2], 0x4581472e);
    CHECK_EQ_INT(x[3], 0x5881c4bb);
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
    static const char serialized[] = "10 f1 e7 e4 d1 3b 59 15 50 0f dd 1f a3 20 71 c4"
                                     "c7 d1 f4 c7 33 c0 68 03 04 22 aa 9a c3 d4 6c 4e"
                                     "d2 82 64 46 07 9f aa 09 14 c2 d7 05 d9 8b 02 a2"
                                     "b5 12 9c d1 de 16 4e b9 cb d0 83 e8 a2 50 3c 4e";
    uint8_t kb[32], nb[12], want[64], out[64];
    uint32_t key[8], nonce[3], state[16], x[16], words[16];
    unhex(KEY_00_1F, kb, 32);
    unhex("00:00:00:09:00:00:00:4a:00:00:00:00", nb, 12);
    chacha20_load_le32(key, kb, 8);
    chacha20_load_le32(nonce, nb, 3);
    chacha20_setup(state, key, 1, nonce);
    check_words(state, setup, 16, "state with the key setup");
    memcpy(x, state, sizeof(x));
    chacha20_rounds(x);
    check_words(x, after_rounds, 16, "state after 20 rounds");
    chacha20_block_words(words, state);
    check_words(words, at_end, 16, "state at the end");
    CHECK_EQ_INT(unhex(serialized, want, 64), 64);
    chacha20_block(key, 1, nonce, out);
    check_bytes(out, want, 64, "serialized block");
}

static const char SUNSCREEN[] = "Ladies and Gentlemen of the class of '99: If I could offer you "
                                "only one tip for the future, sunscreen would be it.";

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
    static const char ciphertext[] = "6e 2e 35 9a 25 68 f9 80 41 ba 07 28 dd 0d 69 81"
                                     "e9 7e 7a ec 1d 43 60 c2 0a 27 af cc fd 9f ae 0b"
                                     "f9 1b 65 c5 52 47 33 ab 8f 59 3d ab cd 62 b3 57"
                                     "16 39 d6 24 e6 51 52 ab 8f 53 0c 35 9f 08 61 d8"
                                     "07 ca 0d bf 50 0d 6a 61 56 a3 8e 08 8a 22 b6 5e"
                                     "52 bc 51 4d 16 cc f8 06 81 8c e9 1a b7 79 37 36"
                                     "5a f9 0b bf 74 a3 5b e6 b4 0b 8e ed f2 78 5e 42"
                                     "87 4d";
    const char *nonce = "00:00:00:00:00:00:00:4a:00:00:00:00";
    size_t len = sizeof(SUNSCREEN) - 1;
    uint8_t want_ks[114], want_ct[114], out[114], bytes[64];
    uint32_t words[16];
    CHECK_EQ_INT(len, 114);
    CHECK_EQ_INT(unhex(keystream, want_ks, 114), 114);
    CHECK_EQ_INT(unhex(ciphertext, want_ct, 114), 114);
    block_hex(KEY_00_1F, 1, nonce, words, bytes); /* "First block after block operation" */
    check_words(words, block1, 16, "first block");
    block_hex(KEY_00_1F, 2, nonce, words, bytes);
    check_words(words, block2, 16, "second block");
    xor_hex(KEY_00_1F, 1, nonce, NULL, out, len);
    check_bytes(out, want_ks, len, "keystream");
    xor_hex(KEY_00_1F, 1, nonce, (const uint8_t *)SUNSCREEN, out, len);
    check_bytes(out, want_ct, len, "ciphertext");
    xor_hex(KEY_00_1F, 1, nonce, out, out, len); /* decrypt in place */
    check_bytes(out, (const uint8_t *)SUNSCREEN, len, "decrypted");
}

/* RFC 8439 appendix A.1: block function test vectors #1-#5. */
struct block_vector {
    const char *key, *nonce;
    uint32_t counter;
    uint32_t state[16]; /* "ChaCha state at the end" */
    const char *keystream;
};

static const struct block_vector a1[] = {
    {KEY_ZERO,
     NONCE_ZERO,
     0,
     {0xade0b876, 0x903df1a0, 0xe56a5d40, 0x28bd8653, 0xb819d2bd, 0x1aed8da0, 0xccef36a8,
      0xc70d778b, 0x7c5941da, 0x8d485751, 0x3fe02477, 0x374ad8b8, 0xf4b8436a, 0x1ca11815,
      0x69b687c3, 0x8665eeb2},
     "76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 53 86 bd 28"
     "bd d2 19 b8 a0 8d ed 1a a8 36 ef cc 8b 77 0d c7"
     "da 41 59 7c 51 57 48 8d 77 24 e0 3f b8 d8 4a 37"
     "6a 43 b8 f4 15 18 a1 1c c3 87 b6 69 b2 ee 65 86"},
    {KEY_ZERO,
     NONCE_ZERO,
     1,
     {0xbee7079f, 0x7a385155, 0x7c97ba98, 0x0d082d73, 0xa0290fcb, 0x6965e348, 0x3e53c612,
      0xed7aee32, 0x7621b729, 0x434ee69c, 0xb03371d5, 0xd539d874, 0x281fed31, 0x45fb0a51,
      0x1f0ae1ac, 0x6f4d794b},
     "9f 07 e7 be 55 51 38 7a 98 ba 97 7c 73 2d 08 0d"
     "cb 0f 29 a0 48 e3 65 69 12 c6 53 3e 32 ee 7a ed"
     "29 b7 21 76 9c e6 4e 43 d5 71 33 b0 74 d8 39 d5"
     "31 ed 1f 28 51 0a fb 45 ac e1 0a 1f 4b 79 4d 6f"},
    {KEY_01,
     NONCE_ZERO,
     1,
     {0x2452eb3a, 0x9249f8ec, 0x8d829d9b, 0xddd4ceb1, 0xe8252083, 0x60818b01, 0xf38422b8,
      0x5aaa49c9, 0xbb00ca8e, 0xda3ba7b4, 0xc4b592d1, 0xfdf2732f, 0x4436274e, 0x2561b3c8,
      0xebdd4aa6, 0xa0136c00},
     "3a eb 52 24 ec f8 49 92 9b 9d 82 8d b1 ce d4 dd"
     "83 20 25 e8 01 8b 81 60 b8 22 84 f3 c9 49 aa 5a"
     "8e ca 00 bb b4 a7 3b da d1 92 b5 c4 2f 73 f2 fd"
     "4e 27 36 44 c8 b3 61 25 a6 4a dd eb 00 6c 13 a0"},
    {"00 ff 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
     "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
     NONCE_ZERO,
     2,
     {0xfb4dd572, 0x4bc42ef1, 0xdf922636, 0x327f1394, 0xa78dea8f, 0x5e269039, 0xa1bebbc1,
      0xcaf09aae, 0xa25ab213, 0x48a6b46c, 0x1b9d9bcb, 0x092c5be6, 0x546ca624, 0x1bec45d5,
      0x87f47473, 0x96f0992e},
     "72 d5 4d fb f1 2e c4 4b 36 26 92 df 94 13 7f 32"
     "8f ea 8d a7 39 90 26 5e c1 bb be a1 ae 9a f0 ca"
     "13 b2 5a a2 6c b4 a6 48 cb 9b 9d 1b e6 5b 2c 09"
     "24 a6 6c 54 d5 45 ec 1b 73 74 f4 87 2e 99 f0 96"},
    {KEY_ZERO,
     NONCE_02,
     0,
     {0x374dc6c2, 0x3736d58c, 0xb904e24a, 0xcd3f93ef, 0x88228b1a, 0x96a4dfb3, 0x5b76ab72,
      0xc727ee54, 0x0e0e978a, 0xf3145c95, 0x1b748ea8, 0xf786c297, 0x99c28f5f, 0x628314e8,
      0x398a19fa, 0x6ded1b53},
     "c2 c6 4d 37 8c d5 36 37 4a e2 04 b9 ef 93 3f cd"
     "1a 8b 22 88 b3 df a4 96 72 ab 76 5b 54 ee 27 c7"
     "8a 97 0e 0e 95 5c 14 f3 a8 8e 74 1b 97 c2 86 f7"
     "5f 8f c2 99 e8 14 83 62 fa 19 8a 39 53 1b ed 6d"},
};

TEST(rfc_a_1_block_vectors)
{
    for (unsigned i = 0; i < sizeof(a1) / sizeof(a1[0]); i++) {
        uint32_t words[16];
        uint8_t bytes[64], want[64], stream[64];
        char what[64];
        snprintf(what, sizeof(what), "A.1 #%u", i + 1);
        block_hex(a1[i].key, a1[i].counter, a1[i].nonce, words, bytes);
        check_words(words, a1[i].state, 16, what);
        CHECK_EQ_INT(unhex(a1[i].keystream, want, 64), 64);
        check_bytes(bytes, want, 64, what);
        xor_hex(a1[i].key, a1[i].counter, a1[i].nonce, NULL, stream, 64);
        check_bytes(stream, want, 64, what);
    }
}

static const char IETF_TEXT[] =
    "Any submission to the IETF intended by the Contributor for publication as all or part of an "
    "IETF Internet-Draft or RFC and any statement made within the context of an IETF activity is "
    "considered an \"IETF Contribution\". Such statements include oral statements in IETF "
    "sessions, as well as written and electronic communications made at any time or place, which "
    "are addressed to";

static const char IETF_CIPHERTEXT[] = "a3 fb f0 7d f3 fa 2f de 4f 37 6c a2 3e 82 73 70"
                                      "41 60 5d 9f 4f 4f 57 bd 8c ff 2c 1d 4b 79 55 ec"
                                      "2a 97 94 8b d3 72 29 15 c8 f3 d3 37 f7 d3 70 05"
                                      "0e 9e 96 d6 47 b7 c3 9f 56 e0 31 ca 5e b6 25 0d"
                                      "40 42 e0 27 85 ec ec fa 4b 4b b5 e8 ea d0 44 0e"
                                      "20 b6 e8 db 09 d8 81 a7 c6 13 2f 42 0e 52 79 50"
                                      "42 bd fa 77 73 d8 a9 05 14 47 b3 29 1c e1 41 1c"
                                      "68 04 65 55 2a a6 c4 05 b7 76 4d 5e 87 be a8 5a"
                                      "d0 0f 84 49 ed 8f 72 d0 d6 62 ab 05 26 91 ca 66"
                                      "42 4b c8 6d 2d f8 0e a4 1f 43 ab f9 37 d3 25 9d"
                                      "c4 b2 d0 df b4 8a 6c 91 39 dd d7 f7 69 66 e9 28"
                                      "e6 35 55 3b a7 6c 5c 87 9d 7b 35 d4 9e b2 e6 2b"
                                      "08 71 cd ac 63 89 39 e2 5e 8a 1e 0e f9 d5 28 0f"
                                      "a8 ca 32 8b 35 1c 3c 76 59 89 cb cf 3d aa 8b 6c"
                                      "cc 3a af 9f 39 79 c9 2b 37 20 fc 88 dc 95 ed 84"
                                      "a1 be 05 9c 64 99 b9 fd a2 36 e7 e8 18 b0 4b 0b"
                                      "c3 9c 1e 87 6b 19 3b fe 55 69 75 3f 88 12 8c c0"
                                      "8a aa 9b 63 d1 a1 6f 80 ef 25 54 d7 18 9c 41 1f"
                                      "58 69 ca 52 c5 b8 3f a3 6f f2 16 b9 c1 d3 00 62"
                                      "be bc fd 2d c5 bc e0 91 19 34 fd a7 9a 86 f6 e6"
                                      "98 ce d7 59 c3 ff 9b 64 77 33 8f 3d a4 f9 cd 85"
                                      "14 ea 99 82 cc af b3 41 b2 38 4d d9 02 f3 d1 ab"
                                      "7a c6 1d d2 9c 6f 21 ba 5b 86 2f 37 30 e3 7c fd"
                                      "c4 fd 80 6c 22 f2 21";

static const char JABBERWOCKY[] = "'Twas brillig, and the slithy toves\nDid gyre and gimble in the "
                                  "wabe:\nAll mimsy were the borogoves,\nAnd the mome raths "
                                  "outgrabe.";

static const char JABBER_CIPHERTEXT[] = "62 e6 34 7f 95 ed 87 a4 5f fa e7 42 6f 27 a1 df"
                                        "5f b6 91 10 04 4c 0d 73 11 8e ff a9 5b 01 e5 cf"
                                        "16 6d 3d f2 d7 21 ca f9 b2 1e 5f b1 4c 61 68 71"
                                        "fd 84 c5 4f 9d 65 b2 83 19 6c 7f e4 f6 05 53 eb"
                                        "f3 9c 64 02 c4 22 34 e3 2a 35 6b 3e 76 43 12 a6"
                                        "1a 55 32 05 57 16 ea d6 96 25 68 f8 7d 3f 3f 77"
                                        "04 c6 a8 d1 bc d1 bf 4d 50 d6 15 4b 6d a7 31 b1"
                                        "87 b5 8d fd 72 8a fa 36 75 7a 79 7a c1 88 d1";

/* Encrypt, compare, decrypt in place, compare: one A.2 vector. */
static void check_encryption(const char *key, uint32_t counter, const char *nonce,
                             const uint8_t *plain, size_t len, const char *ct_hex, const char *what)
{
    uint8_t want[512], out[512];
    CHECK(len <= sizeof(out));
    CHECK_EQ_INT(unhex(ct_hex, want, sizeof(want)), len);
    xor_hex(key, counter, nonce, plain, out, len);
    check_bytes(out, want, len, what);
    xor_hex(key, counter, nonce, out, out, len);
    check_bytes(out, plain, len, what);
}

TEST(rfc_a_2_encryption_vectors)
{
    uint8_t zeros[64] = {0};
    CHECK_EQ_INT(sizeof(IETF_TEXT) - 1, 375);
    CHECK_EQ_INT(sizeof(JABBERWOCKY) - 1, 127);
    check_encryption(KEY_ZERO, 0, NONCE_ZERO, zeros, 64, a1[0].keystream, "A.2 #1");
    check_encryption(KEY_01, 1, NONCE_02, (const uint8_t *)IETF_TEXT, 375, IETF_CIPHERTEXT,
                     "A.2 #2");
    check_encryption(KEY_1C92, 42, NONCE_02, (const uint8_t *)JABBERWOCKY, 127, JABBER_CIPHERTEXT,
                     "A.2 #3");
}

/* A.4: the Poly1305 one-time key is the first 32 bytes of block 0; A.5
 * prints that block's state too (nonce 00000000 01020304 05060708). */
TEST(rfc_a_4_a_5_key_generation_blocks)
{
    static const struct {
        const char *key, *nonce, *otk;
    } v[] = {
        {KEY_ZERO, NONCE_ZERO,
         "76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 53 86 bd 28"
         "bd d2 19 b8 a0 8d ed 1a a8 36 ef cc 8b 77 0d c7"},
        {KEY_01, NONCE_02,
         "ec fa 25 4f 84 5f 64 74 73 d3 cb 14 0d a9 e8 76"
         "06 cb 33 06 6c 44 7b 87 bc 26 66 dd e3 fb b7 39"},
        {KEY_1C92, NONCE_02,
         "96 5e 3b c6 f9 ec 7e d9 56 08 08 f4 d2 29 f9 4b"
         "13 7f f2 75 ca 9b 3f cb dd 59 de aa d2 33 10 ae"},
        {KEY_1C92, "00 00 00 00 01 02 03 04 05 06 07 08",
         "bd f0 4a a9 5c e4 de 89 95 b1 4b b6 a1 8f ec af"
         "26 47 8f 50 c0 54 f5 63 db c0 a2 1e 26 15 72 aa"},
    };
    static const uint32_t a5_setup[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
                                          0xa540921c, 0x8ad355eb, 0x868833f3, 0xf0b5f604,
                                          0xc1173947, 0x09802b40, 0xbc5cca9d, 0xc0757020,
                                          0x00000000, 0x00000000, 0x04030201, 0x08070605};
    static const uint32_t a5_end[16] = {0xa94af0bd, 0x89dee45c, 0xb64bb195, 0xafec8fa1,
                                        0x508f4726, 0x63f554c0, 0x1ea2c0db, 0xaa721526,
                                        0x11b1e514, 0xa0bacc0f, 0x828a6015, 0xd7825481,
                                        0xe8a4a850, 0xd9dcbbd6, 0x4c2de33a, 0xf8ccd912};
    for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        uint32_t words[16];
        uint8_t bytes[64], want[32];
        CHECK_EQ_INT(unhex(v[i].otk, want, 32), 32);
        block_hex(v[i].key, 0, v[i].nonce, words, bytes);
        check_bytes(bytes, want, 32, i < 3 ? "A.4 one-time key" : "A.5 one-time key");
    }
    uint8_t kb[32], nb[12];
    uint32_t key[8], nonce[3], x[16];
    unhex(KEY_1C92, kb, 32);
    unhex(v[3].nonce, nb, 12);
    chacha20_load_le32(key, kb, 8);
    chacha20_load_le32(nonce, nb, 3);
    chacha20_setup(x, key, 0, nonce);
    check_words(x, a5_setup, 16, "A.5 state with key setup");
    /* A.5 labels this "state after 20 rounds", but its words serialise to
     * the one-time key above: it is the state after the final addition. */
    chacha20_block_words(x, x);
    check_words(x, a5_end, 16, "A.5 state at the end");
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

RUN_TESTS("chacha20", CASE(rfc_2_1_1_quarter_round), CASE(rfc_2_2_1_quarter_round_on_state),
          CASE(rfc_2_3_2_block_function), CASE(rfc_2_4_2_cipher), CASE(rfc_a_1_block_vectors),
          CASE(rfc_a_2_encryption_vectors), CASE(rfc_a_4_a_5_key_generation_blocks),
          CASE(streaming_and_counter), CASE(fast_key_erasure))
