# stackshift - top-level Makefile.
#
#   make [ARCH=x86_64|arm64|riscv64]   build the kernel (default x86_64)
#   make image                          the bootable disk image for ARCH
#   make run [BOOT=...] [TCG=1]         boot it in QEMU through the firmware: every stack
#                                       offset strategy's offsets, cost (exact instruction
#                                       counts, -icount) and attacks in one table
#   make run CMDLINE=...                boot something else on the raw console
#                                       (CMDLINE=ktest=all: the self-tests)
#   make run BOARD=sifive_u|versal|raspi3b  the same on QEMU's model of a real board
#   make run VULN=1 CMDLINE=run=vuln_demo  attack two deliberately vulnerable calls (docs/attacks.md)
#   make image BOARD=rpi4               the Raspberry Pi 4 SD card image (no QEMU model)
#   make bench [N= ROUNDS= STRATEGIES= ICOUNT=1]  the benchmark, all arches (or ARCH=)
#   make test                           host unit tests + boot tests, all arches
#   make fuzz [FUZZ_CALLS= FUZZ_SEED= FUZZ_REPLAY=]  the syscall fuzzer, 10^7 calls per arch
#   make soak [MINUTES=10]              the soak test on every arch (or ARCH=)
#   make mutate [MUTANTS=a,b] [ARCH=...] break each safety check, check a test fails
#   make lab LAB=n DEST=dir             a course lab's student tree (docs/labs/)
#   make grade LAB=n [ARCH=...]         grade a lab: each test with its points, Score: X/Y
#   make bench LINUX=1 / make conformance-linux  Debian's own Linux beside it (linux/linux.mk)
#   make newlib [ARCH=...]              build newlib for user programs (cached in build/newlib)
#   make deps                           install the Debian packages (as root)
#   make qemu-gdb / make gdb            debug with gdb-multiarch
#
# CROSS_COMPILE overrides the toolchain prefix; objects go to build/<arch>/.

SHELL := /bin/bash
ARCHES := x86_64 arm64 riscv64

# BOARD= boots QEMU's model of a real board instead of its generic machine
# (docs/boards.md). A board fixes the arch, the boot path (named after the
# board) and, by default, the CPU count.
BOARDS := sifive_u versal raspi3b rpi4
BOARD_ARCH.sifive_u := riscv64
BOARD_ARCH.versal := arm64
BOARD_ARCH.raspi3b := arm64
BOARD_ARCH.rpi4 := arm64
BOARD_CPUS.sifive_u := 4
BOARD_CPUS.versal := 2
BOARD_CPUS.raspi3b := 4
BOARD_CPUS.rpi4 := 4
ifneq ($(BOARD),)
ifeq ($(filter $(BOARD),$(BOARDS)),)
$(error Unknown BOARD '$(BOARD)': valid ones are $(BOARDS))
endif
ifneq ($(filter command line environment,$(origin ARCH)),)
ifneq ($(subst aarch64,arm64,$(ARCH)),$(BOARD_ARCH.$(BOARD)))
$(error BOARD=$(BOARD) is an $(BOARD_ARCH.$(BOARD)) board, not ARCH=$(ARCH))
endif
endif
ifeq ($(BOARD),rpi4)
ifneq ($(filter run qemu-gdb,$(MAKECMDGOALS)),)
$(error BOARD=rpi4 has no QEMU model (QEMU 7.2 emulates no Raspberry Pi 4): make image BOARD=rpi4 writes build/arm64/rpi4/sdcard.img for a real board, docs/boards.md)
endif
endif
override ARCH := $(BOARD_ARCH.$(BOARD))
override BOOT := $(BOARD)
SMP ?= $(BOARD_CPUS.$(BOARD))
endif
ARCH ?= x86_64
ifeq ($(ARCH),aarch64)
override ARCH := arm64
endif
ifeq ($(filter $(ARCH),$(ARCHES)),)
$(error Unknown ARCH '$(ARCH)': valid ones are $(ARCHES) (aarch64 is accepted for arm64))
endif

# DEBUG_CALLS=0 compiles the debug system calls out (they answer -ENOSYS):
# such a kernel is built in build/<arch>-nodebug (docs/security.md).
DEBUG_CALLS ?= 1
# VULN=1 adds the deliberately vulnerable system calls (kernel/syscall/sys_vuln.c)
# and their attack programs (user/demos/vuln_*.c): such a kernel is built in
# build/<arch>-vuln and says so when it boots. No other build has them.
VULN ?= 0
ifeq ($(filter 0 1,$(VULN)),)
$(error VULN must be 0 or 1, not '$(VULN)')
endif
# IRQSOFF=1 adds the IRQs-off tracker (kernel/latency/irqsoff.c): every
# masked window timed, the longest per CPU kept with where it began and
# ended. It costs every mask and unmask a few instructions, the system call
# path included, so the default kernel leaves it out; such a kernel is built
# in build/<arch>-irqsoff.
IRQSOFF ?= 0
ifeq ($(filter 0 1,$(IRQSOFF)),)
$(error IRQSOFF must be 0 or 1, not '$(IRQSOFF)')
endif
BUILD := build/$(ARCH)$(if $(filter 0,$(DEBUG_CALLS)),-nodebug)$(if $(filter 1,$(VULN)),-vuln)$(if $(filter 1,$(IRQSOFF)),-irqsoff)
# The user programs do not depend on DEBUG_CALLS (only the kernel answers
# -ENOSYS): a -nodebug kernel embeds the ones built beside the default kernel.
UBUILD := build/$(ARCH)$(if $(filter 1,$(VULN)),-vuln)
SMP ?= 4
MEM ?= 512M
# The image a user boots: no self-tests and no debug calls (tests/run.py
# and scripts/ set their own command lines).
CMDLINE ?= run=hello
IMAGE ?= $(BUILD)/disk.img
VARS ?= $(BUILD)/vars.fd
V ?= 0
Q := $(if $(filter 1,$(V)),,@)

include arch/$(ARCH)/arch.mk

# ccache (a Debian package, in scripts/deps.sh) compiles a file once for all
# the kernel variants make test builds (DEBUG_CALLS=0, VULN=1, IRQSOFF=1): it
# hashes the preprocessed source, so a file whose text the variant's define
# does not change is not compiled again. CCACHE= compiles everything.
CCACHE ?= $(shell command -v ccache 2>/dev/null)
CC := $(if $(CCACHE),$(CCACHE) )$(CROSS_COMPILE)gcc
LD := $(CROSS_COMPILE)ld
OBJCOPY := $(CROSS_COMPILE)objcopy
OBJDUMP := $(CROSS_COMPILE)objdump
NM := $(CROSS_COMPILE)nm
PYTHON := python3

# Freestanding kernel flags. -nostdinc plus gcc's own include dir keeps the
# Debian cross compilers from finding glibc headers; -U__linux__ because the
# Linux-triplet compilers predefine it; frame pointers for backtraces;
# -fno-tree-loop-distribute-patterns so memset's loop is not turned into a
# call to memset.
KCFLAGS := -std=gnu11 -O2 -g -ffreestanding -fno-builtin -nostdinc \
    -isystem $(shell $(CC) -print-file-name=include) \
    -fno-pie -fno-pic -fno-stack-protector -fno-omit-frame-pointer -fno-optimize-sibling-calls \
    -fno-strict-aliasing -fno-common -fno-tree-loop-distribute-patterns \
    -fno-asynchronous-unwind-tables -fno-unwind-tables -fno-toplevel-reorder \
    -U__linux__ -U__gnu_linux__ -Ulinux -Uunix \
    -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
    -Wmissing-declarations -Wwrite-strings -Wno-unused-parameter \
    -I. -Iarch/$(ARCH)/include -MMD -MP -DCONFIG_DEBUG_CALLS=$(DEBUG_CALLS) \
    -DCONFIG_VULN=$(VULN) -DCONFIG_IRQSOFF=$(IRQSOFF) $(ARCH_CFLAGS)
KASFLAGS := $(filter-out -std=gnu11,$(KCFLAGS)) -D__ASSEMBLER__
KLDFLAGS := -nostdlib -static -z noexecstack -z max-page-size=4096 --build-id=none \
    --no-warn-rwx-segments $(ARCH_LDFLAGS) --defsym=KERNEL_VBASE=$(KERNEL_VBASE) \
    -T linker/kernel.ld

# lib/kstack/: the parts of the stack offset library the kernel builds as
# they are (kernel/kstack_offset/kstack_lib.c supplies the rest).
KSTACK_LIB_SRCS := lib/kstack/kstack_pool.c lib/kstack/kstack_siphash.c
# lib/ files only user programs use (the attacks' LFSR113 solver, the
# min-entropy measure) stay out of the kernel.
USER_ONLY_LIB_SRCS := lib/lfsr113_solve.c lib/entropy.c
KERNEL_SRCS := $(filter-out $(USER_ONLY_LIB_SRCS),$(wildcard kernel/*.c kernel/*/*.c lib/*.c \
    tests/kernel/*.c)) $(KSTACK_LIB_SRCS) $(ARCH_SRCS)
KERNEL_OBJS := $(patsubst %,$(BUILD)/obj/%.o,$(KERNEL_SRCS)) $(BUILD)/obj/initrd.S.o
KERNEL_ELF := $(BUILD)/kernel.elf

.PHONY: all kernel image run bench fuzz soak test mutate lab grade newlib newlib-arch deps check-deps host-tests kstack-lib-tests kstack-conformance-tests check-dispatch-tests verify print-qemu print-run-cmdline qemu-gdb gdb clean \
        distclean format check-format help
.DEFAULT_GOAL := all

all: kernel

kernel: $(KERNEL_ELF)

$(BUILD)/obj/%.c.o: %.c Makefile arch/$(ARCH)/arch.mk
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(KCFLAGS) -c $< -o $@

$(BUILD)/obj/%.S.o: %.S Makefile arch/$(ARCH)/arch.mk
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	$(Q)$(CC) $(KASFLAGS) -c $< -o $@

$(KERNEL_ELF): $(KERNEL_OBJS) linker/kernel.ld
	@echo "  LD      $@"
	$(Q)$(LD) $(KLDFLAGS) $(KERNEL_OBJS) -o $@
	$(Q)$(PYTHON) scripts/check_kernel.py $(ARCH) $@ $(NM)
	$(Q)$(PYTHON) scripts/check_dispatch.py $(ARCH) $@ $(OBJDUMP) $(NM) || { rm -f $@; exit 1; }

# ---- User programs ------------------------------------------------------
include lib/user/newlib.mk

# make newlib: build (or find in the cache) newlib for every arch, or ARCH=.
NEWLIB_ARCHES := $(if $(filter command line,$(origin ARCH)),$(ARCH),$(ARCHES))
newlib: check-deps
	$(Q)for a in $(NEWLIB_ARCHES); do $(MAKE) --no-print-directory ARCH=$$a newlib-arch || exit 1; done

# The programs, by role: user/init.c and user/ROLE/ (USER_ROLES). A
# program NAME is user/ROLE/NAME.c, or a folder user/ROLE/NAME/ whose .c
# files link together (its main in NAME.c), plus NAME_$(ARCH).S beside it
# if there is one. Each links with newlib (built once, lib/user/newlib.mk),
# its port and the kernel's calls in lib/user/ (crt0, the system call stubs,
# locks), the parts several programs share (user/common/) and a few lib/
# files, into build/<arch>/user/NAME.elf; all of them are embedded in the
# kernel (scripts/mkinitrd.py), where NAME is what spawn() and run= take, so
# no two programs may share one. Programs named vuln_* attack the
# deliberately vulnerable calls: only VULN=1 kernels have them.
# -nostdinc plus gcc's and newlib's include directories: never glibc's
# headers from /usr/include. User code may use FP/SIMD (ARCH_USER_CFLAGS):
# the kernel saves those registers per thread.
UCFLAGS := -std=gnu11 -O2 -g -nostdinc \
    -isystem $(shell $(CC) -print-file-name=include) -isystem $(NEWLIB)/include \
    -fno-pie -fno-pic -fno-stack-protector -fno-omit-frame-pointer \
    -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables \
    -U__linux__ -U__gnu_linux__ -Ulinux -Uunix \
    -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter \
    -I. -MMD -MP -DCONFIG_VULN=$(VULN) $(ARCH_USER_CFLAGS)
ULIB_SRCS := $(wildcard lib/user/*.c user/common/*.c) lib/user/crt0_$(ARCH).S \
    lib/entropy.c lib/hist.c lib/lfsr113_solve.c lib/result_guard.c
ULIB_OBJS := $(patsubst %,$(UBUILD)/uobj/%.o,$(ULIB_SRCS))
ULIBS := $(NEWLIB)/lib/libc.a $(NEWLIB)/lib/libm.a \
    $(shell $(CC) $(ARCH_USER_CFLAGS) -print-libgcc-file-name 2>/dev/null)
USER_ROLES := servers bench longrun tests demos
USER_FILES := $(wildcard user/*.c $(USER_ROLES:%=user/%/*.c))
USER_DIRS := $(patsubst %/,%,$(wildcard $(USER_ROLES:%=user/%/*/)))
USER_PROGS := $(filter-out $(if $(filter 0,$(VULN)),vuln_%),$(notdir $(USER_FILES:.c=) $(USER_DIRS)))
USER_DUPS := $(sort $(foreach p,$(USER_PROGS),$(if $(word 2,$(filter $p,$(USER_PROGS))),$p)))
$(if $(USER_DUPS),$(error Two user programs share each of these names: $(USER_DUPS)))
# A program's sources: its file (or its folder's) and its NAME_$(ARCH).S.
# (No % here: the link rule expands it a second time, where % is the stem.)
user_srcs = $(wildcard user/$1.c $(foreach r,$(USER_ROLES),user/$r/$1.c user/$r/$1/*.c \
    user/$r/$1_$(ARCH).S user/$r/$1/$1_$(ARCH).S))
USER_SRCS := $(foreach p,$(USER_PROGS),$(call user_srcs,$p))
USER_ELFS := $(patsubst %,$(UBUILD)/user/%.elf,$(USER_PROGS))

$(UBUILD)/uobj/%.c.o: %.c Makefile arch/$(ARCH)/arch.mk $(NEWLIB_LIBC)
	@mkdir -p $(dir $@)
	@echo "  CC      $< (user)"
	$(Q)$(CC) $(UCFLAGS) -c $< -o $@

$(UBUILD)/uobj/%.S.o: %.S Makefile arch/$(ARCH)/arch.mk $(NEWLIB_LIBC)
	@mkdir -p $(dir $@)
	@echo "  AS      $< (user)"
	$(Q)$(CC) $(filter-out -std=gnu11,$(UCFLAGS)) -D__ASSEMBLER__ -c $< -o $@

.SECONDARY: # keep intermediate objects: no rebuilds, and they help debugging
.SECONDEXPANSION:
$(USER_ELFS): $(UBUILD)/user/%.elf: $$(addprefix $(UBUILD)/uobj/,$$(addsuffix .o,$$(call user_srcs,$$*))) \
        $(ULIB_OBJS) $(ULIBS) linker/user.ld
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(LD) -nostdlib -static --build-id=none -z noexecstack -z max-page-size=4096 \
	    --gc-sections $(ARCH_LDFLAGS) -T linker/user.ld $(filter %.o,$^) \
	    --start-group $(ULIBS) --end-group -o $@

# The kernel embeds the programs without their debug information (newlib's
# is most of each file); build/<arch>/user/ keeps the full ones for gdb.
INITRD_ELFS := $(patsubst %,$(BUILD)/initrd/%.elf,$(USER_PROGS))
$(BUILD)/initrd/%.elf: $(UBUILD)/user/%.elf
	@mkdir -p $(dir $@)
	$(Q)$(OBJCOPY) --strip-debug $< $@

$(BUILD)/initrd.S: $(INITRD_ELFS) scripts/mkinitrd.py
	$(Q)$(PYTHON) scripts/mkinitrd.py $@ $(INITRD_ELFS)

$(BUILD)/obj/initrd.S.o: $(BUILD)/initrd.S
	@echo "  AS      $< (user programs)"
	$(Q)$(CC) $(KASFLAGS) -c $< -o $@

-include $(patsubst %,$(UBUILD)/uobj/%.d,$(ULIB_SRCS) $(USER_SRCS))

# The Linux-style Image that U-Boot's booti loads (arm64, riscv64).
$(BUILD)/Image: $(KERNEL_ELF)
	@echo "  IMAGE   $@"
	$(Q)$(OBJCOPY) -O binary $< $@

-include $(KERNEL_OBJS:.o=.d)

# ---- UEFI loader (x86_64, arm64) ----------------------------------------
ifneq ($(EFI_ARCH),)
include boot/efi/efi.mk
endif

# ---- Disk image ---------------------------------------------------------
IMAGE_DEPS := $(KERNEL_ELF) $(if $(EFI_ARCH),$(EFI_APP)) $(if $(filter Image,$(IMAGE_FILES)),$(BUILD)/Image)

ifeq ($(BOARD),rpi4)
image: $(BUILD)/rpi4/sdcard.img
else
image: $(BUILD)/disk.img
endif

$(BUILD)/disk.img: $(IMAGE_DEPS) boot/mkimage.py boot/uboot/extlinux.conf.in FORCE
	$(Q)$(PYTHON) boot/mkimage.py --arch $(ARCH) --out $@ --kernel $(KERNEL_ELF) \
	    $(if $(EFI_ARCH),--efi $(EFI_APP)) \
	    $(if $(filter Image,$(IMAGE_FILES)),--image $(BUILD)/Image) \
	    --cmdline "$(CMDLINE)"

FORCE:

# Test devicetrees (tests/dtb/, used by boot paths such as virt-bus).
build/dtb/%.dtb: tests/dtb/%.dts
	@mkdir -p $(dir $@)
	$(Q)dtc -q -I dts -O dtb -o $@ $<

# make image BOARD=rpi4: the Raspberry Pi 4 SD card (docs/boards.md). The
# boot files Debian packages are fetched once into RPI4_FIRMWARE
# (boot/rpi/fetch.sh); the Pi's own start firmware is not in Debian, and
# boot/rpi/firmware-note.txt says which files to add from where.
RPI4_FIRMWARE ?= build/rpi4-firmware
RPI4_DTB := $(RPI4_FIRMWARE)/bcm2711-rpi-4-b.dtb
$(RPI4_FIRMWARE)/VERSIONS: boot/rpi/fetch.sh
	$(Q)boot/rpi/fetch.sh $(RPI4_FIRMWARE)
	$(Q)touch $@
# BOARD=raspi3b's devicetree (QEMU -dtb) and U-Boot come from the same fetch.
$(RPI4_FIRMWARE)/bcm2837-rpi-3-b.dtb $(RPI4_FIRMWARE)/u-boot-rpi_arm64.bin: $(RPI4_FIRMWARE)/VERSIONS

$(BUILD)/rpi4/sdcard.img: $(KERNEL_ELF) $(BUILD)/Image $(RPI4_FIRMWARE)/VERSIONS boot/mkimage.py \
    boot/uboot/extlinux.conf.in boot/rpi/config.txt boot/rpi/firmware-note.txt FORCE
	@mkdir -p $(dir $@)
	$(Q)sed '$(if $(wildcard $(RPI4_FIRMWARE)/bl31.bin),,s/^armstub=/# (no rpi4 bl31.bin in Debian) armstub=/)' \
	    boot/rpi/config.txt > $(BUILD)/rpi4/config.txt
	$(Q)$(PYTHON) boot/mkimage.py --arch $(ARCH) --out $@ --kernel $(KERNEL_ELF) \
	    --image $(BUILD)/Image --cmdline "$(CMDLINE)" --part-type 0x0c --volume RPI4BOOT \
	    --file $(BUILD)/rpi4/config.txt=config.txt \
	    --file $(RPI4_FIRMWARE)/u-boot.bin=u-boot.bin \
	    $(if $(wildcard $(RPI4_FIRMWARE)/bl31.bin),--file $(RPI4_FIRMWARE)/bl31.bin=bl31.bin) \
	    --file $(RPI4_DTB)=bcm2711-rpi-4-b.dtb \
	    --file $(RPI4_FIRMWARE)/VERSIONS=stackshift/firmware-versions.txt
	$(Q)$(if $(wildcard $(RPI4_FIRMWARE)/bl31.bin),,echo "rpi4: WARNING: Debian's arm-trusted-firmware has no rpi4/bl31.bin: the card has no armstub (config.txt's armstub= line is commented out), so no PSCI: the kernel will run on one CPU" >&2;)
	$(Q)cat boot/rpi/firmware-note.txt

# ---- Running ------------------------------------------------------------
QEMU_COMMON := -nographic -no-reboot -serial mon:stdio -monitor none
# QEMU_BEFORE_<boot>: a command a boot path runs first (riscv64's U-Boot
# devicetree); QEMU stays the last command, so `$(QEMU_CMD) -S ...` works.
QEMU_CMD = $(if $(QEMU_BEFORE_$(BOOT)),$(QEMU_BEFORE_$(BOOT)) && )$(QEMU) $(QEMU_ARGS_$(BOOT)) \
    $(QEMU_COMMON) $(QEMU_EXTRA)
# The boot paths that load the kernel without a disk (a board's, where no
# boot loader for it is packaged) pass it this command line (-append).
KERNEL_CMDLINE ?= $(RUN_CMDLINE)
ifeq ($(filter $(BOOT),$(BOOTS)),)
$(error Unknown BOOT '$(BOOT)' for $(ARCH): valid ones are $(BOOTS))
endif

# make run: the main job, the subject on one screen (scripts/run_screen.py):
# per stack offset strategy, the offsets it gives, what it costs a system
# call and how the two attacks fare against it, in one table. It boots
# under QEMU -icount (exact, repeatable instruction counts; the firmware's
# busy waits make shift=0 too slow to boot, so the counter advances
# 2^RUN_ICOUNT_SHIFT per instruction and the table divides that out) with
# two CPUs (the migration attack needs them; riscv64 under -icount hangs
# with two, so it gets one and no migration column) and five blocks of
# timed calls per strategy, of which the table takes the least (a timer
# tick inside a timed call only adds); the serial console goes to
# build/<arch>/run.log. TCG=1: plain TCG instead, wall-clock ticks
# (only ratios within the run mean anything). CMDLINE=... boots something
# else instead, on the raw console as it is (CMDLINE=ktest=all: the
# self-tests).
# The attack demonstrations (run=attack_migrate, run=attack_lfsr) and the
# self-tests (ktest=) read offsets through the probe, which stands in for
# an info leak and answers only with kstack.debug: it is added for them, and
# the boot banner says "debug calls ON"; the attack programs and the
# benchmark choose strategies, so they get run.control (the control
# capability). So do the attacks on the deliberately vulnerable calls of a
# VULN=1 kernel (make run VULN=1 CMDLINE=run=vuln_demo, user/demos/vuln_demo.c).
# The image itself (make image) has neither.
TCG ?= 0
RUN_ICOUNT_SHIFT ?= 3
# QEMU's -icount options ($(1): the shift) and, on arm64, the CPU whose
# generic timer runs at 1 GHz: under -icount it counts virtual nanoseconds.
# Kept here once: tests/harness.py reads both (ICOUNT_CPU, icount_options)
# for the boots and scripts that count instructions.
ICOUNT_QEMU = -icount shift=$(1),align=off,sleep=off -rtc clock=vm
ICOUNT_CPU_arm64 := max,pauth-impdef=on,cntfrq=1000000000
RUN_SCREEN := $(if $(filter command line,$(origin CMDLINE)),,1)
# A board (BOARD=) keeps its own CPU count and plain TCG.
RUN_ICOUNT := $(if $(RUN_SCREEN),$(if $(or $(filter 1,$(TCG)),$(BOARD)),,1))
# user/bench/bench/bench.c's arguments: calls per system call, rounds
# (blocks in a row), strategies, whether counts are instructions, the summary (and its migration trials).
RUN_ARGS := $(if $(RUN_ICOUNT),1000,3000),5,all,$(if $(RUN_ICOUNT),1,0),screen:200
ATTACK_RUN = $(or $(findstring run=attack_,$(CMDLINE)),$(findstring run=vuln_,$(CMDLINE)))
RUN_CMDLINE := $(if $(filter command line,$(origin CMDLINE)),$(CMDLINE)$(if $(and \
    $(or $(ATTACK_RUN),$(findstring ktest=,$(CMDLINE))),\
    $(if $(findstring kstack.debug,$(CMDLINE)),,y)), kstack.debug)$(if $(and \
    $(ATTACK_RUN),$(if $(findstring run.control,$(CMDLINE)),,y)), run.control),\
    run=bench run.args=$(RUN_ARGS) kstack.debug run.control)
ifneq ($(RUN_SCREEN),)
ifeq ($(BOARD),)
run: SMP = $(if $(and $(RUN_ICOUNT),$(filter riscv64,$(ARCH))),1,2)
endif
ifneq ($(RUN_ICOUNT),)
run: QEMU_EXTRA += $(call ICOUNT_QEMU,$(RUN_ICOUNT_SHIFT))
ifneq ($(ICOUNT_CPU_$(ARCH)),)
run: QEMU_CPU = $(ICOUNT_CPU_$(ARCH))
endif
endif
run: export RUN_QEMU_CMD = $(QEMU_CMD)
endif
run: IMAGE = $(BUILD)/run.img
run: check-deps image
	$(Q)cp -f $(BUILD)/disk.img $(BUILD)/run.img
	$(Q)$(PYTHON) boot/mkimage.py --set-cmdline $(BUILD)/run.img "$(RUN_CMDLINE)"
	$(Q)$(if $(VARS_TEMPLATE_$(BOOT)),cp -f $(VARS_TEMPLATE_$(BOOT)) $(VARS);) true
ifneq ($(RUN_SCREEN),)
	$(Q)$(PYTHON) -m scripts.run_screen --arch $(ARCH) --log $(BUILD)/run.log \
	    $(if $(RUN_ICOUNT),--shift $(RUN_ICOUNT_SHIFT),--tcg)
else
	@echo "  QEMU    $(ARCH) $(BOOT): $(RUN_CMDLINE) (exit: Ctrl-A x)"
	$(Q)$(QEMU_CMD) | tee $(BUILD)/run.log; echo "qemu exit status $${PIPESTATUS[0]}"
	$(Q)if grep -q "BENCH end" $(BUILD)/run.log; then \
	    $(PYTHON) -m scripts.bench_report --log $(BUILD)/run.log --out build/bench/$(ARCH)/run --no-plots; fi
endif

# make bench: the full benchmark on every arch (or ARCH=...), with the
# tables, build/bench/<arch>/results.csv and the plots (scripts/bench.py),
# then the scaling table at SCALING CPUs ("" for none).
# LINUX=1 also boots Debian's own Linux kernel (x86_64, arm64) with
# randomize_kstack_offset=on and =off, timing the same calls the same way,
# and puts its rows beside every strategy (linux/linux.mk, linux/README.md).
N ?= 20000
ROUNDS ?= 5
STRATEGIES ?= all
ICOUNT ?= 0
SCALING ?= 1 2 4 8
BENCH_ARCHES := $(if $(filter command line,$(origin ARCH)),$(ARCH),$(ARCHES))
bench: check-deps
	$(Q)for a in $(BENCH_ARCHES); do $(MAKE) --no-print-directory ARCH=$$a image || exit 1; \
	    $(MAKE) --no-print-directory ARCH=$$a IRQSOFF=1 image || exit 1; done
	$(Q)$(if $(filter 1,$(LINUX)),$(MAKE) --no-print-directory linux-client \
	    LINUX_ARCHES="$(filter-out riscv64,$(BENCH_ARCHES))" &&) true
	$(Q)$(PYTHON) -m scripts.bench --arches "$(BENCH_ARCHES)" --calls $(N) --rounds $(ROUNDS) \
	    --strategies $(STRATEGIES) --icount $(ICOUNT) --scaling "$(SCALING)" \
	    $(if $(filter 1,$(LINUX)),--linux)

# make fuzz: user/longrun/fuzz on every arch (or ARCH=), FUZZ_CALLS calls from
# FUZZ_SEED (default: from the clock, printed); FUZZ_REPLAY=B runs batch B of
# that seed again, printing each call first. make soak: user/longrun/soak/ for
# MINUTES. Both boot through scripts/longrun.py (logs in build/fuzz|soak/).
FUZZ_CALLS ?= 10000000
FUZZ_SEED ?=
FUZZ_REPLAY ?=
MINUTES ?= 10
fuzz soak: check-deps
	$(Q)for a in $(BENCH_ARCHES); do $(MAKE) --no-print-directory ARCH=$$a image || exit 1; done
	$(Q)$(PYTHON) -m scripts.longrun $@ --arches "$(BENCH_ARCHES)" --calls $(FUZZ_CALLS) \
	    --seed "$(FUZZ_SEED)" --replay "$(FUZZ_REPLAY)" --minutes $(MINUTES) --smp $(SMP)

include linux/linux.mk

# tests/run.py asks for the exact command line through this target; a boot
# path may need files made first (QEMU_DEPS_<boot>: a test devicetree).
# The kernel command line `make run` boots with these variables
# (tests/host/test_lab_commands.py checks the handouts' commands with it).
print-run-cmdline:
	@echo '$(RUN_CMDLINE)'

print-qemu: $(QEMU_DEPS_$(BOOT))
	@echo "VARS_TEMPLATE=$(VARS_TEMPLATE_$(BOOT))"
	@echo "QEMU=$(QEMU_CMD)"
run qemu-gdb: $(QEMU_DEPS_$(BOOT))

qemu-gdb: check-deps image
	$(Q)$(if $(VARS_TEMPLATE_$(BOOT)),cp -f $(VARS_TEMPLATE_$(BOOT)) $(VARS);) true
	@echo "  QEMU waits for gdb on tcp::$(GDB_PORT); in another shell: make gdb ARCH=$(ARCH)"
	$(Q)$(QEMU_CMD) -S -gdb tcp::$(GDB_PORT)

gdb:
	$(Q)command -v gdb-multiarch >/dev/null || { echo "gdb-multiarch missing: apt-get install gdb-multiarch"; exit 1; }
	gdb-multiarch -q $(KERNEL_ELF) -ex "set architecture $(GDB_ARCH)" \
	    -ex "target remote localhost:$(GDB_PORT)"

GDB_PORT ?= $(shell echo $$((26000 + $$(id -u) % 1000)))

# ---- Dependencies -------------------------------------------------------
deps:
	$(Q)scripts/deps.sh install

check-deps:
	$(Q)scripts/deps.sh check

# ---- Tests --------------------------------------------------------------
# The host test programs (build/host/test_*): tests/host/host.mk.
include tests/host/host.mk

host-tests: $(HOST_TESTS) kstack-lib-tests

# lib/kstack, the stack offset library other kernels copy, has its own host
# tests (the known answers of tests/vectors/ and the kernel's generators),
# run here with the host cc; its build directory goes under build/host.
# A course lab's tree has no lib/kstack/Makefile (tests/lab.py leaves the
# library's tests out): skipped.
kstack-lib-tests:
	$(Q)if [ -f lib/kstack/Makefile ]; then $(MAKE) --no-print-directory -C lib/kstack test CC=$(HOST_CC) \
	    BUILD=$(CURDIR)/build/host/kstack VECTORS=$(CURDIR)/tests/vectors; fi

# tools/kstack-conformance on its synthetic samples. tests/run.py (make test)
# runs the same script as host.conformance.*, so host-tests leaves it out.
kstack-conformance-tests:
	@mkdir -p build/host
	$(Q)if [ -f tests/host/test_conformance.py ]; then \
	    $(PYTHON) tests/host/test_conformance.py > build/host/conformance.log 2>&1 || \
	    { cat build/host/conformance.log; exit 1; }; fi

# make verify: lib/kstack's ACSL contracts proved with Frama-C's WP, and no
# undefined behaviour in lib/kstack, lib/lfsr113.c and lib/chacha20.c for
# any key, seed or counter (EVA): docs/verification.md. tests/run.py (make
# test) runs it as host.verify.* (tests/host/test_verify.py), with every
# contract mutant's kill; this target prints the proofs' KTAP alone.
verify: check-deps
	$(Q)$(PYTHON) lib/kstack/verify/verify.py --build build/verify/make --kernel-libs .

# scripts/check_dispatch.py on small dispatchers built good and bad with the
# cross compilers (tests/host/test_check_dispatch.py, host.check_dispatch.*
# in tests/run.py, which make test runs; host-tests leaves it out): quiet
# unless it fails. A lab tree has no such test.
check-dispatch-tests:
	@mkdir -p build/host
	$(Q)if [ -f tests/host/test_check_dispatch.py ]; then \
	    $(PYTHON) tests/host/test_check_dispatch.py > build/host/check_dispatch.log 2>&1 || \
	    { cat build/host/check_dispatch.log; exit 1; }; fi

# The kernels make test boots are built a CPU per job (about half the time).
TEST_BUILD_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
test: check-deps
	$(Q)$(MAKE) --no-print-directory -j$(TEST_BUILD_JOBS) host-tests
	$(Q)for a in $(ARCHES); do $(MAKE) --no-print-directory -j$(TEST_BUILD_JOBS) ARCH=$$a image || exit 1; \
	    $(MAKE) --no-print-directory -j$(TEST_BUILD_JOBS) ARCH=$$a DEBUG_CALLS=0 image || exit 1; \
	    $(MAKE) --no-print-directory -j$(TEST_BUILD_JOBS) ARCH=$$a VULN=1 image || exit 1; \
	    $(MAKE) --no-print-directory -j$(TEST_BUILD_JOBS) ARCH=$$a IRQSOFF=1 image || exit 1; done
	$(Q)$(MAKE) --no-print-directory -j$(TEST_BUILD_JOBS) ARCH=arm64 BOARD=rpi4 image > build/rpi4-image.log 2>&1 || \
	    { cat build/rpi4-image.log; echo "make image BOARD=rpi4 failed"; exit 1; }
	$(Q)$(PYTHON) tests/run.py $(TEST_ARGS)

# Mutation testing (tests/mutate.py, tests/mutants/*.mut): every mutant must
# be killed. ARCH narrows it only when given (it defaults to x86_64 above).
MUTATE_ARCH := $(if $(filter command line environment override,$(origin ARCH)),--arch $(ARCH))
mutate: check-deps
	$(Q)$(PYTHON) tests/mutate.py $(if $(MUTANTS),--mutants $(MUTANTS)) $(MUTATE_ARCH)

# Course labs (tests/lab.py, docs/labs/): make lab LAB=n DEST=dir writes a
# student's tree; make grade LAB=n [ARCH=a] prints "Score: X/Y" (exit 1
# below full marks). make test checks that this tree, the reference, gets
# full marks and every skeleton fails every graded test.
GRADE_ARCH := $(if $(filter command line environment override,$(origin ARCH)),--arch $(ARCH))
lab:
	$(Q)test -n "$(LAB)" -a -n "$(DEST)" || { echo "usage: make lab LAB=n DEST=dir (tests/lab.py list)"; exit 2; }
	$(Q)$(PYTHON) tests/lab.py skeleton $(LAB) $(DEST)
grade: check-deps
	$(Q)test -n "$(LAB)" || { echo "usage: make grade LAB=n [ARCH=a] (tests/lab.py list)"; exit 2; }
	$(Q)$(PYTHON) tests/lab.py grade $(LAB) $(GRADE_ARCH)

# ---- Housekeeping -------------------------------------------------------
# The C style (.clang-format): make format applies it to every tracked C
# file; check-format (in .ci/run) fails, listing the places, if one is off.
format: check-deps
	clang-format -i $$(git ls-files '*.c' '*.h')

check-format: check-deps
	clang-format --dry-run --Werror $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build/$(ARCH) build/$(ARCH)-nodebug build/$(ARCH)-vuln build/host

distclean:
	rm -rf build

help:
	@sed -n '2,/^$$/p' Makefile | sed '$$d'
