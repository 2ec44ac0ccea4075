/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_EMUL_H_
#define _VRAMPOOL_EMUL_H_

/* Most emulated devices one module load may create. */
#define VRAMPOOL_MAX_EMULATED_DEVICES	8

int vrampool_emul_register(void);
void vrampool_emul_unregister(void);

#endif /* _VRAMPOOL_EMUL_H_ */
