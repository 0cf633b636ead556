/* csmUpdateModel of a Cubism Core library (p2lrt's libLive2DCubismCore, or the official one when a
 * developer links it instead) on a .moc3: the same 200 seeded poses as bench/core_update.js,
 * ROUNDS times over after a warm-up; prints the median microseconds per update of five runs.
 *   csm_update MODEL.moc3 [ROUNDS] */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "Live2DCubismCore.h"

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int by_value(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char** argv) {
  FILE* f;
  long size;
  unsigned char *raw, *moc_memory, *model_raw, *model_memory;
  csmMoc* moc;
  csmModel* model;
  unsigned model_size, state = 12345;
  int rounds = argc > 2 ? atoi(argv[2]) : 20, np, i, k, r, run;
  float *poses, *values;
  double times[6];
  if (argc < 2 || !(f = fopen(argv[1], "rb"))) {
    fprintf(stderr, "usage: csm_update MODEL.moc3 [ROUNDS]\n");
    return 2;
  }
  fseek(f, 0, SEEK_END);
  size = ftell(f);
  fseek(f, 0, SEEK_SET);
  raw = malloc((size_t)size + csmAlignofMoc);
  moc_memory = raw + (csmAlignofMoc - (size_t)raw % csmAlignofMoc) % csmAlignofMoc;
  if (fread(moc_memory, 1, (size_t)size, f) != (size_t)size) return 1;
  fclose(f);
  moc = csmReviveMocInPlace(moc_memory, (unsigned)size);
  if (!moc) return 1;
  model_size = csmGetSizeofModel(moc);
  model_raw = malloc(model_size + csmAlignofModel);
  model_memory = model_raw + (csmAlignofModel - (size_t)model_raw % csmAlignofModel) % csmAlignofModel;
  model = csmInitializeModelInPlace(moc, model_memory, model_size);
  np = csmGetParameterCount(model);
  values = csmGetParameterValues(model);
  poses = malloc(sizeof(float) * (size_t)np * 200);
  for (k = 0; k < 200; ++k)
    for (i = 0; i < np; ++i) {
      const float lo = csmGetParameterMinimumValues(model)[i], hi = csmGetParameterMaximumValues(model)[i];
      state = (state * 1103515245u + 12345u) % 2147483648u;
      poses[k * np + i] = lo + (hi - lo) * (float)((double)state / 2147483648.0);
    }
  for (run = 0; run < 6; ++run) {
    const double start = now_us();
    for (r = 0; r < rounds; ++r)
      for (k = 0; k < 200; ++k) {
        memcpy(values, poses + k * np, sizeof(float) * (size_t)np);
        csmUpdateModel(model);
        csmResetDrawableDynamicFlags(model);
      }
    times[run] = (now_us() - start) / (rounds * 200.0);
  }
  qsort(times + 1, 5, sizeof(double), by_value); /* the first run warms up */
  printf("csmUpdateModel (Core %u.%u.%u): %.2f us per update (median of 5 x %d; min %.2f)\n", csmGetVersion() >> 24,
         (csmGetVersion() >> 16) & 0xff, csmGetVersion() & 0xffff, times[3], rounds * 200, times[1]);
  free(poses);
  free(model_raw);
  free(raw);
  return 0;
}
