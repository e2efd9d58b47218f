/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/time.c - the TSC frequency.
 *
 * CPUID leaf 0x15 gives it exactly when the CPU reports its crystal (SDM
 * vol. 3B 18.7.3); otherwise the TSC is measured against the ACPI power
 * management timer, which runs at 3.579545 MHz (ACPI 6.5, 4.8.3.3), with
 * lib/calibrate.c's bracketed readings.
 */
#include "kernel/arch_callbacks.h"
#include "lib/acpi.h"
#include "lib/calibrate.h"
#include "x86.h"

#define PM_TIMER_HZ        3579545ull
#define CALIBRATE_PM_TICKS (PM_TIMER_HZ / 50) /* 20 ms */

static uint64_t tsc_hz;
static const char *tsc_source = "unknown";
static unsigned tsc_windows;   /* PM timer windows measured */
static uint64_t tsc_error_ppm; /* the best one's error bound */

uint64_t arch_counter_hz(void)
{
    return tsc_hz;
}

static uint64_t tsc_hz_from_cpuid(void)
{
    uint32_t r[4];
    x86_cpuid(0, 0, r);
    if (r[0] < 0x15)
        return 0;
    x86_cpuid(0x15, 0, r); /* eax/ebx = TSC/crystal ratio, ecx = crystal Hz */
    if (!r[0] || !r[1] || !r[2])
        return 0;
    return (uint64_t)r[2] * r[1] / r[0];
}

struct pm_timer {
    uint16_t port;
};

static uint64_t read_tsc(void *ctx)
{
    (void)ctx;
    return arch_counter();
}

static uint32_t read_pm_timer(void *ctx)
{
    return arch_pio_read32(((struct pm_timer *)ctx)->port);
}

/* Up to five 20 ms windows: a host that descheduled this virtual CPU at
 * either end of one window (seen: a 15 GHz "TSC") costs another window. */
static uint64_t tsc_hz_from_pm_timer(const struct boot_info *bi)
{
    struct acpi a;
    uint32_t len;
    struct pm_timer pm;
    unsigned bits;
    const void *fadt;
    if (acpi_init(&a, bi->acpi_rsdp_phys, phys_to_virt_const) != ACPI_OK ||
        !(fadt = acpi_find(&a, "FACP", &len)) ||
        acpi_fadt_pm_timer(fadt, len, &pm.port, &bits) != ACPI_OK)
        return 0;
    struct calibrate_clocks clocks = {
        read_tsc, read_pm_timer, &pm, bits == 32 ? 0xffffffffu : 0xffffffu, PM_TIMER_HZ,
    };
    struct calibrate_result r = calibrate_counter(&clocks, CALIBRATE_PM_TICKS, 5);
    tsc_windows = r.windows;
    tsc_error_ppm = r.error_ppm;
    return r.hz;
}

void x86_time_init(const struct boot_info *bi)
{
    if ((tsc_hz = tsc_hz_from_cpuid()))
        tsc_source = "CPUID 0x15";
    else if ((tsc_hz = tsc_hz_from_pm_timer(bi)))
        tsc_source = "ACPI PM timer";
    else {
        tsc_hz = 1000000000ull;
        tsc_source = "a guess: no CPUID 0x15 and no PM timer";
    }
    kprintf("tsc: %llu Hz (%s", (unsigned long long)tsc_hz, tsc_source);
    if (tsc_windows)
        kprintf(", %u window%s, within %llu ppm", tsc_windows, tsc_windows > 1 ? "s" : "",
                (unsigned long long)tsc_error_ppm);
    kprintf(")\n");
    if (tsc_windows && tsc_error_ppm > CALIBRATE_MAX_PPM)
        kprintf("tsc: warning: every window was disturbed; timings may be off\n");
}

/* Latency timestamps: the TSC itself (impl.h orders the reads). RDTSC works
 * in user mode while CR4.TSD is clear, which it is (SDM vol. 3A 2.5).
 * Nothing to choose. */
void arch_timestamp_init(void) {}

const char *arch_timestamp_name(void)
{
    return "tsc";
}

uint64_t arch_timestamp_hz(void)
{
    return tsc_hz;
}
