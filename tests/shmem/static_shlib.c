// SPDX-License-Identifier: MIT
/*
 * static_shlib: a shared library with one global for static_pe: a shared
 * library's data is not symmetric, so libzeshmem must refuse it. The
 * global is reached through a function: an extern variable the program
 * named itself would be copy-relocated into the program's .bss.
 */
int *static_shlib_ptr(void);

static int var[4] = { 1, 2, 3, 4 };

int *
static_shlib_ptr(void)
{
	return var;
}
