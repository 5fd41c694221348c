/* SPDX-License-Identifier: MIT */
/*
 * zemem: the tracer API, under the name earlier zemem releases used.
 * Declared once, in <level_zero/layers/zel_tracing_api.h>.
 */
#ifndef ZEMEM_ZEL_TRACING_H
#define ZEMEM_ZEL_TRACING_H

#include "../level_zero/layers/zel_tracing_api.h"

#endif /* ZEMEM_ZEL_TRACING_H */
