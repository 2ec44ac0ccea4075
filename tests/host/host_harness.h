/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kselftest_harness.h (read from the kernel source at build time) for host
 * tests. In 6.12 the harness and its TEST() macro leave parameters unused
 * (a signal handler's, TEST()'s variant), which -Wextra flags: that one
 * warning is off for the rest of each test file. Code under test is built as
 * its own translation units (HOST_SRCS), with every warning on.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef HOST_HARNESS_H
#define HOST_HARNESS_H

#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"

#endif /* HOST_HARNESS_H */
