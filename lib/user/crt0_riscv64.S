/* SPDX-License-Identifier: MIT */
/* lib/user/crt0_riscv64.S - program entry: the kernel passes argc in a0 and
 * argv in a1, with sp 16-byte aligned. Set gp (psABI: the linker relaxes
 * accesses near __global_pointer$), register newlib's destructors with
 * atexit, run the constructors (__libc_init_array), then
 * exit(main(argc, argv)), which flushes stdio and runs the atexit handlers. */
    .text
    .globl _start
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    li      s0, 0               /* outermost frame: ends backtraces */
    li      ra, 0
    mv      s1, a0              /* callee-saved: argc, argv */
    mv      s2, a1
    la      a0, __libc_fini_array
    call    atexit
    call    __libc_init_array
    mv      a0, s1
    mv      a1, s2
    call    main
    call    exit
    unimp
    .section .note.GNU-stack, "", %progbits
