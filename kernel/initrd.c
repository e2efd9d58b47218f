/* SPDX-License-Identifier: MIT */
/* kernel/initrd.c - look programs up in the embedded table (see initrd.h). */
#include "kernel/initrd.h"

#include "lib/string.h"

extern const struct initrd_entry initrd_table[]; /* ends with a NULL name */

const struct initrd_entry *initrd_find(const char *name)
{
    for (const struct initrd_entry *e = initrd_table; e->name; e++) {
        if (strcmp(e->name, name) == 0)
            return e;
    }
    return NULL;
}
