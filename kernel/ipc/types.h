/* SPDX-License-Identifier: MIT */
/*
 * kernel/ipc/types.h - the IPC state embedded in other objects: each
 * thread's message slot and wait state (in struct thread), each task's
 * handle table (in struct task). All of it is guarded by sched_lock
 * (kernel/ipc/ipc.h says why).
 */
#ifndef KERNEL_IPC_TYPES_H
#define KERNEL_IPC_TYPES_H

#include "kernel/types.h"
#include "kernel/uapi/ipc.h"

struct thread;
struct endpoint;

/* One message: the tag, the register words and up to IPC_BUF_WORDS extra
 * words (IPC_TAG_LEN(tag) of them are meaningful). */
struct ipc_msg {
    union {
        struct {
            uintptr_t tag;
            uintptr_t w[IPC_REG_WORDS];
        };
        uintptr_t regs[1 + IPC_REG_WORDS]; /* the same, as arch_sc_set_words takes them */
    };
    uintptr_t extra[IPC_BUF_WORDS];
};

enum ipc_wait {
    IPC_IDLE,      /* not in an IPC wait */
    IPC_SEND_WAIT, /* ipc_call: on ep's queue of senders, its message in msg */
    IPC_RECV_WAIT, /* ipc_recv: on ep's queue of receivers */
    IPC_REPLY_WAIT /* ipc_call: delivered; waiting for replier's answer */
};

/*
 * A thread's IPC state. msg is its slot: it stages its own message there
 * (the sender copies from its user buffer in its own address space), and
 * other threads deliver into it only while it waits to receive (RECV_WAIT,
 * REPLY_WAIT), so that it can copy the words out in its own address space.
 * Only the tag and register words are delivered: the extra words stay in
 * the sender's slot, lent to the receiver, which copies them into its user
 * buffer from there. So a long message is copied twice, user buffer to slot
 * and slot to user buffer; the sender stages nothing new over them, and
 * does not end, until every receiver has let go (ipc_loan_wait).
 */
/* Where the fastpath found a thread's buffer in the direct map
 * (kernel/ipc/fastpath_long.c): at most two pieces, valid while ubuf is
 * still va and its address space's unmap count still gen. */
struct ipc_buf_map {
    uintptr_t va;
    unsigned long gen;
    unsigned char *piece[2];
};

enum { IPC_RESUME_DIRECT = 1, IPC_RESUME_OWED = 2 }; /* ipc_thread.resume */

struct ipc_thread {
    enum ipc_wait state;
    struct endpoint *ep;    /* SEND_WAIT, RECV_WAIT: the endpoint it is queued on */
    struct thread *qnext;   /* the link in that queue */
    struct thread *replier; /* REPLY_WAIT: the server thread that owes the reply, or NULL */
    struct thread *caller;  /* a server thread: whom its next reply goes to, or NULL */
    uintptr_t badge;        /* SEND_WAIT: the badge of the handle it called through */
    long result;            /* what its wait ended with: a badge, 0, or -errno */
    bool done;              /* another thread has completed its wait */
    bool direct;            /* the fastpath put the message in its trapframe, not in msg */
    /* How it sleeps in the fastpath (fastpath.c), 0 if not there:
     * IPC_RESUME_DIRECT, its partner may resume it straight from its
     * trapframe (its way out owes nothing); IPC_RESUME_OWED, the path in
     * force owed exit work. */
    unsigned char resume;
    uintptr_t ubuf; /* its user buffer for extra words (ipc_set_buffer), 0 = none */
    /* A message with extra words arrived: they are still in the lender's
     * slot, which this thread copies them out of (sys_ipc.c unstage), then
     * lets go. */
    struct thread *lender;
    unsigned lent;              /* receivers still copying from this slot's extra words (atomic) */
    struct ipc_buf_map buf_map; /* sched_lock and the address space's lock */
    unsigned long_skips;        /* long messages to send the ordinary way (fastpath.c) */
    struct ipc_msg msg;
};

/* The IPC fastpath's counters (kernel/ipc/fastpath.c), each CPU's in its
 * struct cpu: hits, and misses by guard (kernel/uapi/ipc.h IPC_FAST_*);
 * partners resumed straight to user mode, and those that were not, by why
 * (IPC_DIRECT_*). A CPU's hits are not counted on their own (its direct
 * and not_direct add up to them): ipc_fast_stats_locked fills in the sum. */
struct ipc_fast_stats {
    unsigned long hits, misses[IPC_FAST_GUARDS];
    unsigned long direct, not_direct[IPC_DIRECT_WHYS];
};

enum ipc_kind {
    IPC_KIND_NONE,
    IPC_KIND_ENDPOINT,
    IPC_KIND_NOTIFY,
    IPC_KIND_DEVICE,
    IPC_KIND_CONTROL
};

struct ipc_handle {
    enum ipc_kind kind; /* IPC_KIND_NONE: a free slot */
    unsigned rights;    /* IPC_RIGHT_* */
    uintptr_t badge;    /* what receivers see on messages sent through it */
    void *obj;          /* struct endpoint, notify or device, holding a reference */
};

struct ipc_handles {
    struct ipc_handle h[IPC_MAX_HANDLES];
};

#endif
