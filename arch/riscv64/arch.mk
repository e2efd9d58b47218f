# arch/riscv64/arch.mk - riscv64 build flags, boot path and QEMU command line.

CROSS_COMPILE ?= riscv64-linux-gnu-
# Sv39 (priv spec 4.4) gives a 39-bit address space, sign-extended: the
# kernel lives in its top 2 GiB, like the other two arches.
KERNEL_VBASE := 0xffffffff80000000

# RV64IMAC plus the CSR and FENCE.I extensions, soft-float ABI: the kernel
# never touches FP/vector state (start.S even turns sstatus.FS/VS off so a
# stray FP instruction traps). medany: code and data within +-2 GiB of each
# other at any address, which lets start.S run at its physical address
# before the MMU is on. -mno-relax / --no-relax: no linker relaxation, so
# the code objdump shows is the code that runs, and the PC-relative `lla`
# sequences start.S relies on before the MMU is on are never rewritten into
# another addressing form. The kernel needs no libgcc (check_kernel.py
# fails the link on any undefined symbol): Debian's riscv64 libgcc is
# lp64d-only and would not link with these lp64 objects.
ARCH_CFLAGS := -march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany -mno-relax
ARCH_LDFLAGS := -m elf64lriscv --no-relax

# User programs: RV64GC with the hard-float lp64d ABI (what Debian's libgcc
# and newlib are built for; lp64 and lp64d objects do not link together, so
# every user object, lib/user included, uses it). The kernel switches f0-f31
# and fcsr per thread (arch/riscv64/fpu.c).
ARCH_USER_CFLAGS := -march=rv64gc -mabi=lp64d -mcmodel=medany -mno-relax
# newlib (lib/user/newlib.mk) is built for the same ABI.
NEWLIB_TARGET := riscv64-unknown-elf
ARCH_NEWLIB_CFLAGS := -march=rv64gc -mabi=lp64d -mcmodel=medany

ARCH_SRCS := $(wildcard arch/riscv64/*.c arch/riscv64/*.S)

# Boot path: QEMU's -bios is OpenSBI (M mode); its -kernel is U-Boot in S
# mode, the next firmware stage as an SPL would load it on a board. U-Boot's
# distro boot reads extlinux/extlinux.conf from the disk's FAT partition and
# `booti`s stackshift/Image with its devicetree.
BOOTS := uboot
BOOT ?= uboot
EFI_ARCH :=
IMAGE_FILES := kernel.elf Image

OPENSBI := /usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin
UBOOT_RISCV := /usr/lib/u-boot/qemu-riscv64_smode/u-boot.bin

QEMU := qemu-system-riscv64
QEMU_MACHINE ?= virt
QEMU_CPU ?= rv64
QEMU_ARGS_uboot = -M $(QEMU_MACHINE) -cpu $(QEMU_CPU) -smp $(SMP) -m $(MEM) \
    -bios $(OPENSBI) -kernel $(UBOOT_RISCV) -dtb $(UBOOT_DTB) \
    -drive if=none,format=raw,id=disk0,file=$(IMAGE) \
    -device virtio-blk-device,drive=disk0
# U-Boot takes its boot delay from the /config node of its own devicetree
# when there is one (U-Boot's doc/device-tree-bindings/config.txt), and this
# U-Boot keeps no environment to save `bootdelay=0` in. So QEMU first writes
# the devicetree it would hand over (same machine, CPU, CPU count and memory;
# a fresh rng-seed each time, as QEMU makes one per start), fdtput adds
# /config/bootdelay = 0, and the boot uses that: no 2 s autoboot countdown,
# which under -icount shift=0 was 2e9 instructions of polling (10 s). A
# board's U-Boot devicetree can carry the same property.
UBOOT_DTB = $(IMAGE).dtb
QEMU_BEFORE_uboot = $(QEMU) -M $(QEMU_MACHINE),dumpdtb=$(UBOOT_DTB) -cpu $(QEMU_CPU) -smp $(SMP) \
    -m $(MEM) -display none > /dev/null 2>&1 && fdtput -c $(UBOOT_DTB) /config && \
    fdtput -t i $(UBOOT_DTB) /config bootdelay 0
GDB_ARCH := riscv:rv64

# BOARD=sifive_u: QEMU's model of the HiFive Unleashed (FU540: hart 0 is an
# E51 monitor core without S mode, harts 1-4 are U54s, so QEMU gets one CPU
# more than the kernel uses). Debian packages no U-Boot for it, so OpenSBI
# starts the kernel itself (-kernel), with the command line in the
# devicetree QEMU writes. The board cannot power off (its firmware offers
# only a reset): -semihosting carries the exit status (arch/riscv64/power.c).
BOOTS += sifive_u
QEMU_ARGS_sifive_u = -M sifive_u -smp $(shell expr $(SMP) + 1) -m $(MEM) -semihosting \
    -bios $(OPENSBI) -kernel $(BUILD)/Image -append '$(KERNEL_CMDLINE)'
