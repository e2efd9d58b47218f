/* SPDX-License-Identifier: MIT */
/*
 * arch/riscv64/rng.c - the Zkr entropy source: the `seed` CSR (0x015),
 * RISC-V scalar cryptography spec, "Entropy Source". It must be read with
 * a read-write CSR instruction (csrrw rd, seed, x0); bits 31:30 are OPST:
 *   00 BIST  built-in self-test running: try again
 *   01 WAIT  no entropy yet: try again
 *   10 ES16  bits 15:0 hold 16 bits of entropy-source output
 *   11 DEAD  the source has failed for good
 * S-mode may read it only if M-mode firmware set mseccfg.SSEED; otherwise
 * the read is an illegal instruction. Debian's OpenSBI 1.1 does not set it,
 * so the probe reads through the exception table and reports "present but
 * not enabled by firmware" instead of crashing. Zkr is detected from the
 * devicetree's ISA description of the boot hart.
 */
#include "kernel/arch_callbacks.h"
#include "kernel/errno.h"
#include "riscv.h"

#define OPST_SHIFT   30
#define OPST_BIST    0
#define OPST_WAIT    1
#define OPST_ES16    2
#define OPST_DEAD    3
#define SEED_RETRIES 100

static bool usable;

/* csrrw rd, seed, x0, surviving the illegal-instruction trap: -EFAULT then. */
static int read_seed_csr(unsigned long *v)
{
    int err = 0;
    unsigned long val = 0;
    __asm__ volatile("1: csrrw %1, 0x015, x0\n"
                     "2:\n"
                     ".pushsection .text.fixup, \"ax\"\n"
                     "3: li %0, %2\n"
                     "   j 2b\n"
                     ".popsection\n" EXTABLE_ENTRY(1b, 3b)
                     : "+r"(err), "+r"(val)
                     : "i"(-EFAULT)
                     : "memory");
    *v = val;
    return err;
}

/* One ES16 sample, retrying BIST/WAIT a bounded number of times; -1 if DEAD. */
static int read_es16(uint64_t *out)
{
    for (int tries = 0; tries < SEED_RETRIES; tries++) {
        unsigned long v;
        if (read_seed_csr(&v) != 0)
            return 0;
        switch ((v >> OPST_SHIFT) & 3) {
        case OPST_ES16: *out = v & 0xffff; return 16;
        case OPST_DEAD: return -1;
        default: arch_cpu_relax(); /* BIST or WAIT */
        }
    }
    return 0;
}

int arch_rng_probe(const struct boot_info *bi, struct arch_rng_info *out, int max)
{
    if (max < 1)
        return 0;
    const struct fdt *f = boot_fdt();
    bool listed = f && riscv_hart_has_ext(f, (uint32_t)arch_cpu_hwid(), "zkr");
    /* H = 8 bits per 16-bit sample: conservative (lib/health.h). */
    out[0] = (struct arch_rng_info){
        "Zkr", true, 16, 8 * 8, ARCH_RNG_ABSENT, "not in the devicetree's riscv,isa"};
    if (!listed)
        return 1;
    unsigned long v;
    uint64_t sample;
    if (read_seed_csr(&v) != 0) {
        out[0].state = ARCH_RNG_DISABLED;
        out[0].why = "present but not enabled by firmware (mseccfg.SSEED is 0)";
    } else if (read_es16(&sample) < 0) {
        out[0].state = ARCH_RNG_DISABLED;
        out[0].why = "the entropy source reports DEAD";
    } else {
        out[0].state = ARCH_RNG_OK;
        usable = true;
    }
    return 1;
}

unsigned arch_rng_read(int i, uint64_t *out)
{
    int bits = (usable && i == 0) ? read_es16(out) : 0;
    if (bits < 0)
        usable = false; /* DEAD: never again */
    return bits > 0 ? (unsigned)bits : 0;
}
