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
 * a single byte (or of two neighbouring ones) is always caught. One table
 * lookup per byte (polynomial 0x1021). */
static const uint16_t crc_byte[256] = {
	0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50a5, 0x60c6, 0x70e7,
	0x8108, 0x9129, 0xa14a, 0xb16b, 0xc18c, 0xd1ad, 0xe1ce, 0xf1ef,
	0x1231, 0x0210, 0x3273, 0x2252, 0x52b5, 0x4294, 0x72f7, 0x62d6,
	0x9339, 0x8318, 0xb37b, 0xa35a, 0xd3bd, 0xc39c, 0xf3ff, 0xe3de,
	0x2462, 0x3443, 0x0420, 0x1401, 0x64e6, 0x74c7, 0x44a4, 0x5485,
	0xa56a, 0xb54b, 0x8528, 0x9509, 0xe5ee, 0xf5cf, 0xc5ac, 0xd58d,
	0x3653, 0x2672, 0x1611, 0x0630, 0x76d7, 0x66f6, 0x5695, 0x46b4,
	0xb75b, 0xa77a, 0x9719, 0x8738, 0xf7df, 0xe7fe, 0xd79d, 0xc7bc,
	0x48c4, 0x58e5, 0x6886, 0x78a7, 0x0840, 0x1861, 0x2802, 0x3823,
	0xc9cc, 0xd9ed, 0xe98e, 0xf9af, 0x8948, 0x9969, 0xa90a, 0xb92b,
	0x5af5, 0x4ad4, 0x7ab7, 0x6a96, 0x1a71, 0x0a50, 0x3a33, 0x2a12,
	0xdbfd, 0xcbdc, 0xfbbf, 0xeb9e, 0x9b79, 0x8b58, 0xbb3b, 0xab1a,
	0x6ca6, 0x7c87, 0x4ce4, 0x5cc5, 0x2c22, 0x3c03, 0x0c60, 0x1c41,
	0xedae, 0xfd8f, 0xcdec, 0xddcd, 0xad2a, 0xbd0b, 0x8d68, 0x9d49,
	0x7e97, 0x6eb6, 0x5ed5, 0x4ef4, 0x3e13, 0x2e32, 0x1e51, 0x0e70,
	0xff9f, 0xefbe, 0xdfdd, 0xcffc, 0xbf1b, 0xaf3a, 0x9f59, 0x8f78,
	0x9188, 0x81a9, 0xb1ca, 0xa1eb, 0xd10c, 0xc12d, 0xf14e, 0xe16f,
	0x1080, 0x00a1, 0x30c2, 0x20e3, 0x5004, 0x4025, 0x7046, 0x6067,
	0x83b9, 0x9398, 0xa3fb, 0xb3da, 0xc33d, 0xd31c, 0xe37f, 0xf35e,
	0x02b1, 0x1290, 0x22f3, 0x32d2, 0x4235, 0x5214, 0x6277, 0x7256,
	0xb5ea, 0xa5cb, 0x95a8, 0x8589, 0xf56e, 0xe54f, 0xd52c, 0xc50d,
	0x34e2, 0x24c3, 0x14a0, 0x0481, 0x7466, 0x6447, 0x5424, 0x4405,
	0xa7db, 0xb7fa, 0x8799, 0x97b8, 0xe75f, 0xf77e, 0xc71d, 0xd73c,
	0x26d3, 0x36f2, 0x0691, 0x16b0, 0x6657, 0x7676, 0x4615, 0x5634,
	0xd94c, 0xc96d, 0xf90e, 0xe92f, 0x99c8, 0x89e9, 0xb98a, 0xa9ab,
	0x5844, 0x4865, 0x7806, 0x6827, 0x18c0, 0x08e1, 0x3882, 0x28a3,
	0xcb7d, 0xdb5c, 0xeb3f, 0xfb1e, 0x8bf9, 0x9bd8, 0xabbb, 0xbb9a,
	0x4a75, 0x5a54, 0x6a37, 0x7a16, 0x0af1, 0x1ad0, 0x2ab3, 0x3a92,
	0xfd2e, 0xed0f, 0xdd6c, 0xcd4d, 0xbdaa, 0xad8b, 0x9de8, 0x8dc9,
	0x7c26, 0x6c07, 0x5c64, 0x4c45, 0x3ca2, 0x2c83, 0x1ce0, 0x0cc1,
	0xef1f, 0xff3e, 0xcf5d, 0xdf7c, 0xaf9b, 0xbfba, 0x8fd9, 0x9ff8,
	0x6e17, 0x7e36, 0x4e55, 0x5e74, 0x2e93, 0x3eb2, 0x0ed1, 0x1ef0,
};

static uint16_t
checksum(const struct ipc_wire *w)
{
	struct ipc_wire tmp = *w;
	tmp.off_chk &= OFF_MASK;
	const unsigned char *p = (const unsigned char *)&tmp;
	uint16_t crc = 0xffff;
	for (size_t i = 4; i < sizeof(tmp); i++)
		crc = (uint16_t)(crc << 8) ^ crc_byte[(crc >> 8) ^ p[i]];
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
