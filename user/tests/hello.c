/* SPDX-License-Identifier: MIT */
/* user/tests/hello.c - the smallest stackshift program: who am I, where do I run. */
#include "lib/user/ulib.h"

int main(int argc, char **argv)
{
    printf("hello from pid %d on cpu %d, argv[0] = \"%s\", %d argument(s)\n", getpid(), getcpu(),
           argc > 0 ? argv[0] : "?", argc);
    return 0;
}
