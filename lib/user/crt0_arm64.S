/* SPDX-License-Identifier: MIT */
/* lib/user/crt0_arm64.S - program entry: the kernel passes argc in x0 and
 * argv in x1, with sp 16-byte aligned; call main(argc, argv), then exit. */
    .text
    .globl _start
_start:
    mov     x29, #0             /* outermost frame: ends backtraces */
    mov     x30, #0
    bl      main
    bl      exit
    brk     #0
    .section .note.GNU-stack, "", %progbits
