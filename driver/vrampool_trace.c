// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the tracepoints' definitions (vrampool_trace.h).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef __CHECKER__
#define CREATE_TRACE_POINTS
#include "vrampool_trace.h"
#endif
