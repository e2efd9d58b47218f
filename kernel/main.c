/* SPDX-License-Identifier: MIT */
/*
 * kernel/main.c - where the kernel starts and what it says first.
 *
 * kmain() is entered from arch/<arch>/start.S on the boot CPU with the MMU
 * on and the kernel running at its linked (high) address. It normalises the
 * boot hand-off, brings up the console and the kernel's own page tables,
 * reports what the firmware described (boot path, memory, CPUs, command
 * line), starts the scheduler and the timer, runs the self-tests the
 * command line asks for (they start user programs too), and powers the
 * machine off with their result.
 */
#include "kernel/arch_callbacks.h"
#include "kernel/bootinfo.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/emergency_stack.h"
#include "kernel/ipc/fastpath.h"
#include "kernel/ipc/ipc.h"
#include "kernel/kstack_offset/kstack_offset.h"
#include "kernel/ktest.h"
#include "kernel/latency/latency.h"
#include "kernel/mm/asid.h"
#include "kernel/mm/vm.h"
#include "kernel/panic.h"
#include "kernel/platform.h"
#include "kernel/random/random.h"
#include "kernel/sched/sched.h"
#include "kernel/smp.h"
#include "kernel/syscall/interrupt.h"
#include "kernel/syscall/path.h"
#include "kernel/syscall/syscall.h"
#include "kernel/task.h"
#include "kernel/time.h"
#include "lib/cmdline.h"
#include "lib/fdt.h"
#include "lib/memmap.h"
#include "lib/string.h"

#define STACKSHIFT_VERSION "0.1"
#define INIT_WAIT_MS       5000 /* for the console server to start (TCG, a busy host) */

struct cpu cpus[MAX_CPUS];
uintptr_t phys_map_offset; /* 0 while the early identity map is in use */

static void report_memory(const struct boot_info *bi)
{
    uint64_t usable = memmap_total(bi->mmap, bi->mmap_count, BOOT_MEM_USABLE);
    kprintf("memory: %u regions, %llu MiB usable\n", bi->mmap_count,
            (unsigned long long)(usable >> 20));
    for (uint32_t i = 0; i < bi->mmap_count; i++) {
        const struct boot_mem_region *r = &bi->mmap[i];
        kprintf("  [0x%016llx-0x%016llx] %-8s %8llu KiB\n", (unsigned long long)r->base,
                (unsigned long long)(r->base + r->size - 1), memmap_type_name(r->type),
                (unsigned long long)(r->size >> 10));
    }
}

/* A devicetree string property, or NULL if it is absent or not a string. */
static const char *fdt_string(const struct fdt *f, int node, const char *name)
{
    uint32_t len;
    const char *s = node >= 0 ? fdt_prop(f, node, name, &len) : NULL;
    return s && len > 0 && s[len - 1] == '\0' ? s : NULL;
}

/* The board: the devicetree root's "model" and first "compatible" entry
 * (Devicetree Specification v0.4, 3.2). */
static void report_board(void)
{
    const struct fdt *f = boot_fdt();
    int root = f ? fdt_path(f, "/") : -1;
    const char *model = f ? fdt_string(f, root, "model") : NULL;
    const char *compatible = f ? fdt_string(f, root, "compatible") : NULL;
    if (model || compatible)
        kprintf("board: %s (%s)\n", model ? model : "no model", compatible ? compatible : "-");
}

static void report_boot(const struct boot_info *bi)
{
    char fw[96];
    struct platform_cpu cpu_ids[MAX_CPUS];
    const char *source;
    kprintf("\nstackshift %s (%s): a teaching kernel for stack offset randomisation\n",
            STACKSHIFT_VERSION, ARCH_NAME);
    if (CONFIG_VULN)
        kprintf("vuln: WARNING: built with make VULN=1: deliberately vulnerable system calls "
                "(kernel/syscall/sys_vuln.c), for the attack demonstrations only\n");
    kprintf("boot: %s via %s\n", boot_path_name(bi->path),
            bi->firmware[0] ? bi->firmware : "unknown firmware");
    arch_describe_firmware(fw, sizeof(fw));
    if (fw[0])
        kprintf("firmware: %s\n", fw);
    report_board();
    kprintf("console: %s\n", console_name());
    kprintf("kernel: %llu KiB at physical %#llx, virtual %p\n",
            (unsigned long long)(bi->kernel_size >> 10), (unsigned long long)bi->kernel_phys,
            (void *)_kernel_start);
    if (bi->fdt_phys)
        kprintf("devicetree: %#llx%s\n", (unsigned long long)bi->fdt_phys,
                boot_fdt() ? "" : " (rejected)");
    if (bi->acpi_rsdp_phys)
        kprintf("acpi: RSDP at %#llx\n", (unsigned long long)bi->acpi_rsdp_phys);
    report_memory(bi);
    int ncpus = platform_cpus(bi, cpu_ids, MAX_CPUS, &source);
    kprintf("cpus: %d described by %s\n", ncpus, source);
    kprintf("counter: %llu Hz\n", (unsigned long long)arch_counter_hz());
    kprintf("cmdline: \"%s\"\n", bi->cmdline);
}

/*
 * crash=...: deliberately break, so the test suite can check that a broken
 * kernel is caught and reported with registers and a backtrace:
 *   panic          call panic()
 *   fault          read an unmapped address
 *   percpu         use this_cpu() where the thread could migrate
 *   lock-to-user   return to user space holding a spinlock
 *   exec-user      call code in a user page, which SMEP, PXN or the RISC-V
 *                  rule (S mode never executes U pages) must stop
 *   stack-overflow recurse in a kernel thread until its stack runs into the
 *                  guard page below it (the boot stack has none)
 */
#define CRASH_USER_VA 0x200000ul

/* Position-independent on every arch: its bytes work wherever they are copied. */
static __attribute__((noinline)) long exec_probe(void)
{
    return 0x5ec;
}

static void crash_exec_user(void)
{
    static struct aspace as;
    uint64_t pa = page_alloc();
    if (!pa || aspace_create(&as) != 0 ||
        vm_map(&as, CRASH_USER_VA, pa, PAGE_SIZE, VM_USER | VM_READ | VM_EXEC) != 0)
        panic("crash=exec-user: cannot set up the user page");
    memcpy(page_va(pa), (const void *)(uintptr_t)exec_probe, 64);
    arch_sync_icache(page_va(pa), 64);
    arch_sync_icache_done();
    preempt_disable();
    aspace_activate(&as);
    long got = ((long (*)(void))CRASH_USER_VA)(); /* must fault: instruction fetch */
    aspace_activate(NULL);
    preempt_enable();
    kprintf("crash=exec-user: the kernel ran code in a user page (it returned %#lx)\n",
            (unsigned long)got);
}

/* Never equal to a depth reached: the compiler cannot see that the
 * recursion is endless, so it neither warns nor drops the frames. */
static volatile unsigned overflow_stop_depth = ~0u;

/* One frame of 256 bytes per call, used after the call returns, so the call
 * can be neither a loop nor a tail call. */
static __attribute__((noinline)) unsigned overflow_recurse(unsigned depth)
{
    volatile uint8_t frame[256];
    frame[0] = (uint8_t)depth;
    if (depth == overflow_stop_depth)
        return frame[0];
    return overflow_recurse(depth + 1) + frame[0];
}

static void overflow_thread(void *arg)
{
    (void)arg;
    kprintf("crash=stack-overflow: result %u (the stack should have overflowed)\n",
            overflow_recurse(0));
}

/* In a kernel thread: its stack is a real one, with a guard page below. */
static void crash_stack_overflow(void)
{
    struct thread *t = thread_spawn("stack_overflow", overflow_thread, NULL, ALL_CPUS, NULL);
    if (!t)
        panic("crash=stack-overflow: cannot start the thread");
    sched_sleep_ns(2000000000ull); /* the panic powers off long before this */
    kprintf("crash=stack-overflow: no panic within 2 s\n");
}

static void maybe_crash(const char *cmdline)
{
    char what[16];
    if (!cmdline_get(cmdline, "crash", what, sizeof(what)))
        return;
    kprintf("crash=%s: breaking the kernel on purpose\n", what);
    if (strcmp(what, "panic") == 0)
        panic("deliberate panic requested by crash=panic");
    if (strcmp(what, "fault") == 0)
        (void)*(volatile uint64_t *)ARCH_UNMAPPED_TEST_ADDR;
    if (strcmp(what, "percpu") == 0) {
        /* First the uses that are allowed, which a check must let through:
         * preemption off (count 1, then 2) with interrupts on, and interrupts
         * masked with preemption on. Then the misuse: preemption is on here. */
        preempt_disable();
        unsigned a = this_cpu()->id;
        preempt_disable();
        unsigned b = this_cpu()->id;
        preempt_enable();
        preempt_enable();
        unsigned long flags = arch_irq_save();
        unsigned c = this_cpu()->id;
        arch_irq_restore(flags);
        kprintf("crash=percpu: this_cpu() allowed with preemption off and with interrupts "
                "masked (cpus %u %u %u)\n",
                a, b, c);
        kprintf("running on cpu %u\n", this_cpu()->id);
    }
    if (strcmp(what, "lock-to-user") == 0) {
        const char *argv[] = {"crash_lock"};
        int status, pid = task_spawn("crash_lock", 1, argv, NULL);
        task_wait(NULL, pid, &status);
    }
    if (strcmp(what, "exec-user") == 0)
        crash_exec_user();
    if (strcmp(what, "stack-overflow") == 0)
        crash_stack_overflow();
}

/* run=<program> [run.args=a,b,c] [run.driver]: start that embedded program
 * (user/) with those arguments and wait for it. A program with run.driver
 * gets the console device as its handle 0 (kernel/ipc/device.c): it may
 * drive the UART (the benchmark's interrupt rows need it); with run.control
 * it holds the control capability (it may choose the stack offset strategy:
 * the benchmark, the attack demonstrations). run=init starts
 * init (which the boot then did not start) with the programs in run.args. */
static int run_program(const char *cmdline)
{
    static char name[32], args[128];
    const char *argv[8] = {name};
    int argc = 1;
    if (!cmdline_get(cmdline, "run", name, sizeof(name)))
        return 0;
    if (cmdline_get(cmdline, "run.args", args, sizeof(args))) {
        for (char *p = args; *p && argc < (int)ARRAY_SIZE(argv); argc++) {
            argv[argc] = p;
            while (*p && *p != ',')
                p++;
            if (*p)
                *p++ = '\0';
        }
    }
    int status = 0, pid;
    if (strcmp(name, "init") == 0)
        pid = task_spawn_init(argc, argv);
    else
        pid = task_spawn_kernel(name, argc, argv,
                                TASK_GIFT_CONSOLE | /* the command line names it */
                                    (cmdline_flag(cmdline, "run.driver") ? TASK_GIFT_DEVICE : 0) |
                                    (cmdline_flag(cmdline, "run.control") ? TASK_GIFT_CONTROL : 0));
    if (pid < 0 || task_wait(NULL, pid, &status) != pid) {
        kprintf("run=%s: cannot start it (error %d)\n", name, pid);
        return 1;
    }
    kprintf("run=%s: exit status %d\n", name, status);
    return status != 0;
}

/*
 * The first user task, init (user/init.c), with nothing to run but the
 * console server: from then on every program prints through that server
 * (kernel/ipc/console_service.c) and the kernel's own console is only its
 * debug console (boot log, self-tests, panics, SYS_write). The boot waits
 * for the server to take requests, so its first lines come before the
 * self-tests'. Not with init=off (programs print through the debug
 * console), nor with run=init (that starts init itself, with programs).
 */
static void start_init(const char *cmdline)
{
    char what[8];
    if ((cmdline_get(cmdline, "init", what, sizeof(what)) && strcmp(what, "off") == 0) ||
        (cmdline_get(cmdline, "run", what, sizeof(what)) && strcmp(what, "init") == 0))
        return;
    const char *argv[] = {"init"};
    int pid = task_spawn_init(1, argv);
    for (int ms = 0; pid > 0 && ms < INIT_WAIT_MS && !console_service_ready(); ms++)
        sched_sleep_ns(1000000);
    if (pid < 0 || !console_service_ready())
        kprintf("init: no console server (error %d): programs print through the kernel\n", pid);
}

void kmain(uint64_t boot_arg, uint64_t boot_magic, uint64_t hartid)
{
    cpus[0].self = &cpus[0];
    arch_early_init(&cpus[0]);
    struct boot_info *bi = bootinfo_setup(boot_arg, boot_magic, hartid);
    console_init(bi);
    arch_memory_reserve(bi);
    mm_init(bi);
    arch_init(bi);
    time_init();
    latency_init(syscall_implemented);
    report_boot(bi);
    smp_find_cpus(bi);
    asid_init(bi->cmdline);
    ipc_fastpath_init(bi->cmdline);
    emergency_stacks_init();
    random_init(bi);
    syscall_path_init(kstack_offset_init(bi));
    sched_init(idle_work);
    arch_timer_start(SCHED_TICK_HZ);
    arch_irq_enable();
    smp_boot(bi);
    irqsoff_start();
    console_set_irq_hook(device_console_interrupt);
    console_start_input_irq();
    start_init(bi->cmdline);
    maybe_crash(bi->cmdline);
    int failed = ktest_run(bi->cmdline, boot_path_name(bi->path));
    failed += run_program(bi->cmdline);
    kprintf("stackshift: %s, powering off\n", failed ? "self-tests FAILED" : "done");
    arch_poweroff(failed ? EXIT_TESTS_FAILED : EXIT_OK);
}
