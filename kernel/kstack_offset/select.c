/* SPDX-License-Identifier: MIT */
/*
 * kernel/kstack_offset/select.c - which strategies there are and which may
 * be chosen (kstack=<name> at boot, SYS_kstack_set at run time), the `off`
 * baseline and the tests' `fixed` offset, and the set-up of every CPU's and
 * thread's state.
 *
 * The system call layer switches: it rewrites the entry code's call to the
 * strategy's own copy of the system call path (kernel/syscall/path.c,
 * after asking kstack_offset_available() here), so a call costs its
 * strategy's draw and nothing for the choice: `off` costs nothing at all.
 * A call already inside a copy finishes in it, exit update included, so a
 * switch while other CPUs are inside system calls only affects their next
 * call; each strategy keeps its own state, so none is ever half-updated by
 * another.
 */
#include "kernel/kstack_offset/kstack_offset.h"

#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/random/random.h"
#include "kernel/sched/sched.h"
#include "lib/cmdline.h"
#include "lib/string.h"

/* No draw at all: like Linux with the static key off, the baseline's copy
 * of the path has no draw and no bump. `fixed` draws c->kstack.fixed. */
const struct kstack_strategy kstack_off = {KSTACK_OFF, "off", NULL};
const struct kstack_strategy kstack_fixed = {KSTACK_FIXED, "fixed", NULL};

/* Every strategy by number (KSTACK_STRATEGIES, kernel/uapi/kstack.h). */
#define STRATEGY(NAME, name, str) [KSTACK_##NAME] = &kstack_##name,
static const struct kstack_strategy *const strategies[KSTACK_NR + 1] = {
    KSTACK_STRATEGIES(STRATEGY) /* the named ones */
    STRATEGY(FIXED, fixed, "fixed")};

static bool debug_allowed;
static bool locked; /* kstack.lock: the boot's choice stands */

static bool available(const struct kstack_strategy *s)
{
    return !s->available || s->available();
}

int kstack_offset_available(unsigned id)
{
    if (id >= KSTACK_NR)
        return -EINVAL;
    return available(strategies[id]) ? 0 : -ENODEV;
}

/* KSTACK_DEBUG_FIXED: every CPU uses `offset` (the bounds test's deepest stack). */
void kstack_offset_set_fixed(uint32_t offset)
{
    for (unsigned i = 0; i < MAX_CPUS; i++)
        WRITE_ONCE(cpus[i].kstack.fixed, offset);
}

bool kstack_offset_locked(void)
{
    return locked;
}

bool kstack_offset_debug_allowed(void)
{
    return debug_allowed;
}

static void seed_lfsr(struct lfsr113 *s)
{
    uint32_t seed[4];
    get_random_bytes(seed, sizeof(seed));
    lfsr113_seed(s, seed);
    memzero_explicit(seed, sizeof(seed));
}

void kstack_offset_thread_init(struct thread *t)
{
    t->kstack.offset = get_random_u16();
    seed_lfsr(&t->kstack.prng);
}

/* Every CPU's state is seeded here, before any CPU runs user code, so no
 * generator ever starts from zero or from another CPU's state. */
static void cpu_init(struct cpu *c)
{
    struct kstack_offset_cpu *k = &c->kstack;
    k->offset = get_random_u16();
    seed_lfsr(&k->prng);
    k->prng_seed = k->prng_boot_seed = k->prng;
    k->crng_was_ready = crng_ready();
    kstack_pool_cpu_init(c);
    kstack_siphash_cpu_init(c);
}

bool kstack_seeded_before_crng;

/* MUST 6 (docs/porting.md): seeds drawn before the CRNG was seeded are
 * redrawn once it is, on the CPU that owns them, IRQs off (from its tick),
 * so no draw sees a half-written state. The pool needs nothing: every
 * refill takes a fresh key from the CRNG, so it is all new keystream within
 * one ring. Threads (task, prng-task) keep the seeds they were created with. */
static void reseed_cpu(struct cpu *c)
{
    struct kstack_offset_cpu *k = &c->kstack;
    seed_lfsr(&k->prng);
    k->prng_seed = k->prng;
    k->prng_seed_draws = k->count[KSTACK_PRNG][KSTACK_CNT_DRAWS];
    kstack_siphash_cpu_reseed(c);
    k->crng_was_ready = true;
    k->reseeds++;
}

/* kstack=<name>: the strategy to boot with; anything else keeps the default. */
static unsigned boot_choice(const char *cmdline)
{
    static const char *const names[KSTACK_NR] = KSTACK_NAMES;
    char want[16];
    if (!cmdline_get(cmdline, "kstack", want, sizeof(want)))
        return KSTACK_DEFAULT;
    for (unsigned id = 0; id < KSTACK_NR; id++) {
        if (strcmp(want, names[id]) != 0)
            continue;
        if (available(strategies[id]))
            return id;
        kprintf("kstack: WARNING: kstack=%s is not available here; keeping %s\n", want,
                names[KSTACK_DEFAULT]);
        return KSTACK_DEFAULT;
    }
    kprintf("kstack: WARNING: unknown kstack=%s; valid:" KSTACK_VALID_NAMES "; keeping %s\n", want,
            names[KSTACK_DEFAULT]);
    return KSTACK_DEFAULT;
}

struct kstack_boot kstack_offset_init(const struct boot_info *bi)
{
    kstack_siphash_key_init();
    kstack_seeded_before_crng = !crng_ready();
    if (kstack_seeded_before_crng)
        kprintf("kstack: the CRNG is not seeded: prng and siphash will be reseeded on each CPU "
                "when it is\n");
    uint64_t t0 = arch_counter();
    for (unsigned i = 0; i < cpus_present; i++)
        cpu_init(&cpus[i]);
    uint64_t fill_ticks = arch_counter() - t0; /* mostly the pools' ChaCha20 */
    /* Only kstack.debug opens the gate, and only in a kernel built with the
     * debug calls (make DEBUG_CALLS=1, the default): running self-tests
     * (ktest=) does not, so no boot leaks offsets as a side effect. */
    debug_allowed = CONFIG_DEBUG_CALLS && cmdline_flag(bi->cmdline, "kstack.debug");
    locked = cmdline_flag(bi->cmdline, "kstack.lock");
    unsigned id = boot_choice(bi->cmdline);
    bool erase = cmdline_flag(bi->cmdline, "kstack.erase"); /* kernel/syscall/erase.c */
    kprintf("kstack: strategy %s%s (random offset 0..%u in 16-byte steps on every system "
            "call)%s%s; hw source: %s; debug calls %s\n",
            strategies[id]->name, id == KSTACK_DEFAULT ? " (default)" : "", KSTACK_OFFSET_MAX,
            locked ? ", locked" : "", erase ? ", used stack erased on exit" : "", random_hw_name(),
            debug_allowed        ? "ON (kstack.debug: offsets can be read and pinned)"
            : CONFIG_DEBUG_CALLS ? "off"
                                 : "off (not built in)");
    uint64_t centi = fill_ticks * 100 / (cpus_present * KSTACK_POOL_BYTES);
    kprintf("kstack: pool: %u KiB per CPU; filling them took %llu.%02llu counter ticks per byte "
            "(%llu Hz)\n",
            KSTACK_POOL_BYTES / 1024, (unsigned long long)(centi / 100),
            (unsigned long long)(centi % 100), (unsigned long long)arch_counter_hz());
    return (struct kstack_boot){id, erase};
}

/* The tick may have interrupted a system call: its refill (hundreds of
 * thousands of instructions) would then count in that call's time. It
 * leaves a note instead, which costs the way out nothing (the flag shares
 * the word user_return_fast() tests anyway); the low-water mark leaves the
 * ring 49,152 calls of slack meanwhile. */
void kstack_offset_tick(struct cpu *c)
{
    if (!c->kstack.crng_was_ready && crng_ready())
        reseed_cpu(c);
    if (kstack_pool_cpu_level(c) < KSTACK_POOL_LOW_WATER && kstack_pool_background_refills())
        c->pool_low = true;
}

void kstack_offset_user_return(struct cpu *c)
{
    c->pool_low = false;
    if (kstack_pool_background_refills())
        kstack_pool_cpu_refill(c, KSTACK_POOL_TICK_BYTES, false);
}

/* A kilobyte at a time, in steps (IRQs on between them), and only until
 * this CPU has something else to run. */
bool kstack_offset_idle(struct cpu *c)
{
    if (kstack_pool_cpu_level(c) > KSTACK_POOL_BYTES - 1024 || !kstack_pool_background_refills())
        return false;
    kstack_pool_cpu_refill(c, 1024, true);
    return true;
}

unsigned kstack_offset_verify_this_cpu(struct cpu *c)
{
    return (kstack_prng_verify(c) ? KSTACK_VERIFY_PRNG : 0) |
           (kstack_siphash_verify(c) ? KSTACK_VERIFY_SIPHASH : 0) |
           (kstack_pool_verify(c) ? KSTACK_VERIFY_POOL : 0);
}
