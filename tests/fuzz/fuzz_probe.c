// SPDX-License-Identifier: MIT
/* fuzz_probe: configure-time check that clang links -fsanitize=fuzzer. */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data;
	(void)size;
	return 0;
}
