/* An out-of-tree host of the installed drop-in Cubism Core, built with
 * `pkg-config --cflags --libs p2l-cubism-core` as a Cubism application would link the official
 * library (tests/package/run.sh). Prints the Core's version and the newest moc3 version it reads. */
#include <stdio.h>

#include <Live2DCubismCore.h>

int main(void) {
  const csmVersion version = csmGetVersion();
  printf("Cubism Core API %u.%u.%u, moc3 up to version %u\n", (unsigned)(version >> 24), (unsigned)((version >> 16) & 0xff),
         (unsigned)(version & 0xffff), (unsigned)csmGetLatestMocVersion());
  return version != 0 && csmGetLatestMocVersion() > 0 ? 0 : 1;
}
