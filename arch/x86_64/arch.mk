# arch/x86_64/arch.mk - x86_64 build flags, boot paths and QEMU command lines.

CROSS_COMPILE ?= x86_64-linux-gnu-
KERNEL_VBASE := 0xffffffff80000000

# No red zone (interrupts push onto the kernel stack below rsp), no SSE/x87
# in the kernel (their state is not saved on entry), and the "kernel" code
# model because the image lives in the top 2 GiB of the address space.
ARCH_CFLAGS := -m64 -march=x86-64 -mno-red-zone -mno-sse -mno-sse2 -mno-mmx -mno-80387 \
               -mcmodel=kernel -mno-3dnow
ARCH_LDFLAGS := -m elf_x86_64

# User programs: the x86-64 baseline, SSE2 included (FP in XMM registers,
# long double on x87); the kernel switches that state per thread
# (arch/x86_64/fpu.c). No AVX: CR4.OSXSAVE stays off.
ARCH_USER_CFLAGS := -m64 -march=x86-64
# newlib (lib/user/newlib.mk) is built for the same ABI.
NEWLIB_TARGET := x86_64-none-elf
ARCH_NEWLIB_CFLAGS := -m64 -march=x86-64

ARCH_SRCS := $(wildcard arch/x86_64/*.c arch/x86_64/*.S)

# Boot paths: OVMF (UEFI) runs BOOTX64.EFI from the disk image.
BOOTS := uefi
BOOT ?= uefi
EFI_ARCH := x86_64
IMAGE_FILES := efi kernel.elf

OVMF_CODE := /usr/share/OVMF/OVMF_CODE_4M.fd
OVMF_VARS := /usr/share/OVMF/OVMF_VARS_4M.fd

QEMU := qemu-system-x86_64
QEMU_CPU ?= max
QEMU_MACHINE ?= q35
# A virtio RNG lets OVMF offer EFI_RNG_PROTOCOL, as PC firmware usually does.
QEMU_RNG ?= -device virtio-rng-pci
# -nic none (here and on arm64's UEFI path): the kernel has no network
# driver, and without the default NIC the firmware loads no network boot
# code, half a second less per boot.
QEMU_ARGS_uefi = -machine $(QEMU_MACHINE) -cpu $(QEMU_CPU) -smp $(SMP) -m $(MEM) $(QEMU_RNG) \
    -drive if=pflash,format=raw,readonly=on,file=$(OVMF_CODE) \
    -drive if=pflash,format=raw,file=$(VARS) \
    -drive format=raw,file=$(IMAGE) \
    -device isa-debug-exit,iobase=0xf4,iosize=0x04 -nic none
VARS_TEMPLATE_uefi := $(OVMF_VARS)
GDB_ARCH := i386:x86-64
