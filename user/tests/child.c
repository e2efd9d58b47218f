/* SPDX-License-Identifier: MIT */
/*
 * user/tests/child.c - a helper that test programs spawn.
 *   child STATUS PARENT_PID [SLEEP_MS]
 * sleeps if asked, then exits with STATUS if its parent pid is PARENT_PID,
 * and with 100 otherwise (so the parent sees the mismatch in the status).
 */
#include "lib/user/ulib.h"

static long number(const char *s)
{
    long v = 0;
    while (*s >= '0' && *s <= '9')
        v = v * 10 + (*s++ - '0');
    return v;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 101;
    if (argc > 3)
        sleep_ns((uint64_t)number(argv[3]) * 1000000ull);
    return getppid() == number(argv[2]) ? (int)number(argv[1]) : 100;
}
