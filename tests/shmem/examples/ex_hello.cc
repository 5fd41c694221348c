/* SPDX-License-Identifier: MIT */
/* ex_hello.c compiled as C++. */
#include "ex_hello.c"
