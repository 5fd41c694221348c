// SPDX-License-Identifier: MIT
/*
 * sh_live: whether a peer still runs. Node-local PEs: a poll of the
 * pidfd opened at init (sh_ipc.c; kill(pid, 0) where pidfds are
 * missing); PEs of other nodes: the bootstrap's news of a connection
 * its server lost (sh_boot_ops.dead_pe). A PE found dead stays marked
 * (sh.peers[pe].dead) and is logged once. The waits (ops/sh_wait.c) and
 * the network transport's unanswered operations ask here.
 */
#include "sh_tr.h"

#include "u_log.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>

int
sh_boot_dead_news(void)
{
	struct sh_boot *b = sh.boot;
	if (!b || !b->ops || !b->ops->dead_pe || !sh.peers)
		return -1;
	int pe = b->ops->dead_pe(b);
	if ((unsigned)pe >= (unsigned)sh.npes || pe == sh.me)
		return -1;
	if (!__atomic_exchange_n(&sh.peers[pe].dead, true, __ATOMIC_ACQ_REL))
		u_err("shmem", "PE %d (pid %d) ended (the bootstrap lost it)",
		      pe, sh.pids ? sh.pids[pe] : 0);
	return pe;
}

int
sh_pe_check_alive(int pe)
{
	if ((unsigned)pe >= (unsigned)sh.npes || !sh.peers)
		return -EINVAL;
	struct sh_peer *p = &sh.peers[pe];
	if (p->dead)
		return -EHOSTDOWN;
	if (pe == sh.me)
		return 0;
	if (!p->local) {
		/* A PE of another node (or every PE, over the network
		 * transport): no pidfd; the bootstrap's server saw its
		 * connection end. */
		sh_boot_dead_news();
		return p->dead ? -EHOSTDOWN : 0;
	}
	bool dead = false;
	if (p->pidfd >= 0) {
		struct pollfd pf = { .fd = p->pidfd, .events = POLLIN };
		dead = poll(&pf, 1, 0) > 0;
	} else if (sh.pids && sh.pids[pe] > 0) {
		dead = kill(sh.pids[pe], 0) && errno == ESRCH;
	}
	if (!dead)
		return 0;
	p->dead = true;
	u_err("shmem", "PE %d (pid %d) ended", pe, sh.pids ? sh.pids[pe] : 0);
	return -EHOSTDOWN;
}
