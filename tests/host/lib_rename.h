/* SPDX-License-Identifier: MIT */
/*
 * tests/host/lib_rename.h - force-included when lib/string.c is compiled for
 * the host tests, so its functions become lib_memcpy etc. and can be compared
 * with the host libc's versions in the same program.
 */
#define memcpy           lib_memcpy
#define memmove          lib_memmove
#define memset           lib_memset
#define memcmp           lib_memcmp
#define memchr           lib_memchr
#define strlen           lib_strlen
#define strnlen          lib_strnlen
#define strcmp           lib_strcmp
#define strncmp          lib_strncmp
#define strchr           lib_strchr
#define strlcpy          lib_strlcpy
#define memzero_explicit lib_memzero_explicit
