# lib/user/newlib.mk - newlib, the C library of user programs, built from
# Debian's newlib-source by scripts/newlib.sh and cached under build/.
#
# The cache directory is named after a key: a hash of the newlib version,
# the target, the configure options, NEWLIB_CFLAGS and the compiler's
# version. Change any of them and the next build makes a new one (and
# removes the old); otherwise it is reused, however often build/<arch> is
# cleaned. NEWLIB_CACHE=/some/dir shares one cache between checkouts.

NEWLIB_TARBALL ?= /usr/src/newlib/newlib-3.3.0.tar.xz
NEWLIB_VERSION := $(patsubst newlib-%.tar.xz,%,$(notdir $(NEWLIB_TARBALL)))
NEWLIB_CACHE ?= build/newlib
NEWLIB_JOBS ?= $(shell nproc)

# --disable-newlib-supplied-syscalls: the system call stubs are ours
# (lib/user/syscalls.c). Retargetable locking: lib/user/locks.c gives stdio
# and malloc real locks, for programs with threads.
NEWLIB_CONFIGURE := --disable-multilib --disable-nls --disable-newlib-supplied-syscalls \
    --enable-newlib-io-long-long --enable-newlib-io-c99-formats \
    --enable-newlib-retargetable-locking

# No stack protector (x86_64's reads %fs:0x28, which nothing sets up), no
# PIE (Debian's default), one section per function so --gc-sections keeps
# programs small; the FP ABI of ARCH_USER_CFLAGS (arch/*/arch.mk).
NEWLIB_CFLAGS := -g -O2 -ffunction-sections -fdata-sections -fno-pie -fno-stack-protector \
    -fno-omit-frame-pointer -fno-asynchronous-unwind-tables $(ARCH_NEWLIB_CFLAGS)

NEWLIB_KEY := $(shell { echo "$(NEWLIB_VERSION) $(NEWLIB_TARGET) $(NEWLIB_CONFIGURE) $(NEWLIB_CFLAGS)"; \
    $(CC) --version 2>/dev/null | head -1; } | sha1sum | cut -c1-12)
NEWLIB := $(NEWLIB_CACHE)/$(ARCH)-$(NEWLIB_VERSION)-$(NEWLIB_KEY)
NEWLIB_LIBC := $(NEWLIB)/lib/libc.a

$(NEWLIB_LIBC):
	@test -r $(NEWLIB_TARBALL) || { echo "newlib: $(NEWLIB_TARBALL) is missing:" \
	    "apt-get install newlib-source (make deps)"; exit 1; }
	@echo "  NEWLIB  $(NEWLIB_VERSION) for $(ARCH) (a few minutes, once): $(NEWLIB)"
	$(Q)NEWLIB_CONFIGURE="$(NEWLIB_CONFIGURE)" scripts/newlib.sh $(NEWLIB_TARBALL) \
	    $(NEWLIB_TARGET) $(CROSS_COMPILE) $(abspath $(NEWLIB)) $(NEWLIB_JOBS) $(NEWLIB_CFLAGS)

newlib-arch: $(NEWLIB_LIBC)

$(NEWLIB)/lib/libm.a: $(NEWLIB_LIBC)
