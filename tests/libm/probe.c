/* Prints sinf(0.5f)'s bits through the host's libm: tests/libm/run.sh runs it with and without
 * other_libm.so preloaded to see that the preload takes effect. */
#include <math.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  volatile float x = 0.5f;
  float r = sinf(x);
  unsigned bits;
  memcpy(&bits, &r, 4);
  printf("%08x\n", bits);
  return 0;
}
