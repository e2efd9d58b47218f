/* SPDX-License-Identifier: MIT */
/*
 * tests/host/dtb_file.h - a host test's devicetree read from a file (one
 * fetched from Debian by boot/rpi/fetch.sh) into *fdt. The blob stays
 * allocated for the test's life (*blob, to free at the end); false with
 * *why saying what went wrong.
 */
#ifndef TESTS_HOST_DTB_FILE_H
#define TESTS_HOST_DTB_FILE_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/fdt.h"

static bool dtb_file_load(const char *path, struct fdt *fdt, void **blob, const char **why)
{
    FILE *fp = fopen(path, "rb");
    long size;
    if (fp == NULL) {
        *why = "the devicetree was not fetched (see make host-tests' output; boot/rpi/fetch.sh)";
        return false;
    }
    fseek(fp, 0, SEEK_END);
    size = ftell(fp);
    rewind(fp);
    *blob = malloc(size > 0 ? (size_t)size : 1);
    if (size <= 0 || fread(*blob, 1, (size_t)size, fp) != (size_t)size) {
        fclose(fp);
        *why = "the devicetree file could not be read";
        return false;
    }
    fclose(fp);
    if (fdt_init(fdt, *blob, (size_t)size) != FDT_OK) {
        *why = "fdt_init rejected the devicetree";
        return false;
    }
    return true;
}

#endif
