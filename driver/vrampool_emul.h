/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_EMUL_H_
#define _VRAMPOOL_EMUL_H_

#include <linux/types.h>

/* Most emulated devices one module load may create. */
#define VRAMPOOL_MAX_EMULATED_DEVICES	8

int vrampool_emul_register(unsigned int count, u64 vram_size);
void vrampool_emul_unregister(void);

#endif /* _VRAMPOOL_EMUL_H_ */
