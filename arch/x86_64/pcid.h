/* SPDX-License-Identifier: MIT */
/* arch/x86_64/pcid.h - turning the PCID bookkeeping of arch/x86_64/pcid.c on. */
#ifndef ARCH_X86_64_PCID_H
#define ARCH_X86_64_PCID_H

#include "kernel/types.h"

/* Every CPU, once CR4.PCIDE is set on it: tag user translations from now
 * on; `invpcid` says whether the CPU has the INVPCID instruction. */
void x86_pcid_enable(bool invpcid);

#endif
