/* SPDX-License-Identifier: MIT */
/* lib/user/crt0_arm64.S - program entry: the kernel passes argc in x0 and
 * argv in x1, with sp 16-byte aligned. Register newlib's destructors with
 * atexit, run the constructors (__libc_init_array), then
 * exit(main(argc, argv)), which flushes stdio and runs the atexit handlers. */
    .text
    .globl _start
_start:
    mov     x29, #0             /* outermost frame: ends backtraces */
    mov     x30, #0
    mov     x19, x0             /* callee-saved: argc, argv */
    mov     x20, x1
    adrp    x0, __libc_fini_array
    add     x0, x0, :lo12:__libc_fini_array
    bl      atexit
    bl      __libc_init_array
    mov     x0, x19
    mov     x1, x20
    bl      main
    bl      exit
    brk     #0
    .section .note.GNU-stack, "", %progbits
