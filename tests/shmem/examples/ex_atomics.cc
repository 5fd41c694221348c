/* SPDX-License-Identifier: MIT */
/* ex_atomics.c compiled as C++. */
#include "ex_atomics.c"
