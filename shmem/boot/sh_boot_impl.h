// SPDX-License-Identifier: MIT
/*
 * sh_boot_impl.h: what the bootstrap backends share with each other and
 * with zeshrun, below the interface of sh.h. Only sh_boot*.c and
 * shmem/tools/zeshrun.c include it (sh.h stays the runtime's one header;
 * this one is the bootstrap's inside, as the launcher needs the unique-id
 * server too).
 *
 * Unique id (SH_UID_BYTES, all fields little-endian):
 *   0  u32 magic SH_UID_MAGIC     4  u16 version SH_UID_VERSION
 *   6  u16 family (AF_INET)       8  u16 port (network order)
 *   10 u8[16] address (IPv4 in the first 4 bytes, network order)
 *   26 u8[6] zero                 32 u64 job nonce (random)
 *   40 .. 127 zero
 * The nonce is the job's secret (getrandom): only who was given the id
 * knows it, and the root takes a connection for a PE only when its HELLO
 * carries it. zeshrun hands the id to its PEs in their environment, which
 * only the same uid (and root) can read.
 *
 * Wire (a star: every PE has one TCP connection to the root, which serves
 * the whole job): a message is a struct sh_msg header plus len payload
 * bytes, host byte order (the id's magic is checked at connect).
 *   PE -> root: HELLO {nonce, rank, nranks, pid}, COLL (arg = kind,
 *               seq, payload = this PE's part), ABORT (arg = status), BYE.
 *   root -> PE: WELCOME (arg = 0 or -errno), RESULT (arg = 0 or -errno,
 *               aux = the dead PE for -EHOSTDOWN; payload = nranks parts),
 *               ABORT (arg = status, aux = who called it), DEAD (aux = PE).
 * A round is complete when every rank sent the same (kind, seq, len).
 */
#ifndef ZEMEM_SH_BOOT_IMPL_H
#define ZEMEM_SH_BOOT_IMPL_H

#include "sh_boot.h"

#include <netinet/in.h>

#define SH_UID_MAGIC 0x4853455au   /* "ZESH" */
#define SH_UID_VERSION 1
/* Cap on one allgather's result (npes * len). */
#define SH_BOOT_MAX_GATHER (1ull << 30)

enum sh_msg_type {
	SH_MSG_HELLO = 1,
	SH_MSG_WELCOME,
	SH_MSG_COLL,
	SH_MSG_RESULT,
	SH_MSG_ABORT,
	SH_MSG_DEAD,
	SH_MSG_BYE,
};

enum sh_coll_kind { SH_COLL_BARRIER = 1, SH_COLL_ALLGATHER };

struct sh_msg {
	uint32_t type;
	int32_t arg;
	uint32_t seq;
	int32_t aux;
	uint64_t len;
};

struct sh_hello {
	uint64_t nonce;
	uint32_t rank, nranks;
	uint32_t pid, version;
};

/* The id's fields, decoded. */
struct sh_uid_info {
	struct sockaddr_in addr;
	uint64_t nonce;
};

/* sh_boot.c: the id's encoding. */
SH_HIDDEN void sh_uid_encode(const struct sh_uid_info *in, void *uid);
/* -EINVAL (logged) when uid is not a zeshmem unique id of this version. */
SH_HIDDEN int sh_uid_decode(const void *uid, struct sh_uid_info *out);

/* sh_boot_single.c, sh_boot_uid.c, sh_boot_pmix.c: the backends' opens;
 * they fill b's ops and priv (rank, nranks, timeout_s are set). */
SH_HIDDEN int sh_boot_single_open(struct sh_boot *b);
SH_HIDDEN int sh_boot_uid_open(struct sh_boot *b, const void *uid);
/* -EOPNOTSUPP when built without PMIx. */
SH_HIDDEN int sh_boot_pmix_open(struct sh_boot *b);

/* sh_boot_uid.c: the root's listening socket. iface: name or IPv4 text
 * (ZESHMEM_BOOT_IFACE), "" for loopback (127.0.0.1): a root that nobody
 * told otherwise serves its own machine only. Returns the listening fd
 * (close-on-exec) and fills info. */
SH_HIDDEN int sh_uid_listen(const char *iface, struct sh_uid_info *info);

/* sh_boot_uid_srv.c: the root's server, on its own thread.
 * local_rank: the rank of a PE in this process (it is told of an abort
 * last, after every other PE), -1 when no PE of the job runs here
 * (zeshrun). on_abort, when set, runs on the server thread when a PE
 * calls abort_job. */
struct sh_uid_srv;
struct sh_uid_srv_cfg {
	int listen_fd;                 /* taken over (closed at stop) */
	uint64_t nonce;
	int nranks;
	int local_rank;
	unsigned timeout_s;
	void (*on_abort)(void *arg, int rank, int status);
	void *arg;
};
SH_HIDDEN int sh_uid_srv_start(const struct sh_uid_srv_cfg *cfg,
			       struct sh_uid_srv **out);
/* drain: wait (up to timeout_s) until every PE said goodbye or died, then
 * stop. !drain: stop now. Joins the thread and closes every socket. */
SH_HIDDEN void sh_uid_srv_stop(struct sh_uid_srv *s, bool drain);

/* Socket helpers (sh_boot_uid.c). Full read / write of len bytes with
 * MSG_NOSIGNAL; 0, -EPIPE on EOF, or -errno. */
SH_HIDDEN int sh_sock_write(int fd, const void *buf, size_t len);
SH_HIDDEN int sh_sock_read(int fd, void *buf, size_t len);
/* Whether a connected IPv4 socket is joined to itself: a connect to a
 * port of this host where nobody listens can pick that port as its
 * source, and TCP's simultaneous open then succeeds. */
SH_HIDDEN bool sh_sock_self_connected(int fd);
/* Reads and drops len bytes (a payload not wanted); stops quietly at
 * the first error (the socket's next read meets it too). */
SH_HIDDEN void sh_sock_skip(int fd, uint64_t len);
SH_HIDDEN int sh_send_msg(int fd, uint32_t type, int32_t arg, uint32_t seq,
			  int32_t aux, const void *payload, size_t len);

#endif
