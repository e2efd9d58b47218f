# linux/linux.mk - Debian's own Linux kernel beside stackshift (included by
# the top-level Makefile; linux/README.md says what each part is).
#
#   make linux-fetch        Debian's kernel and headers under build/linux/<arch>
#                           (scripts/linux_fetch.sh: apt-get download, cached)
#   make linux-client       build/linux/<arch>/lxinit, the initramfs's /init
#   make linux-recorder     build/linux/<arch>/recorder/kstack_recorder.ko
#   make conformance-linux  boot Debian's kernel with both, record a sample,
#                           run tools/kstack-conformance on it, print the
#                           verdicts beside this kernel's
#   make bench LINUX=1      the benchmark with Linux's rows (randomize_kstack_offset=on/off)
#
# x86_64 and arm64 (LINUX_ARCHES): Debian 12 ships no riscv64 kernel.
LINUX_ARCHES ?= x86_64 arm64
LINUX_CC.x86_64 := gcc
LINUX_CC.arm64 := aarch64-linux-gnu-gcc
LINUX_CROSS.arm64 := DEB_BUILD_ARCH=amd64 DEB_HOST_ARCH=arm64 DEB_HOST_GNU_TYPE=aarch64-linux-gnu
LINUX_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -static -nostdlib -ffreestanding -fno-builtin \
    -fno-stack-protector -fno-pie -no-pie -I.
LINUX_CLIENT_SRCS := $(wildcard linux/client/*.c) lib/hist.c
LINUX_RECORDER_SRCS := $(wildcard linux/recorder/*)

.PHONY: linux-fetch linux-client linux-recorder conformance-linux

linux-fetch: $(foreach a,$(LINUX_ARCHES),build/linux/$(a)/release)
linux-client: $(foreach a,$(LINUX_ARCHES),build/linux/$(a)/lxinit)
linux-recorder: $(foreach a,$(LINUX_ARCHES),build/linux/$(a)/recorder/kstack_recorder.ko)

build/linux/%/release: scripts/linux_fetch.sh
	$(Q)scripts/linux_fetch.sh $*
	@touch $@

# The kernel it runs on comes with it (order only: a newer fetch script
# does not rebuild the program).
build/linux/%/lxinit: $(LINUX_CLIENT_SRCS) $(wildcard linux/client/*.h) lib/hist.h \
    linux/recorder/kstack_recorder.h | build/linux/%/release
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(LINUX_CC.$*) $(LINUX_CFLAGS) $(LINUX_CLIENT_SRCS) -o $@ -lgcc

# Built against the headers of the very kernel it is loaded into; the host's
# linux-kbuild tools serve both arches.
build/linux/%/recorder/kstack_recorder.ko: $(LINUX_RECORDER_SRCS) build/linux/%/release
	@rm -rf $(dir $@) && mkdir -p $(dir $@) && cp $(LINUX_RECORDER_SRCS) $(dir $@)
	@echo "  KMOD    $@ (against Debian's $$(cat build/linux/$*/release))"
	$(Q)$(MAKE) --no-print-directory -s -C build/linux/$*/headers M=$(CURDIR)/$(dir $@) \
	    $(LINUX_CROSS.$*) modules 2>&1 | grep -v "BTF" || true
	$(Q)test -s $@

conformance-linux: check-deps linux-client linux-recorder
	$(Q)$(PYTHON) -m scripts.linux_conformance --arches "$(LINUX_ARCHES)"
