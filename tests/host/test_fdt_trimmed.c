/* SPDX-License-Identifier: MIT */
/*
 * tests/host/test_fdt_trimmed.c - devicetrees missing what the kernel
 * needs: the lookups it makes first (lib/fdt.c fdt_stdout_node,
 * fdt_reg_cpu, fdt_interrupt_parent, fdt_cpu_enable_method, and
 * fdt_find_compatible for the interrupt controllers arch/arm64/irq.c
 * drives) must answer with an error and the node at fault, which the
 * kernel prints (kernel/console.c, arch/arm64/irq.c, arch/arm64/cpu.c),
 * never crash or loop. Each tree is a Raspberry Pi 4-shaped one (the
 * real one: test_rpi4_dtb.c) with one thing taken out or broken.
 * AddressSanitizer catches a read past a property; alarm() a loop.
 */
#include <unistd.h>

#include "tests/host/fdt_writer.h"

/* What to leave out or break in pi4_like(). */
enum trim {
    TRIM_NONE,
    TRIM_CHOSEN,        /* no /chosen at all */
    TRIM_STDOUT_PATH,   /* /chosen without stdout-path */
    TRIM_STDOUT_TARGET, /* stdout-path to a node that is not there */
    TRIM_STDOUT_ALIAS,  /* stdout-path to an alias that is not there */
    TRIM_STDOUT_UNTERM, /* stdout-path without its terminating NUL */
    TRIM_GIC,           /* the Pi 3's interrupt controller instead of the GIC-400 */
    TRIM_RELEASE_ADDR,  /* spin-table CPUs without cpu-release-addr */
    TRIM_SOC_RANGES,    /* /soc without ranges */
    TRIM_SHORT_RANGES,  /* /soc ranges shorter than one entry */
    TRIM_BAD_PHANDLE,   /* interrupt-parent naming no node */
};

static const char *const pl011 = "arm,pl011\0arm,primecell";

static void chosen(struct writer *w, enum trim t)
{
    if (t == TRIM_CHOSEN)
        return;
    begin_node(w, "chosen");
    if (t == TRIM_STDOUT_TARGET)
        prop_str(w, "stdout-path", "/soc/serial@7e215040:115200n8");
    else if (t == TRIM_STDOUT_ALIAS)
        prop_str(w, "stdout-path", "serial7:115200n8");
    else if (t == TRIM_STDOUT_UNTERM)
        prop(w, "stdout-path", "serial0", 7);
    else if (t != TRIM_STDOUT_PATH)
        prop_str(w, "stdout-path", "serial0:115200n8");
    end_node(w);
}

static void interrupt_controller(struct writer *w, enum trim t)
{
    if (t == TRIM_GIC) {
        begin_node(w, "interrupt-controller@7e00b200");
        prop_str(w, "compatible", "brcm,bcm2836-armctrl-ic");
        prop_cells(w, "reg", 2, 0x7e00b200, 0x200);
    } else {
        begin_node(w, "interrupt-controller@40041000");
        prop_str(w, "compatible", "arm,gic-400");
        prop_cells(w, "reg", 4, 0x40041000, 0x1000, 0x40042000, 0x2000);
    }
    prop(w, "interrupt-controller", "", 0);
    prop_cells(w, "#interrupt-cells", 1, 3);
    prop_cells(w, "phandle", 1, 1);
    end_node(w);
}

static void soc(struct writer *w, enum trim t)
{
    begin_node(w, "soc");
    prop_cells(w, "#address-cells", 1, 1);
    prop_cells(w, "#size-cells", 1, 1);
    if (t == TRIM_SHORT_RANGES)
        prop_cells(w, "ranges", 3, 0x7e000000, 0, 0xfe000000);
    else if (t != TRIM_SOC_RANGES)
        prop_cells(w, "ranges", 8, 0x7e000000, 0, 0xfe000000, 0x1800000, 0x40000000, 0, 0xff800000,
                   0x800000);
    begin_node(w, "serial@7e201000");
    prop(w, "compatible", pl011, 24);
    prop_cells(w, "reg", 2, 0x7e201000, 0x200);
    prop_cells(w, "interrupts", 3, 0, 0x79, 4);
    end_node(w);
    interrupt_controller(w, t);
    end_node(w);
}

static void cpus(struct writer *w, enum trim t)
{
    begin_node(w, "cpus");
    prop_cells(w, "#address-cells", 1, 1);
    prop_cells(w, "#size-cells", 1, 0);
    for (uint32_t i = 0; i < 4; i++) {
        char name[16];
        snprintf(name, sizeof(name), "cpu@%u", i);
        begin_node(w, name);
        prop_str(w, "device_type", "cpu");
        prop_cells(w, "reg", 1, i);
        prop_str(w, "enable-method", "spin-table");
        if (t != TRIM_RELEASE_ADDR)
            prop_cells(w, "cpu-release-addr", 2, 0, 0xd8 + 8 * i);
        end_node(w);
    }
    end_node(w);
}

static struct blob pi4_like(enum trim t)
{
    struct writer *w = malloc(sizeof(*w));
    struct blob b;
    w_init(w);
    begin_node(w, "");
    prop_cells(w, "#address-cells", 1, 2);
    prop_cells(w, "#size-cells", 1, 1);
    prop_cells(w, "interrupt-parent", 1, t == TRIM_BAD_PHANDLE ? 0x99 : 1);
    begin_node(w, "aliases");
    prop_str(w, "serial0", "/soc/serial@7e201000");
    end_node(w);
    chosen(w, t);
    soc(w, t);
    cpus(w, t);
    end_node(w);
    b = finish(w);
    free(w);
    return b;
}

struct tree {
    struct blob b;
    struct fdt f;
};

static struct tree open_trimmed(enum trim t)
{
    struct tree tr;
    tr.b = pi4_like(t);
    CHECK_EQ_INT(fdt_init(&tr.f, tr.b.p, tr.b.len), FDT_OK);
    return tr;
}

static const char *name_of(const struct tree *tr, int node)
{
    const char *n = node >= 0 ? fdt_node_name(&tr->f, node) : NULL;
    return n ? (*n ? n : "/") : "(none)";
}

/* The kernel's console lookup: (error or node, the node blamed). */
static int stdout_of(const struct tree *tr, const char **blamed)
{
    int where = -1, node = fdt_stdout_node(&tr->f, &where);
    *blamed = node < 0 ? name_of(tr, where) : "";
    return node;
}

/* The kernel's GIC lookup (arch/arm64/irq.c): every compatible it drives. */
static int known_gic(const struct tree *tr)
{
    static const char *const known[] = {"arm,gic-v3", "arm,cortex-a15-gic", "arm,gic-400",
                                        "arm,cortex-a9-gic", "arm,cortex-a7-gic"};
    int node = FDT_ERR_NOTFOUND;
    for (unsigned i = 0; i < sizeof(known) / sizeof(known[0]) && node < 0; i++)
        node = fdt_find_compatible(&tr->f, -1, known[i]);
    return node;
}

/* ---- Tests ---- */

TEST(untrimmed_tree_has_everything)
{
    struct tree tr = open_trimmed(TRIM_NONE);
    const char *blamed;
    uint64_t a = 0, release = 0;
    int uart = stdout_of(&tr, &blamed);
    CHECK_EQ_STR(name_of(&tr, uart), "serial@7e201000");
    CHECK_EQ_INT(fdt_reg_cpu(&tr.f, uart, 0, &a, NULL, NULL), FDT_OK);
    CHECK(a == 0xfe201000);
    CHECK_EQ_STR(name_of(&tr, known_gic(&tr)), "interrupt-controller@40041000");
    CHECK(fdt_interrupt_parent(&tr.f, uart) == known_gic(&tr));
    CHECK_EQ_INT(fdt_cpu_enable_method(&tr.f, fdt_path(&tr.f, "/cpus/cpu@3"), &release),
                 FDT_CPU_SPIN_TABLE);
    CHECK(release == 0xf0);
    free(tr.b.p);
}

TEST(no_chosen_blames_the_root)
{
    struct tree tr = open_trimmed(TRIM_CHOSEN);
    const char *blamed;
    CHECK_EQ_INT(stdout_of(&tr, &blamed), FDT_ERR_NOTFOUND);
    CHECK_EQ_STR(blamed, "/");
    free(tr.b.p);
}

TEST(no_stdout_path_blames_chosen)
{
    struct tree tr = open_trimmed(TRIM_STDOUT_PATH);
    const char *blamed;
    CHECK_EQ_INT(stdout_of(&tr, &blamed), FDT_ERR_NOTFOUND);
    CHECK_EQ_STR(blamed, "chosen");
    free(tr.b.p);
}

TEST(stdout_path_to_missing_node_blames_chosen)
{
    const enum trim trims[] = {TRIM_STDOUT_TARGET, TRIM_STDOUT_ALIAS, TRIM_STDOUT_UNTERM};
    for (unsigned i = 0; i < 3; i++) {
        struct tree tr = open_trimmed(trims[i]);
        const char *blamed;
        CHECK_EQ_INT(stdout_of(&tr, &blamed), FDT_ERR_NOTFOUND);
        CHECK_EQ_STR(blamed, "chosen");
        free(tr.b.p);
    }
}

/* The Pi 3 (BCM2837) has no GIC: the kernel must find none and can name
 * what the tree has instead (irq.c prints it; arch_timer_start stops). */
TEST(unknown_interrupt_controller_is_named)
{
    struct tree tr = open_trimmed(TRIM_GIC);
    int root = fdt_root(&tr.f), ic = fdt_interrupt_parent(&tr.f, root);
    CHECK_EQ_INT(known_gic(&tr), FDT_ERR_NOTFOUND);
    CHECK_EQ_STR(name_of(&tr, ic), "interrupt-controller@7e00b200");
    CHECK(fdt_is_compatible(&tr.f, ic, "brcm,bcm2836-armctrl-ic"));
    free(tr.b.p);
}

TEST(interrupt_parent_naming_no_node)
{
    struct tree tr = open_trimmed(TRIM_BAD_PHANDLE);
    int uart = fdt_path(&tr.f, "serial0");
    CHECK_EQ_INT(fdt_interrupt_parent(&tr.f, uart), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_interrupt_parent(&tr.f, fdt_root(&tr.f)), FDT_ERR_NOTFOUND);
    free(tr.b.p);
}

TEST(spin_table_without_release_addr)
{
    struct tree tr = open_trimmed(TRIM_RELEASE_ADDR);
    uint64_t release = 0x1234;
    int cpu = fdt_path(&tr.f, "/cpus/cpu@1");
    CHECK_EQ_STR(name_of(&tr, cpu), "cpu@1");
    CHECK_EQ_INT(fdt_cpu_enable_method(&tr.f, cpu, &release), FDT_ERR_NORELEASE);
    CHECK(release == 0x1234); /* untouched */
    CHECK_EQ_STR(fdt_strerror(FDT_ERR_NORELEASE), "spin-table CPU without cpu-release-addr");
    free(tr.b.p);
}

/* enable-method forms: inherited from /cpus, PSCI, one the kernel does not
 * know, none at all, and a cpu-release-addr of a bad length. */
TEST(enable_method_forms)
{
    struct writer *w = malloc(sizeof(*w));
    static const char two[] = "brcm,bcm2836-smp\0psci";
    w_init(w);
    begin_node(w, "");
    begin_node(w, "cpus");
    prop_str(w, "enable-method", "spin-table");
    begin_node(w, "cpu@0");
    prop_cells(w, "cpu-release-addr", 1, 0xd8);
    end_node(w);
    begin_node(w, "cpu@1");
    prop(w, "enable-method", two, sizeof(two));
    end_node(w);
    begin_node(w, "cpu@2");
    prop_str(w, "enable-method", "brcm,bcm2836-smp");
    end_node(w);
    begin_node(w, "cpu@3");
    prop(w, "cpu-release-addr", "\0\0\0", 3);
    end_node(w);
    end_node(w);
    begin_node(w, "lonely-cpu");
    end_node(w);
    end_node(w);
    struct blob b = finish(w);
    struct fdt f;
    uint64_t release = 0;
    free(w);
    CHECK_EQ_INT(fdt_init(&f, b.p, b.len), FDT_OK);
    CHECK_EQ_INT(fdt_cpu_enable_method(&f, fdt_path(&f, "/cpus/cpu@0"), &release),
                 FDT_CPU_SPIN_TABLE);
    CHECK(release == 0xd8);
    CHECK_EQ_INT(fdt_cpu_enable_method(&f, fdt_path(&f, "/cpus/cpu@1"), NULL), FDT_CPU_PSCI);
    CHECK_EQ_INT(fdt_cpu_enable_method(&f, fdt_path(&f, "/cpus/cpu@2"), NULL), FDT_CPU_OTHER);
    CHECK_EQ_INT(fdt_cpu_enable_method(&f, fdt_path(&f, "/cpus/cpu@3"), NULL), FDT_ERR_NORELEASE);
    CHECK_EQ_INT(fdt_cpu_enable_method(&f, fdt_path(&f, "/lonely-cpu"), NULL), FDT_ERR_NOTFOUND);
    CHECK_EQ_INT(fdt_cpu_enable_method(&f, FDT_ERR_NOTFOUND, NULL), FDT_ERR_NOTFOUND);
    free(b.p);
}

TEST(soc_without_ranges_blames_soc)
{
    const enum trim trims[] = {TRIM_SOC_RANGES, TRIM_SHORT_RANGES};
    const int errs[] = {FDT_ERR_NORANGES, FDT_ERR_UNMAPPED};
    for (unsigned i = 0; i < 2; i++) {
        struct tree tr = open_trimmed(trims[i]);
        int where = -1, gic = known_gic(&tr);
        uint64_t a = 0x5a5a;
        CHECK_EQ_INT(fdt_reg_cpu(&tr.f, gic, 0, &a, NULL, &where), errs[i]);
        CHECK_EQ_STR(name_of(&tr, where), "soc");
        CHECK(a == 0x5a5a); /* untouched on failure */
        free(tr.b.p);
    }
}

int main(void)
{
    static const struct check_case cases[] = {
        CASE(untrimmed_tree_has_everything),
        CASE(no_chosen_blames_the_root),
        CASE(no_stdout_path_blames_chosen),
        CASE(stdout_path_to_missing_node_blames_chosen),
        CASE(unknown_interrupt_controller_is_named),
        CASE(interrupt_parent_naming_no_node),
        CASE(spin_table_without_release_addr),
        CASE(enable_method_forms),
        CASE(soc_without_ranges_blames_soc),
    };
    alarm(20); /* a lookup that loops ends the program (SIGALRM): run.py reports the exit */
    return run_cases("fdt_trimmed", cases, (int)(sizeof(cases) / sizeof(cases[0])));
}
