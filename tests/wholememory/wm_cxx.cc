// SPDX-License-Identifier: MIT
/*
 * wm_cxx: a C++ caller of WholeMemory as the real headers let one write
 * it: wholememory_init(0) and wholememory_malloc without
 * rank_entry_partition, wholememory_create_tensor without a partition,
 * wholememory_gather without gather_sms, wholememory_create_embedding
 * without partition, sms and round robin (their default arguments),
 * the embedding and graph headers compiled as C++.
 * One process (a world of one); prints "wm_cxx: ok".
 */
#include <wholememory/wholememory.h>
#include <wholememory/wholememory_op.h>
#include <wholememory/embedding.h>
#include <wholememory/graph_op.h>
#include <wholememory/wholegraph_op.h>

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

	/* an embedding with create_embedding's default arguments, one
	 * SGD step through the C++ enum types */
	wholememory_embedding_t e = nullptr;
	CHECK(wholememory_create_embedding(&e, &d, comm,
					   WHOLEMEMORY_MT_DISTRIBUTED,
					   WHOLEMEMORY_ML_HOST, nullptr) ==
	      WHOLEMEMORY_SUCCESS);
	wholememory_optimizer_type_t ot = WHOLEMEMORY_OPT_SGD;
	wholememory_embedding_optimizer_t o = nullptr;
	CHECK(wholememory_create_embedding_optimizer(&o, ot) ==
	      WHOLEMEMORY_SUCCESS);
	CHECK(wholememory_embedding_set_optimizer(e, o) ==
	      WHOLEMEMORY_SUCCESS);
	wholememory_tensor_t et = wholememory_embedding_get_embedding_tensor(e);
	CHECK(wholememory_make_tensor_from_pointer(&in, rows, &d) ==
	      WHOLEMEMORY_SUCCESS);
	CHECK(wholememory_make_tensor_from_pointer(&ix, idx, &id) ==
	      WHOLEMEMORY_SUCCESS);
	CHECK(wholememory_scatter(in, ix, et, nullptr, nullptr) ==
	      WHOLEMEMORY_SUCCESS);
	/* w - 0.5 * w = w / 2, exact */
	CHECK(wholememory_embedding_gather_gradient_apply(e, ix, in, false,
							  0.5f, nullptr, 0) ==
	      WHOLEMEMORY_SUCCESS);
	CHECK(wholememory_make_tensor_from_pointer(&out, back, &d) ==
	      WHOLEMEMORY_SUCCESS);
	CHECK(wholememory_embedding_gather(e, ix, out, false, nullptr, 0) ==
	      WHOLEMEMORY_SUCCESS);
	for (int i = 0; i < 64; i++)
		CHECK(back[i] == rows[i] / 2);
	CHECK(wholememory_destroy_tensor(out) == WHOLEMEMORY_SUCCESS);
	CHECK(wholememory_destroy_tensor(ix) == WHOLEMEMORY_SUCCESS);
	CHECK(wholememory_destroy_tensor(in) == WHOLEMEMORY_SUCCESS);
	CHECK(wholememory_destroy_embedding(e) == WHOLEMEMORY_SUCCESS);
	wholememory_destroy_embedding_optimizer(o);
	CHECK(wholememory_destroy_communicator(comm) == WHOLEMEMORY_SUCCESS);
	CHECK(wholememory_finalize() == WHOLEMEMORY_SUCCESS);
	std::printf("wm_cxx: ok\n");
	return 0;
}
