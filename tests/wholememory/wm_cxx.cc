// SPDX-License-Identifier: MIT
/*
 * wm_cxx: a C++ caller of WholeMemory as the real headers let one write
 * it: wholememory_init(0) and wholememory_malloc without
 * rank_entry_partition, wholememory_create_tensor without a partition,
 * wholememory_gather without gather_sms (their default arguments).
 * One process (a world of one); prints "wm_cxx: ok".
 */
#include <wholememory/wholememory.h>
#include <wholememory/wholememory_op.h>

#include <cstdio>
#include <cstring>

#define CHECK(x)                                                         \
	do {                                                             \
		if (!(x)) {                                              \
			std::fprintf(stderr, "wm_cxx: %s failed\n", #x); \
			return 1;                                        \
		}                                                        \
	} while (0)

int
main()
{
	CHECK(wholememory_init(0) == WHOLEMEMORY_SUCCESS);
	wholememory_comm_t comm = nullptr;
	CHECK(wholememory_create_communicator_from_env(&comm) ==
	      WHOLEMEMORY_SUCCESS);
	wholememory_handle_t h = nullptr;
	CHECK(wholememory_malloc(&h, 4096, comm, WHOLEMEMORY_MT_CONTINUOUS,
				 WHOLEMEMORY_ML_HOST, 64) ==
	      WHOLEMEMORY_SUCCESS);
	wholememory_gref_t g;
	CHECK(wholememory_get_global_reference(&g, h) == WHOLEMEMORY_SUCCESS);
	CHECK(g.stride == 0);
	CHECK(wholememory_free(h) == WHOLEMEMORY_SUCCESS);

	wholememory_tensor_description_t d;
	wholememory_initialize_tensor_desc(&d);
	d.dim = 2;
	d.sizes[0] = 16;
	d.sizes[1] = 4;
	d.strides[0] = 4;
	d.dtype = WHOLEMEMORY_DT_FLOAT;
	wholememory_tensor_t t = nullptr;
	CHECK(wholememory_create_tensor(&t, &d, comm,
					WHOLEMEMORY_MT_CHUNKED,
					WHOLEMEMORY_ML_DEVICE) ==
	      WHOLEMEMORY_SUCCESS);
	float rows[16 * 4];
	for (int i = 0; i < 64; i++)
		rows[i] = static_cast<float>(i);
	int64_t idx[16];
	for (int i = 0; i < 16; i++)
		idx[i] = 15 - i;
	wholememory_tensor_description_t id;
	wholememory_initialize_tensor_desc(&id);
	id.dim = 1;
	id.sizes[0] = 16;
	id.dtype = WHOLEMEMORY_DT_INT64;
	wholememory_tensor_t in = nullptr, ix = nullptr, out = nullptr;
	CHECK(wholememory_make_tensor_from_pointer(&in, rows, &d) ==
	      WHOLEMEMORY_SUCCESS);
	CHECK(wholememory_make_tensor_from_pointer(&ix, idx, &id) ==
	      WHOLEMEMORY_SUCCESS);
	CHECK(wholememory_scatter(in, ix, t, nullptr, nullptr) ==
	      WHOLEMEMORY_SUCCESS);
	float back[16 * 4];
	std::memset(back, 0, sizeof(back));
	CHECK(wholememory_make_tensor_from_pointer(&out, back, &d) ==
	      WHOLEMEMORY_SUCCESS);
	CHECK(wholememory_gather(t, ix, out, nullptr, nullptr) ==
	      WHOLEMEMORY_SUCCESS);
	CHECK(std::memcmp(back, rows, sizeof(rows)) == 0);
	CHECK(wholememory_destroy_tensor(out) == WHOLEMEMORY_SUCCESS);
	CHECK(wholememory_destroy_tensor(ix) == WHOLEMEMORY_SUCCESS);
	CHECK(wholememory_destroy_tensor(in) == WHOLEMEMORY_SUCCESS);
	CHECK(wholememory_destroy_tensor(t) == WHOLEMEMORY_SUCCESS);
	CHECK(wholememory_destroy_communicator(comm) == WHOLEMEMORY_SUCCESS);
	CHECK(wholememory_finalize() == WHOLEMEMORY_SUCCESS);
	std::printf("wm_cxx: ok\n");
	return 0;
}
