/* SPDX-License-Identifier: MIT */
/*
 * lib/acpi.c - boot-time ACPI table reading (see acpi.h).
 * Offsets below are from ACPI 6.5 section 5.2: RSDP 5.2.5.3, system
 * description table header 5.2.6, XSDT 5.2.8, FADT 5.2.9, MADT 5.2.12.
 * Multi-byte fields are read byte by byte: tables are not aligned.
 */
#include "lib/acpi.h"

#include "lib/string.h"

#define SDT_HEADER_LEN 36

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
    return le32(p) | (uint64_t)le32(p + 4) << 32;
}

static bool checksum_ok(const uint8_t *p, uint32_t len)
{
    uint8_t sum = 0;
    for (uint32_t i = 0; i < len; i++)
        sum = (uint8_t)(sum + p[i]);
    return sum == 0;
}

/* A system description table at phys: header sane, length >= min, checksum 0. */
static const uint8_t *map_table(const struct acpi *a, uint64_t phys, uint32_t min_len)
{
    if (!phys)
        return NULL;
    const uint8_t *t = a->map(phys);
    if (!t)
        return NULL;
    uint32_t len = le32(t + 4);
    if (len < SDT_HEADER_LEN || len < min_len || len > (1u << 24) || !checksum_ok(t, len))
        return NULL;
    return t;
}

int acpi_init(struct acpi *a, uint64_t rsdp_phys, acpi_map_fn map)
{
    memset(a, 0, sizeof(*a));
    a->map = map;
    const uint8_t *rsdp = rsdp_phys ? map(rsdp_phys) : NULL;
    if (!rsdp || memcmp(rsdp, "RSD PTR ", 8) != 0 || !checksum_ok(rsdp, 20))
        return ACPI_ERR_RSDP;
    a->revision = rsdp[15];
    uint64_t root_phys = le32(rsdp + 16);
    if (a->revision >= 2) {
        if (le32(rsdp + 20) < 36 || !checksum_ok(rsdp, 36))
            return ACPI_ERR_RSDP;
        if (le64(rsdp + 24)) {
            root_phys = le64(rsdp + 24);
            a->xsdt = true;
        }
    }
    a->root = map_table(a, root_phys, SDT_HEADER_LEN);
    if (!a->root || memcmp(a->root, a->xsdt ? "XSDT" : "RSDT", 4) != 0)
        return ACPI_ERR_ROOT;
    a->entries = (le32(a->root + 4) - SDT_HEADER_LEN) / (a->xsdt ? 8 : 4);
    return ACPI_OK;
}

const void *acpi_find(const struct acpi *a, const char *sig, uint32_t *len)
{
    for (uint32_t i = 0; a->root && i < a->entries; i++) {
        const uint8_t *e = a->root + SDT_HEADER_LEN + i * (a->xsdt ? 8 : 4);
        uint64_t phys = a->xsdt ? le64(e) : le32(e);
        const uint8_t *t = map_table(a, phys, SDT_HEADER_LEN);
        if (t && memcmp(t, sig, 4) == 0) {
            *len = le32(t + 4);
            return t;
        }
    }
    return NULL;
}

/* MADT entry types (ACPI 6.5 table 5.21) and the Enabled flag (5.23, 5.37). */
#define MADT_LOCAL_APIC   0
#define MADT_LOCAL_X2APIC 9
#define MADT_CPU_ENABLED  1u

int acpi_madt_cpus(const void *madt, uint32_t len, struct acpi_cpu *out, int max)
{
    const uint8_t *t = madt;
    if (len < SDT_HEADER_LEN + 8)
        return ACPI_ERR_TABLE;
    int count = 0;
    for (uint32_t off = SDT_HEADER_LEN + 8; off + 2 <= len;) {
        uint8_t type = t[off], elen = t[off + 1];
        if (elen < 2 || off + elen > len)
            return ACPI_ERR_TABLE;
        struct acpi_cpu cpu;
        bool enabled = false;
        if (type == MADT_LOCAL_APIC && elen >= 8) {
            cpu = (struct acpi_cpu){.apic_id = t[off + 3], .uid = t[off + 2]};
            enabled = le32(t + off + 4) & MADT_CPU_ENABLED;
        } else if (type == MADT_LOCAL_X2APIC && elen >= 16) {
            cpu = (struct acpi_cpu){.apic_id = le32(t + off + 4), .uid = le32(t + off + 12)};
            enabled = le32(t + off + 8) & MADT_CPU_ENABLED;
        }
        if (enabled) {
            if (count < max)
                out[count] = cpu;
            count++;
        }
        off += elen;
    }
    return count;
}

/* MADT entry types 1 (I/O APIC: id, reserved, address, GSI base; ACPI 6.5
 * 5.2.12.3) and 2 (interrupt source override: bus, source, GSI, flags;
 * 5.2.12.5). Walks entries the same way acpi_madt_cpus does. */
#define MADT_IOAPIC 1
#define MADT_ISO    2

static const uint8_t *madt_entry(const uint8_t *t, uint32_t len, uint8_t type, uint8_t min_len,
                                 uint32_t *off)
{
    while (*off + 2 <= len) {
        uint8_t etype = t[*off], elen = t[*off + 1];
        if (elen < 2 || *off + elen > len)
            return NULL;
        uint32_t here = *off;
        *off += elen;
        if (etype == type && elen >= min_len)
            return t + here;
    }
    return NULL;
}

int acpi_madt_ioapic(const void *madt, uint32_t len, uint64_t *addr, uint32_t *gsi_base)
{
    uint32_t off = SDT_HEADER_LEN + 8;
    const uint8_t *e = len >= off ? madt_entry(madt, len, MADT_IOAPIC, 12, &off) : NULL;
    if (!e)
        return ACPI_ERR_NOTFOUND;
    *addr = le32(e + 4);
    *gsi_base = le32(e + 8);
    return ACPI_OK;
}

uint32_t acpi_madt_isa_gsi(const void *madt, uint32_t len, unsigned isa_irq, uint16_t *flags)
{
    uint32_t off = SDT_HEADER_LEN + 8;
    const uint8_t *e;
    *flags = 0;
    while (len >= off && (e = madt_entry(madt, len, MADT_ISO, 10, &off))) {
        if (e[2] == 0 /* ISA */ && e[3] == isa_irq) {
            *flags = (uint16_t)(e[8] | e[9] << 8);
            return le32(e + 4);
        }
    }
    return isa_irq;
}

/* FADT fields: PM_TMR_BLK at 76 (4 bytes), Flags at 112 (TMR_VAL_EXT is bit 8),
 * X_PM_TMR_BLK generic address at 208 (address space id, ..., address at +4). */
int acpi_fadt_pm_timer(const void *fadt, uint32_t len, uint16_t *port, unsigned *bits)
{
    const uint8_t *t = fadt;
    if (len < 116)
        return ACPI_ERR_TABLE;
    uint64_t p = le32(t + 76);
    if (len >= 220 && t[208] == 1 /* system I/O space */ && le64(t + 212))
        p = le64(t + 212);
    if (p == 0 || p > 0xffff)
        return ACPI_ERR_NOTFOUND;
    *port = (uint16_t)p;
    *bits = (le32(t + 112) & (1u << 8)) ? 32 : 24;
    return ACPI_OK;
}
