/* SPDX-License-Identifier: MIT */
/*
 * kernel/platform.c - CPUs from the devicetree (/cpus, Devicetree
 * Specification v0.4 section 3.7) or from the ACPI MADT.
 */
#include "kernel/platform.h"

#include "arch/arch.h"
#include "kernel/bootinfo.h"
#include "kernel/mm.h"
#include "lib/acpi.h"
#include "lib/string.h"

static int cpus_from_fdt(const struct fdt *f, struct platform_cpu *out, int max)
{
    int count = 0, parent = fdt_path(f, "/cpus");
    for (int n = parent >= 0 ? fdt_first_child(f, parent) : -1; n >= 0;
         n = fdt_next_sibling(f, n)) {
        uint32_t len;
        const char *type = fdt_prop(f, n, "device_type", &len);
        uint64_t id, unused;
        if (!type || strcmp(type, "cpu") != 0 || !fdt_node_enabled(f, n) ||
            !arch_fdt_cpu_usable(f, n) || fdt_reg(f, n, 0, &id, &unused) != 0)
            continue;
        if (count < max)
            out[count].hwid = id;
        count++;
    }
    return count;
}

static int cpus_from_acpi(uint64_t rsdp, struct platform_cpu *out, int max)
{
    struct acpi a;
    uint32_t len;
    const void *madt;
    struct acpi_cpu cpus[64];
    if (acpi_init(&a, rsdp, phys_to_virt_const) != ACPI_OK || !(madt = acpi_find(&a, "APIC", &len)))
        return 0;
    int count = acpi_madt_cpus(madt, len, cpus, (int)ARRAY_SIZE(cpus));
    for (int i = 0; i < count && i < max && i < (int)ARRAY_SIZE(cpus); i++)
        out[i].hwid = cpus[i].apic_id;
    return count > 0 ? count : 0;
}

int platform_cpus(const struct boot_info *bi, struct platform_cpu *out, int max,
                  const char **source)
{
    const struct fdt *f = boot_fdt();
    int n;
    if (f && (n = cpus_from_fdt(f, out, max)) > 0) {
        *source = "devicetree /cpus";
        return n;
    }
    if (bi->acpi_rsdp_phys && (n = cpus_from_acpi(bi->acpi_rsdp_phys, out, max)) > 0) {
        *source = "ACPI MADT";
        return n;
    }
    *source = "no firmware table";
    return 0;
}
