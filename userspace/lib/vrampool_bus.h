/* SPDX-License-Identifier: MIT */
/*
 * libvrampool's internals that vrampoolctl shares (it links libvrampool.a):
 * not part of the library's API, and not exported by libvrampool.so.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_BUS_H
#define VRAMPOOL_BUS_H

#include "vrampool.h"

/*
 * The backend of a device on the bus @bus (the name of its
 * device/subsystem link in sysfs): "platform" is the emulated backend,
 * "pci" the PCI BAR one.
 */
enum vrampool_backend vrampool_backend_of_bus(const char *bus);

#endif /* VRAMPOOL_BUS_H */
