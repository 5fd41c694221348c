// SPDX-License-Identifier: MIT
/*
 * ipc_peer: starts ipc_helper with fork + exec and talks to it
 * (ipc_proto.h). Used by test_ipc_xproc and bench_ipc.
 */
#ifndef ZEMEM_IPC_PEER_H
#define ZEMEM_IPC_PEER_H

#include <stdbool.h>
#include <sys/types.h>

#include "ipc_proto.h"

struct peer {
	pid_t pid;
	int out;   /* commands to the helper */
	int in;    /* replies from it */
	bool sock; /* out == in, a UNIX socket that can carry fds */
};

/* env: NULL or a NULL-terminated list of "NAME=value" for the helper.
 * 0 or -errno. */
int peer_start(struct peer *p, bool sock, const char *const *env);
/* Sends one command (with fd >= 0 attached: sockets only) and reads the
 * reply. 0, or -1 when the helper is gone. */
int peer_cmd(struct peer *p, char op, uint8_t byte, uint64_t size,
	     uint32_t flags, const ze_ipc_mem_handle_t *h, int fd,
	     struct ipc_rep *rep);
/* 'Q', then waits: the exit status (waitpid's). */
int peer_stop(struct peer *p);
/* SIGKILL, then waits. */
void peer_kill(struct peer *p);

#endif
