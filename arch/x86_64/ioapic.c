/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/ioapic.c - device interrupts through the I/O APIC.
 *
 * The MADT names the I/O APIC (its registers and first GSI) and any ISA
 * IRQ that is wired to a different GSI (an interrupt source override).
 * The console is COM1, ISA IRQ 4. Registers (82093AA I/O APIC data sheet,
 * 3.1): IOREGSEL at +0x00 selects, IOWIN at +0x10 reads or writes;
 * redirection entry n is the register pair 0x10 + 2n (low) / 0x11 + 2n
 * (high): vector in bits 7:0, polarity bit 13 (1 = active low), trigger
 * bit 15 (1 = level), mask bit 16; destination APIC id in high bits 31:24.
 */
#include "kernel/arch_callbacks.h"
#include "lib/acpi.h"
#include "x86.h"

#define COM1_ISA_IRQ       4
#define IOREGSEL           0x00
#define IOWIN              0x10
#define REDIR_LOW(n)       (0x10 + 2 * (n))
#define REDIR_HIGH(n)      (0x11 + 2 * (n))
#define REDIR_ACTIVE_LOW   (1u << 13)
#define REDIR_LEVEL        (1u << 15)
#define REDIR_MASKED       (1u << 16) /* 82093AA 3.2.4: 1 = the interrupt is not delivered */
/* MPS INTI flags in an override (ACPI 6.5 table 5.26): polarity bits 1:0,
 * trigger bits 3:2; 3 means active low / level. */
#define INTI_POLARITY_LOW  3
#define INTI_TRIGGER_LEVEL (3 << 2)

static uintptr_t ioapic;
static void (*console_handler)(void);
static unsigned console_entry; /* its redirection entry */
static uint32_t console_low;   /* that entry's low word, unmasked */

static void ioapic_write(unsigned reg, uint32_t v)
{
    arch_mmio_write32(ioapic + IOREGSEL, reg);
    arch_mmio_write32(ioapic + IOWIN, v);
}

bool x86_console_irq_route(const struct boot_info *bi, void (*handler)(void))
{
    struct acpi a;
    uint32_t len, gsi_base;
    uint64_t addr;
    uint16_t flags;
    const void *madt;
    if (acpi_init(&a, bi->acpi_rsdp_phys, phys_to_virt_const) != ACPI_OK ||
        !(madt = acpi_find(&a, "APIC", &len)) ||
        acpi_madt_ioapic(madt, len, &addr, &gsi_base) != ACPI_OK)
        return false;
    uint32_t gsi = acpi_madt_isa_gsi(madt, len, COM1_ISA_IRQ, &flags);
    /* A redirection entry names at most APIC id 255 (physical destination,
     * bits 63:56); a boot CPU past that needs interrupt remapping, which
     * this kernel does not do: the console is then polled. */
    if (gsi < gsi_base || arch_cpu_hwid() > 0xff)
        return false;
    ioapic = (uintptr_t)ioremap(addr, 0x20);
    console_handler = handler;
    uint32_t low = VECTOR_CONSOLE; /* fixed delivery, physical destination */
    if ((flags & 3) == INTI_POLARITY_LOW)
        low |= REDIR_ACTIVE_LOW;
    if ((flags & (3 << 2)) == INTI_TRIGGER_LEVEL)
        low |= REDIR_LEVEL;
    ioapic_write(REDIR_HIGH(gsi - gsi_base), (uint32_t)arch_cpu_hwid() << 24);
    console_entry = gsi - gsi_base;
    console_low = low;
    ioapic_write(REDIR_LOW(gsi - gsi_base), low); /* mask bit clear: enabled */
    return true;
}

/* An edge that arrives while the entry is masked is lost (82093AA 3.2.4):
 * the driver that unmasks it looks at the device again afterwards. */
bool arch_console_irq_maskable(void)
{
    return ioapic != 0;
}

bool arch_console_irq_mask(bool masked)
{
    if (!ioapic)
        return false;
    ioapic_write(REDIR_LOW(console_entry), console_low | (masked ? REDIR_MASKED : 0));
    return true;
}

void x86_console_interrupt(void)
{
    if (console_handler)
        console_handler();
}
