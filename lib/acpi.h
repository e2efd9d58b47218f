/* SPDX-License-Identifier: MIT */
/*
 * lib/acpi.h - just enough ACPI table reading for boot: find tables through
 * the RSDP and XSDT/RSDT, count processors in the MADT, locate the power
 * management timer in the FADT. ACPI Specification 6.5, chapter 5.2.
 * Every table's checksum and length are verified before it is used.
 */
#ifndef LIB_ACPI_H
#define LIB_ACPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Turns a physical address into a pointer the caller can read. */
typedef const void *(*acpi_map_fn)(uint64_t phys);

struct acpi {
    acpi_map_fn map;
    const uint8_t *root; /* XSDT or RSDT */
    uint32_t entries;    /* table pointers in root */
    bool xsdt;           /* 8-byte entries (XSDT) or 4-byte (RSDT) */
    uint8_t revision;    /* RSDP revision: 0 = ACPI 1.0, 2 = 2.0+ */
};

enum acpi_error {
    ACPI_OK = 0,
    ACPI_ERR_RSDP = -1,     /* bad RSDP signature or checksum */
    ACPI_ERR_ROOT = -2,     /* bad XSDT/RSDT */
    ACPI_ERR_NOTFOUND = -3, /* no such table */
    ACPI_ERR_TABLE = -4     /* table too short or malformed */
};

struct acpi_cpu {
    uint32_t apic_id; /* local APIC or x2APIC id */
    uint32_t uid;     /* ACPI processor UID */
};

int acpi_init(struct acpi *a, uint64_t rsdp_phys, acpi_map_fn map);
/* The first table with signature `sig` ("APIC", "FACP"); checksum verified. */
const void *acpi_find(const struct acpi *a, const char *sig, uint32_t *len);
/* Enabled processors in a MADT; fills up to max entries, returns the count or an error. */
int acpi_madt_cpus(const void *madt, uint32_t len, struct acpi_cpu *out, int max);
/* The first I/O APIC in a MADT: its MMIO address and first GSI. */
int acpi_madt_ioapic(const void *madt, uint32_t len, uint64_t *addr, uint32_t *gsi_base);
/* The GSI an ISA IRQ arrives on (itself unless an override says otherwise),
 * and the override's MPS INTI flags (0: bus default, ISA = edge, high). */
uint32_t acpi_madt_isa_gsi(const void *madt, uint32_t len, unsigned isa_irq, uint16_t *flags);
/* The PM timer's I/O port and width (24 or 32 bits) from a FADT. */
int acpi_fadt_pm_timer(const void *fadt, uint32_t len, uint16_t *port, unsigned *bits);

#endif
