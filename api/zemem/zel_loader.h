/* SPDX-License-Identifier: MIT */
/*
 * zemem: the loader services, under the name earlier zemem releases used.
 * Declared once, in <level_zero/loader/ze_loader.h>.
 */
#ifndef ZEMEM_ZEL_LOADER_H
#define ZEMEM_ZEL_LOADER_H

#include "../level_zero/loader/ze_loader.h"

#endif /* ZEMEM_ZEL_LOADER_H */
