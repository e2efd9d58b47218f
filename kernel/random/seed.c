/* SPDX-License-Identifier: MIT */
/*
 * kernel/random/seed.c - where the CRNG's seed comes from, and how much of
 * it is believed.
 *
 * Sources, in order, each reported on one "random:" line:
 *   1. the CPU's generators (arch_rng_probe: RDSEED/RDRAND, RNDRRS/RNDR,
 *      the Zkr seed CSR), then the devicetree's RNG devices (kernel/dev/
 *      rng.h: bcm2835-rng, virtio-rng), treated alike. Each must pass a
 *      start-up self-test (8 reads that succeed, are not 0 or all-ones,
 *      and change) and then 1024 samples through the SP 800-90B
 *      repetition count and adaptive proportion tests (lib/health.c)
 *      before it is credited; all samples are mixed in.
 *   2. the firmware's seed: EFI_RNG_PROTOCOL bytes from the UEFI loader,
 *      and the devicetree's /chosen/rng-seed, which is wiped after use.
 *      Credited at face value (8 bits a byte, as a boot loader's seed
 *      usually is) unless rng.trust_firmware=0.
 *   3. timer jitter, only if the others gave too little (jitter.c).
 * Each source is credited at most CRNG_READY_BITS; the CRNG is ready when
 * the total reaches CRNG_READY_BITS and the ChaCha20 self-test passed.
 * The command line, the devicetree's other contents, and anything else
 * deterministic are never credited.
 *
 * Reseeding (crng.c) reads the first healthy seed-class CPU source (RDSEED,
 * RNDRRS, Zkr), or a DRBG-class one (RDRAND, RNDR) if that is all there is,
 * with the health tests still running on every sample.
 *
 * Switches: rng.no_cpu, rng.no_firmware, rng.no_jitter, rng.trust_firmware=0,
 * rng.credit_late (nothing credited at boot: the first reseed seeds it),
 * and fault injection rng.inject=<source>:<stuck|ones|zeros|intermittent|fail>
 * (source as printed, e.g. rdseed, rndr, zkr) for the tests.
 */
#include "kernel/random/internal.h"
#include "kernel/random/random.h"

#include "arch/arch.h"
#include "kernel/bootinfo.h"
#include "kernel/cpu.h"
#include "kernel/dev/rng.h"
#include "kernel/printk.h"
#include "lib/cmdline.h"
#include "lib/health.h"
#include "lib/printf.h"
#include "lib/string.h"

#define MAX_CPU_SOURCES   8 /* the CPU's, then the devices' */
#define SELFTEST_READS    8
#define STARTUP_SAMPLES   1024
#define HEALTH_ALPHA_LOG2 30

enum inject_mode {
    INJECT_NONE,
    INJECT_STUCK,
    INJECT_ONES,
    INJECT_ZEROS,
    INJECT_INTERMITTENT,
    INJECT_FAIL
};

static struct arch_rng_info sources[MAX_CPU_SOURCES];
static int nsources;
static int ncpu_sources; /* sources[ncpu_sources..] are devices: */
static const struct rng_driver *device_of[MAX_CPU_SOURCES];
/* The devicetree RNG drivers (kernel/dev/), by compatible. */
static const struct rng_driver *const rng_drivers[] = {&bcm2835_rng_driver, &virtio_rng_driver,
                                                       &bcm2711_rng200_driver};
const char rng_not_this_device[] = "not this device";
static int inject_source = -1; /* a CPU source, or one of: */
#define INJECT_EFI      (-2)   /* rng.inject=efi:... */
#define INJECT_RNG_SEED (-3)   /* rng.inject=rng-seed:... */
static enum inject_mode inject_mode;
static unsigned inject_reads;
static int reseed_source = -1;
static int fast_source = -1; /* for the `hw` stack offset strategy: a DRBG if there is one */
static bool jitter_deterministic = true; /* until measured otherwise */
static struct health reseed_health;

static uint64_t sample_mask(const struct arch_rng_info *s)
{
    return s->sample_bits >= 64 ? ~0ull : (1ull << s->sample_bits) - 1;
}

/* A read of CPU source i, with the test build's fault injection on top. */
static unsigned source_read(int i, uint64_t *v)
{
    unsigned bits = i < ncpu_sources ? arch_rng_read(i, v) : device_of[i]->read(v);
    if (i != inject_source)
        return bits;
    uint64_t mask = sample_mask(&sources[i]);
    switch (inject_mode) {
    case INJECT_STUCK: *v = 0x5a5a5a5a5a5a5a5aull & mask; return sources[i].sample_bits;
    case INJECT_ONES: *v = mask; return sources[i].sample_bits;
    case INJECT_ZEROS: *v = 0; return sources[i].sample_bits;
    case INJECT_INTERMITTENT:
        if (inject_reads++ % 2)
            *v = 0;
        return bits;
    case INJECT_FAIL: *v = 0; return 0;
    default: return bits;
    }
}

static void parse_inject(const char *cmdline)
{
    static const char *const modes[] = {"", "stuck", "ones", "zeros", "intermittent", "fail"};
    char arg[32];
    if (!cmdline_get(cmdline, "rng.inject", arg, sizeof(arg)))
        return;
    char *colon = strchr(arg, ':');
    if (!colon)
        return;
    *colon = '\0';
    if (strcmp(arg, "efi") == 0)
        inject_source = INJECT_EFI;
    if (strcmp(arg, "rng-seed") == 0)
        inject_source = INJECT_RNG_SEED;
    for (int i = 0; i < nsources; i++) {
        char lower[16];
        size_t n = strlcpy(lower, sources[i].name, sizeof(lower));
        for (size_t k = 0; k < n && k < sizeof(lower); k++)
            lower[k] = (char)(lower[k] >= 'A' && lower[k] <= 'Z' ? lower[k] + 32 : lower[k]);
        if (strcmp(lower, arg) == 0)
            inject_source = i;
    }
    for (unsigned m = 1; m < ARRAY_SIZE(modes); m++) {
        if (strcmp(colon + 1, modes[m]) == 0)
            inject_mode = (enum inject_mode)m;
    }
    if (inject_source != -1 && inject_mode != INJECT_NONE)
        kprintf("random: injecting \"%s\" faults into %s\n", colon + 1,
                inject_source >= 0 ? sources[inject_source].name : arg);
}

/* Start-up self-test: reads work, are not 0 / all-ones, and change. */
static const char *selftest(int i)
{
    uint64_t prev = 0, v;
    int changes = 0;
    uint64_t mask = sample_mask(&sources[i]);
    for (int r = 0; r < SELFTEST_READS; r++) {
        if (source_read(i, &v) == 0)
            return "failed self-test: no output after retries";
        v &= mask;
        if (sources[i].sample_bits == 64 && (v == 0 || v == mask))
            return "failed self-test: returned 0 or all-ones";
        changes += r > 0 && v != prev;
        prev = v;
    }
    return changes >= SELFTEST_READS / 2 ? NULL : "failed self-test: values do not change";
}

/* 1024 samples through the health tests, mixed into the pool. Returns the
 * credit, or 0 with *why set when the source failed. */
static unsigned collect_cpu(int i, const char **why)
{
    const struct arch_rng_info *s = &sources[i];
    struct health h;
    uint64_t batch[16];
    unsigned got = 0, failures = 0;
    health_init(&h, s->h_x8, HEALTH_ALPHA_LOG2, s->sample_bits);
    for (unsigned n = 0; n < STARTUP_SAMPLES; n++) {
        uint64_t v;
        if (source_read(i, &v) == 0) {
            if (++failures > STARTUP_SAMPLES / 8) {
                *why = "failed: reads keep failing";
                return 0;
            }
            continue;
        }
        v &= sample_mask(s);
        if (!health_feed(&h, v)) {
            *why = (h.last_alarm & HEALTH_ALARM_RCT) ? "failed health test (repetition count)"
                                                     : "failed health test (adaptive proportion)";
            return 0;
        }
        batch[got++ % 16] = v;
        if (got % 16 == 0)
            crng_mix(batch, sizeof(batch));
    }
    memzero_explicit(batch, sizeof(batch));
    if (!health_startup_done(&h)) {
        *why = "failed: too few good samples";
        return 0;
    }
    uint64_t credit = (uint64_t)got * s->h_x8 / 8;
    return credit > CRNG_READY_BITS ? CRNG_READY_BITS : (unsigned)credit;
}

/* Reseeding reads the first healthy seed source, health tests still on:
 * one sample, credited its claimed min-entropy (0 once it turns unhealthy). */
static unsigned reseed_read64(uint64_t *out)
{
    const struct arch_rng_info *s = &sources[reseed_source];
    if (source_read(reseed_source, out) == 0 || !health_feed(&reseed_health, *out & sample_mask(s)))
        return 0;
    return s->h_x8 / 8;
}

/* The first node compatible with drv that holds its device: NULL if it
 * started, else why not, with *found false if no node holds one (nodes
 * whose init says rng_not_this_device are passed over). */
static const char *probe_nodes(const struct fdt *f, const struct rng_driver *drv, bool *found)
{
    bool compatible = false;
    for (int node = fdt_find_compatible(f, -1, drv->compatible); node >= 0;
         node = fdt_find_compatible(f, node, drv->compatible)) {
        const char *why =
            fdt_node_enabled(f, node) ? drv->init(f, node) : "disabled in the devicetree";
        compatible = true;
        if (why != rng_not_this_device) {
            *found = true;
            return why;
        }
    }
    *found = false;
    return compatible ? "no compatible node holds one" : "not in the devicetree";
}

/* The devicetree's RNG devices, in sources[] after the CPU's (arch_rng_probe
 * left them room): absent, found but not usable (why), or started. */
static void device_sources(void)
{
    const struct fdt *f = boot_fdt();
    for (unsigned d = 0; f && d < ARRAY_SIZE(rng_drivers); d++) {
        const struct rng_driver *drv = rng_drivers[d];
        bool found;
        const char *why = probe_nodes(f, drv, &found);
        enum arch_rng_state state = !found ? ARCH_RNG_ABSENT
                                    : why  ? ARCH_RNG_DISABLED
                                           : ARCH_RNG_OK;
        device_of[nsources] = drv;
        sources[nsources++] = (struct arch_rng_info){.name = drv->name,
                                                     .seed_class = drv->seed_class,
                                                     .sample_bits = drv->sample_bits,
                                                     .h_x8 = drv->h_x8,
                                                     .state = state,
                                                     .why = why};
    }
}

static unsigned cpu_sources(const struct boot_info *bi, bool disabled)
{
    unsigned total = 0;
    nsources = ncpu_sources =
        arch_rng_probe(bi, sources, MAX_CPU_SOURCES - (int)ARRAY_SIZE(rng_drivers));
    device_sources();
    parse_inject(bi->cmdline);
    if (ncpu_sources == 0)
        kprintf("random: %-10s absent: this architecture has no such instruction\n", "CPU RNG");
    for (int i = 0; i < nsources; i++) {
        const struct arch_rng_info *s = &sources[i];
        const char *why = s->why;
        unsigned credit = 0;
        if (s->state == ARCH_RNG_ABSENT) {
            kprintf("random: %-10s absent (%s)\n", s->name, why ? why : "not implemented");
            continue;
        }
        if (s->state == ARCH_RNG_DISABLED) {
            kprintf("random: %-10s found, not used: %s\n", s->name, why);
            continue;
        }
        if (disabled && i < ncpu_sources) {
            kprintf("random: %-10s found, not used: disabled by rng.no_cpu\n", s->name);
            continue;
        }
        why = selftest(i);
        if (!why)
            credit = collect_cpu(i, &why);
        if (why) {
            kprintf("random: %-10s found, not used: %s\n", s->name, why);
            continue;
        }
        kprintf("random: %-10s found, used: %u bits credited (%u health-tested samples)\n", s->name,
                credit, STARTUP_SAMPLES);
        /* The `hw` stack offset strategy reads the fastest healthy source: a
         * DRBG (RDRAND, RNDR) rather than a conditioned seed (RDSEED, RNDRRS);
         * a CPU instruction, never a device behind MMIO. */
        if (i < ncpu_sources &&
            (fast_source < 0 || (!s->seed_class && sources[fast_source].seed_class)))
            fast_source = i;
        /* Reseed from the first healthy seed-class source, else a DRBG one. */
        if (reseed_source < 0 || (s->seed_class && !sources[reseed_source].seed_class)) {
            reseed_source = i;
            health_init(&reseed_health, s->h_x8, HEALTH_ALPHA_LOG2, s->sample_bits);
        }
        total += credit;
    }
    return total;
}

/* Fault injection on a firmware seed (the test build's rng.inject=efi:...). */
static size_t inject_firmware(int which, uint8_t *seed, size_t len)
{
    static const uint8_t fill[] = {[INJECT_STUCK] = 0x5a, [INJECT_ONES] = 0xff, [INJECT_ZEROS] = 0};
    if (inject_source != which || inject_mode == INJECT_NONE)
        return len;
    if (inject_mode == INJECT_FAIL)
        return 0;
    if (inject_mode < ARRAY_SIZE(fill))
        memset(seed, fill[inject_mode], len);
    return len;
}

/* Mix and credit one firmware seed, then wipe it. */
static unsigned firmware_seed(const char *name, const char *where, uint8_t *seed, size_t len,
                              bool disabled, bool trusted)
{
    unsigned credit = 0;
    bool constant = true;
    for (size_t i = 1; i < len; i++)
        constant &= seed[i] == seed[0];
    if (disabled) {
        kprintf("random: %-10s found, not used: disabled by rng.no_firmware (wiped)\n", name);
    } else if (constant) {
        kprintf("random: %-10s found, not used: failed: all %zu bytes are equal (wiped)\n", name,
                len);
    } else {
        credit = trusted ? (unsigned)MIN(len * 8, (size_t)CRNG_READY_BITS) : 0;
        crng_mix(seed, len);
        kprintf("random: %-10s found, used: %zu bytes %s, %u bits credited%s (wiped)\n", name, len,
                where, credit, trusted ? "" : " (rng.trust_firmware=0)");
    }
    memzero_explicit(seed, len); /* a seed must not outlive its use */
    return credit;
}

static unsigned firmware_sources(struct boot_info *bi, bool disabled, bool trusted)
{
    unsigned total = 0;
    size_t efi_len = inject_firmware(INJECT_EFI, bi->seed, bi->seed_len);
    if (bi->path != BOOT_PATH_UEFI)
        kprintf("random: %-10s absent (not a UEFI boot)\n", "EFI RNG");
    else if (!efi_len)
        kprintf("random: %-10s absent (no EFI_RNG_PROTOCOL, or it returned nothing)\n", "EFI RNG");
    else
        total +=
            firmware_seed("EFI RNG", "from EFI_RNG_PROTOCOL", bi->seed, efi_len, disabled, trusted);
    memzero_explicit(bi->seed, sizeof(bi->seed));
    const struct fdt *f = boot_fdt();
    uint32_t len = 0;
    uint8_t *seed = f ? (uint8_t *)fdt_prop(f, fdt_path(f, "/chosen"), "rng-seed", &len) : NULL;
    size_t used = seed ? inject_firmware(INJECT_RNG_SEED, seed, len) : 0;
    if (!used)
        kprintf("random: %-10s absent (%s)\n", "rng-seed",
                !f     ? "no devicetree"
                : seed ? "fault injection"
                       : "no /chosen/rng-seed");
    else
        total += firmware_seed("rng-seed", "from the devicetree", seed, used, disabled, trusted);
    if (seed)
        memzero_explicit(seed, len);
    return total;
}

static unsigned jitter_source(unsigned so_far, bool disabled)
{
    unsigned samples, most;
    if (disabled) {
        kprintf("random: %-10s not used: disabled by rng.no_jitter\n", "jitter");
        return 0;
    }
    if (so_far >= CRNG_READY_BITS) {
        kprintf("random: %-10s not needed\n", "jitter");
        return 0;
    }
    unsigned credit = jitter_collect(&samples, &most);
    jitter_deterministic = most >= samples;
    kprintf("random: %-10s used: %u timings, %u of them guessable: %u bits credited (weak%s)\n",
            "jitter", samples, most, credit,
            jitter_deterministic ? ": every timing was predictable, the counter is deterministic"
                                 : "");
    return credit;
}

static void print_test_output(void)
{
    uint8_t sample[8];
    get_random_bytes(sample, sizeof(sample));
    kprintf("random: test output %02x%02x%02x%02x%02x%02x%02x%02x\n", sample[0], sample[1],
            sample[2], sample[3], sample[4], sample[5], sample[6], sample[7]);
}

/* What reseeds the CRNG, for the ready line: "the CPU", a device's name, or "". */
static const char *reseed_name(void)
{
    if (reseed_source < 0)
        return "";
    return reseed_source < ncpu_sources ? "the CPU" : sources[reseed_source].name;
}

void random_init(struct boot_info *bi)
{
    const char *cl = bi->cmdline;
    bool kat = crng_selftest();
    kprintf("random: ChaCha20 self-test (RFC 8439 vectors) %s\n", kat ? "passed" : "FAILED");
    unsigned total = cpu_sources(bi, cmdline_flag(cl, "rng.no_cpu"));
    total += firmware_sources(bi, cmdline_flag(cl, "rng.no_firmware"),
                              cmdline_ulong(cl, "rng.trust_firmware", 1) != 0);
    total += jitter_source(total, cmdline_flag(cl, "rng.no_jitter"));
    bool late = cmdline_flag(cl, "rng.credit_late");
    if (late)
        kprintf("random: rng.credit_late: %u bits withheld until the first reseed\n", total);
    crng_seed(late ? 0 : total, kat);
    if (reseed_source >= 0)
        crng_set_reseed_source(reseed_read64);
    if (crng_ready())
        kprintf("random: %u bits credited: CRNG ready%s%s%s\n", total,
                reseed_source >= 0 ? ", reseeded from " : "", reseed_name(),
                reseed_source >= 0 ? " every 60 s" : "");
    else if (!kat)
        kprintf("random: CRNG NOT READY: the ChaCha20 self-test failed\n");
    else if (late)
        kprintf(
            "random: CRNG NOT SEEDED: only 0 of %u bits credited; seeded at the first reseed%s\n",
            CRNG_READY_BITS, reseed_source >= 0 ? "" : ", but nothing can reseed it");
    else
        kprintf("random: CRNG NOT SEEDED: only %u of %u bits credited; its output is %s\n", total,
                CRNG_READY_BITS, total == 0 && jitter_deterministic ? "deterministic" : "weak");
    print_test_output();
    random_cpu_init();
}

bool random_hw_available(void)
{
    return fast_source >= 0;
}

unsigned random_hw_read(uint64_t *out)
{
    return arch_rng_read(fast_source, out);
}

const char *random_hw_name(void)
{
    return fast_source >= 0 ? sources[fast_source].name : "none";
}
