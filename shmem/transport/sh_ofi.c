// SPDX-License-Identifier: MIT
/*
 * sh_ofi: the network transport: peers on other nodes (or every peer,
 * with ZESHMEM_TRANSPORT=ofi / ZESHMEM_FORCE_NETWORK=1) through libfabric.
 * This file: loading libfabric, endpoints, memory registration and keys,
 * init and finalize; sh_ofi_progress.c the progress and completion,
 * sh_ofi_rma.c the operations (sh_ofi.h, their shared state). The
 * transport's design, all three files:
 *
 * One FI_EP_RDM endpoint per PE with FI_RMA | FI_ATOMIC (e0: the default
 * context's, and every internal operation's: barriers, collectives, the
 * benchmark's raw baseline), plus one per created context
 * (sh_tr_ofi_ctx_open from sh_ctx_create), each with its own CQ,
 * counter, bounce slots, flush state and error counts, bound to the
 * same AV: a context's quiet and fence wait for its own operations only.
 * Targets are always addressed at their e0 (an RDM endpoint takes
 * operations from any initiator), so a context's endpoint needs no
 * address exchange. With FI_MR_ENDPOINT (the heap's regions are bound
 * to e0) contexts share e0: correct, not independent (logged).
 * sh_ctx_destroy quiets the context, then closes its endpoint. Provider:
 * ZESHMEM_PROVIDER (e.g. "tcp;ofi_rxm"), else FI_PROVIDER (libfabric
 * filters by it itself: the first match is taken), else the first of
 * verbs;ofi_rxm, tcp;ofi_rxm, sockets that offers RDM + RMA + ATOMIC.
 *
 * Memory: each heap chunk is one fi_mr_reg'd region (FI_HMEM_SYSTEM: the
 * heap must be host-accessible; libfabric 1.17 as Debian builds it has no
 * FI_HMEM_ZE support, so a device-only heap is refused with a log line).
 * Every PE all-gathers {fi_getname address, key and base of chunk 0} at
 * init (and {key, base} of each chunk the heap grows by) and inserts the
 * addresses into its AV. mr_mode: the hints offer FI_MR_VIRT_ADDR |
 * FI_MR_PROV_KEY | FI_MR_ALLOCATED | FI_MR_LOCAL | FI_MR_ENDPOINT
 * (ZESHMEM_OFI_MR: scalable offers 0: offset addressing and requested
 * keys; basic, or a list of bits required: sh_ofi_mode.c);
 * the remote address is base + offset with FI_MR_VIRT_ADDR,
 * the offset in the chunk without; with FI_MR_LOCAL, local buffers
 * outside the heap (the caller's source, an AMO's operands) are
 * registered for the one operation; with FI_MR_ENDPOINT every region is
 * bound to the endpoint and enabled. A symmetric registration's alias
 * (rocshmem_buffer_register_symmetric, team/sh_register.c) is one more
 * region (sh_tr_ofi_reg_sym); its key and base travel in sh_register.c's
 * agreement. Every region's keys and bases are its network side in the
 * symmetric-address map (mem/sh_symmap.c), and raddr asks the map
 * (sh_sym_net: base + offset in the region, or the offset alone).
 *
 * Completion (per endpoint): its CQ is bound with FI_SELECTIVE_COMPLETION
 * and no operation asks for an entry, so it only carries errors; one
 * counter (FI_WRITE | FI_READ) counts every completed operation (inject
 * included) and `posted` every one issued. Blocking calls and quiet wait
 * until counter + errors == posted (the call's own operation is among
 * them); FI_DELIVERY_COMPLETE is the default op flag when the provider
 * offers it (so a completed write is visible at the target), else, and
 * for shm 1.17 whose delivery completion loses atomics
 * (sh_ofi_mode.c), transmit complete, and quiet then flushes every PE
 * written since the last quiet with a fetching atomic read, which the
 * target answers after what was queued before it (logged at info); a
 * completion error that reaches only the CQ fails the wait too.
 * A SIGTERM from the launcher (mpirun ending the job after a PE died)
 * makes unanswered operations and waits give up after 300 ms naming
 * the PE (sh_ofi_term.c). fence = quiet on this transport (always
 * correct; the providers here promise no write-after-write order across
 * RMA and atomics). put/get are fragmented at max_msg_size; a put of at
 * most BOUNCE_BYTES is copied to a registered bounce slot and left in
 * flight (not fi_inject_write: its completion is local only, and quiet
 * must mean delivered).
 *
 * Atomics: the unsigned FI_UINT32 / FI_UINT64 types for every integer
 * operation (two's complement: the same bits for signed), and for float
 * fetch/set/swap (bit patterns). The operations the provider lacks
 * (fi_atomicvalid & co. at init) are emulated: FETCH as a compare-swap
 * of 0 with 0, SET as a SWAP or a compare-swap loop, the rest as a
 * compare-swap loop (read the old value, compute, compare-swap, repeat
 * until it sticks; bounded by ZESHMEM_TIMEOUT). A provider without
 * compare-swap has no emulation: -EOPNOTSUPP for those operations.
 * ZESHMEM_OFI_AMO=cswap emulates all but compare-swap (and the
 * barrier's max) on any provider, so the tests cover the emulation.
 * put_signal: the payload with FI_DELIVERY_COMPLETE, waited for, then
 * the signal as a 64-bit atomic (SET -> FI_ATOMIC_WRITE, ADD -> FI_SUM).
 *
 * Progress: the providers here progress manually. A thread per PE
 * polls every endpoint's CQ every 200 us (fi_cq_read, then a sleep);
 * every blocking call and wait (ops/sh_wait.c) calls sh_tr_ofi_progress
 * (e0), so a PE that computes or waits still lets the others write into
 * it, and an endpoint's own posts and waits progress it (and e0). On
 * tcp the CQs have a wait fd (FI_WAIT_FD): the thread's and the waits'
 * sleeps are a ppoll on it (after fi_trywait), so they end when the
 * socket has something to progress, not at the end of the period (a
 * put+quiet or fetch-add round trip between two network namespaces
 * here: ~140 -> ~65 us). shm's wait spins on sched_yield, so there (and
 * on the other providers) the sleeps stay plain.
 * ZESHMEM_OFI_TEST_HOLD=1 (a test hook, not an option) keeps the thread
 * off the contexts' endpoints, so that their operations move only in
 * their own calls (tests/shmem/shmem_ctxq_pe.c).
 *
 * Who may touch the heap: libfabric's tcp (and sockets, udp) providers
 * authenticate no peer and encrypt nothing: any process that reaches a
 * PE's endpoint (any uid on the host, any host on the path) and names a
 * region's key and an address in it reads and writes that region, and
 * anyone on the path sees the data and the keys go by. So (issue 26):
 * every region peers may access (heap chunks, static data, symmetric
 * aliases) has a random 64-bit requested key (getrandom, a new one per
 * region and job: remote_key), which only the job's PEs learn (the
 * bootstrap's all-gather); a guess is rejected by the target's provider
 * (tcp;ofi_rxm drops the connection: the stranger's operation ends in
 * error). Where the provider chooses keys (FI_MR_PROV_KEY) they are its
 * own and no secret (remote_key). The endpoints of those providers are
 * bound (FI_SOURCE) to loopback when every PE is on this host, else to
 * the address of the PE's bootstrap connection (bind_addr): not to every
 * interface. Within that, the key is the only guard: on a network others
 * can watch, run the job on a private one (or verbs). shm's regions are
 * reached by the kernel's cross-memory attach, which only the same uid
 * (or CAP_SYS_PTRACE) may do. shm's /dev/shm entries go on every exit
 * the runtime controls, and a killed PE's at the next job (shm_name).
 *
 * Dead peers: a wait on a PE of another node asks the bootstrap whether
 * it lost that PE (sh_live.c, sh_pe_check_alive), as the node-local path
 * asks a pidfd.
 *
 * Errors: -EINVAL bad pe, -EFAULT not in the heap, -EIO an operation
 * failed (logged with the provider's text), -ETIMEDOUT a completion did
 * not come within ZESHMEM_TIMEOUT, -EOPNOTSUPP built without libfabric.
 */
#include "sh_tr.h"

#include "u_log.h"

#include <errno.h>
#include <stdlib.h>

#ifdef ZESHMEM_HAVE_OFI

#include "sh_ofi.h"

struct ofi_fil fil = { .once = PTHREAD_ONCE_INIT };
struct ofi_state ofi = { .eps_lock = PTHREAD_MUTEX_INITIALIZER };

struct sig_saved {
	struct sigaction act[NSIG];
};

static void
sig_save(struct sig_saved *s)
{
	for (int i = 1; i < NSIG; i++)
		if (sigaction(i, NULL, &s->act[i]))
			s->act[i].sa_handler = SIG_ERR;
}

/* Puts back every disposition that changed since sig_save. */
static void
sig_restore(const struct sig_saved *s, const char *during)
{
	for (int i = 1; i < NSIG; i++) {
		struct sigaction now;
		if (s->act[i].sa_handler == SIG_ERR || sigaction(i, NULL, &now))
			continue;
		if (now.sa_handler == s->act[i].sa_handler &&
		    now.sa_flags == s->act[i].sa_flags)
			continue;
		sigaction(i, &s->act[i], NULL);
		u_dbg("shmem", "%s changed the handler of signal %d (%s): "
			       "the program's is back", during, i,
		      strsignal(i));
	}
}

static void
fil_load(void)
{
	struct sig_saved *s = malloc(sizeof(*s));
	if (!s) {
		fil.err = -ENOMEM;
		return;
	}
	sig_save(s);
	void *h = dlopen("libfabric.so.1", RTLD_NOW | RTLD_LOCAL);
	if (h) {
		fil.getinfo = (__typeof__(fil.getinfo))dlsym(h, "fi_getinfo");
		fil.freeinfo = (__typeof__(fil.freeinfo))dlsym(h, "fi_freeinfo");
		fil.dupinfo = (__typeof__(fil.dupinfo))dlsym(h, "fi_dupinfo");
		fil.fabric = (__typeof__(fil.fabric))dlsym(h, "fi_fabric");
		fil.strerror = (__typeof__(fil.strerror))dlsym(h, "fi_strerror");
	}
	if (!h || !fil.getinfo || !fil.freeinfo || !fil.dupinfo ||
	    !fil.fabric || !fil.strerror) {
		u_err("shmem", "the network transport needs libfabric.so.1 "
			       "(Debian's libfabric1): %s", dlerror());
		fil.err = -EOPNOTSUPP;
		if (h)
			dlclose(h);
	}
	sig_restore(s, "loading libfabric");
	free(s);
}

static int
fil_open(void)
{
	pthread_once(&fil.once, fil_load);
	return fil.err;
}


static const char *const default_provs[] = {
	"verbs;ofi_rxm", "tcp;ofi_rxm", "sockets",
};

bool
sh_tr_ofi_active(void)
{
	return ofi.active;
}

/* ---- setup ------------------------------------------------------------ */

static struct fi_info *
make_hints(const char *prov, uint64_t mr_offer, bool delivery)
{
	struct fi_info *h = fil.dupinfo(NULL); /* fi_allocinfo */
	if (!h)
		return NULL;
	h->caps = FI_RMA | FI_ATOMIC;
	h->ep_attr->type = FI_EP_RDM;
	h->domain_attr->mr_mode = (int)mr_offer;
	h->domain_attr->threading = FI_THREAD_SAFE;
	h->mode = 0; /* contexts are tags (CTX(pe)), never provider scratch */
	if (delivery)
		h->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
	if (prov) {
		h->fabric_attr->prov_name = strdup(prov);
		if (!h->fabric_attr->prov_name) {
			fi_freeinfo(h);
			return NULL;
		}
	}
	return h;
}

/* node: the address to bind the endpoint to (FI_SOURCE), NULL none. */
static int
get_info(const char *prov, uint64_t mr_offer, bool delivery,
	 const char *node, struct fi_info **out)
{
	struct fi_info *h = make_hints(prov, mr_offer, delivery);
	if (!h)
		return -ENOMEM;
	struct sig_saved *s = malloc(sizeof(*s));
	if (!s) {
		fi_freeinfo(h);
		return -ENOMEM;
	}
	sig_save(s);
	int rc = fi_getinfo(FI_VER, node, NULL, node ? FI_SOURCE : 0, h, out);
	sig_restore(s, "fi_getinfo");
	free(s);
	fi_freeinfo(h);
	return rc;
}

/* Where the endpoints of a provider that listens on IP sockets (tcp,
 * sockets, udp) are bound, as IPv4 text into buf ("" when the provider
 * picks: FI_TCP_IFACE, else every interface): loopback when every PE is
 * on this host (sh.one_host), else the address of this PE's end of its
 * bootstrap connection (the unique-id bootstrap: the interface that
 * reaches the root, ZESHMEM_BOOT_IFACE's where the root listens there),
 * else (PMIx) ZESHMEM_BOOT_IFACE's address when it names one. */
static int
bind_addr(char *buf, size_t len)
{
	buf[0] = '\0';
	if (sh.one_host) {
		snprintf(buf, len, "127.0.0.1");
		return 0;
	}
	struct sh_boot *b = sh.boot;
	if (b && b->ops && b->ops->local_addr &&
	    !b->ops->local_addr(b, buf, len))
		return 0;
	buf[0] = '\0';
	const char *ifc = u_option_str(U_OPT_SH_BOOT_IFACE);
	if (!ifc || !*ifc)
		return 0;
	struct in_addr a;
	if (inet_pton(AF_INET, ifc, &a) != 1) {
		struct ifreq ifr = { 0 };
		int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifc);
		int ok = fd >= 0 && !ioctl(fd, SIOCGIFADDR, &ifr) &&
			 ifr.ifr_addr.sa_family == AF_INET;
		if (fd >= 0)
			close(fd);
		if (!ok) {
			u_err("shmem", "ZESHMEM_BOOT_IFACE=%s: no IPv4 "
				       "interface or address of that name",
			      ifc);
			return -ENODEV;
		}
		a = ((struct sockaddr_in *)&ifr.ifr_addr)->sin_addr;
	}
	inet_ntop(AF_INET, &a, buf, (socklen_t)len);
	return 0;
}

static bool
ip_provider(const char *name)
{
	return strstr(name, "tcp") || strstr(name, "sockets") ||
	       strstr(name, "udp");
}

/* fi (a provider that listens on IP sockets, found with no address)
 * again, bound to node: the same provider chain. */
static int
rebind(struct fi_info **fi, const char *node, bool delivery)
{
	struct fi_info *b = NULL;
	char *prov = strdup((*fi)->fabric_attr->prov_name);
	if (!prov)
		return -ENOMEM;
	int rc = get_info(prov, ofi.mr_offer, delivery, node, &b);
	if (rc || !b) {
		u_err("shmem", "provider %s cannot bind its endpoint to %s: "
			       "%s", prov, node, fi_strerror(rc ? -rc : 0));
		free(prov);
		return -EADDRNOTAVAIL;
	}
	free(prov);
	fi_freeinfo(*fi);
	*fi = b;
	return 0;
}

/* The provider's fi_info, or -ENODEV (logged). */
static int
pick_provider(struct fi_info **out)
{
	char node[INET_ADDRSTRLEN];
	int berr = bind_addr(node, sizeof(node));
	if (berr)
		return berr;
	const char *want = u_option_str(U_OPT_SH_PROVIDER);
	const char *mr = u_option_str(U_OPT_SH_OFI_MR);
	if (sh_ofi_mr_parse(mr, &ofi.mr_offer, &ofi.mr_strict)) {
		u_warn("shmem", "ZESHMEM_OFI_MR=%s: use auto, scalable, basic "
				"or a list of virt_addr, prov_key, allocated, "
				"local, endpoint; using auto", mr);
		sh_ofi_mr_parse("auto", &ofi.mr_offer, &ofi.mr_strict);
	}
	const char *one[1] = { want };
	const char *const *list = default_provs;
	size_t n = sizeof(default_provs) / sizeof(default_provs[0]);
	if (*want) {
		list = one;
		n = 1;
	} else if (getenv("FI_PROVIDER")) {
		list = one;
		one[0] = NULL; /* libfabric applies FI_PROVIDER itself */
		n = 1;
	}
	for (size_t i = 0; i < n; i++) {
		for (int d = 1; d >= 0; d--) {
			struct fi_info *fi = NULL;
			if (get_info(list[i], ofi.mr_offer, d, NULL, &fi) ||
			    !fi)
				continue;
			if (d && !sh_ofi_delivery_usable(
					 fi->fabric_attr->prov_name)) {
				fi_freeinfo(fi);
				continue;
			}
			const char *pn = fi->fabric_attr->prov_name;
			if (node[0] && ip_provider(pn)) {
				int err = rebind(&fi, node, d);
				if (err) {
					fi_freeinfo(fi);
					return err;
				}
				u_dbg("shmem", "provider %s bound to %s",
				      fi->fabric_attr->prov_name, node);
			}
			ofi.delivery = d;
			*out = fi;
			return 0;
		}
	}
	u_err("shmem", "no libfabric provider offers FI_EP_RDM with "
		       "FI_RMA|FI_ATOMIC (%s%s%s)",
	      *want ? "ZESHMEM_PROVIDER=" : getenv("FI_PROVIDER") ? "FI_PROVIDER=" : "tried verbs;ofi_rxm, tcp;ofi_rxm, sockets",
	      *want ? want : getenv("FI_PROVIDER") ? getenv("FI_PROVIDER") : "",
	      ofi.mr_strict ? ", with the ZESHMEM_OFI_MR modes" : "");
	return -ENODEV;
}

static int
fi_fail(const char *what, int rc)
{
	u_err("shmem", "libfabric %s: %s", what, fi_strerror(-rc));
	return rc == -FI_ENOMEM ? -ENOMEM : -EIO;
}

/* The requested key of a region that peers may read and write (heap
 * chunks, static data, symmetric aliases): 64 random bits from
 * getrandom, never below REMOTE_KEY_MIN (the local-only regions' keys:
 * bounce slots SH_MAX_CHUNKS + 1, temporaries from 1 << 20 up), masked
 * to the provider's mr_key_size. The key is the region's capability:
 * the tcp and sockets providers authenticate no peer, so whoever reaches
 * the endpoint and names a region's key reads and writes it; a random
 * key only the job's PEs learn (the bootstrap's all-gather) makes a
 * guess fail (the provider answers FI_EKEYREJECTED). Where the provider
 * chooses keys (FI_MR_PROV_KEY: verbs, ZESHMEM_OFI_MR=basic/prov_key)
 * the request is ignored and the key is the provider's: verbs' rkeys
 * are the NIC's (32 bits, partly predictable), libfabric's util
 * providers number regions 1, 2, ...: no secret there. */
#define REMOTE_KEY_MIN (1ull << 32)
#define REMOTE_KEY_TRIES 4

static int
remote_key(uint64_t *key)
{
	uint64_t v;
	if (getrandom(&v, sizeof(v), 0) != (ssize_t)sizeof(v)) {
		int e = errno;
		u_err("shmem", "getrandom for a region key: %s", strerror(e));
		return -e;
	}
	size_t ks = ofi.info->domain_attr->mr_key_size;
	if (ks && ks < sizeof(v))
		v &= (1ull << (8 * ks)) - 1;
	if (v < REMOTE_KEY_MIN && (!ks || ks > 4))
		v |= REMOTE_KEY_MIN;
	*key = v;
	return 0;
}

/* Registers [p, p + len) for access as key (requested when the provider
 * does not pick keys). A region with remote access ignores key and gets
 * a random one (remote_key; another draw if the provider has it). */
int
ofi_reg(void *p, size_t len, uint64_t access, uint64_t key, struct fid_mr **out)
{
	bool remote = access & (FI_REMOTE_READ | FI_REMOTE_WRITE);
	int rc;
	for (int t = 0;; t++) {
		if (remote) {
			int err = remote_key(&key);
			if (err)
				return err;
		}
		rc = fi_mr_reg(ofi.dom, p, len, access, 0, key, 0, out, NULL);
		if (rc != -FI_ENOKEY || !remote || t + 1 >= REMOTE_KEY_TRIES)
			break;
	}
	if (rc)
		return fi_fail("fi_mr_reg", rc);
	if (ofi.mr_ep) {
		rc = fi_mr_bind(*out, &ofi.e0.ep->fid, 0);
		if (!rc)
			rc = fi_mr_enable(*out);
		if (rc) {
			fi_close(&(*out)->fid);
			*out = NULL;
			if (rc == -FI_ENOSYS && ofi.mr_strict) {
				u_err("shmem", "ZESHMEM_OFI_MR: provider %s "
					       "cannot bind regions to an "
					       "endpoint (fi_mr_bind: %s): "
					       "endpoint unsupported here",
				      ofi.info->fabric_attr->prov_name,
				      fi_strerror(-rc));
				return -EOPNOTSUPP;
			}
			return fi_fail("fi_mr_bind/enable", rc);
		}
	}
	return 0;
}

static int
reg_chunk(unsigned k)
{
	if (!sh.heap_host_accessible) {
		u_err("shmem", "the heap is not host-accessible and libfabric "
			       "1.17 as Debian builds it has no FI_HMEM_ZE: "
			       "the network transport needs "
			       "ZESHMEM_HEAP_MEMORY=host or a host-mapped "
			       "device heap");
		return -EOPNOTSUPP;
	}
	const struct sh_chunk *c = &sh_heap.chunk[k];
	int err = ofi_reg(sh_heap.base + c->off, c->size,
		      FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE,
		      0 /* random: remote_key */, &ofi.mr[k]);
	if (err)
		return err;
	return 0;
}

static uint64_t
chunk_base(unsigned k)
{
	return (uint64_t)(uintptr_t)(sh_heap.base + sh_heap.chunk[k].off);
}

static void
amo_caps(void)
{
	static const enum fi_op fop[SH_AMO_XOR + 1] = {
		[SH_AMO_FETCH] = FI_ATOMIC_READ, [SH_AMO_SET] = FI_ATOMIC_WRITE,
		[SH_AMO_SWAP] = FI_ATOMIC_WRITE, [SH_AMO_CSWAP] = FI_CSWAP,
		[SH_AMO_ADD] = FI_SUM, [SH_AMO_AND] = FI_BAND,
		[SH_AMO_OR] = FI_BOR, [SH_AMO_XOR] = FI_BXOR,
	};
	bool force_cas = !strcmp(u_option_str(U_OPT_SH_OFI_AMO), "cswap");
	for (int s = 0; s < 2; s++) {
		enum fi_datatype dt = s ? FI_UINT64 : FI_UINT32;
		size_t cnt = 0;
		bool cas = !fi_compare_atomicvalid(ofi.e0.ep, dt, FI_CSWAP, &cnt) &&
			   cnt;
		for (int op = 0; op <= SH_AMO_XOR; op++) {
			cnt = 0;
			bool ok;
			if (op == SH_AMO_CSWAP)
				ok = cas;
			else if (op == SH_AMO_SET)
				ok = !fi_atomicvalid(ofi.e0.ep, dt, fop[op], &cnt) &&
				     cnt;
			else
				ok = !fi_fetch_atomicvalid(ofi.e0.ep, dt, fop[op],
							   &cnt) && cnt;
			if (force_cas && op != SH_AMO_CSWAP)
				ok = false; /* ZESHMEM_OFI_AMO=cswap */
			enum amo_how h = ok ? AMO_NATIVE
					    : cas ? AMO_VIA_CSWAP : AMO_NONE;
			if (!ok && op == SH_AMO_SET && !force_cas &&
			    ofi.how[SH_AMO_SWAP][s] == AMO_NATIVE)
				h = AMO_VIA_SWAP;
			ofi.how[op][s] = h;
			cnt = 0;
			ofi.nofetch[op][s] =
				op >= SH_AMO_ADD && ok &&
				!fi_atomicvalid(ofi.e0.ep, dt, fop[op], &cnt) && cnt;
			if (!ok && !force_cas)
				u_info("shmem", "provider %s: no %d-byte atomic "
						"op %d: %s",
				       ofi.info->fabric_attr->prov_name,
				       s ? 8 : 4, op,
				       h == AMO_NONE ? "unsupported"
						     : "emulated");
		}
	}
	size_t cnt = 0;
	ofi.have_max32 = !force_cas &&
			 !fi_atomicvalid(ofi.e0.ep, FI_UINT32, FI_MAX, &cnt) &&
			 cnt;
}

/* ---- shm's /dev/shm entries -------------------------------------------- */

/* libfabric's shm provider keeps each endpoint's region (16 MiB) as
 * /dev/shm/<the name fi_setname gave>, removed by fi_close only: a PE
 * that ends any other way leaves it behind. The names this process gave
 * are kept here (slots, set before fi_enable, cleared after fi_close),
 * and sh_tr_ofi_exit_cleanup removes those still open on every way out
 * the runtime controls: exit (an atexit handler: sh_fatal, a return from
 * main), shmem_global_exit and the bootstrap's ABORT (_exit), the
 * launcher's SIGTERM (sh_ofi_term.c). Not in a forked child (owner pid).
 * A killed PE's entries are reaped by the next job of the same user on
 * this machine: names are zeshmem_<pid>_<pid namespace>_<time>_<key>,
 * and an entry of ours (owner uid) whose namespace is this process's and
 * whose pid is gone there is removed (sh_shm_reap). */
#define SHM_SLOTS 256
#define SHM_NAME 80
static struct {
	char name[SHM_SLOTS][SHM_NAME];
	uint8_t used[SHM_SLOTS];      /* atomic: 0 free, 1 claimed, 2 named */
	pid_t owner;
	bool atexit_on;
	pthread_once_t reaped;
} shmn = { .reaped = PTHREAD_ONCE_INIT };

static unsigned long long
pid_ns(void)
{
	struct stat st;
	if (stat("/proc/self/ns/pid", &st))
		return 0;
	return (unsigned long long)st.st_ino;
}

void
sh_tr_ofi_exit_cleanup(void)
{
	pid_t owner = __atomic_load_n(&shmn.owner, __ATOMIC_ACQUIRE);
	if (!owner || owner != getpid())
		return;
	for (int i = 0; i < SHM_SLOTS; i++) {
		if (__atomic_load_n(&shmn.used[i], __ATOMIC_ACQUIRE) != 2)
			continue;
		char path[16 + SHM_NAME];
		snprintf(path, sizeof(path), "/dev/shm/%s", shmn.name[i]);
		unlink(path);
		__atomic_store_n(&shmn.used[i], 0, __ATOMIC_RELEASE);
	}
}

/* Entries of dead PEs of this user in this pid namespace (see above). */
static void
shm_reap(void)
{
	unsigned long long ns = pid_ns();
	DIR *d = ns ? opendir("/dev/shm") : NULL;
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		int pid = 0, n = 0;
		unsigned long long ens = 0;
		if (sscanf(de->d_name, "zeshmem_%d_%llx_%n", &pid, &ens,
			   &n) != 2 ||
		    !n || pid <= 0 || ens != ns || pid == getpid())
			continue;
		if (!kill(pid, 0) || errno != ESRCH)
			continue;
		struct stat st;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (!unlinkat(dirfd(d), de->d_name, 0))
			u_info("shmem", "removed /dev/shm/%s: a shm endpoint "
					"of pid %d, which is gone", de->d_name,
			       pid);
	}
	closedir(d);
}

/* Names e's shm region: a name of this process, namespace, endpoint and
 * moment (one left by a killed process of the same pid would make
 * fi_enable fail with EBUSY), kept for sh_tr_ofi_exit_cleanup. */
static int
shm_name(struct net_ep *e, uint64_t key)
{
	pthread_once(&shmn.reaped, shm_reap);
	char nm[SHM_NAME];
	snprintf(nm, sizeof(nm), "zeshmem_%d_%llx_%llx_%llx", (int)getpid(),
		 pid_ns(), (unsigned long long)u_now_ns(),
		 (unsigned long long)key);
	e->shm_slot = -1;
	if (__atomic_load_n(&shmn.owner, __ATOMIC_RELAXED) != getpid()) {
		/* first endpoint of this process (or of a forked child) */
		memset(shmn.used, 0, sizeof(shmn.used));
		__atomic_store_n(&shmn.owner, getpid(), __ATOMIC_RELEASE);
	}
	if (!shmn.atexit_on && !atexit(sh_tr_ofi_exit_cleanup))
		shmn.atexit_on = true;
	for (int i = 0; i < SHM_SLOTS; i++) {
		uint8_t free_ = 0;
		if (!__atomic_compare_exchange_n(&shmn.used[i], &free_, 1,
						 false, __ATOMIC_ACQUIRE,
						 __ATOMIC_RELAXED))
			continue;
		memcpy(shmn.name[i], nm, sizeof(nm));
		__atomic_store_n(&shmn.used[i], 2, __ATOMIC_RELEASE);
		e->shm_slot = i;
		break;
	}
	if (e->shm_slot < 0)
		u_dbg("shmem", "%d shm endpoints: /dev/shm/%s is not removed "
			       "on an early exit", SHM_SLOTS, nm);
	int rc = fi_setname(&e->ep->fid, nm, strlen(nm) + 1);
	return rc ? fi_fail("fi_setname", rc) : 0;
}

/* Closes e's endpoint; fi_close removed its shm region (a failed
 * fi_enable never made it): its name is no longer ours to remove. */
static void
ep_fid_close(struct net_ep *e)
{
	if (!e->ep)
		return;
	fi_close(&e->ep->fid);
	e->ep = NULL;
	if (e->shm_slot >= 0)
		__atomic_store_n(&shmn.used[e->shm_slot], 0, __ATOMIC_RELEASE);
	e->shm_slot = -1;
}

/* Closes what ep_open opened (any part of it). */
static void
ep_close(struct net_ep *e)
{
	ep_fid_close(e);
	if (e->bounce_mr)
		fi_close(&e->bounce_mr->fid);
	if (e->cq)
		fi_close(&e->cq->fid);
	if (e->cntr)
		fi_close(&e->cntr->fid);
	free(e->bounce);
	free(e->dirty);
	if (e->lock_init)
		pthread_mutex_destroy(&e->bounce_lock);
	memset(e, 0, sizeof(*e));
}

/* Opens an endpoint on the AV with its own CQ (errors only), counter,
 * bounce slots (registered as bounce_key) and flush state. */
static int
ep_open(struct net_ep *e, uint64_t bounce_key)
{
	struct fi_info *fi = ofi.info;
	int rc;
	pthread_mutex_init(&e->bounce_lock, NULL);
	e->lock_init = true;
	e->dirty = calloc((size_t)sh.npes, 1);
	/* the bounce slots, then 64 bytes for quiet's flush reads */
	e->bounce = aligned_alloc(64, BOUNCE_SLOTS * BOUNCE_BYTES + 64);
	if (!e->dirty || !e->bounce)
		return -ENOMEM;
	e->flush_buf = e->bounce + BOUNCE_SLOTS * BOUNCE_BYTES;
	e->wfd = -1;
	e->shm_slot = -1;
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_CONTEXT,
				  .wait_obj = FI_WAIT_NONE, .size = 64 };
	if (strstr(fi->fabric_attr->prov_name, "tcp")) {
		cqa.wait_obj = FI_WAIT_FD;
		if (fi_cq_open(ofi.dom, &cqa, &e->cq, NULL)) {
			e->cq = NULL;
			cqa.wait_obj = FI_WAIT_NONE;
		} else if (fi_control(&e->cq->fid, FI_GETWAIT, &e->wfd)) {
			e->wfd = -1;
		} else {
			/* libfabric's own fd: close-on-exec as every fd here */
			int fl = fcntl(e->wfd, F_GETFD);
			if (fl >= 0 && !(fl & FD_CLOEXEC))
				fcntl(e->wfd, F_SETFD, fl | FD_CLOEXEC);
		}
	}
	if (!e->cq && (rc = fi_cq_open(ofi.dom, &cqa, &e->cq, NULL)))
		return fi_fail("fi_cq_open", rc);
	struct fi_cntr_attr ca = { .events = FI_CNTR_EVENTS_COMP,
				   .wait_obj = FI_WAIT_NONE };
	if ((rc = fi_cntr_open(ofi.dom, &ca, &e->cntr, NULL)))
		return fi_fail("fi_cntr_open", rc);
	if ((rc = fi_endpoint(ofi.dom, fi, &e->ep, NULL)))
		return fi_fail("fi_endpoint", rc);
	if ((rc = fi_ep_bind(e->ep, &ofi.av->fid, 0)) ||
	    (rc = fi_ep_bind(e->ep, &e->cq->fid,
			     FI_TRANSMIT | FI_RECV | FI_SELECTIVE_COMPLETION)) ||
	    (rc = fi_ep_bind(e->ep, &e->cntr->fid, FI_WRITE | FI_READ)))
		return fi_fail("fi_ep_bind", rc);
	if (!strncmp(fi->fabric_attr->prov_name, "shm", 3)) {
		/* shm would name its region <pid>:0:0 in /dev/shm */
		int err = shm_name(e, bounce_key);
		if (err)
			return err;
	}
	if ((rc = fi_enable(e->ep)))
		return fi_fail("fi_enable", rc);
	if (e == &ofi.e0) {
		/* FI_MR_ENDPOINT binds the heap to e0 before the bounce. */
		int err = reg_chunk(0);
		if (err)
			return err;
	}
	int err = ofi_reg(e->bounce, BOUNCE_SLOTS * BOUNCE_BYTES + 64,
		      FI_READ | FI_WRITE, bounce_key, &e->bounce_mr);
	if (err)
		return err;
	e->bounce_desc = fi_mr_desc(e->bounce_mr);
	return 0;
}

static void
close_all(void)
{
	if (ofi.thr_on) {
		__atomic_store_n(&ofi.stop, true, __ATOMIC_RELEASE);
		pthread_join(ofi.thr, NULL);
		ofi.thr_on = false;
	}
	/* Contexts still open (sh_ctx_fini_all destroys them first, so
	 * only after a failed init): their owners lose the endpoint. */
	pthread_mutex_lock(&ofi.eps_lock);
	while (ofi.eps) {
		struct net_ep *e = ofi.eps;
		ofi.eps = e->next;
		if (e->owner)
			e->owner->net = NULL;
		ep_close(e);
		free(e);
	}
	ofi.neps = 0;
	pthread_mutex_unlock(&ofi.eps_lock);
	ep_fid_close(&ofi.e0);
	if (ofi.e0.bounce_mr)
		fi_close(&ofi.e0.bounce_mr->fid);
	ofi.e0.bounce_mr = NULL;
	sh_sym_static_set_net(NULL, NULL);
	free(ofi.snet);
	ofi.snet = NULL;
	if (ofi.smr)
		fi_close(&ofi.smr->fid);
	ofi.smr = NULL;
	for (unsigned k = 0; k < SH_MAX_CHUNKS; k++) {
		if (ofi.hnet[k])
			sh_sym_heap_set_net(k, NULL, NULL);
		free(ofi.hnet[k]);
		ofi.hnet[k] = NULL;
		if (ofi.mr[k])
			fi_close(&ofi.mr[k]->fid);
	}
	if (ofi.av)
		fi_close(&ofi.av->fid);
	ep_close(&ofi.e0); /* its CQ and counter, after the AV as before */
	if (ofi.dom)
		fi_close(&ofi.dom->fid);
	if (ofi.fab)
		fi_close(&ofi.fab->fid);
	if (ofi.info)
		fi_freeinfo(ofi.info);
	free(ofi.np);
	/* Everything but the (static) list lock. */
	size_t skip = offsetof(__typeof__(ofi), eps_lock) + sizeof(ofi.eps_lock);
	memset(&ofi, 0, offsetof(__typeof__(ofi), eps_lock));
	memset((char *)&ofi + skip, 0, sizeof(ofi) - skip);
}

/* Opens fabric .. endpoint and registers chunk 0; fills mine. */
static int
open_local(struct blob *mine)
{
	int err = fil_open();
	if (err)
		return err;
	err = pick_provider(&ofi.info);
	if (err)
		return err;
	struct fi_info *fi = ofi.info;
	uint64_t mm = fi->domain_attr->mr_mode;
	ofi.virt = mm & (FI_MR_VIRT_ADDR | FI_MR_BASIC);
	ofi.prov_key = mm & (FI_MR_PROV_KEY | FI_MR_BASIC);
	/* What ZESHMEM_OFI_MR requires is applied even when the provider
	 * does not ask (local, endpoint), or refused (sh_ofi_mr_check). */
	uint64_t need = ofi.mr_strict ? ofi.mr_offer : 0;
	ofi.mr_local = (mm | need) & FI_MR_LOCAL;
	ofi.mr_ep = (mm | need) & FI_MR_ENDPOINT;
	if ((err = sh_ofi_mr_check(fi->fabric_attr->prov_name, need, mm)))
		return err;
	ofi.flush = !ofi.delivery;
	ofi.max_msg = fi->ep_attr->max_msg_size ? fi->ep_attr->max_msg_size
						: (size_t)1 << 30;
	uint64_t cap = u_option_u64(U_OPT_SH_OFI_MAX_MSG);
	if (cap && cap < ofi.max_msg)
		ofi.max_msg = (size_t)cap; /* ZESHMEM_OFI_MAX_MSG */
	ofi.inject = fi->tx_attr->inject_size;
	ofi.tmp_key = 1u << 20;
	/* A test hook, not an option (tests/shmem/shmem_ctx_pe.c ctxquiet):
	 * the progress thread leaves the created contexts' endpoints alone,
	 * so their operations move only in their own calls. */
	const char *hold = getenv("ZESHMEM_OFI_TEST_HOLD");
	ofi.test_hold = hold && !strcmp(hold, "1");
	int rc;
	if ((rc = fi_fabric(fi->fabric_attr, &ofi.fab, NULL)))
		return fi_fail("fi_fabric", rc);
	if ((rc = fi_domain(ofi.fab, fi, &ofi.dom, NULL)))
		return fi_fail("fi_domain", rc);
	struct fi_av_attr ava = { .type = FI_AV_TABLE,
				  .count = (size_t)sh.npes };
	if ((rc = fi_av_open(ofi.dom, &ava, &ofi.av, NULL)))
		return fi_fail("fi_av_open", rc);
	if ((err = ep_open(&ofi.e0, SH_MAX_CHUNKS + 1)))
		return err;
	size_t nl = sizeof(mine->name);
	if ((rc = fi_getname(&ofi.e0.ep->fid, mine->name, &nl)))
		return fi_fail("fi_getname", rc);
	mine->namelen = (uint32_t)nl;
	mine->key = fi_mr_key(ofi.mr[0]);
	mine->base = chunk_base(0);
	amo_caps();
	return 0;
}

/* Static data (mem/sh_static.c): registered as one more MR (a random key,
 * as the heap's), its key and base all-gathered; collective. A PE
 * that cannot register fails init (as a heap chunk would). */
static int
static_exchange(void)
{
	struct sblob {
		int32_t status;
		uint64_t key, base;
	} mine = { 0 };
	int n = sh.npes;
	if (sh_static.on) {
		mine.status = ofi_reg((void *)sh_static.map_lo, sh_static.map_len,
				  FI_READ | FI_WRITE | FI_REMOTE_READ |
					  FI_REMOTE_WRITE,
				  0 /* random: remote_key */, &ofi.smr);
		if (!mine.status) {
			mine.key = fi_mr_key(ofi.smr);
			mine.base = sh_static.map_lo;
		}
	}
	struct sblob *all = calloc((size_t)n, sizeof(*all));
	ofi.snet = calloc((size_t)n, sizeof(*ofi.snet));
	if (!all || !ofi.snet) {
		free(all);
		return -ENOMEM; /* the others' all-gather times out */
	}
	int err = 0;
	if (sh.boot->ops->allgather(sh.boot, &mine, sizeof(mine), all))
		err = -EIO;
	for (int i = 0; !err && i < n; i++)
		if (all[i].status) {
			u_err("shmem", "PE %d could not register its static "
				       "data with libfabric", i);
			err = -EIO;
		}
	for (int i = 0; !err && i < n; i++) {
		ofi.snet[i].key = all[i].key;
		ofi.snet[i].base = all[i].base;
	}
	free(all);
	if (!err && ofi.smr)
		sh_sym_static_set_net(ofi.snet, fi_mr_desc(ofi.smr));
	return err;
}

int
sh_tr_ofi_init(void)
{
	int n = sh.npes;
	bool need = false;
	for (int i = 0; i < n; i++)
		if (i != sh.me && !sh.peers[i].local)
			need = true;
	/* Every PE computes the same `need` from the same node table. */
	for (int i = 0; !need && i < n; i++)
		for (int j = 0; j < n && !need; j++)
			if (sh.node_of[i] != sh.node_of[j])
				need = true;
	if (!need)
		return 0;
	struct blob mine = { 0 };
	mine.status = open_local(&mine);
	struct blob *all = calloc((size_t)n, sizeof(*all));
	ofi.np = calloc((size_t)n, sizeof(*ofi.np));
	ofi.hnet[0] = calloc((size_t)n, sizeof(*ofi.hnet[0]));
	int err = all && ofi.np && ofi.hnet[0] ? 0 : -ENOMEM;
	int berr = sh.boot->ops->allgather(sh.boot, &mine, sizeof(mine),
					   all ? (void *)all : (void *)&mine);
	if (!err && berr)
		err = berr;
	for (int i = 0; !err && i < n; i++)
		if (all[i].status) {
			u_err("shmem", "PE %d could not open the network "
				       "transport (%s)", i,
			      strerror(-all[i].status));
			err = all[i].status;
		}
	for (int i = 0; !err && i < n; i++) {
		int rc = fi_av_insert(ofi.av, all[i].name, 1, &ofi.np[i].addr,
				      0, NULL);
		if (rc != 1) {
			u_err("shmem", "fi_av_insert of PE %d: %d", i, rc);
			err = -EIO;
			break;
		}
		ofi.hnet[0][i].key = all[i].key;
		ofi.hnet[0][i].base = all[i].base;
	}
	free(all);
	if (!err)
		sh_sym_heap_set_net(0, ofi.hnet[0], fi_mr_desc(ofi.mr[0]));
	if (!err)
		err = static_exchange();
	if (err) {
		close_all();
		return err;
	}
	ofi.active = true;
	for (int i = 0; i < n; i++)
		if (i != sh.me && !sh.peers[i].local)
			sh.peers[i].net = true;
	int rc = pthread_create(&ofi.thr, NULL, ofi_progress_main, NULL);
	if (rc) {
		u_err("shmem", "progress thread: %s", strerror(rc));
		sh_tr_ofi_fini();
		return -rc;
	}
	ofi.thr_on = true;
	sh_term_arm();
	uint64_t mm = ofi.info->domain_attr->mr_mode;
	u_info("shmem", "network transport: %s, mr_mode 0x%llx%s%s, %s "
			"complete, max_msg %zu, inject %zu",
	       ofi.info->fabric_attr->prov_name, (unsigned long long)mm,
	       ofi.mr_local && !(mm & FI_MR_LOCAL)
		       ? " + FI_MR_LOCAL applied (ZESHMEM_OFI_MR)" : "",
	       ofi.mr_ep && !(mm & FI_MR_ENDPOINT)
		       ? " + FI_MR_ENDPOINT applied (ZESHMEM_OFI_MR)" : "",
	       ofi.delivery ? "delivery" : "transmit", ofi.max_msg,
	       ofi.inject);
	if (!ofi.delivery)
		u_info("shmem", "provider %s: no FI_DELIVERY_COMPLETE: quiet "
				"reads back from each PE written since the last "
				"one", ofi.info->fabric_attr->prov_name);
	return 0;
}

void
sh_tr_ofi_fini(void)
{
	if (!ofi.active && !ofi.info)
		return;
	if (ofi.active)
		sh_tr_ofi_quiet(NULL);
	for (int i = 0; sh.peers && i < sh.npes; i++)
		sh.peers[i].net = false;
	close_all();
	sh_term_disarm();
}

/* A created context's endpoint (sh_ctx_create). With FI_MR_ENDPOINT the
 * heap's regions are bound to e0 alone, so contexts share e0 there
 * (correct, not independent; logged once). */
int
sh_tr_ofi_ctx_open(struct sh_ctx *c)
{
	c->net = NULL;
	if (!ofi.active)
		return 0;
	if (ofi.mr_ep) {
		static bool said;
		if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
			u_info("shmem", "FI_MR_ENDPOINT: contexts share the "
					"PE's endpoint (the heap is bound to "
					"it): a context's quiet completes "
					"every network operation");
		return 0;
	}
	struct net_ep *e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	uint64_t key = __atomic_fetch_add(&ofi.tmp_key, 1, __ATOMIC_RELAXED);
	int err = ep_open(e, key);
	if (err) {
		ep_close(e);
		free(e);
		return err;
	}
	e->owner = c;
	c->net = e;
	pthread_mutex_lock(&ofi.eps_lock);
	e->next = ofi.eps;
	ofi.eps = e;
	__atomic_add_fetch(&ofi.neps, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&ofi.eps_lock);
	return 0;
}

/* After the context's quiet (sh_ctx_destroy): unlinks and closes its
 * endpoint. */
void
sh_tr_ofi_ctx_close(struct sh_ctx *c)
{
	struct net_ep *e = c->net;
	if (!e)
		return;
	pthread_mutex_lock(&ofi.eps_lock);
	for (struct net_ep **pp = &ofi.eps; *pp; pp = &(*pp)->next) {
		if (*pp == e) {
			*pp = e->next;
			__atomic_sub_fetch(&ofi.neps, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	c->net = NULL;
	pthread_mutex_unlock(&ofi.eps_lock);
	ep_close(e);
	free(e);
}

int
sh_tr_ofi_add_chunk(unsigned k)
{
	if (!ofi.active)
		return 0;
	int n = sh.npes;
	struct blob mine = { 0 };
	mine.status = reg_chunk(k);
	if (!mine.status) {
		mine.key = fi_mr_key(ofi.mr[k]);
		mine.base = chunk_base(k);
	}
	struct blob *all = calloc((size_t)n, sizeof(*all));
	struct sh_sym_net *net = calloc((size_t)n, sizeof(*net));
	int err = all && net ? 0 : -ENOMEM;
	int berr = sh.boot->ops->allgather(sh.boot, &mine, sizeof(mine),
					   all ? (void *)all : (void *)&mine);
	if (!err && berr)
		err = berr;
	for (int i = 0; !err && i < n; i++)
		if (all[i].status)
			err = -EAGAIN;
	for (int i = 0; !err && i < n; i++) {
		net[i].key = all[i].key;
		net[i].base = all[i].base;
	}
	free(all);
	if (err) {
		free(net);
		if (ofi.mr[k])
			fi_close(&ofi.mr[k]->fid);
		ofi.mr[k] = NULL;
		return err;
	}
	ofi.hnet[k] = net;
	sh_sym_heap_set_net(k, net, fi_mr_desc(ofi.mr[k]));
	return 0;
}

const char *
sh_tr_ofi_provider(void)
{
	return ofi.active ? ofi.info->fabric_attr->prov_name : NULL;
}

/* rocshmem_buffer_register (team/sh_register.c): the buffer registered with the
 * NIC once, its descriptor used by ldesc for every operation on it. */
int
sh_tr_ofi_reg_local(void *p, size_t len, void **mr, void **desc)
{
	*mr = *desc = NULL;
	if (!ofi.active)
		return 0;
	struct fid_mr *m;
	uint64_t key = __atomic_fetch_add(&ofi.tmp_key, 1, __ATOMIC_RELAXED);
	int err = ofi_reg(p, len, FI_READ | FI_WRITE, key, &m);
	if (err)
		return err;
	*mr = m;
	*desc = fi_mr_desc(m);
	return 0;
}

void
sh_tr_ofi_unreg_local(void *mr)
{
	if (mr)
		fi_close(&((struct fid_mr *)mr)->fid);
}

/* rocshmem_buffer_register_symmetric (team/sh_register.c): the alias registered
 * for the peers' RMA and atomics, as a heap chunk is. */
int
sh_tr_ofi_reg_sym(void *p, size_t len, void **mr, void **desc,
		  uint64_t *key, uint64_t *base)
{
	*mr = *desc = NULL;
	if (!ofi.active)
		return -EOPNOTSUPP;
	if (!sh.heap_host_accessible)
		return -EOPNOTSUPP; /* as reg_chunk: no FI_HMEM_ZE here */
	struct fid_mr *m;
	int err = ofi_reg(p, len,
		      FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE,
		      0 /* random: remote_key */, &m);
	if (err)
		return err;
	*mr = m;
	*desc = fi_mr_desc(m);
	*key = fi_mr_key(m);
	*base = (uint64_t)(uintptr_t)p;
	return 0;
}

#else /* !ZESHMEM_HAVE_OFI */

bool
sh_tr_ofi_active(void)
{
	return false;
}

int
sh_tr_ofi_init(void)
{
	for (int i = 0; i < sh.npes; i++)
		if (i != sh.me && !sh.peers[i].local) {
			u_err("shmem", "PE %d is on another node and this "
				       "libzeshmem was built without "
				       "libfabric", i);
			return -EOPNOTSUPP;
		}
	return 0;
}

void
sh_tr_ofi_fini(void)
{
}

void
sh_tr_ofi_exit_cleanup(void)
{
}

int
sh_tr_ofi_add_chunk(unsigned k)
{
	(void)k;
	return 0;
}

void
sh_tr_ofi_progress(void)
{
}

void
sh_tr_ofi_nap(long ns)
{
	struct timespec ts = { 0, ns };
	nanosleep(&ts, NULL);
}

bool
sh_tr_ofi_wait_fd(void)
{
	return false;
}

int
sh_tr_ofi_ctx_open(struct sh_ctx *c)
{
	c->net = NULL;
	return 0;
}

void
sh_tr_ofi_ctx_close(struct sh_ctx *c)
{
	(void)c;
}

int
sh_tr_ofi_quiet(struct sh_ctx *c)
{
	(void)c;
	return 0;
}

int
sh_tr_ofi_fence(struct sh_ctx *c)
{
	(void)c;
	return 0;
}

int
sh_tr_ofi_put(struct sh_ctx *c, void *dest, const void *src, size_t nbytes,
	      int pe, int nbi)
{
	(void)c, (void)dest, (void)src, (void)nbytes, (void)pe, (void)nbi;
	return -EOPNOTSUPP;
}

int
sh_tr_ofi_get(struct sh_ctx *c, void *dest, const void *src, size_t nbytes,
	      int pe, int nbi)
{
	(void)c, (void)dest, (void)src, (void)nbytes, (void)pe, (void)nbi;
	return -EOPNOTSUPP;
}

int
sh_tr_ofi_amo(struct sh_ctx *c, enum sh_amo_op op, size_t esize, void *dest,
	      const void *value, const void *cond, void *fetched, int pe)
{
	(void)c, (void)op, (void)esize, (void)dest, (void)value, (void)cond;
	(void)fetched, (void)pe;
	return -EOPNOTSUPP;
}

int
sh_tr_ofi_raise32(void *word, uint32_t e, int pe)
{
	(void)word, (void)e, (void)pe;
	return -EOPNOTSUPP;
}

int
sh_tr_ofi_put_signal(struct sh_ctx *c, void *dest, const void *src,
		     size_t nbytes, uint64_t *sig_addr, uint64_t signal,
		     int sig_op, int pe)
{
	(void)c, (void)dest, (void)src, (void)nbytes, (void)sig_addr, (void)signal;
	(void)sig_op, (void)pe;
	return -EOPNOTSUPP;
}

int
sh_tr_ofi_raw(int kind, void *sym, void *local, size_t n, int pe)
{
	(void)kind, (void)sym, (void)local, (void)n, (void)pe;
	return -EOPNOTSUPP;
}

const char *
sh_tr_ofi_provider(void)
{
	return NULL;
}

int
sh_tr_ofi_reg_local(void *p, size_t len, void **mr, void **desc)
{
	(void)p;
	(void)len;
	*mr = *desc = NULL;
	return 0;
}

void
sh_tr_ofi_unreg_local(void *mr)
{
	(void)mr;
}

int
sh_tr_ofi_reg_sym(void *p, size_t len, void **mr, void **desc,
		  uint64_t *key, uint64_t *base)
{
	(void)p, (void)len;
	*mr = *desc = NULL;
	*key = *base = 0;
	return -EOPNOTSUPP;
}

int
sh_tr_ofi_check(const void *sym, size_t len, int pe)
{
	(void)sym, (void)len, (void)pe;
	return -EOPNOTSUPP;
}

#endif

