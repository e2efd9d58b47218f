/* SPDX-License-Identifier: MIT */
/*
 * kernel/smp.c - bring up the other CPUs.
 *
 * The boot CPU is logical CPU 0; the others get 1, 2, ... in the order the
 * firmware lists them. For each, the scheduler makes an idle thread, whose
 * kernel stack the new CPU starts on (arch_cpu_start); the new CPU sets
 * itself up and arrives in secondary_main(), which starts its timer and
 * becomes that idle thread. The boot CPU waits for it, but never forever.
 */
#include "kernel/smp.h"

#include "kernel/arch_callbacks.h"
#include "kernel/mm/asid.h"
#include "kernel/platform.h"
#include "kernel/random/random.h"
#include "kernel/sched/sched.h"
#include "kernel/time.h"

/* How long a started CPU has to come online. A real one takes microseconds;
 * a QEMU TCG vCPU waits for a host thread, which on a loaded host (make
 * test beside other work, 70 vCPUs on two host CPUs) has taken over a
 * second. Only a CPU that never comes makes the boot wait this long. */
#define START_TIMEOUT_NS 5000000000ull

void secondary_main(struct cpu *c)
{
    kprintf("cpu%u: online (hardware id 0x%llx)\n", c->id, (unsigned long long)c->hwid);
    asid_cpu_init();
    random_cpu_init();
    arch_timestamp_init(); /* the latency counter, on this CPU too */
    arch_timer_start(SCHED_TICK_HZ);
    sched_enter_idle(); /* sets c->online */
}

static bool wait_online(struct cpu *c)
{
    uint64_t deadline = time_now_ns() + START_TIMEOUT_NS;
    while (!READ_ONCE(c->online)) {
        if (time_now_ns() > deadline)
            return false;
        arch_cpu_relax();
    }
    return true;
}

enum start_result { STARTED, REFUSED, LATE };

static enum start_result start_one(struct cpu *c)
{
    uintptr_t stack = sched_prepare_cpu(c->id);
    if (arch_cpu_start(c, stack) != 0) {
        kprintf("cpu%u: hardware id 0x%llx: the firmware refused to start it\n", c->id,
                (unsigned long long)c->hwid);
        return REFUSED;
    }
    if (!wait_online(c)) {
        kprintf("cpu%u: hardware id 0x%llx did not come up within five seconds: skipped\n", c->id,
                (unsigned long long)c->hwid);
        return LATE;
    }
    return STARTED;
}

unsigned cpus_present = 1;

void smp_find_cpus(const struct boot_info *bi)
{
    static struct platform_cpu ids[MAX_CPUS]; /* boot CPU only, before any other runs */
    const char *source;
    int n = platform_cpus(bi, ids, MAX_CPUS, &source);
    uint64_t self = arch_cpu_hwid();
    cpus[0].hwid = self;
    unsigned next = 1;
    for (int i = 0; i < MIN(n, MAX_CPUS) && next < MAX_CPUS; i++) {
        if (ids[i].hwid == self)
            continue;
        struct cpu *c = &cpus[next];
        c->self = c;
        c->id = next++;
        c->latency.mark = c->id; /* a mark names its CPU (kernel/latency/latency.h) */
        c->hwid = ids[i].hwid;
    }
    cpus_present = next;
    if (n > MAX_CPUS)
        kprintf("smp: %d CPUs described, using the first %d\n", n, MAX_CPUS);
}

unsigned smp_boot(const struct boot_info *bi)
{
    (void)bi;
    if (cpus_present > 1)
        kprintf("smp: starting %u more CPU%s by %s\n", cpus_present - 1,
                cpus_present == 2 ? "" : "s", arch_smp_method());
    for (unsigned i = 1; i < cpus_present; i++) {
        /* A CPU that is merely late may still arrive and use the start-up
         * data (x86 shares one record): start no more CPUs after that. One
         * the firmware refused never runs, so the others still start. */
        if (start_one(&cpus[i]) == LATE) {
            kprintf("smp: not starting the remaining CPUs\n");
            break;
        }
    }
    kprintf("smp: %u CPU%s online\n", smp_online(), smp_online() == 1 ? "" : "s");
    return smp_online();
}

unsigned smp_online(void)
{
    unsigned n = 0;
    for (unsigned i = 0; i < MAX_CPUS; i++)
        n += READ_ONCE(cpus[i].online);
    return n;
}
