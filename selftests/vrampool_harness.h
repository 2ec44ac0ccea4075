/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kselftest_harness.h (read from the kernel source at build time) with the
 * one -Wextra warning it trips in 6.12 (an unused signal-handler parameter)
 * silenced, so that the tests themselves keep -Wall -Wextra -Werror.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_HARNESS_H
#define VRAMPOOL_HARNESS_H

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#endif /* VRAMPOOL_HARNESS_H */
