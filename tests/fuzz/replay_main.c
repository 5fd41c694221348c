// SPDX-License-Identifier: MIT
/*
 * replay_main: runs LLVMFuzzerTestOneInput over corpus files or folders
 * with the normal compiler, so the fuzz corpus is an ordinary test.
 * Usage: replay_ipc_handle FILE|DIR...
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static int
run_file(const char *path)
{
	uint8_t buf[4096];
	FILE *f = fopen(path, "rbe");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	return 0;
}

int
main(int argc, char **argv)
{
	int files = 0;
	LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct stat sb;
		if (stat(argv[i], &sb) < 0) {
			perror(argv[i]);
			return 1;
		}
		if (!S_ISDIR(sb.st_mode)) {
			files += !run_file(argv[i]);
			continue;
		}
		DIR *d = opendir(argv[i]);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			char path[4096];
			snprintf(path, sizeof(path), "%s/%s", argv[i],
				 e->d_name);
			files += !run_file(path);
		}
		if (d)
			closedir(d);
	}
	printf("replayed %d input(s)\n", files);
	return files ? 0 : 1;
}
