# SPDX-License-Identifier: MIT
"""A script in the shape of real ACLSHMEM's Python init test: the rank and
size from the launcher's environment, InitAttr's real fields, `if ret !=
0: raise`, malloc / free, my_pe / pe_count, team queries with the int team
id 0, the team's config, the init status before, during and after, and
finalize, with real ACLSHMEM's spellings (set_conf_store_tls,
OpEngineType.MTE, aclshmem_finialize). Run under zeshrun (ZESHMEM_RANK /
ZESHMEM_NRANKS), shmem.run (SHMEM_RUN_RANK / SHMEM_RUN_NRANKS), mpirun
(PMIX_RANK / OMPI_COMM_WORLD_SIZE) or torchrun (RANK / WORLD_SIZE).
Prints "init_test.py running success!" on each rank."""
import os

import shmem as ash

g_ash_size = 64 * 1024 * 1024
g_malloc_size = 8 * 1024 * 1024
G_IP_PORT = "tcp://127.0.0.1:8666"


def launcher():
    for r, n in (("ZESHMEM_RANK", "ZESHMEM_NRANKS"),
                 ("SHMEM_RUN_RANK", "SHMEM_RUN_NRANKS"),
                 ("PMIX_RANK", "OMPI_COMM_WORLD_SIZE"),
                 ("RANK", "WORLD_SIZE")):
        if r in os.environ and n in os.environ:
            return int(os.environ[r]), int(os.environ[n])
    return 0, 1


def run_tests():
    rank, world_size = launcher()
    if ash.aclshmemx_init_status() != ash.InitStatus.NOT_INITIALIZED:
        raise ValueError("[ERROR] initialized before aclshmem_init")
    # real ACLSHMEM's TLS switch for its config store (off)
    ret = ash.set_conf_store_tls(False, "")
    if ret != 0:
        raise ValueError("[ERROR] set_conf_store_tls failed")
    # init with real ACLSHMEM's attributes
    attributes = ash.InitAttr()
    attributes.my_rank = rank
    attributes.n_ranks = world_size
    attributes.local_mem_size = g_ash_size
    attributes.ip_port = G_IP_PORT
    attributes.option_attr.data_op_engine_type = ash.OpEngineType.MTE
    attributes.option_attr.control_operation_timeout = 60
    ret = ash.aclshmem_init(attributes)
    if ret != 0:
        raise ValueError("[ERROR] aclshmem_init failed: %r" % ret)
    if (ret.status, ret.my_pe, ret.n_pes) != (0, rank, world_size):
        raise ValueError("[ERROR] init result %r" % ret)
    if attributes.mem_size != g_ash_size:
        raise ValueError("[ERROR] local_mem_size is not mem_size")
    status = ash.aclshmemx_init_status()
    if status != ash.InitStatus.INITIALIZED or status != 2:
        raise ValueError("[ERROR] init status %r" % status)
    # malloc
    ptr = ash.aclshmem_malloc(g_malloc_size)
    print(f"rank[{rank}]: aclshmem_ptr:{ptr:#x} with type {type(ptr)}")
    if not ptr:
        raise ValueError("[ERROR] aclshmem_malloc failed")
    ash.aclshmem_free(ptr)
    # pe
    my_pe, pe_count = ash.my_pe(), ash.pe_count()
    print(f"rank[{rank}]: my_pe:{my_pe} and pe_count:{pe_count}")
    if not (my_pe == rank and pe_count == world_size):
        raise ValueError("[ERROR] pe/world failed")
    # team 0, the world
    my_team_pe, team_pe_count = ash.team_my_pe(0), ash.team_n_pes(0)
    print(f"x: rank[{rank}]: t_my_pe:{my_team_pe} and "
          f"t_pe_count:{team_pe_count}")
    if (my_team_pe, team_pe_count) != (rank, world_size):
        raise ValueError("[ERROR] team 0 failed")
    if ash.team_translate_pe(0, world_size - 1, ash.SHMEM_TEAM_WORLD) != \
            world_size - 1:
        raise ValueError("[ERROR] team_translate_pe failed")
    config = ash.aclshmem_team_get_config(0)
    if not isinstance(config, ash.TeamConfig) or config.num_contexts != 0:
        raise ValueError("[ERROR] team config %r" % config)
    ash.aclshmem_barrier_all()
    # finalize (real ACLSHMEM's older spelling)
    ash.aclshmem_finialize()
    if ash.aclshmemx_init_status() != ash.InitStatus.NOT_INITIALIZED:
        raise ValueError("[ERROR] initialized after aclshmem_finalize")


if __name__ == "__main__":
    run_tests()
    print("init_test.py running success!", flush=True)
