// SPDX-License-Identifier: MIT
/*
 * sh_ofi.h: what the network transport's files share (private to
 * transport/sh_ofi*.c): libfabric's loaded entry points, the endpoint,
 * the transport's one state `ofi`, and the helpers each file lends the
 * others. The files, by concern:
 *   sh_ofi.c           loading libfabric, the provider, endpoints, memory
 *                      registration and keys, init / finalize, contexts'
 *                      endpoints, heap growth, registrations
 *   sh_ofi_progress.c  progress (the thread, the waits' naps), completion
 *                      counting (wait_all), the dead-peer grace
 *   sh_ofi_rma.c       put, get, atomics and their emulation, signals,
 *                      fence and quiet (with the flush where delivery
 *                      completion is missing), the benchmark's raw ops
 * Built only with libfabric's headers (ZESHMEM_HAVE_OFI).
 */
#ifndef ZEMEM_SH_OFI_H
#define ZEMEM_SH_OFI_H

#include "sh_tr.h"

#include "u_log.h"
#include "u_options.h"
#include "u_os.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <net/if.h>
#include <pthread.h>
#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


/* libfabric is loaded when a job first needs the network (dlopen), not
 * linked: a job on one node never loads it or its providers' libraries,
 * some of which (Debian's psm, through libfabric's psm provider) install
 * SIGINT/SIGTERM handlers of their own that end the process, which would
 * take Ctrl-C away from the program (Python's KeyboardInterrupt, for one).
 * The five functions the transport calls that are not inline wrappers of
 * the objects' ops go through this table; the program's signal
 * dispositions are put back after libfabric and its providers initialise.
 * The library stays loaded until exit (providers do not support unload). */
struct ofi_fil {
	pthread_once_t once;
	int err;
	int (*getinfo)(uint32_t, const char *, const char *, uint64_t,
		       const struct fi_info *, struct fi_info **);
	void (*freeinfo)(struct fi_info *);
	struct fi_info *(*dupinfo)(const struct fi_info *);
	int (*fabric)(struct fi_fabric_attr *, struct fid_fabric **, void *);
	const char *(*strerror)(int);
};
SH_HIDDEN extern struct ofi_fil fil;

#define fi_getinfo fil.getinfo
#define fi_freeinfo fil.freeinfo
#define fi_fabric fil.fabric
#define fi_strerror fil.strerror

#define NAME_MAX_BYTES 96
#define PROGRESS_NS 200000 /* the progress thread's poll period */
#define BOUNCE_SLOTS 64
#define BOUNCE_BYTES 256     /* puts up to this size are copied and left
				in flight; blocking ones included */
#define FI_VER FI_VERSION(1, 9)

struct net_peer {
	fi_addr_t addr;
};

struct blob {
	int32_t status;
	uint32_t namelen;
	uint64_t key, base;
	uint8_t name[NAME_MAX_BYTES];
};

/* Which emulation an AMO needs (per op, per size 4/8). */
enum amo_how { AMO_NATIVE, AMO_VIA_CSWAP, AMO_VIA_SWAP, AMO_NONE };

/* One endpoint and what completes on it: the PE's own (ofi.e0: the
 * default context and every internal operation) and one per created
 * context (sh_tr_ofi_ctx_open), bound to the same AV. Targets are always
 * addressed at their e0 (an RDM endpoint accepts from any initiator), so
 * only the initiating side has per-context endpoints. */
struct net_ep {
	struct fid_ep *ep;
	struct fid_cq *cq;
	struct fid_cntr *cntr;
	uint64_t posted;              /* atomic */
	uint64_t errs_seen;           /* atomic */
	uint64_t cq_errs;             /* atomic: error entries read */
	/* No usable FI_DELIVERY_COMPLETE (shm): quiet reads 8 bytes back
	 * from every PE written on this endpoint since its last quiet
	 * (dirty[pe], atomic) into flush_buf (in the bounce region). */
	uint8_t *dirty;
	char *flush_buf;
	/* Bounce slots for small puts (see sh_tr_ofi_put). */
	pthread_mutex_t bounce_lock;
	bool lock_init;
	char *bounce;
	struct fid_mr *bounce_mr;
	void *bounce_desc;
	unsigned bounce_next;
	/* The CQ's wait fd (FI_WAIT_FD), which the provider makes readable
	 * when the endpoint has something to progress; -1: none, sleeps
	 * are plain. */
	int wfd;
	int shm_slot;                 /* its shmn slot (shm), -1 none */
	struct sh_ctx *owner;         /* NULL for e0 */
	struct net_ep *next;          /* ofi.eps, under ofi.eps_lock */
};

struct ofi_state {
	bool active;
	struct fi_info *info;
	struct fid_fabric *fab;
	struct fid_domain *dom;
	struct fid_av *av;
	struct net_ep e0;
	/* The created contexts' endpoints (progress thread, finalize). */
	pthread_mutex_t eps_lock;
	struct net_ep *eps;
	unsigned neps;                /* atomic */
	bool test_hold;               /* ZESHMEM_OFI_TEST_HOLD=1 */
	struct fid_mr *mr[SH_MAX_CHUNKS];
	/* Every PE's {key, base} of each heap chunk, of the static data:
	 * the network side of those regions of the symmetric-address map
	 * (sh_sym_heap_set_net, sh_sym_static_set_net), owned here. */
	struct sh_sym_net *hnet[SH_MAX_CHUNKS];
	struct sh_sym_net *snet;
	struct net_peer *np;
	bool virt, prov_key, mr_local, mr_ep;
	bool delivery;
	uint64_t mr_offer;            /* ZESHMEM_OFI_MR (sh_ofi_mode.c) */
	bool mr_strict;               /* its bits are required */
	bool flush;                   /* no usable FI_DELIVERY_COMPLETE */
	size_t max_msg, inject;
	uint64_t tmp_key;             /* atomic: requested keys of temp MRs */
	uint64_t dead_at;             /* atomic: ns the bootstrap's news of a
					 dead PE was first seen, 0 none */
	enum amo_how how[SH_AMO_XOR + 1][2];
	bool nofetch[SH_AMO_XOR + 1][2]; /* fi_atomic valid (no result) */
	bool have_max32;
	pthread_t thr;
	bool thr_on, stop;
	/* The program's static data as one more MR (mem/sh_static.c). */
	struct fid_mr *smr;
};
SH_HIDDEN extern struct ofi_state ofi;

/* A PE the bootstrap knows dead (sh_boot_dead_news) since more than
 * DEAD_GRACE_NS: an operation or wait still unanswered then gives up
 * (tcp;ofi_rxm reports a peer that is gone only as -FI_EAGAIN while it
 * reconnects, and counts nothing for operations lost with it). Which
 * PE an operation waits for is not known here: the grace lets those to
 * live PEs complete first. */
#define DEAD_GRACE_NS 300000000ull

/* sh_ofi.c: registers [p, p + len) with access and key (0: random,
 * remote_key) into *out. 0 or -errno (logged). */
SH_HIDDEN int ofi_reg(void *p, size_t len, uint64_t access, uint64_t key,
		      struct fid_mr **out);
/* sh_ofi_progress.c */
SH_HIDDEN void *ofi_progress_main(void *arg);
SH_HIDDEN void ofi_progress_ep(struct net_ep *e);
SH_HIDDEN void ofi_backoff_on(struct net_ep *e, uint64_t *t0);
SH_HIDDEN bool ofi_dead_overdue(void);
SH_HIDDEN int ofi_wait_all(struct net_ep *e);
SH_HIDDEN struct net_ep *ofi_ep_of(const struct sh_ctx *c);

#endif
