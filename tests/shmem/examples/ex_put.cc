/* SPDX-License-Identifier: MIT */
/* ex_put.c compiled as C++. */
#include "ex_put.c"
