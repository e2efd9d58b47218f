/* SPDX-License-Identifier: MIT */
/*
 * tests/host/test_rpi3_dtb.c - the Raspberry Pi 3 Model B devicetree that
 * BOARD=raspi3b boots with (QEMU -dtb), through lib/fdt.c: everything the
 * kernel looks up there is found, with device addresses as the CPU sees
 * them.
 *
 * The blob is Debian's bcm2837-rpi-3-b.dtb, fetched by boot/rpi/fetch.sh
 * as for test_rpi4_dtb.c (Makefile, build/host/test_rpi3_dtb); if it could
 * not be fetched the program prints one case marked "# SKIP" and the reason.
 *
 * Expected CPU addresses: BCM2835 ARM Peripherals, 1.2.3 "ARM physical
 * addresses" (the peripherals' bus addresses 0x7Ennnnnn appear at
 * 0x20nnnnnn on the BCM2835; at 0x3Fnnnnnn on the BCM2836/7, as /soc's
 * ranges say), and the QA7 document (the ARM-local block at 0x40000000).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fdt.h"
#include "tests/host/check.h"
#include "tests/host/dtb_file.h"

#ifndef RPI3_DTB
#define RPI3_DTB "build/rpi4-firmware/bcm2837-rpi-3-b.dtb"
#endif

static struct fdt pi3;
static void *blob;

static bool load(const char *path, const char **why)
{
    return dtb_file_load(path, &pi3, &blob, why);
}

static uint64_t cpu_reg(int node)
{
    uint64_t a = 0, size = 0;
    CHECK_EQ_INT(fdt_reg_cpu(&pi3, node, 0, &a, &size, NULL), FDT_OK);
    return a;
}

static const char *name_of(int node)
{
    const char *n = node >= 0 ? fdt_node_name(&pi3, node) : NULL;
    return n ? n : "(none)";
}

/* The first <a b> pair of node's interrupts. */
static bool irq_pair(int node, unsigned index, uint32_t *a, uint32_t *b)
{
    uint32_t len = 0;
    const uint8_t *p = fdt_prop(&pi3, node, "interrupts", &len);
    if (!p || len < 8 * (index + 1))
        return false;
    *a = fdt_be32(p + 8 * index);
    *b = fdt_be32(p + 8 * index + 4);
    return true;
}

/* ---- Tests ---- */

TEST(board_is_a_pi3b)
{
    uint32_t len;
    const char *model = fdt_prop(&pi3, fdt_root(&pi3), "model", &len);
    CHECK_EQ_STR(model ? model : "", "Raspberry Pi 3 Model B");
    CHECK(fdt_is_compatible(&pi3, fdt_root(&pi3), "brcm,bcm2837"));
}

/* No GIC: irq.c falls back to the BCM2836 local controller. */
TEST(local_controller_and_chained_armctrl)
{
    int local = fdt_find_compatible(&pi3, -1, "brcm,bcm2836-l1-intc");
    int ctrl = fdt_find_compatible(&pi3, -1, "brcm,bcm2836-armctrl-ic");
    uint32_t a = 0, b = 0, cells = 0;
    CHECK(fdt_find_compatible(&pi3, -1, "arm,gic-400") < 0);
    CHECK(fdt_find_compatible(&pi3, -1, "arm,gic-v3") < 0);
    CHECK_EQ_STR(name_of(local), "local_intc@40000000");
    CHECK(cpu_reg(local) == 0x40000000ull);
    CHECK(cpu_reg(ctrl) == 0x3f00b200ull);
    CHECK(fdt_prop_u32(&pi3, ctrl, "#interrupt-cells", &cells) && cells == 2);
    CHECK(fdt_interrupt_parent(&pi3, ctrl) == local);
    CHECK(irq_pair(ctrl, 0, &a, &b) && a == 8); /* the local controller's GPU interrupt */
}

/* stdout-path = "serial1:115200n8": the mini UART, <1 29> on the armctrl. */
TEST(stdout_path_is_the_mini_uart_translated)
{
    uint32_t a = 0, b = 0;
    int node = fdt_stdout_node(&pi3, NULL);
    CHECK_EQ_STR(name_of(node), "serial@7e215040");
    CHECK(fdt_is_compatible(&pi3, node, "brcm,bcm2835-aux-uart"));
    CHECK(cpu_reg(node) == 0x3f215040ull);
    CHECK(irq_pair(node, 0, &a, &b) && a == 1 && b == 29);
    CHECK(fdt_is_compatible(&pi3, fdt_interrupt_parent(&pi3, node), "brcm,bcm2836-armctrl-ic"));
}

/* What irq.c find_timer reads: arm,armv7-timer, third specifier = the
 * virtual timer, local source 3. */
TEST(generic_timer_virtual_on_the_local_controller)
{
    uint32_t a = 0, b = 0;
    int timer = fdt_find_compatible(&pi3, -1, "arm,armv7-timer");
    CHECK(timer >= 0);
    CHECK(fdt_find_compatible(&pi3, -1, "arm,armv8-timer") < 0);
    CHECK(irq_pair(timer, 2, &a, &b) && a == 3);
    CHECK(fdt_is_compatible(&pi3, fdt_interrupt_parent(&pi3, timer), "brcm,bcm2836-l1-intc"));
}

/* spin_table.c: no /psci; each CPU's release address. */
TEST(no_psci_cpus_use_spin_table)
{
    static const uint64_t release[4] = {0xd8, 0xe0, 0xe8, 0xf0};
    int cpus = fdt_path(&pi3, "/cpus"), i = 0;
    CHECK(fdt_path(&pi3, "/psci") < 0);
    for (int n = fdt_first_child(&pi3, cpus); n >= 0; n = fdt_next_sibling(&pi3, n)) {
        uint64_t addr = 0, id = ~0ull;
        if (!fdt_prop(&pi3, n, "device_type", NULL))
            continue;
        CHECK_EQ_INT(fdt_reg(&pi3, n, 0, &id, NULL), FDT_OK);
        CHECK_EQ_INT(id, i);
        CHECK_EQ_INT(fdt_cpu_enable_method(&pi3, n, &addr), FDT_CPU_SPIN_TABLE);
        CHECK(i < 4 && addr == release[i]);
        i++;
    }
    CHECK_EQ_INT(i, 4);
    /* The release words' page is kept from the kernel's allocator. */
    uint64_t base = 1, size = 0;
    CHECK_EQ_INT(fdt_memreserve(&pi3, 0, &base, &size), FDT_OK);
    CHECK(base == 0 && size >= 0x100);
}

TEST(rng_translated)
{
    int rng = fdt_find_compatible(&pi3, -1, "brcm,bcm2835-rng");
    CHECK_EQ_STR(name_of(rng), "rng@7e104000");
    CHECK(cpu_reg(rng) == 0x3f104000ull);
}

int main(void)
{
    static const struct check_case cases[] = {
        CASE(board_is_a_pi3b),
        CASE(local_controller_and_chained_armctrl),
        CASE(stdout_path_is_the_mini_uart_translated),
        CASE(generic_timer_virtual_on_the_local_controller),
        CASE(no_psci_cpus_use_spin_table),
        CASE(rng_translated),
    };
    const char *why = "";
    if (!load(RPI3_DTB, &why)) {
        printf("KTAP version 1\n# suite: rpi3_dtb\n1..1\n");
        printf("ok 1 - rpi3_dtb.devicetree_present # SKIP %s: %s\n", RPI3_DTB, why);
        return 0;
    }
    int status = run_cases("rpi3_dtb", cases, (int)(sizeof(cases) / sizeof(cases[0])));
    free(blob);
    return status;
}
