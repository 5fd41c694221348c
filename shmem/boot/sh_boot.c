// SPDX-License-Identifier: MIT
/*
 * sh_boot.c: the bootstrap's front door. sh_boot_open picks a backend
 * (ZESHMEM_BOOTSTRAP=auto|pmix|uid|single; auto = PMIx when PMIX_RANK is
 * set, else the unique id in ZESHMEM_UNIQUEID with ZESHMEM_RANK and
 * ZESHMEM_NRANKS, else one PE alone) and fills the common fields; the
 * backends live in sh_boot_pmix.c, sh_boot_uid.c and sh_boot_single.c.
 * Also here: the unique id's byte layout (sh_boot_impl.h) and its hex text.
 */
#include "sh_boot_impl.h"

#include "u_log.h"
#include "u_options.h"

#include <arpa/inet.h>
#include <errno.h>
#include <endian.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

void
sh_uid_encode(const struct sh_uid_info *in, void *uid)
{
	uint8_t *p = uid;
	uint32_t magic = htole32(SH_UID_MAGIC);
	uint16_t ver = htole16(SH_UID_VERSION);
	uint16_t fam = htole16(AF_INET);
	uint64_t nonce = htole64(in->nonce);

	memset(p, 0, SH_UID_BYTES);
	memcpy(p + 0, &magic, 4);
	memcpy(p + 4, &ver, 2);
	memcpy(p + 6, &fam, 2);
	memcpy(p + 8, &in->addr.sin_port, 2);
	memcpy(p + 10, &in->addr.sin_addr.s_addr, 4);
	memcpy(p + 32, &nonce, 8);
}

int
sh_uid_decode(const void *uid, struct sh_uid_info *out)
{
	const uint8_t *p = uid;
	uint32_t magic;
	uint16_t ver, fam;
	uint64_t nonce;

	memcpy(&magic, p + 0, 4);
	memcpy(&ver, p + 4, 2);
	memcpy(&fam, p + 6, 2);
	memcpy(&nonce, p + 32, 8);
	if (le32toh(magic) != SH_UID_MAGIC) {
		u_err("shmem", "not a zeshmem unique id (magic 0x%08x)",
		      le32toh(magic));
		return -EINVAL;
	}
	if (le16toh(ver) != SH_UID_VERSION) {
		u_err("shmem", "unique id of version %u, this library reads %u",
		      le16toh(ver), SH_UID_VERSION);
		return -EINVAL;
	}
	if (le16toh(fam) != AF_INET) {
		u_err("shmem", "unique id of address family %u: only IPv4",
		      le16toh(fam));
		return -EINVAL;
	}
	memset(out, 0, sizeof(*out));
	out->addr.sin_family = AF_INET;
	memcpy(&out->addr.sin_port, p + 8, 2);
	memcpy(&out->addr.sin_addr.s_addr, p + 10, 4);
	out->nonce = le64toh(nonce);
	if (out->addr.sin_port == 0) {
		u_err("shmem", "unique id without a port");
		return -EINVAL;
	}
	return 0;
}

void
sh_boot_uid_to_hex(const void *uid, char *hex)
{
	static const char digits[] = "0123456789abcdef";
	const uint8_t *p = uid;

	for (size_t i = 0; i < SH_UID_BYTES; i++) {
		hex[2 * i] = digits[p[i] >> 4];
		hex[2 * i + 1] = digits[p[i] & 15];
	}
	hex[2 * SH_UID_BYTES] = '\0';
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
sh_boot_uid_from_hex(const char *hex, void *uid)
{
	uint8_t tmp[SH_UID_BYTES];

	if (!hex || !uid)
		return -EINVAL;
	if (strlen(hex) != 2 * SH_UID_BYTES) {
		u_err("shmem", "unique id text of %zu characters, want %d",
		      strlen(hex), 2 * SH_UID_BYTES);
		return -EINVAL;
	}
	for (size_t i = 0; i < SH_UID_BYTES; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
		if (hi < 0 || lo < 0) {
			u_err("shmem", "unique id text: not hex at %zu", 2 * i);
			return -EINVAL;
		}
		tmp[i] = (uint8_t)(hi << 4 | lo);
	}
	memcpy(uid, tmp, SH_UID_BYTES);
	return 0;
}

/* Backend ops are filled by the backend; this only checks the frame. */
static int
boot_new(int rank, int nranks, struct sh_boot **out)
{
	struct sh_boot *b = calloc(1, sizeof(*b));

	if (!b)
		return -ENOMEM;
	b->rank = rank;
	b->nranks = nranks;
	b->local_rank = -1;
	b->timeout_s = (unsigned)u_option_u64(U_OPT_SH_TIMEOUT);
	*out = b;
	return 0;
}

static int
open_env_uid(struct sh_boot *b)
{
	uint8_t uid[SH_UID_BYTES];
	const struct u_opt_value *r = u_option(U_OPT_SH_RANK);
	const struct u_opt_value *n = u_option(U_OPT_SH_NRANKS);
	const struct u_opt_value *l = u_option(U_OPT_SH_LOCAL_RANK);
	int ret;

	ret = sh_boot_uid_from_hex(u_option_str(U_OPT_SH_UNIQUEID), uid);
	if (ret)
		return ret;
	if (!r->set || !n->set) {
		u_err("shmem", "ZESHMEM_UNIQUEID set without ZESHMEM_RANK and "
			       "ZESHMEM_NRANKS");
		return -EINVAL;
	}
	b->rank = (int)r->u;
	b->nranks = (int)n->u;
	if (b->rank >= b->nranks) {
		u_err("shmem", "ZESHMEM_RANK %d >= ZESHMEM_NRANKS %d", b->rank,
		      b->nranks);
		return -EINVAL;
	}
	ret = sh_boot_uid_open(b, uid);
	if (ret == 0 && l->set)
		b->local_rank = (int)l->u;
	return ret;
}

int
sh_boot_open(const void *uid, int rank, int nranks, struct sh_boot **out)
{
	struct sh_boot *b;
	const char *how;
	int ret;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (uid && (nranks < 1 || rank < 0 || rank >= nranks)) {
		u_err("shmem", "rank %d of %d: out of range", rank, nranks);
		return -EINVAL;
	}
	ret = boot_new(uid ? rank : 0, uid ? nranks : 1, &b);
	if (ret)
		return ret;

	if (uid) {
		ret = sh_boot_uid_open(b, uid);
		goto done;
	}
	how = u_option_str(U_OPT_SH_BOOTSTRAP);
	if (!strcmp(how, "auto")) {
		if (getenv("PMIX_RANK"))
			how = "pmix";
		else if (u_option_str(U_OPT_SH_UNIQUEID)[0])
			how = "uid";
		else
			how = "single";
	}
	if (!strcmp(how, "pmix")) {
		ret = sh_boot_pmix_open(b);
	} else if (!strcmp(how, "uid")) {
		ret = open_env_uid(b);
	} else if (!strcmp(how, "single")) {
		ret = sh_boot_single_open(b);
	} else {
		u_err("shmem", "ZESHMEM_BOOTSTRAP=%s: want auto, pmix, uid or "
			       "single", how);
		ret = -EINVAL;
	}
done:
	if (ret) {
		free(b);
		return ret;
	}
	u_info("shmem", "bootstrap %s: PE %d of %d (local rank %d)",
	       b->ops->name, b->rank, b->nranks, b->local_rank);
	*out = b;
	return 0;
}

void
sh_boot_close(struct sh_boot *b)
{
	if (!b)
		return;
	if (b->ops)
		b->ops->fini(b);
	free(b);
}
