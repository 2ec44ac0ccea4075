/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_PCI_H_
#define _VRAMPOOL_PCI_H_

int vrampool_pci_register(void);
void vrampool_pci_unregister(void);

#endif /* _VRAMPOOL_PCI_H_ */
