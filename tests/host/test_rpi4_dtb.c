/* SPDX-License-Identifier: MIT */
/*
 * tests/host/test_rpi4_dtb.c - the real Raspberry Pi 4 devicetree through
 * lib/fdt.c: everything the kernel looks up on that board is found, and
 * device addresses come out as the CPU sees them.
 *
 * The blob is Debian's bcm2711-rpi-4-b.dtb, fetched with the SD card's
 * other boot files by boot/rpi/fetch.sh as part of building this test
 * (Makefile, build/host/test_rpi4_dtb). If it could not be fetched (no
 * network, no arm64 dpkg architecture) the program prints one case marked
 * "# SKIP" with the reason, and nothing else.
 *
 * Expected CPU addresses come from the BCM2711 ARM Peripherals document
 * (Raspberry Pi Ltd), section 1.2 "Address map": in the
 * default low-peripheral mode the main peripherals' bus addresses
 * 0x7c000000-0x7fffffff are at CPU 0xfc000000, and the ARM local
 * peripherals (the GIC-400 among them) at 0xff800000. The devicetree's
 * /soc "ranges" must say the same.
 */
#include <stdio.h>
#include <stdlib.h>

#include "lib/fdt.h"
#include "tests/host/check.h"
#include "tests/host/dtb_file.h"

#ifndef RPI4_DTB
#define RPI4_DTB "build/rpi4-firmware/bcm2711-rpi-4-b.dtb"
#endif

static struct fdt pi4;
static void *blob;

static bool load(const char *path, const char **why)
{
    return dtb_file_load(path, &pi4, &blob, why);
}

static uint64_t cpu_reg(int node, int index, uint64_t *size)
{
    uint64_t a = 0;
    int err = fdt_reg_cpu(&pi4, node, index, &a, size, NULL);
    CHECK_EQ_INT(err, FDT_OK);
    return a;
}

static const char *name_of(int node)
{
    const char *n = node >= 0 ? fdt_node_name(&pi4, node) : NULL;
    return n ? n : "(none)";
}

/* ---- Tests ---- */

TEST(board_is_a_pi4)
{
    uint32_t len;
    const char *model = fdt_prop(&pi4, fdt_root(&pi4), "model", &len);
    CHECK(model != NULL);
    CHECK_EQ_STR(model ? model : "", "Raspberry Pi 4 Model B");
    CHECK(fdt_is_compatible(&pi4, fdt_root(&pi4), "brcm,bcm2711"));
}

/* /chosen stdout-path = "serial1:115200n8" -> /aliases serial1 -> the mini
 * UART, the one on GPIO 14/15 while Bluetooth has the PL011 (serial0). */
TEST(stdout_path_is_the_mini_uart_translated)
{
    uint64_t size = 0;
    int where = -1, node = fdt_stdout_node(&pi4, &where);
    CHECK_EQ_STR(name_of(node), "serial@7e215040");
    CHECK(fdt_is_compatible(&pi4, node, "brcm,bcm2835-aux-uart"));
    CHECK(fdt_node_enabled(&pi4, node));
    CHECK(cpu_reg(node, 0, &size) == 0xfe215040ull);
    CHECK(size == 0x40);
    /* Its interrupt: the GIC's 3-cell form, SPI 93 (INTID 125), level. */
    uint32_t len;
    const uint8_t *irq = fdt_prop(&pi4, node, "interrupts", &len);
    CHECK(irq != NULL && len == 12);
    if (irq && len == 12)
        CHECK(fdt_be32(irq) == 0 && fdt_be32(irq + 4) == 93 && fdt_be32(irq + 8) == 4);
    CHECK(fdt_is_compatible(&pi4, fdt_interrupt_parent(&pi4, node), "arm,gic-400"));
}

TEST(serial0_is_the_pl011_translated)
{
    int node = fdt_path(&pi4, "serial0");
    CHECK_EQ_STR(name_of(node), "serial@7e201000");
    CHECK(fdt_is_compatible(&pi4, node, "arm,pl011"));
    CHECK(cpu_reg(node, 0, NULL) == 0xfe201000ull);
}

/* The kernel's GICv2 driver: distributor = reg 0, CPU interface = reg 1. */
TEST(gic400_distributor_and_cpu_interface)
{
    uint32_t cells = 0;
    int gic = fdt_find_compatible(&pi4, -1, "arm,gic-400");
    CHECK_EQ_STR(name_of(gic), "interrupt-controller@40041000");
    CHECK(fdt_find_compatible(&pi4, -1, "arm,gic-v3") < 0); /* so the kernel picks GICv2 */
    CHECK(cpu_reg(gic, 0, NULL) == 0xff841000ull);
    CHECK(cpu_reg(gic, 1, NULL) == 0xff842000ull);
    CHECK(fdt_prop_u32(&pi4, gic, "#interrupt-cells", &cells) && cells == 3);
    CHECK(fdt_interrupt_parent(&pi4, fdt_root(&pi4)) == gic);
}

/* What arch/arm64/irq.c find_timer reads: the third specifier, the
 * virtual timer (binding order: secure, non-secure, virtual, hyp), a PPI. */
TEST(generic_timer_virtual_ppi)
{
    uint32_t len = 0;
    int timer = fdt_find_compatible(&pi4, -1, "arm,armv8-timer");
    const uint8_t *irqs = timer >= 0 ? fdt_prop(&pi4, timer, "interrupts", &len) : NULL;
    CHECK(irqs != NULL && len == 4 * 12);
    if (irqs && len >= 3 * 12) {
        CHECK_EQ_INT(fdt_be32(irqs + 24), 1);  /* PPI */
        CHECK_EQ_INT(fdt_be32(irqs + 28), 11); /* INTID 16 + 11 = 27 */
    }
}

/* No /psci in the tree as shipped: the CPUs use spin-table. The kernel
 * then starts them that way (arch/arm64/spin_table.c); TF-A's
 * bl31.bin, the card's armstub, adds a /psci node (its strings name
 * "arm,psci-1.0") before U-Boot and the kernel see the tree. */
TEST(no_psci_cpus_use_spin_table)
{
    static const uint64_t release[4] = {0xd8, 0xe0, 0xe8, 0xf0};
    int cpus = fdt_path(&pi4, "/cpus"), i = 0;
    CHECK(fdt_path(&pi4, "/psci") < 0);
    for (int n = fdt_first_child(&pi4, cpus); n >= 0; n = fdt_next_sibling(&pi4, n)) {
        uint64_t addr = 0;
        if (!fdt_prop(&pi4, n, "device_type", NULL))
            continue;
        CHECK_EQ_INT(fdt_cpu_enable_method(&pi4, n, &addr), FDT_CPU_SPIN_TABLE);
        CHECK(i < 4 && addr == release[i]);
        i++;
    }
    CHECK_EQ_INT(i, 4);
}

/* kernel/platform.c's walk: device_type "cpu", enabled, reg = the MPIDR affinity. */
TEST(four_cpus)
{
    int cpus = fdt_path(&pi4, "/cpus"), count = 0;
    uint32_t ac = 0;
    CHECK(fdt_prop_u32(&pi4, cpus, "#address-cells", &ac) && ac == 1);
    for (int n = fdt_first_child(&pi4, cpus); n >= 0; n = fdt_next_sibling(&pi4, n)) {
        uint32_t len;
        const char *type = fdt_prop(&pi4, n, "device_type", &len);
        uint64_t id = ~0ull;
        if (!type || strcmp(type, "cpu") != 0 || !fdt_node_enabled(&pi4, n))
            continue;
        CHECK_EQ_INT(fdt_reg(&pi4, n, 0, &id, NULL), FDT_OK);
        CHECK_EQ_INT(id, count);
        CHECK(fdt_is_compatible(&pi4, n, "arm,cortex-a72"));
        count++;
    }
    CHECK_EQ_INT(count, 4);
}

/* /memory is a placeholder (reg <0 0 0>): the start firmware writes the
 * real size before handing the tree on; the kernel reads it then. */
TEST(memory_node_filled_by_firmware)
{
    uint32_t len;
    uint64_t base = 1, size = 1;
    int mem = fdt_path(&pi4, "/memory");
    const char *type = fdt_prop(&pi4, mem, "device_type", &len);
    CHECK_EQ_STR(type ? type : "", "memory");
    CHECK_EQ_INT(fdt_reg(&pi4, mem, 0, &base, &size), FDT_OK);
    CHECK(base == 0 && size == 0);
}

TEST(rng200_translated)
{
    uint64_t size = 0;
    int rng = fdt_find_compatible(&pi4, -1, "brcm,bcm2711-rng200");
    CHECK_EQ_STR(name_of(rng), "rng@7e104000");
    CHECK(cpu_reg(rng, 0, &size) == 0xfe104000ull);
    CHECK(size == 0x28);
}

int main(void)
{
    static const struct check_case cases[] = {
        CASE(board_is_a_pi4),
        CASE(stdout_path_is_the_mini_uart_translated),
        CASE(serial0_is_the_pl011_translated),
        CASE(gic400_distributor_and_cpu_interface),
        CASE(generic_timer_virtual_ppi),
        CASE(no_psci_cpus_use_spin_table),
        CASE(four_cpus),
        CASE(memory_node_filled_by_firmware),
        CASE(rng200_translated),
    };
    const char *why = "";
    if (!load(RPI4_DTB, &why)) {
        printf("KTAP version 1\n# suite: rpi4_dtb\n1..1\n");
        printf("ok 1 - rpi4_dtb.devicetree_present # SKIP %s: %s\n", RPI4_DTB, why);
        return 0;
    }
    int status = run_cases("rpi4_dtb", cases, (int)(sizeof(cases) / sizeof(cases[0])));
    free(blob);
    return status;
}
