/* SPDX-License-Identifier: MIT */
/* ex_teams.c compiled as C++. */
#include "ex_teams.c"
