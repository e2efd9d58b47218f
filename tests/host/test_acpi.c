/* SPDX-License-Identifier: MIT */
/*
 * Host tests for lib/acpi.c. Tables are built here, in a byte array whose
 * offsets play the role of physical addresses, following ACPI 6.5 5.2.
 */
#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "lib/acpi.h"

static uint8_t mem[4096];

static const void *map(uint64_t phys)
{
    return phys < sizeof mem ? mem + phys : NULL;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

static void fix_checksum(uint8_t *p, uint32_t len, uint32_t at)
{
    uint8_t sum = 0;
    p[at] = 0;
    for (uint32_t i = 0; i < len; i++)
        sum = (uint8_t)(sum + p[i]);
    p[at] = (uint8_t)-sum;
}

static void sdt(uint32_t at, const char *sig, uint32_t len)
{
    memcpy(mem + at, sig, 4);
    put32(mem + at + 4, len);
    mem[at + 8] = 2;
    fix_checksum(mem + at, len, 9);
}

/* At base: RSDP (rev 2) -> XSDT at +64 -> MADT at +256 and FADT at +512.
 * The MADT: three local APICs, one x2APIC, then (madt_extra) an I/O APIC
 * and an override of ISA IRQ 0 to GSI 2. */
static void build(uint32_t base)
{
    memset(mem, 0, sizeof mem);
    uint8_t *e = mem + base + 256 + 44;
    for (int i = 0; i < 3; i++, e += 8) { /* local APIC: uid i, id 2i, cpu 1 disabled */
        e[0] = 0, e[1] = 8, e[2] = (uint8_t)i, e[3] = (uint8_t)(2 * i);
        put32(e + 4, i == 1 ? 0 : 1);
    }
    e[0] = 9, e[1] = 16; /* x2APIC id 300, uid 7, enabled */
    put32(e + 4, 300), put32(e + 8, 1), put32(e + 12, 7);
    e += 16;
    e[0] = 1, e[1] = 12, e[2] = 5; /* I/O APIC id 5 at 0xfec00000, GSIs from 0 */
    put32(e + 4, 0xfec00000), put32(e + 8, 0);
    e += 12;
    e[0] = 2, e[1] = 10, e[2] = 0, e[3] = 0; /* ISA IRQ 0 -> GSI 2, flags 0x000d */
    put32(e + 4, 2), e[8] = 0x0d, e[9] = 0;
    sdt(base + 256, "APIC", 36 + 8 + 8 * 3 + 16 + 12 + 10);
    put32(mem + base + 512 + 76, 0x608);    /* PM_TMR_BLK */
    put32(mem + base + 512 + 112, 1u << 8); /* TMR_VAL_EXT */
    sdt(base + 512, "FACP", 276);
    put64(mem + base + 64 + 36, base + 256);
    put64(mem + base + 64 + 44, base + 512);
    sdt(base + 64, "XSDT", 36 + 16);
    memcpy(mem + base, "RSD PTR ", 8);
    mem[base + 15] = 2;
    put32(mem + base + 20, 36);
    put64(mem + base + 24, base + 64);
    fix_checksum(mem + base, 20, 8);
    fix_checksum(mem + base, 36, 32);
}

TEST(finds_tables_and_cpus)
{
    struct acpi a;
    build(1024);
    CHECK_EQ_INT(acpi_init(&a, 0, map), ACPI_ERR_RSDP); /* no RSDP at all */
    CHECK_EQ_INT(acpi_init(&a, 1024, map), ACPI_OK);
    CHECK(a.xsdt);
    CHECK_EQ_INT(a.entries, 2);
    uint32_t len = 0;
    const void *madt = acpi_find(&a, "APIC", &len);
    CHECK(madt != NULL);
    struct acpi_cpu cpus[8];
    CHECK_EQ_INT(acpi_madt_cpus(madt, len, cpus, 8), 3);
    CHECK_EQ_INT(cpus[0].apic_id, 0);
    CHECK_EQ_INT(cpus[1].apic_id, 4);
    CHECK_EQ_INT(cpus[2].apic_id, 300);
    CHECK_EQ_INT(cpus[2].uid, 7);
    CHECK_EQ_INT(acpi_madt_cpus(madt, len, cpus, 1), 3); /* counts past a small array */
    const void *fadt = acpi_find(&a, "FACP", &len);
    uint16_t port = 0;
    unsigned bits = 0;
    CHECK(fadt && acpi_fadt_pm_timer(fadt, len, &port, &bits) == ACPI_OK);
    CHECK_EQ_INT(port, 0x608);
    CHECK_EQ_INT(bits, 32);
    CHECK(acpi_find(&a, "HPET", &len) == NULL);
}

TEST(rejects_bad_checksums_and_lengths)
{
    struct acpi a;
    uint32_t len;
    build(1024);
    mem[1024 + 9] ^= 1; /* RSDP damaged */
    CHECK_EQ_INT(acpi_init(&a, 1024, map), ACPI_ERR_RSDP);
    build(1024);
    mem[1024 + 64 + 20] ^= 1; /* XSDT damaged: its checksum fails */
    CHECK_EQ_INT(acpi_init(&a, 1024, map), ACPI_ERR_ROOT);
    build(1024);
    mem[1024 + 256 + 50] ^= 0x40; /* MADT damaged: no longer found */
    CHECK_EQ_INT(acpi_init(&a, 1024, map), ACPI_OK);
    CHECK(acpi_find(&a, "APIC", &len) == NULL);
    build(1024);
    mem[1024 + 256 + 44 + 1] = 200; /* an entry running past the table's end */
    fix_checksum(mem + 1024 + 256, 106, 9);
    CHECK_EQ_INT(acpi_init(&a, 1024, map), ACPI_OK);
    const void *madt = acpi_find(&a, "APIC", &len);
    struct acpi_cpu cpus[4];
    CHECK(madt && acpi_madt_cpus(madt, len, cpus, 4) == ACPI_ERR_TABLE);
}

TEST(finds_ioapic_and_isa_overrides)
{
    struct acpi a;
    uint32_t len;
    build(1024);
    CHECK_EQ_INT(acpi_init(&a, 1024, map), ACPI_OK);
    const void *madt = acpi_find(&a, "APIC", &len);
    uint64_t addr = 0;
    uint32_t base = 99;
    uint16_t flags = 99;
    CHECK(madt && acpi_madt_ioapic(madt, len, &addr, &base) == ACPI_OK);
    CHECK_EQ_INT(addr, 0xfec00000);
    CHECK_EQ_INT(base, 0);
    CHECK_EQ_INT(acpi_madt_isa_gsi(madt, len, 0, &flags), 2);
    CHECK_EQ_INT(flags, 0x0d);
    CHECK_EQ_INT(acpi_madt_isa_gsi(madt, len, 4, &flags), 4); /* no override */
    CHECK_EQ_INT(flags, 0);
    CHECK_EQ_INT(acpi_madt_ioapic(madt, 44, &addr, &base), ACPI_ERR_NOTFOUND);
}

RUN_TESTS("acpi", CASE(finds_tables_and_cpus), CASE(rejects_bad_checksums_and_lengths),
          CASE(finds_ioapic_and_isa_overrides))
