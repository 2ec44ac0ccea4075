/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kselftest_harness.h (read from the kernel source at build time) for host
 * tests. In 6.12 the harness and its TEST() macro leave parameters unused
 * (a signal handler's, TEST()'s variant), which -Wextra flags: that warning
 * is off for the rest of each test file, and so is -Wclobbered, which
 * its TEST_F() bodies trip at -O2 (setjmp). Code under test is built as its
 * own translation units (HOST_SRCS), with every warning on.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef HOST_HARNESS_H
#define HOST_HARNESS_H

#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#endif /* HOST_HARNESS_H */
