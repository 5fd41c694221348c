// SPDX-License-Identifier: MIT
/*
 * tls_hog: a library with LT_TLS_HOG_BYTES of initial-exec thread-local
 * storage, as some libraries have: dlopened, it takes that much of the
 * static TLS reserve glibc keeps for the libraries a process loads later
 * (test_loader.c, case static-tls).
 */
__attribute__((visibility("default"), tls_model("initial-exec")))
__thread char lt_tls_hog[LT_TLS_HOG_BYTES];

__attribute__((visibility("default"))) char *lt_tls_hog_of_thread(void);

__attribute__((visibility("default"))) char *
lt_tls_hog_of_thread(void)
{
	return lt_tls_hog;
}
