// SPDX-License-Identifier: MIT
/*
 * u_touch: is [p, p + len) memory this process may read (write: and
 * write)? Answered by touching one byte of each page under a SIGSEGV /
 * SIGBUS handler: no system call, so a binding can check every address a
 * caller hands it as a bare integer (Python's int pointers) at the cost of
 * a load per page. For a binding, not for libraries that must leave the
 * program's signal handlers alone: the first call installs the handler
 * process-wide, chained to the one before (u_touch.c).
 *
 * 0; -EFAULT (a page is not accessible so); -EOVERFLOW (the range wraps);
 * -ENOSYS (the handler could not be installed: ask u_probe). A write
 * probe stores each probed byte's own value back with an atomic add of 0,
 * so no other thread's or process's store to it is lost; a copy-on-write
 * page is copied then, as the write that follows would. A handler
 * installed after ours that does not pass faults on turns a bad address
 * into that handler's crash, as if there were no check; one that does
 * (Python's faulthandler: it prints its dump, then raises the signal
 * again) still gets -EFAULT answered.
 */
#ifndef U_TOUCH_H
#define U_TOUCH_H

#include <stddef.h>

int u_touch(const void *p, size_t len, int write);

#endif
