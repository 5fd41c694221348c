// SPDX-License-Identifier: MIT
/*
 * ipc_proto: the command protocol between test_ipc (or bench_ipc) and the
 * exec'd ipc_helper process. The helper reads struct ipc_cmd from fd 3 and
 * answers struct ipc_rep on fd 4 (a pipe pair, or one UNIX socket on both
 * numbers, which may carry an fd with SCM_RIGHTS).
 *
 * Ops: 'A' allocate size bytes (flags: IPC_CMD_HOST for host memory),
 * fill them with byte and get an IPC handle (rep.h); 'O' open cmd.h (an
 * fd that came with the command is written into bytes 0..3 first; with
 * IPC_CMD_SAME_NUMBER it is moved to the number already there, as if it
 * had been received with the exporter's number); 'E' open the fd that
 * came with the command through zeMemGetIpcHandleFromFileDescriptorExp;
 * 'C' check every byte == byte (rep.value = mismatches); 'W' fill with
 * byte; 'X' close; 'P' put; 'F' free; 'U' switch to uid/gid 65534; 'R'
 * read every 64th byte (timed: rep.value = ns); 'M' memcpy the region into
 * a buffer of the helper's own (timed); 'V' map 4 physical objects of size
 * bytes into one reservation, fill it with byte and export it as one range
 * handle (rep.h; 'P' puts it); 'v' unmap, free and destroy them; 'H' a
 * hostile importer of the fd that came with the command (maps all of the
 * file, rep.pad = bytes neither byte nor 0, overwrites it all, punches a
 * hole over all of it, rep.value = the file's size); 'Q' quit. The region of 'C', 'W',
 * 'R' and 'M' is the opened pointer if any, else the allocation.
 * Hostile and probing ops (test_ipc_auth): 'o' open cmd.h, count the
 * first size bytes != byte (rep.value), its memory type (rep.pad), close
 * again; 'm' make a sealed writable memfd nobody exports, full of byte
 * (rep.value its inode, rep.pad its fd); 'I' hold size silent connections
 * to the broker of cmd.h's exporter (rep.result: how many); 'S' install a
 * seccomp filter: pidfd_getfd fails with EPERM, prctl(PR_SET_PTRACER,
 * PR_SET_PTRACER_ANY) kills the helper; 'k' clear the carriers of the
 * last 'A' export's file (position 4096, access time 1 s): only the
 * exporter's board can vouch for it then; 'x' answer, then exec itself
 * (the same pid, a new driver: state from before is gone).
 */
#ifndef ZEMEM_IPC_PROTO_H
#define ZEMEM_IPC_PROTO_H

#include <stdint.h>

#include <level_zero/ze_api.h>

#define IPC_CMD_HOST 0x1u
#define IPC_CMD_SAME_NUMBER 0x4u
#define IPC_NOBODY 65534

struct ipc_cmd {
	char op;
	uint8_t byte;
	uint16_t pad;
	uint32_t flags;
	uint64_t size;
	ze_ipc_mem_handle_t h;
};

struct ipc_rep {
	int32_t result;      /* ze_result_t, or -errno of the helper itself */
	uint32_t pad;
	uint64_t value;
	char transport[16];  /* how the last open got its fd */
	ze_ipc_mem_handle_t h;
};

#endif
