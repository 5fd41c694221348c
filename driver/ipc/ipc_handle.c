// SPDX-License-Identifier: MIT
/*
 * ipc_handle: the layout of zemem's 64-byte IPC handle, its encoder and its
 * strict decoder, and the identity of this process (pid + nonce).
 *
 * Layout (packed, native byte order: handles never leave the machine):
 *
 *   0  int32  fd         exporter's fd number (Level Zero convention: the
 *                        application may overwrite it with a local fd)
 *   4  uint16 magic      0x5a4d ("MZ" in memory)
 *   6  uint8  version    1
 *   7  uint8  type       enum ipc_type
 *   8  uint8  kind       host / device / shared
 *   9  uint8  flags      IPC_FLAG_*
 *  10  uint16 device     exporter's device ordinal
 *  12  int32  fd_copy    the exporter's fd number again (tells an overwrite)
 *  16  int32  pid        exporter's pid
 *  20  uint32 ino        low 32 bits of the file's inode number
 *  24  uint64 nonce      exporter's process nonce (random per process)
 *  32  uint64 tag        the export's secret (see ipc.h); 0 only in an
 *                        fd handle of a file that is no zemem export
 *  40  uint32 export_id  export record, never reused in a process
 *  44  uint32 serial     this handle (get), never reused in a process
 *  48  uint64 size       allocation size in bytes
 *  56  uint64 off_chk    offset in the file (bits 0..47) | checksum << 48
 *
 * The checksum (CRC-16 over bytes 4..63) catches truncated and corrupted
 * handles early and surely (any single corrupted byte); it is no security
 * boundary (anyone can recompute it). What makes a forged handle harmless
 * is the tag: a random secret per export (getrandom), with the memory kind
 * and the WHOLE bit in its low byte, that only the exporter and the
 * holders of its handles know. The exporter checks it, with every other
 * field, against its live export (broker, local opens); where the file
 * comes without the exporter's help (pidfd_getfd, the application's fd),
 * the file itself must carry it (TAGGED: its file position), see
 * ipc_import.c. Version 2: every MEM and PHYS handle carries a tag.
 *
 * This file has no state and calls nothing outside libc, so the fuzzer
 * compiles it on its own.
 */
#include "ipc.h"

#include <errno.h>
#include <string.h>

struct ipc_wire {
	int32_t fd;
	uint16_t magic;
	uint8_t version;
	uint8_t type;
	uint8_t kind;
	uint8_t flags;
	uint16_t device;
	int32_t fd_copy;
	int32_t pid;
	uint32_t ino;
	uint64_t nonce;
	uint64_t tag;
	uint32_t export_id;
	uint32_t serial;
	uint64_t size;
	uint64_t off_chk;
} __attribute__((packed));

_Static_assert(sizeof(struct ipc_wire) == 64, "IPC handle must be 64 bytes");
_Static_assert(sizeof(struct ipc_wire) == ZE_MAX_IPC_HANDLE_SIZE,
	       "ze_ipc_mem_handle_t size");
_Static_assert(__builtin_offsetof(struct ipc_wire, fd) == 0,
	       "bytes 0..3 hold the fd");

#define OFF_MASK ((1ull << 48) - 1)

/* CRC-16/CCITT-FALSE over bytes 4..63 with the checksum bits zero: a CRC
 * of 16 bits detects every error burst of up to 16 bits, so any change of
 * a single byte (or of two neighbouring ones) is always caught. */
static const uint16_t crc_nibble[16] = {
	0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50a5, 0x60c6, 0x70e7,
	0x8108, 0x9129, 0xa14a, 0xb16b, 0xc18c, 0xd1ad, 0xe1ce, 0xf1ef,
};

static uint16_t
checksum(const struct ipc_wire *w)
{
	struct ipc_wire tmp = *w;
	tmp.off_chk &= OFF_MASK;
	const unsigned char *p = (const unsigned char *)&tmp;
	uint16_t crc = 0xffff;
	for (size_t i = 4; i < sizeof(tmp); i++) {
		unsigned hi = p[i] >> 4, lo = p[i] & 15u;
		crc = (uint16_t)(crc << 4) ^ crc_nibble[(crc >> 12) ^ hi];
		crc = (uint16_t)(crc << 4) ^ crc_nibble[(crc >> 12) ^ lo];
	}
	return crc;
}

void
ipc_handle_encode(const struct ipc_desc *d, void *out64)
{
	struct ipc_wire w;
	memset(&w, 0, sizeof(w));
	w.fd = d->fd;
	w.magic = IPC_MAGIC;
	w.version = IPC_VERSION;
	w.type = d->type;
	w.kind = d->kind;
	w.flags = d->flags;
	w.device = d->device;
	w.fd_copy = d->fd_copy;
	w.pid = d->pid;
	w.ino = d->ino;
	w.nonce = d->nonce;
	w.tag = d->tag;
	w.export_id = d->export_id;
	w.serial = d->serial;
	w.size = d->size;
	w.off_chk = d->offset & OFF_MASK;
	w.off_chk |= (uint64_t)checksum(&w) << 48;
	memcpy(out64, &w, sizeof(w));
}

#define BAD(text)                                                           \
	do {                                                                \
		*why = (text);                                              \
		return -EBADMSG;                                            \
	} while (0)

int
ipc_handle_decode(const void *in64, struct ipc_desc *d, const char **why)
{
	struct ipc_wire w;
	memcpy(&w, in64, sizeof(w));
	memset(d, 0, sizeof(*d));
	*why = NULL;
	if (w.magic != IPC_MAGIC)
		BAD("not a zemem IPC handle (bad magic)");
	if (w.version != IPC_VERSION)
		BAD("unsupported IPC handle version");
	if ((uint16_t)(w.off_chk >> 48) != checksum(&w))
		BAD("IPC handle checksum mismatch (truncated or corrupted)");
	if (w.type != IPC_TYPE_MEM && w.type != IPC_TYPE_FD &&
	    w.type != IPC_TYPE_PHYS)
		BAD("unknown IPC handle type");
	if (w.kind < USM_KIND_HOST || w.kind > USM_KIND_SHARED)
		BAD("unknown memory kind");
	if (w.flags & ~IPC_FLAGS_ALL)
		BAD("unknown IPC handle flags");
	if ((w.flags & IPC_FLAG_TAGGED) && (w.flags & IPC_FLAG_DMABUF))
		BAD("a dma-buf handle cannot be tagged");
	if (w.fd < 0 || w.fd_copy < 0)
		BAD("negative fd in IPC handle");
	if (w.pid <= 0)
		BAD("bad exporter pid");
	if (!w.nonce)
		BAD("zero process nonce");
	uint64_t off = w.off_chk & OFF_MASK;
	if (!w.size || w.size > IPC_MAX_BYTES || off > IPC_MAX_BYTES)
		BAD("size or offset out of range");
	bool secret = w.type != IPC_TYPE_FD; /* MEM, PHYS: always a tag */
	if (secret || w.tag || (w.flags & IPC_FLAG_TAGGED)) {
		if ((w.tag >> 61) != 1)
			BAD("malformed tag");
		uint64_t want = w.kind | ((w.flags & IPC_FLAG_WHOLE)
						  ? 0 : IPC_TAG_SEGMENT);
		if ((w.tag & IPC_TAG_KIND_MASK) != want)
			BAD("tag does not match the memory kind");
	}
	if ((w.flags & IPC_FLAG_WHOLE) && off)
		BAD("whole-file handle with an offset");
	if (w.type == IPC_TYPE_PHYS && (w.flags != IPC_FLAG_TAGGED || off))
		BAD("malformed physical-memory handle");
	if (w.type == IPC_TYPE_MEM || w.type == IPC_TYPE_PHYS) {
		if (!w.export_id || !w.serial)
			BAD("zero export id or serial");
	} else {
		if (w.export_id || w.serial || w.fd != w.fd_copy || off)
			BAD("malformed fd handle");
	}
	d->fd = w.fd;
	d->fd_copy = w.fd_copy;
	d->type = w.type;
	d->kind = w.kind;
	d->flags = w.flags;
	d->device = w.device;
	d->pid = w.pid;
	d->ino = w.ino;
	d->nonce = w.nonce;
	d->tag = w.tag;
	d->export_id = w.export_id;
	d->serial = w.serial;
	d->size = w.size;
	d->offset = off;
	return 0;
}
