/* SPDX-License-Identifier: MIT */
/*
 * kernel/uapi/vuln.h - what user space passes to the deliberately
 * vulnerable system calls (SYS_vuln_*, kernel/uapi/syscall.h), which exist
 * only in a kernel built with make VULN=1 (kernel/syscall/sys_vuln.c explains the
 * two bugs; user/demos/vuln_demo.c attacks them).
 */
#ifndef KERNEL_UAPI_VULN_H
#define KERNEL_UAPI_VULN_H

/* SYS_vuln_fill's request: 16 bytes, exactly one stack offset step, so the
 * bytes an attacker controls in the kernel's frame sit at one depth only.
 * A request with any other op is refused (-EINVAL) and leaves no token
 * behind; VULN_OP_NOP is not 0, so that an op left unset is refused too. */
struct vuln_request {
    unsigned long op;    /* VULN_OP_NOP: the only operation */
    unsigned long token; /* anything: it stays behind in the frame */
};

#define VULN_OP_NOP 0x706f6eul /* "nop" */

/* The wide variant (SYS_vuln_fill and SYS_vuln_use with a second argument
 * of 1): a batch of requests, copied whole into a local that holds them
 * all; the use checks the middle one. 64 requests either side of it cover
 * every depth the offset can put the use at, whatever the fill's. */
#define VULN_WIDE_REQUESTS 129

#endif
