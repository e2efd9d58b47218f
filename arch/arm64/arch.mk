# arch/arm64/arch.mk - arm64 build flags, boot paths and QEMU command lines.

CROSS_COMPILE ?= aarch64-linux-gnu-
# Same as x86_64: the top 2 GiB, reached through TTBR1_EL1 (T1SZ = 16, 48-bit VAs).
KERNEL_VBASE := 0xffffffff80000000

# -march=armv8-a: the baseline every arm64 CPU runs (LDXR/STXR atomics, no LSE).
# -mgeneral-regs-only: no FP/SIMD registers in the kernel (not saved on entry).
# -mno-outline-atomics: atomics inline, not calls into libgcc's helpers.
# -mstrict-align: no unaligned accesses; with the MMU off, and later in
#   Device-mapped memory, an unaligned access is an alignment fault.
# -mbranch-protection=none: no PAC/BTI instructions, whatever the distro default.
# -falign-loops=4: no NOP before a loop to put its head on 8 bytes (GCC's generic
#   tuning): code that falls into a loop ran it, the spinlock's exchange included.
# The default small code model (ADRP, +-4 GiB PC-relative) suits an image in
# the top 2 GiB, and keeps the pre-MMU C-free start.S position independent.
ARCH_CFLAGS := -march=armv8-a -mgeneral-regs-only -mno-outline-atomics -mstrict-align \
               -mbranch-protection=none -mlittle-endian -falign-loops=4
ARCH_LDFLAGS := -m aarch64elf

# User programs: FP/SIMD allowed (the AAPCS64 has no soft-float variant);
# the kernel switches V0-V31, FPCR and FPSR per thread (arch/arm64/fpu.c).
ARCH_USER_CFLAGS := -march=armv8-a -mno-outline-atomics -mbranch-protection=none
# newlib (lib/user/newlib.mk) is built for the same ABI.
NEWLIB_TARGET := aarch64-none-elf
ARCH_NEWLIB_CFLAGS := -march=armv8-a -mno-outline-atomics -mbranch-protection=none

ARCH_SRCS := $(wildcard arch/arm64/*.c arch/arm64/*.S)

# Boot paths: AAVMF (UEFI) runs BOOTAA64.EFI, which loads kernel.elf; U-Boot's
# distro boot reads /extlinux/extlinux.conf and `booti`s the Image. U-Boot is
# the default: it boots in about a second (AAVMF takes several), needs no
# flash variable store, and is what boards ship.
BOOTS := uefi uboot
BOOT ?= uboot
EFI_ARCH := aarch64
IMAGE_FILES := efi kernel.elf Image

# Debian already pads both AAVMF files to the 64 MiB that QEMU 7.2's virt
# pflash banks require, so they are used as they are (the 2 MiB QEMU_EFI.fd
# in /usr/share/qemu-efi-aarch64 is the -bios variant, without a vars store).
AAVMF_CODE := /usr/share/AAVMF/AAVMF_CODE.fd
AAVMF_VARS := /usr/share/AAVMF/AAVMF_VARS.fd
UBOOT_BIN := /usr/lib/u-boot/qemu_arm64/u-boot.bin

QEMU := qemu-system-aarch64
# pauth-impdef: the same pointer authentication, with a cheap hash (boot-notes).
QEMU_CPU ?= max,pauth-impdef=on
# acpi=off: AAVMF then publishes the devicetree instead of ACPI tables.
# -semihosting: the kernel's exit status becomes QEMU's (arch/arm64/power.c).
QEMU_MACHINE ?= virt,acpi=off
# A virtio RNG lets AAVMF offer EFI_RNG_PROTOCOL.
QEMU_RNG ?= -device virtio-rng-device
QEMU_ARM64_COMMON = -M $(QEMU_MACHINE) $(QEMU_RNG) -cpu $(QEMU_CPU) -smp $(SMP) -m $(MEM) -semihosting \
    -drive if=none,id=disk,format=raw,file=$(IMAGE) -device virtio-blk-device,drive=disk
QEMU_ARGS_uefi = $(QEMU_ARM64_COMMON) \
    -drive if=pflash,format=raw,readonly=on,file=$(AAVMF_CODE) \
    -drive if=pflash,format=raw,file=$(VARS) -nic none
VARS_TEMPLATE_uefi := $(AAVMF_VARS)
# U-Boot reads its environment from the second flash bank; the image there
# is what `setenv bootdelay 0; saveenv` leaves (scripts/uboot_env.py), so it
# boots without the 2 s autoboot countdown. Read-only: boots share it.
UBOOT_ENV := build/uboot-env/qemu_arm64.img
QEMU_DEPS_uboot := $(UBOOT_ENV)
QEMU_ARGS_uboot = $(QEMU_ARM64_COMMON) -bios $(UBOOT_BIN) \
    -drive if=pflash,format=raw,unit=1,readonly=on,file=$(UBOOT_ENV)
$(UBOOT_ENV): scripts/uboot_env.py
	@mkdir -p $(dir $@)
	$(Q)$(PYTHON) scripts/uboot_env.py $(UBOOT_BIN) $@
GDB_ARCH := aarch64

# BOARD=versal: QEMU's model of the Xilinx Versal (two Cortex-A72s, a GICv3,
# PL011s, PSCI over SMC; no RNDR). Debian packages no firmware for it, so
# QEMU loads the kernel itself (-kernel) as a boot loader would, with the
# command line in the devicetree it writes. The CPU count is the SoC's.
BOOTS += versal
# BOOT=virt-bus (a test, tests/run.py arm64.virt-bus): QEMU virt started
# with tests/dtb/virt-bus.dts, where the UART and GIC sit on a bus whose
# ranges are not 1:1. The devicetree fixes 2 CPUs and 512 MiB.
BOOTS += virt-bus
QEMU_DEPS_virt-bus := build/dtb/virt-bus.dtb
QEMU_ARGS_virt-bus = -M virt,acpi=off -cpu $(QEMU_CPU) -smp 2 -m 512M -semihosting \
    -kernel $(BUILD)/Image -dtb build/dtb/virt-bus.dtb -append '$(KERNEL_CMDLINE)'
# BOOT=virt-no-console (a test, tests/run.py arm64.virt-no-console): the
# same with tests/dtb/virt-no-console.dts, which names no console.
BOOTS += virt-no-console
QEMU_DEPS_virt-no-console := build/dtb/virt-no-console.dtb
QEMU_ARGS_virt-no-console = -M virt,acpi=off -cpu $(QEMU_CPU) -smp 2 -m 512M -semihosting \
    -kernel $(BUILD)/Image -dtb build/dtb/virt-no-console.dtb -append '$(KERNEL_CMDLINE)'
# BOARD=raspi3b: QEMU's Raspberry Pi 3 Model B (BCM2837: four Cortex-A53s,
# 1 GiB, the BCM2836 per-core interrupt controller instead of a GIC,
# spin-table SMP, no PSCI). QEMU stands in for the Pi's start firmware: it
# loads Debian's U-Boot rpi_arm64 (-kernel) with Debian's
# bcm2837-rpi-3-b.dtb (-dtb; both from boot/rpi/fetch.sh) and starts it at
# EL2; U-Boot's distro boot reads /extlinux/extlinux.conf from the SD card
# (the same disk image as BOOT=uboot) and `booti`s the Image with that
# devicetree. Its stdout-path is serial1, the mini UART, QEMU's second
# serial port: the first (the PL011) goes to null, QEMU_COMMON's mon:stdio
# to the mini UART. The SoC fixes the CPU count and the memory size.
BOOTS += raspi3b
RASPI3B_FIRMWARE = $(or $(RPI4_FIRMWARE),build/rpi4-firmware)
QEMU_DEPS_raspi3b = $(RASPI3B_FIRMWARE)/bcm2837-rpi-3-b.dtb $(RASPI3B_FIRMWARE)/u-boot-rpi_arm64.bin
QEMU_ARGS_raspi3b = -M raspi3b -m 1G -semihosting -serial null \
    -kernel $(RASPI3B_FIRMWARE)/u-boot-rpi_arm64.bin -dtb $(RASPI3B_FIRMWARE)/bcm2837-rpi-3-b.dtb \
    -drive if=sd,format=raw,file=$(IMAGE)
# BOARD=rpi4: a real Raspberry Pi 4, no QEMU model; `make image BOARD=rpi4`
# writes its SD card (boot/rpi/, docs/boards.md).
BOOTS += rpi4
# Its seed source is a virtio-rng device on one of the eight virtio-mmio
# transports QEMU lists in its devicetree (kernel/dev/virtio_rng.c drives
# only the modern interface, and QEMU 7.2's transports default to legacy).
QEMU_ARGS_versal = -M xlnx-versal-virt -m $(MEM) -semihosting \
    -global virtio-mmio.force-legacy=false -device virtio-rng-device \
    -kernel $(BUILD)/Image -append '$(KERNEL_CMDLINE)'
