/* SPDX-License-Identifier: MIT */
/* lib/user/crt0_riscv64.S - program entry: the kernel passes argc in a0 and
 * argv in a1, with sp 16-byte aligned; set gp (psABI: the linker relaxes
 * accesses near __global_pointer$), call main(argc, argv), then exit. */
    .text
    .globl _start
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    li      s0, 0               /* outermost frame: ends backtraces */
    li      ra, 0
    call    main
    call    exit
    unimp
    .section .note.GNU-stack, "", %progbits
