/* SPDX-License-Identifier: MIT */
/*
 * linux/client/lx_init.c - init (PID 1) of the small initramfs that
 * scripts/linux_run.py boots Debian's kernel with: `lxmode=bench` runs the
 * system call benchmark (lx_bench.c), `lxmode=record` the conformance
 * recorder (lx_record.c); then it powers the machine off.
 */
#include "linux/client/lx_io.h"

int lx_bench(void);
int lx_record(void);

int lx_main(void)
{
    const char *mode = env_get("lxmode");
    if (mode && mode[0] == 'b')
        return lx_bench();
    if (mode && mode[0] == 'r')
        return lx_record();
    out_str("lx: no lxmode=bench or lxmode=record on the kernel command line\n");
    return 1;
}
