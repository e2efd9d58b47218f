# SPDX-License-Identifier: MIT
#
# boot/efi/efi.mk - build the UEFI loader (BOOTX64.EFI / BOOTAA64.EFI) with gnu-efi.
#
# Included by the top-level Makefile when ARCH is x86_64 or arm64, or run alone from the repository
# root:
#   make -f boot/efi/efi.mk ARCH=x86_64 BUILD=build/x86_64 CROSS_COMPILE=x86_64-linux-gnu-
#   make -f boot/efi/efi.mk ARCH=arm64 BUILD=build/arm64 CROSS_COMPILE=aarch64-linux-gnu-
# (the target, $(EFI_APP), may be named explicitly; it is the default goal only when run alone).
# Inputs: ARCH, BUILD, CROSS_COMPILE (and Q=@ to hide full commands). Output: EFI_APP.
# Every variable and target defined here starts with EFI_ / efi- so the fragment can be included
# without clobbering the kernel's CFLAGS and friends.
#
# The recipes follow docs boot-notes 5.2 (x86_64) and 5.3 (aarch64):
#   x86_64:  Debian's gnu-efi (/usr/include/efi, /usr/lib), ld -shared, then objcopy to a PE32+
#            with --target efi-app-x86_64 --subsystem=10.
#   aarch64: gnu-efi:arm64 collides with the amd64 package, so it is extracted (not installed)
#            into build/gnu-efi-arm64. Its crt0 carries a hand-made PE header whose Subsystem is
#            the undefined symbol EFI_SUBSYSTEM (0 if left undefined, which edk2 rejects with
#            "Unsupported"), hence --defsym=EFI_SUBSYSTEM=0xa, and objcopy -O binary because the
#            header is already in the image.

EFI_SRC := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
# Run alone, the default goal is the loader; when included, the includer keeps its own (see end).
EFI_STANDALONE := $(if $(filter 1,$(words $(MAKEFILE_LIST))),y)
EFI_SAVED_GOAL := $(.DEFAULT_GOAL)
EFI_OBJDIR := $(BUILD)/boot/efi
# Shared by all ARCH builds; override if the build tree lives elsewhere.
EFI_GNUEFI_ARM64 ?= build/gnu-efi-arm64

EFI_CC := $(CROSS_COMPILE)gcc
EFI_LD := $(CROSS_COMPILE)ld
EFI_OBJCOPY := $(CROSS_COMPILE)objcopy
EFI_NM := $(CROSS_COMPILE)nm
EFI_READELF := $(CROSS_COMPILE)readelf

EFI_SRCS := loader.c elf.c mmap.c

ifeq ($(ARCH),x86_64)
EFI_APP := $(BUILD)/boot/BOOTX64.EFI
EFI_PREFIX := /usr
EFI_GNUEFI_ARCH := x86_64
EFI_SRCS += handoff_x86_64.c
# No red zone: firmware interrupt handlers run on our stack. MS ABI: EFIAPI becomes
# __attribute__((ms_abi)) so firmware calls are plain C calls, while efi_main itself stays SysV
# (crt0 converts; boot-notes 5.2). -maccumulate-outgoing-args as in boot-notes 5.2 and gnu-efi's
# own x86_64 flags.
EFI_ARCH_CFLAGS := -mno-red-zone -maccumulate-outgoing-args \
                   -DEFI_FUNCTION_WRAPPER -DGNU_EFI_USE_MS_ABI
EFI_ARCH_LDFLAGS :=
EFI_RELOC_OK := R_X86_64_RELATIVE
EFI_GNUEFI_DEP :=
else ifneq ($(filter $(ARCH),arm64 aarch64),)
EFI_APP := $(BUILD)/boot/BOOTAA64.EFI
# An arm64 host can use its native gnu-efi; an amd64 host uses the extracted copy.
EFI_PREFIX := $(if $(wildcard /usr/lib/crt0-efi-aarch64.o),/usr,$(EFI_GNUEFI_ARM64)/usr)
EFI_GNUEFI_ARCH := aarch64
EFI_SRCS += handoff_aarch64.c mmu_off_aarch64.S
EFI_ARCH_CFLAGS :=
# gnu-efi's aarch64 linker script puts everything in one RWX segment by design (the firmware
# loads the PE sections, not ELF segments), so the binutils >= 2.39 warning is noise.
EFI_ARCH_LDFLAGS := --defsym=EFI_SUBSYSTEM=0xa --no-warn-rwx-segments
EFI_RELOC_OK := R_AARCH64_RELATIVE
EFI_GNUEFI_DEP := $(if $(filter /usr,$(EFI_PREFIX)),,$(EFI_GNUEFI_ARM64)/.extracted)
else
$(error boot/efi/efi.mk: ARCH=$(ARCH) has no UEFI loader (x86_64 or arm64 only))
endif

EFI_INC := $(EFI_PREFIX)/include/efi
EFI_LIBDIR := $(EFI_PREFIX)/lib

# gnu-efi headers go in with -isystem rather than a -Wno- flag: their one complaint under these
# warnings is efiapi.h:746, `EFI_RESERVED_SERVICE ( )` (-Wstrict-prototypes), and -isystem
# silences it in those headers only, while our own files keep -Wstrict-prototypes and -Werror.
# -nostdinc + GCC's own include dir: Debian's cross compilers would otherwise also search
# /usr/include (boot-notes 4.3 rule 8); bootinfo.h needs only the freestanding <stdint.h>.
EFI_CFLAGS := -std=gnu11 -O2 -g0 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
              -Wmissing-prototypes -Wno-unused-parameter \
              -ffreestanding -nostdinc -isystem $(shell $(EFI_CC) -print-file-name=include) \
              -isystem $(EFI_INC) -isystem $(EFI_INC)/$(EFI_GNUEFI_ARCH) \
              -isystem $(EFI_INC)/protocol \
              -fpic -fshort-wchar -fno-stack-protector -fno-strict-aliasing \
              -fno-asynchronous-unwind-tables -MMD -MP $(EFI_ARCH_CFLAGS)

EFI_LDFLAGS := -nostdlib -znocombreloc -shared -Bsymbolic --no-undefined \
               -T $(EFI_LIBDIR)/elf_$(EFI_GNUEFI_ARCH)_efi.lds $(EFI_ARCH_LDFLAGS)

EFI_OBJS := $(addprefix $(EFI_OBJDIR)/,$(addsuffix .o,$(basename $(EFI_SRCS))))
EFI_SO := $(EFI_OBJDIR)/loader.so

EFI_SECTIONS := -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel -j .rela \
                -j .rel.* -j .rela.* -j .reloc

$(EFI_OBJDIR)/%.o: $(EFI_SRC)/%.c $(EFI_SRC)/efi.mk | $(EFI_GNUEFI_DEP)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(EFI_CC) $(EFI_CFLAGS) -c $< -o $@

$(EFI_OBJDIR)/%.o: $(EFI_SRC)/%.S $(EFI_SRC)/efi.mk | $(EFI_GNUEFI_DEP)
	@mkdir -p $(@D)
	@echo "  AS      $<"
	$(Q)$(EFI_CC) $(EFI_CFLAGS) -c $< -o $@

# The .so is checked before it becomes a PE image:
#  - nm -u: nothing may stay undefined except the aarch64 crt0's EFI_SUBSYSTEM (given by
#    --defsym, so nm lists nothing there either). A missing symbol would otherwise turn into
#    address 0 at run time, because -shared links allow undefined symbols.
#  - readelf -r: gnu-efi's self-relocator (_relocate in crt0) applies only *_RELATIVE entries, so
#    any other dynamic relocation would be left unapplied. The loader must stay position
#    independent.
# Both checks print nothing on success.
$(EFI_SO): $(EFI_OBJS) $(EFI_SRC)/efi.mk
	@mkdir -p $(@D)
	@echo "  LD      $@"
	$(Q)$(EFI_LD) $(EFI_LDFLAGS) -L$(EFI_LIBDIR) $(EFI_LIBDIR)/crt0-efi-$(EFI_GNUEFI_ARCH).o \
		$(EFI_OBJS) -o $@ -lefi -lgnuefi
	$(Q)undef=$$($(EFI_NM) -u $@); if [ -n "$$undef" ]; then \
		echo "$@: unexpected undefined symbols:" >&2; echo "$$undef" >&2; rm -f $@; exit 1; fi
	$(Q)bad=$$($(EFI_READELF) -rW $@ | awk '/^[0-9a-f]+ / && $$3 != "$(EFI_RELOC_OK)"'); \
	if [ -n "$$bad" ]; then echo "$@: relocations other than $(EFI_RELOC_OK):" >&2; \
		echo "$$bad" >&2; rm -f $@; exit 1; fi

$(EFI_APP): $(EFI_SO)
	@mkdir -p $(@D)
	@echo "  EFI     $@"
ifeq ($(ARCH),x86_64)
	$(Q)$(EFI_OBJCOPY) $(EFI_SECTIONS) --target efi-app-x86_64 --subsystem=10 $< $@
else
	$(Q)$(EFI_OBJCOPY) $(EFI_SECTIONS) -O binary $< $@
endif

# gnu-efi:arm64, extracted once and shared by every ARCH build. apt-get download needs arm64 as a
# dpkg foreign architecture; the sandbox user is set to the caller so a root build does not warn
# that _apt cannot write the download directory.
$(EFI_GNUEFI_ARM64)/.extracted:
	@if ! dpkg --print-foreign-architectures | grep -qx arm64; then \
		echo "gnu-efi for arm64 needs the arm64 dpkg architecture. Run once (as root):" >&2; \
		echo "    dpkg --add-architecture arm64 && apt-get update" >&2; exit 1; fi
	@echo "  FETCH   gnu-efi:arm64 -> $(EFI_GNUEFI_ARM64)"
	$(Q)rm -rf $(EFI_GNUEFI_ARM64).tmp && mkdir -p $(EFI_GNUEFI_ARM64).tmp
	$(Q)cd $(EFI_GNUEFI_ARM64).tmp && \
		apt-get -qq -o APT::Sandbox::User="$$(id -un)" download gnu-efi:arm64
	$(Q)dpkg-deb -x $(EFI_GNUEFI_ARM64).tmp/gnu-efi_*_arm64.deb $(EFI_GNUEFI_ARM64).tmp/root
	$(Q)test -f $(EFI_GNUEFI_ARM64).tmp/root/usr/lib/crt0-efi-aarch64.o
	$(Q)rm -rf $(EFI_GNUEFI_ARM64) && mv $(EFI_GNUEFI_ARM64).tmp/root $(EFI_GNUEFI_ARM64) && \
		rm -rf $(EFI_GNUEFI_ARM64).tmp && touch $@

-include $(EFI_OBJS:.o=.d)

ifeq ($(EFI_STANDALONE),y)
.DEFAULT_GOAL := $(EFI_APP)
else
.DEFAULT_GOAL := $(EFI_SAVED_GOAL)
endif
