/* SHA-256 for p2lrt (the Cubism import's META source hash, src/import/cubism/sha256.cpp): musl's
 * own (crypt_sha256.c, public domain; scripts/fetch_musl_math.sh fetches it beside the math
 * functions), on every target, so that the import needs no crypto library: its hash functions
 * are static there, so the file is compiled inside this one. */
/* crypt_sha256.c calls strnlen, a POSIX function. */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define __crypt_sha256 p2l_musl_crypt_sha256
#include "crypt_sha256.c"

void *p2l_musl_sha256_new(void) {
  struct sha256 *s = malloc(sizeof *s);
  if (s) sha256_init(s);
  return s;
}

void p2l_musl_sha256_update(void *state, const void *data, size_t size) {
  /* musl's length is unsigned long: feed it in pieces that fit on every target. */
  const unsigned char *p = data;
  while (size > 0) {
    unsigned long piece = size > 0x40000000u ? 0x40000000u : (unsigned long)size;
    sha256_update(state, p, piece);
    p += piece;
    size -= piece;
  }
}

void p2l_musl_sha256_final(void *state, uint8_t digest[32]) { sha256_sum(state, digest); }

void p2l_musl_sha256_free(void *state) { free(state); }
