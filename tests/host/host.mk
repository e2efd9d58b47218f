# SPDX-License-Identifier: MIT
# tests/host/host.mk - the host test programs: each tests/host/test_<name>.c
# built with the host compiler and its sanitizers into build/host/test_<name>
# (tests/run.py runs every one; make host-tests builds them). Included by
# the Makefile.
#
# One pattern rule builds them all. By default test_<name> tests
# lib/<name>.c; a test that needs more says so in these variables:
#   HOST_SRCS_<name>   the sources linked with it (default lib/<name>.c)
#   HOST_DEPS_<name>   the headers it depends on besides tests/host/check.h
#                      (default lib/<name>.h)
#   HOST_INC_<name>    include directories searched before the tree's own
#                      (a fake kernel or C library standing in around the code)
#   HOST_FLAGS_<name>  more compiler flags for the test's own file
#   HOST_LIB_FLAGS_<name>  when set, HOST_SRCS_<name> is compiled apart with
#                      these flags (into build/host/test_<name>.lib.o)
#   HOST_ORDER_<name>  what must exist first, however old (order-only)
HOST_CC := gcc
HOST_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Werror -fsanitize=address,undefined \
    -fno-sanitize-recover=all -I. -Itests/host
HOST_LDLIBS := -lm
HOST_TESTS := $(patsubst tests/host/%.c,build/host/%,$(wildcard tests/host/test_*.c))

host_srcs = $(or $(HOST_SRCS_$(1)),lib/$(1).c)
host_deps = $(or $(HOST_DEPS_$(1)),lib/$(1).h)
# The objects linked: the sources, or their object compiled apart.
host_objs = $(if $(HOST_LIB_FLAGS_$(1)),$(2).lib.o,$(call host_srcs,$(1)))

.SECONDEXPANSION:
build/host/test_%: tests/host/test_%.c $$(call host_srcs,$$*) $$(call host_deps,$$*) \
    tests/host/check.h | $$(HOST_ORDER_$$*)
	@mkdir -p $(dir $@)
	$(Q)$(if $(HOST_LIB_FLAGS_$*),$(HOST_CC) $(HOST_CFLAGS) $(HOST_LIB_FLAGS_$*) \
	    -c $(call host_srcs,$*) -o $@.lib.o)
	$(Q)$(HOST_CC) $(HOST_INC_$*) $(HOST_CFLAGS) $(HOST_FLAGS_$*) $< $(call host_objs,$*,$@) -o $@ $(HOST_LDLIBS)

# string and printf are compiled with their names prefixed lib_ so the
# tests can compare them with the host libc's functions in the same program.
HOST_LIB_FLAGS_string := -fno-builtin -include tests/host/lib_rename.h
HOST_DEPS_string := lib/string.h tests/host/lib_rename.h
HOST_LIB_FLAGS_printf := -Dvsnprintf=lib_vsnprintf -Dsnprintf=lib_snprintf
HOST_FLAGS_printf := -Wno-format-nonliteral

# The RFC 8439 vectors live in lib/chacha20_kat.c, shared with the kernel's
# boot self-test.
HOST_SRCS_chacha20 := lib/chacha20.c lib/chacha20_kat.c
HOST_DEPS_chacha20 := lib/chacha20.h lib/chacha20_kat.h

# The fdt test programs build their blobs with tests/host/fdt_writer.h.
FDT_SRCS := lib/fdt.c lib/fdt_lookup.c
FDT_DEPS := lib/fdt.h tests/host/fdt_writer.h
HOST_SRCS_fdt := $(FDT_SRCS)
HOST_DEPS_fdt := $(FDT_DEPS)
HOST_SRCS_fdt_malformed := $(FDT_SRCS)
HOST_DEPS_fdt_malformed := $(FDT_DEPS)
HOST_SRCS_fdt_ranges := $(FDT_SRCS)
HOST_DEPS_fdt_ranges := $(FDT_DEPS)
HOST_SRCS_fdt_trimmed := $(FDT_SRCS)
HOST_DEPS_fdt_trimmed := $(FDT_DEPS)

HOST_SRCS_siphash := lib/kstack/kstack_siphash.c
HOST_DEPS_siphash := lib/kstack/kstack.h

# The devicetree RNG drivers against register models: tests/host/fake_kernel
# stands in for the arch contract (MMIO, counter) and ioremap.
HOST_SRCS_rng_devices := kernel/dev/bcm2835_rng.c kernel/dev/bcm2711_rng200.c
HOST_DEPS_rng_devices := kernel/dev/rng.h tests/host/fake_kernel/arch/arch.h \
    tests/host/fake_kernel/kernel/arch_callbacks.h
HOST_INC_rng_devices := -Itests/host/fake_kernel

# The ASID allocator and the x86_64 PCID bookkeeping against a TLB model:
# tests/host/fake_kernel stands in for the kernel around them.
HOST_SRCS_tlb_model := kernel/mm/asid.c arch/x86_64/pcid.c lib/cmdline.c \
    tests/host/tlb_model_broadcast.c
HOST_DEPS_tlb_model := kernel/mm/asid.h kernel/mm/aspace_switch.h arch/x86_64/pcid.h \
    arch/x86_64/pcid_load.h arch/x86_64/cr3.h \
    $(wildcard tests/host/fake_kernel/*.h tests/host/fake_kernel/*/*.h tests/host/fake_kernel/*/*/*.h)
HOST_INC_tlb_model := -Itests/host/fake_kernel

# Lab 1's handler against a user memory model that records every copy:
# tests/host/fake_syscall stands in for the user copies, the clock and the
# scheduler (kernel/syscall/sys_time.c's other handlers).
HOST_SRCS_sys_clock := kernel/syscall/sys_time.c
HOST_DEPS_sys_clock := $(wildcard tests/host/fake_syscall/*/*.h)
HOST_INC_sys_clock := -Itests/host/fake_syscall
HOST_FLAGS_sys_clock := -Wno-unused-parameter

# Lab 7's answer(), driven request by request: tests/host/fake_user stands
# in for lib/user's IPC calls and C library (the server's file is included
# whole; lib/result_guard.c is the real one).
HOST_SRCS_console_server := lib/result_guard.c
HOST_DEPS_console_server := user/servers/console_server.c lib/result_guard.h \
    lib/user/console_client.h $(wildcard tests/host/fake_user/*/*/*.h)
HOST_INC_console_server := -Itests/host/fake_user

# The real Raspberry Pi 4 devicetree, fetched while this test is built
# (boot/rpi/fetch.sh, cached in RPI4_FIRMWARE). When it cannot be fetched
# the build goes on and the test reports one skipped case saying so.
HOST_SRCS_rpi4_dtb := $(FDT_SRCS)
HOST_DEPS_rpi4_dtb := lib/fdt.h tests/host/dtb_file.h
HOST_FLAGS_rpi4_dtb = -DRPI4_DTB='"$(abspath $(RPI4_DTB))"'
HOST_ORDER_rpi4_dtb := rpi4-dtb-fetch
# The Raspberry Pi 3 devicetree BOARD=raspi3b boots with: the same fetch.
HOST_SRCS_rpi3_dtb := $(FDT_SRCS)
HOST_DEPS_rpi3_dtb := lib/fdt.h tests/host/dtb_file.h
HOST_FLAGS_rpi3_dtb = -DRPI3_DTB='"$(abspath $(RPI4_FIRMWARE)/bcm2837-rpi-3-b.dtb)"'
HOST_ORDER_rpi3_dtb := rpi4-dtb-fetch

.PHONY: rpi4-dtb-fetch
rpi4-dtb-fetch:
	@mkdir -p build
	$(Q)boot/rpi/fetch.sh $(RPI4_FIRMWARE) || \
	    echo "rpi4: the Pi 4 devicetree could not be fetched: host.rpi4_dtb will be skipped" >&2

# The LFSR113 known answers come from an independent bit-level model in Python.
build/host/lfsr113_kat.h: tests/host/lfsr113_ref.py
	@mkdir -p $(dir $@)
	$(Q)$(PYTHON) $< > $@.tmp && mv $@.tmp $@

HOST_DEPS_lfsr113 := lib/lfsr113.h build/host/lfsr113_kat.h
