/* SPDX-License-Identifier: MIT */
/* lib/user/crt0_x86_64.S - program entry: the kernel passes argc in %rdi and
 * argv in %rsi (also on the stack: argc, argv[], NULL). Register newlib's
 * destructors with atexit, run the constructors (__libc_init_array), then
 * exit(main(argc, argv)), which flushes stdio and runs the atexit handlers. */
    .text
    .globl _start
_start:
    xor     %ebp, %ebp          /* outermost frame: ends backtraces */
    and     $-16, %rsp          /* each call below leaves rsp = 8 mod 16, as the ABI wants */
    mov     %edi, %r12d         /* callee-saved: argc, argv */
    mov     %rsi, %r13
    mov     $__libc_fini_array, %edi
    call    atexit
    call    __libc_init_array
    mov     %r12d, %edi
    mov     %r13, %rsi
    call    main
    mov     %eax, %edi
    call    exit
    ud2
    .section .note.GNU-stack, "", @progbits
