/* SPDX-License-Identifier: MIT */
/* lib/user/crt0_x86_64.S - program entry: the kernel passes argc in %rdi and
 * argv in %rsi, with %rsp 16-byte aligned; call main(argc, argv), then exit. */
    .text
    .globl _start
_start:
    xor     %ebp, %ebp          /* outermost frame: ends backtraces */
    and     $-16, %rsp
    call    main
    mov     %eax, %edi
    call    exit
    ud2
    .section .note.GNU-stack, "", @progbits
