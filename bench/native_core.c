/* One C99 host of the Cubism Core C API (include/Live2DCubismCore.h) for any Core library: p2lrt's
 * libLive2DCubismCore.so, the official native Core, PurismCore. The library is opened by path
 * (dlopen, its own symbols), so one binary measures them all, each in its own process, as
 * scripts/bench_native.py alternates them.
 *
 *   p2l_native_core LIBRARY.so MODEL.moc3 [--sweep FRAMES | --track FILE] [--reps N] [--instances K]
 *
 * --sweep FRAMES (default 600): before each csmUpdateModel every parameter is written, parameter i
 *   at frame f being lo + (hi - lo) * (0.5 + 0.5 sin(2 pi (f / 120 + 0.618034 i))): nothing holds
 *   still, so no Core can skip work.
 * --track FILE: the parameter values of real playback (bench/native_layers.cpp --write-track:
 *   a motion, physics, breath and blink at 60 Hz), mapped by parameter id; a parameter the track
 *   does not name stays at its default.
 * --instances K (default 1): K models of the moc, each updated per frame (K times the work).
 * After each update the dynamic flags are reset, as the Frameworks do.
 *
 * Prints one JSON line: the Core's version, the model's counts and csmGetSizeofModel, the thread
 * CPU time and wall time per update (microseconds per model) of each repetition, and a checksum
 * of the last frame's vertex positions (the Cores must agree on it to about 1e-3). */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "Live2DCubismCore.h"

/* The Core API this host calls, looked up in the library it was given. */
struct Core {
  csmVersion (*GetVersion)(void);
  csmMocVersion (*GetMocVersion)(const void*, const unsigned int);
  csmMoc* (*ReviveMocInPlace)(void*, const unsigned int);
  unsigned int (*GetSizeofModel)(const csmMoc*);
  csmModel* (*InitializeModelInPlace)(const csmMoc*, void*, const unsigned int);
  void (*UpdateModel)(csmModel*);
  void (*ResetDrawableDynamicFlags)(csmModel*);
  int (*GetParameterCount)(const csmModel*);
  const char** (*GetParameterIds)(const csmModel*);
  const float* (*GetParameterMinimumValues)(const csmModel*);
  const float* (*GetParameterMaximumValues)(const csmModel*);
  const float* (*GetParameterDefaultValues)(const csmModel*);
  float* (*GetParameterValues)(csmModel*);
  int (*GetDrawableCount)(const csmModel*);
  const int* (*GetDrawableVertexCounts)(const csmModel*);
  const csmVector2** (*GetDrawableVertexPositions)(const csmModel*);
};

static void* need(void* library, const char* name) {
  void* f = dlsym(library, name);
  if (f == NULL) {
    fprintf(stderr, "p2l_native_core: the library has no %s\n", name);
    exit(2);
  }
  return f;
}

static void open_core(const char* path, struct Core* c) {
  void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    fprintf(stderr, "p2l_native_core: cannot open %s: %s\n", path, dlerror());
    exit(2);
  }
  /* A function pointer from dlsym's void* goes through memcpy: C99 has no conversion for it. */
#define LOOKUP(field, name)                     \
  do {                                          \
    void* f_ = need(library, name);             \
    memcpy(&c->field, &f_, sizeof c->field);    \
  } while (0)
  LOOKUP(GetVersion, "csmGetVersion");
  LOOKUP(GetMocVersion, "csmGetMocVersion");
  LOOKUP(ReviveMocInPlace, "csmReviveMocInPlace");
  LOOKUP(GetSizeofModel, "csmGetSizeofModel");
  LOOKUP(InitializeModelInPlace, "csmInitializeModelInPlace");
  LOOKUP(UpdateModel, "csmUpdateModel");
  LOOKUP(ResetDrawableDynamicFlags, "csmResetDrawableDynamicFlags");
  LOOKUP(GetParameterCount, "csmGetParameterCount");
  LOOKUP(GetParameterIds, "csmGetParameterIds");
  LOOKUP(GetParameterMinimumValues, "csmGetParameterMinimumValues");
  LOOKUP(GetParameterMaximumValues, "csmGetParameterMaximumValues");
  LOOKUP(GetParameterDefaultValues, "csmGetParameterDefaultValues");
  LOOKUP(GetParameterValues, "csmGetParameterValues");
  LOOKUP(GetDrawableCount, "csmGetDrawableCount");
  LOOKUP(GetDrawableVertexCounts, "csmGetDrawableVertexCounts");
  LOOKUP(GetDrawableVertexPositions, "csmGetDrawableVertexPositions");
#undef LOOKUP
}

static void* aligned(size_t alignment, size_t size) {
  void* p = NULL;
  if (posix_memalign(&p, alignment, size) != 0) {
    fprintf(stderr, "p2l_native_core: out of memory (%zu bytes)\n", size);
    exit(2);
  }
  return p;
}

static double seconds(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The values of every frame, frames x parameters, in the model's parameter order. */
struct Frames {
  int count, parameters;
  float* values;
};

static void make_sweep(const struct Core* c, const csmModel* model, int frames, struct Frames* out) {
  const int np = c->GetParameterCount(model);
  const float *lo = c->GetParameterMinimumValues(model), *hi = c->GetParameterMaximumValues(model);
  int f, i;
  out->count = frames;
  out->parameters = np;
  out->values = malloc(sizeof(float) * (size_t)(frames > 0 ? frames : 1) * (size_t)(np > 0 ? np : 1));
  for (f = 0; f < frames; ++f)
    for (i = 0; i < np; ++i) {
      const double phase = 2.0 * 3.14159265358979323846 * ((double)f / 120.0 + 0.618034 * (double)i);
      out->values[(size_t)f * (size_t)np + (size_t)i] =
          (float)((double)lo[i] + ((double)hi[i] - (double)lo[i]) * (0.5 + 0.5 * sin(phase)));
    }
}

static uint32_t read_u32(FILE* f) {
  unsigned char b[4];
  if (fread(b, 1, 4, f) != 4) return 0;
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* The track file (bench/native_layers.cpp): "P2LTRACK", u32 parameters, u32 frames, the ids
 * (each NUL-terminated), then frames x parameters little-endian floats. */
static void read_track(const struct Core* c, const csmModel* model, const char* path, struct Frames* out) {
  FILE* f = fopen(path, "rb");
  char magic[8];
  uint32_t tn, frames, t, k;
  int np = c->GetParameterCount(model), i, *column;
  const char** ids = c->GetParameterIds(model);
  const float* defaults = c->GetParameterDefaultValues(model);
  char** names;
  float* row;
  if (f == NULL || fread(magic, 1, 8, f) != 8 || memcmp(magic, "P2LTRACK", 8) != 0) {
    fprintf(stderr, "p2l_native_core: %s is not a track file\n", path);
    exit(2);
  }
  tn = read_u32(f);
  frames = read_u32(f);
  if (tn == 0 || tn > 65536 || frames == 0 || frames > 1000000) {
    fprintf(stderr, "p2l_native_core: %s: %u parameters, %u frames: not a track\n", path, tn, frames);
    exit(2);
  }
  names = calloc(tn, sizeof *names);
  for (t = 0; t < tn; ++t) {
    char name[256];
    int ch, n = 0;
    while ((ch = fgetc(f)) > 0 && n < 255) name[n++] = (char)ch;
    name[n] = '\0';
    names[t] = malloc((size_t)n + 1);
    memcpy(names[t], name, (size_t)n + 1);
  }
  column = malloc(sizeof(int) * (size_t)(np > 0 ? np : 1));
  for (i = 0; i < np; ++i) {
    column[i] = -1;
    for (t = 0; t < tn; ++t)
      if (strcmp(ids[i], names[t]) == 0) column[i] = (int)t;
  }
  out->count = (int)frames;
  out->parameters = np;
  out->values = malloc(sizeof(float) * (size_t)frames * (size_t)(np > 0 ? np : 1));
  row = malloc(sizeof(float) * tn);
  for (k = 0; k < frames; ++k) {
    for (t = 0; t < tn; ++t) {
      const uint32_t bits = read_u32(f);
      memcpy(&row[t], &bits, 4);
    }
    for (i = 0; i < np; ++i) out->values[(size_t)k * (size_t)np + (size_t)i] = column[i] >= 0 ? row[column[i]] : defaults[i];
  }
  if (ferror(f) || feof(f)) {
    fprintf(stderr, "p2l_native_core: %s ends early\n", path);
    exit(2);
  }
  fclose(f);
  for (t = 0; t < tn; ++t) free(names[t]);
  free(names);
  free(column);
  free(row);
}

static void usage(void) {
  fprintf(stderr, "usage: p2l_native_core LIBRARY.so MODEL.moc3 [--sweep FRAMES | --track FILE] [--reps N] [--instances K]\n");
  exit(2);
}

int main(int argc, char** argv) {
  struct Core c;
  struct Frames frames;
  const char *library, *moc_path, *track = NULL;
  int sweep = 600, reps = 5, instances = 1, a, r, k, d, f, n, drawables;
  FILE* file;
  long size;
  void* moc_memory;
  csmMoc* moc;
  unsigned int model_size, moc_version;
  csmModel** models;
  double checksum = 0.0, *cpu, *wall;
  long vertices = 0;
  csmVersion version;

  if (argc < 3) usage();
  library = argv[1];
  moc_path = argv[2];
  for (a = 3; a < argc; ++a) {
    if (strcmp(argv[a], "--sweep") == 0 && a + 1 < argc)
      sweep = atoi(argv[++a]);
    else if (strcmp(argv[a], "--track") == 0 && a + 1 < argc)
      track = argv[++a];
    else if (strcmp(argv[a], "--reps") == 0 && a + 1 < argc)
      reps = atoi(argv[++a]);
    else if (strcmp(argv[a], "--instances") == 0 && a + 1 < argc)
      instances = atoi(argv[++a]);
    else
      usage();
  }
  if (sweep < 1 || reps < 1 || instances < 1 || instances > 1024) usage();
  open_core(library, &c);

  file = fopen(moc_path, "rb");
  if (file == NULL || fseek(file, 0, SEEK_END) != 0 || (size = ftell(file)) <= 0 || fseek(file, 0, SEEK_SET) != 0) {
    fprintf(stderr, "p2l_native_core: cannot read %s\n", moc_path);
    return 2;
  }
  moc_memory = aligned(csmAlignofMoc, (size_t)size);
  if (fread(moc_memory, 1, (size_t)size, file) != (size_t)size) {
    fprintf(stderr, "p2l_native_core: cannot read %s\n", moc_path);
    return 2;
  }
  fclose(file);
  moc_version = c.GetMocVersion(moc_memory, (unsigned int)size);
  moc = c.ReviveMocInPlace(moc_memory, (unsigned int)size);
  if (moc == NULL) {
    /* The official 5.0.0 refuses version 6 files: the script reports that, it is no failure. */
    printf("{\"library\": \"%s\", \"model\": \"%s\", \"refused\": true, \"moc_version\": %u}\n", library, moc_path, moc_version);
    return 0;
  }
  model_size = c.GetSizeofModel(moc);
  models = malloc(sizeof *models * (size_t)instances);
  for (k = 0; k < instances; ++k) {
    models[k] = c.InitializeModelInPlace(moc, aligned(csmAlignofModel, model_size), model_size);
    if (models[k] == NULL) {
      fprintf(stderr, "p2l_native_core: csmInitializeModelInPlace failed on %s\n", moc_path);
      return 2;
    }
  }
  if (track != NULL)
    read_track(&c, models[0], track, &frames);
  else
    make_sweep(&c, models[0], sweep, &frames);
  n = frames.parameters;

  /* Warm-up: one pass over the frames. Then each repetition is one pass, every instance. */
  cpu = malloc(sizeof(double) * (size_t)reps);
  wall = malloc(sizeof(double) * (size_t)reps);
  for (r = -1; r < reps; ++r) {
    const double cpu0 = seconds(CLOCK_THREAD_CPUTIME_ID), wall0 = seconds(CLOCK_MONOTONIC);
    for (f = 0; f < frames.count; ++f)
      for (k = 0; k < instances; ++k) {
        memcpy(c.GetParameterValues(models[k]), frames.values + (size_t)f * (size_t)n, sizeof(float) * (size_t)n);
        c.UpdateModel(models[k]);
        c.ResetDrawableDynamicFlags(models[k]);
      }
    if (r >= 0) {
      const double updates = (double)frames.count * (double)instances;
      cpu[r] = (seconds(CLOCK_THREAD_CPUTIME_ID) - cpu0) * 1e6 / updates;
      wall[r] = (seconds(CLOCK_MONOTONIC) - wall0) * 1e6 / updates;
    }
  }

  drawables = c.GetDrawableCount(models[0]);
  for (d = 0; d < drawables; ++d) {
    const int count = c.GetDrawableVertexCounts(models[0])[d];
    const csmVector2* v = c.GetDrawableVertexPositions(models[0])[d];
    vertices += count;
    for (k = 0; k < count; ++k) checksum += (double)v[k].X + 2.0 * (double)v[k].Y;
  }
  version = c.GetVersion();
  printf("{\"library\": \"%s\", \"model\": \"%s\", \"core_version\": \"%u.%u.%u\", \"moc_version\": %u, "
         "\"parameters\": %d, \"drawables\": %d, \"vertices\": %ld, \"size_of_model\": %u, \"instances\": %d, "
         "\"frames\": %d, \"mode\": \"%s\", \"checksum\": %.6f, \"cpu_us\": [",
         library, moc_path, (unsigned)(version >> 24), (unsigned)((version >> 16) & 0xFF), (unsigned)(version & 0xFFFF),
         moc_version, n, drawables, vertices, model_size, instances, frames.count, track ? "track" : "sweep", checksum);
  for (r = 0; r < reps; ++r) printf("%s%.3f", r ? ", " : "", cpu[r]);
  printf("], \"wall_us\": [");
  for (r = 0; r < reps; ++r) printf("%s%.3f", r ? ", " : "", wall[r]);
  printf("]}\n");
  return 0;
}
