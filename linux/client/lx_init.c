/* SPDX-License-Identifier: MIT */
/*
 * linux/client/lx_init.c - init (PID 1) of the small initramfs that
 * scripts/linux_run.py boots Debian's kernel with: `lxmode=bench` runs the
 * system call benchmark (lx_bench.c), `lxmode=record` the conformance
 * recorder (lx_record.c), `lxmode=record+bench` both in one boot (make
 * test's, tests/host/test_linux_recorder.py); then it powers the machine
 * off.
 */
#include "linux/client/lx_io.h"

int lx_bench(void);
int lx_record(void);

int lx_main(void)
{
    const char *mode = env_get("lxmode");
    if (mode && mode[0] == 'b')
        return lx_bench();
    if (mode && mode[0] == 'r') {
        int status = lx_record();
        return status || mode[6] != '+' ? status : lx_bench();
    }
    out_str("lx: no lxmode=bench, record or record+bench on the kernel command line\n");
    return 1;
}
