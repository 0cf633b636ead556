/*
 * csm_dump: a C99 host of the Cubism Core C API that includes only Live2DCubismCore.h and links
 * only a Cubism Core library (p2lrt's, or the official one when a developer has it). It runs the
 * same poses as tests/cubism/core_dump.js and writes the same files, so the two dumps compare
 * value for value (tests/csm/compare_dumps.cpp):
 *
 *   csm_dump MODEL.moc3 OUT_PREFIX [--poses N] [--seed S] [--parts]
 *
 * OUT_PREFIX.json: the version, canvas, parameters (with keys), parts, drawables with their
 * constant data, offscreens, and per pose the values set, draw orders, render orders and dynamic
 * flags; OUT_PREFIX.bin: per pose (float32 little-endian) every drawable's vertices, the D
 * opacities, D x 4 multiply and screen colours, the P parameter values and part opacities read
 * back, then O offscreen opacities and O x 4 colours; OUT_PREFIX.const.bin: every drawable's
 * UVs (float32) then every drawable's triangle indices (uint16).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "Live2DCubismCore.h"

static uint64_t splitmix_state;
static double splitmix_next(void) {
  uint64_t z;
  splitmix_state += 0x9e3779b97f4a7c15ull;
  z = splitmix_state;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z = z ^ (z >> 31);
  return (double)(z >> 11) / 9007199254740992.0;
}
/* Two generators, as core_dump.js: one for the poses, one for part opacities. */
typedef struct Random {
  uint64_t state;
} Random;
static double next(Random* r) {
  double v;
  splitmix_state = r->state;
  v = splitmix_next();
  r->state = splitmix_state;
  return v;
}

/* C99 has no aligned allocation: over-allocate and round up (the block is kept in *block). */
static void* aligned_block(size_t size, size_t alignment, void** block) {
  unsigned char* p = malloc(size + alignment);
  *block = p;
  if (!p) return NULL;
  return p + (alignment - (size_t)((uintptr_t)p % alignment)) % alignment;
}

static void log_line(const char* message) { fprintf(stderr, "core: %s\n", message); }

static void write_json_string(FILE* f, const char* s) {
  fputc('"', f);
  for (; *s; ++s) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    if ((unsigned char)*s < 0x20)
      fprintf(f, "\\u%04x", (unsigned)(unsigned char)*s);
    else
      fputc(*s, f);
  }
  fputc('"', f);
}

static void write_float(FILE* f, float v) {
  if (isnan(v) || isinf(v))
    fputs("null", f);
  else
    fprintf(f, "%.9g", (double)v);
}

static void write_ints(FILE* f, const int* v, int n) {
  int i;
  fputc('[', f);
  for (i = 0; i < n; ++i) fprintf(f, "%s%d", i ? "," : "", v[i]);
  fputc(']', f);
}

static void write_floats(FILE* out, const float* v, size_t n) { fwrite(v, sizeof(float), n, out); }

static void write_colors(FILE* out, const csmVector4* c, int n) {
  int i;
  for (i = 0; i < n; ++i) {
    const float v[4] = {c[i].X, c[i].Y, c[i].Z, c[i].W};
    write_floats(out, v, 4);
  }
}

int main(int argc, char** argv) {
  const char *moc_path = NULL, *prefix = NULL;
  int poses = 200, seed = 1, parts_too = 0, i, k;
  FILE *in, *json, *bin, *constants;
  long file_size;
  void *moc_memory, *model_memory, *moc_block, *model_block;
  csmMoc* moc;
  csmModel* model;
  unsigned int model_size;
  char path[4096];
  int np, nparts, nd, no, most = 0, count;
  float* set;
  float* initial_parts;
  Random random, part_random;
  csmVector2 size, origin;
  float ppu;
  csmVersion version;

  for (i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--poses") && i + 1 < argc)
      poses = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
      seed = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--parts"))
      parts_too = 1;
    else if (!moc_path)
      moc_path = argv[i];
    else
      prefix = argv[i];
  }
  if (!prefix) {
    fprintf(stderr, "usage: csm_dump MODEL.moc3 OUT_PREFIX [--poses N] [--seed S] [--parts]\n");
    return 2;
  }
  csmSetLogFunction(log_line);

  in = fopen(moc_path, "rb");
  if (!in) {
    fprintf(stderr, "csm_dump: cannot open %s\n", moc_path);
    return 1;
  }
  fseek(in, 0, SEEK_END);
  file_size = ftell(in);
  fseek(in, 0, SEEK_SET);
  moc_memory = aligned_block((size_t)file_size, csmAlignofMoc, &moc_block);
  if (!moc_memory || fread(moc_memory, 1, (size_t)file_size, in) != (size_t)file_size) {
    fprintf(stderr, "csm_dump: cannot read %s\n", moc_path);
    return 1;
  }
  fclose(in);
  {
    const int consistent = csmHasMocConsistency(moc_memory, (unsigned)file_size);
    moc = csmReviveMocInPlace(moc_memory, (unsigned)file_size);
    if (!moc) {
      fprintf(stderr, "csm_dump: the Core refuses %s\n", moc_path);
      return 1;
    }
    model_size = csmGetSizeofModel(moc);
    model_memory = aligned_block(model_size, csmAlignofModel, &model_block);
    model = model_memory ? csmInitializeModelInPlace(moc, model_memory, model_size) : NULL;
    if (!model) {
      fprintf(stderr, "csm_dump: no model\n");
      return 1;
    }
    np = csmGetParameterCount(model);
    nparts = csmGetPartCount(model);
    nd = csmGetDrawableCount(model);
    no = csmGetOffscreenCount(model);
    version = csmGetVersion();
    csmReadCanvasInfo(model, &size, &origin, &ppu);

    snprintf(path, sizeof path, "%s.json", prefix);
    json = fopen(path, "w");
    snprintf(path, sizeof path, "%s.bin", prefix);
    bin = fopen(path, "wb");
    snprintf(path, sizeof path, "%s.const.bin", prefix);
    constants = fopen(path, "wb");
    if (!json || !bin || !constants) {
      fprintf(stderr, "csm_dump: cannot write %s.*\n", prefix);
      return 1;
    }
    fprintf(json, "{\"core\":\"%u.%u.%u\",\"mocVersion\":%u,\"consistent\":%d,", version >> 24, (version >> 16) & 0xff,
            version & 0xffff, csmGetMocVersion(moc_memory, (unsigned)file_size), consistent);
    fprintf(json, "\"canvas\":{\"width\":");
    write_float(json, size.X);
    fprintf(json, ",\"height\":");
    write_float(json, size.Y);
    fprintf(json, ",\"originX\":");
    write_float(json, origin.X);
    fprintf(json, ",\"originY\":");
    write_float(json, origin.Y);
    fprintf(json, ",\"pixelsPerUnit\":");
    write_float(json, ppu);
    fprintf(json, "},\"parameters\":[");
  }
  {
    const char** ids = csmGetParameterIds(model);
    const float *mins = csmGetParameterMinimumValues(model), *maxs = csmGetParameterMaximumValues(model);
    const float* defs = csmGetParameterDefaultValues(model);
    const csmParameterType* types = csmGetParameterTypes(model);
    const int *repeats = csmGetParameterRepeats(model), *key_counts = csmGetParameterKeyCounts(model);
    const float** keys = csmGetParameterKeyValues(model);
    for (i = 0; i < np; ++i) {
      fprintf(json, "%s{\"id\":", i ? "," : "");
      write_json_string(json, ids[i]);
      fprintf(json, ",\"min\":");
      write_float(json, mins[i]);
      fprintf(json, ",\"max\":");
      write_float(json, maxs[i]);
      fprintf(json, ",\"default\":");
      write_float(json, defs[i]);
      fprintf(json, ",\"type\":%d,\"repeat\":%d,\"keys\":[", types[i], repeats[i]);
      for (k = 0; k < key_counts[i]; ++k) {
        if (k) fputc(',', json);
        write_float(json, keys[i][k]);
      }
      fprintf(json, "]}");
      if (key_counts[i] > most) most = key_counts[i];
    }
  }
  fprintf(json, "],\"parts\":[");
  {
    const char** ids = csmGetPartIds(model);
    const int* parents = csmGetPartParentPartIndices(model);
    const int* offscreens = csmGetPartOffscreenIndices(model);
    const float* opacities = csmGetPartOpacities(model);
    initial_parts = malloc(sizeof(float) * (size_t)(nparts + 1));
    for (i = 0; i < nparts; ++i) {
      initial_parts[i] = opacities[i];
      fprintf(json, "%s{\"id\":", i ? "," : "");
      write_json_string(json, ids[i]);
      fprintf(json, ",\"parent\":%d,\"opacity\":", parents[i]);
      write_float(json, opacities[i]);
      if (no > 0) fprintf(json, ",\"offscreen\":%d", offscreens[i]);
      fputc('}', json);
    }
  }
  fprintf(json, "],\"drawables\":[");
  {
    const char** ids = csmGetDrawableIds(model);
    const int *vertex_counts = csmGetDrawableVertexCounts(model), *index_counts = csmGetDrawableIndexCounts(model);
    const csmFlags* flags = csmGetDrawableConstantFlags(model);
    const int *textures = csmGetDrawableTextureIndices(model), *parents = csmGetDrawableParentPartIndices(model);
    const int *mask_counts = csmGetDrawableMaskCounts(model), **masks = csmGetDrawableMasks(model);
    const int* blend_modes = csmGetDrawableBlendModes(model);
    const csmVector2** uvs = csmGetDrawableVertexUvs(model);
    const unsigned short** indices = csmGetDrawableIndices(model);
    for (i = 0; i < nd; ++i) {
      fprintf(json, "%s{\"id\":", i ? "," : "");
      write_json_string(json, ids[i]);
      fprintf(json, ",\"vertexCount\":%d,\"indexCount\":%d,\"constantFlags\":%d,\"texture\":%d,\"parentPart\":%d,\"masks\":",
              vertex_counts[i], index_counts[i], flags[i], textures[i], parents[i]);
      write_ints(json, masks[i], mask_counts[i]);
      fprintf(json, ",\"blendMode\":%d}", blend_modes[i]);
      fwrite(uvs[i], sizeof(csmVector2), (size_t)vertex_counts[i], constants);
    }
    for (i = 0; i < nd; ++i) fwrite(indices[i], sizeof(unsigned short), (size_t)index_counts[i], constants);
  }
  fputc(']', json);
  if (no > 0) {
    const int *owners = csmGetOffscreenOwnerIndices(model), *modes = csmGetOffscreenBlendModes(model);
    const csmFlags* flags = csmGetOffscreenConstantFlags(model);
    const int *mask_counts = csmGetOffscreenMaskCounts(model), **masks = csmGetOffscreenMasks(model);
    fprintf(json, ",\"offscreens\":[");
    for (i = 0; i < no; ++i) {
      fprintf(json, "%s{\"owner\":%d,\"blendMode\":%d,\"constantFlags\":%d,\"masks\":", i ? "," : "", owners[i], modes[i],
              flags[i]);
      write_ints(json, masks[i], mask_counts[i]);
      fputc('}', json);
    }
    fputc(']', json);
  }
  fprintf(json, ",\"poses\":[");

  /* The poses, as core_dump.js makes them. */
  set = malloc(sizeof(float) * (size_t)(np + 1));
  random.state = (uint64_t)seed;
  part_random.state = (uint64_t)seed + 1000003u;
  if (most < 1) most = 1; /* a parameter without keys has its default as its one key */
  count = poses < 1 ? 1 : poses;
  {
    const float *mins = csmGetParameterMinimumValues(model), *maxs = csmGetParameterMaximumValues(model);
    const float* defs = csmGetParameterDefaultValues(model);
    const int* key_counts = csmGetParameterKeyCounts(model);
    const float** keys = csmGetParameterKeyValues(model);
    float* values = csmGetParameterValues(model);
    float* part_opacities = csmGetPartOpacities(model);
    int pose;
    /* core_dump.js pushes 5 fixed poses and one per key index, then random ones up to N, and
       keeps the first N (at least one). */
    for (pose = 0; pose < count; ++pose) {
      int with_parts = 0;
      for (i = 0; i < np; ++i) {
        const double lo = mins[i], hi = maxs[i], range = hi - lo;
        const int nk = key_counts[i] > 0 ? key_counts[i] : 0;
        double v;
#define KEY(j) (nk ? (double)keys[i][(j)] : (double)defs[i])
        if (pose == 0)
          v = defs[i];
        else if (pose == 1)
          v = lo;
        else if (pose == 2)
          v = hi;
        else if (pose == 3)
          v = lo - 0.25 * range;
        else if (pose == 4)
          v = hi + 0.25 * range;
        else if (pose < 5 + most) {
          const int kk = pose - 5, limit = (nk ? nk : 1) - 1;
          v = KEY(kk < limit ? kk : limit);
        } else {
          const int kind = (pose - 5 - most) % 4;
          if (kind == 0)
            v = lo - 0.25 * range + 1.5 * range * next(&random);
          else if (kind == 1) {
            const int pick = (int)floor(next(&random) * (nk ? nk : 1)); /* drawn with or without keys */
            v = KEY(pick);
          }
          else if (kind == 2)
            v = lo + range * next(&random);
          else
            v = next(&random) < 0.5 ? (double)defs[i] : lo + range * next(&random);
        }
#undef KEY
        set[i] = (float)v;
        values[i] = set[i];
      }
      if (parts_too) {
        with_parts = pose > 5 && pose % 3 == 0;
        for (i = 0; i < nparts; ++i) {
          if (with_parts) {
            const double r = next(&part_random);
            part_opacities[i] = (float)(r < 0.2 ? 0 : r > 0.6 ? 1 : next(&part_random));
          } else {
            part_opacities[i] = initial_parts[i];
          }
        }
      }
      csmUpdateModel(model);
      fprintf(json, "%s{\"values\":[", pose ? "," : "");
      for (i = 0; i < np; ++i) {
        if (i) fputc(',', json);
        write_float(json, set[i]);
      }
      fputc(']', json);
      fprintf(json, ",\"drawOrder\":");
      write_ints(json, csmGetDrawableDrawOrders(model), nd);
      fprintf(json, ",\"renderOrder\":");
      write_ints(json, csmGetRenderOrders(model), nd + no);
      fprintf(json, ",\"drawableRenderOrder\":");
      write_ints(json, csmGetDrawableRenderOrders(model), nd);
      fprintf(json, ",\"dynamicFlags\":[");
      {
        const csmFlags* dynamic = csmGetDrawableDynamicFlags(model);
        for (i = 0; i < nd; ++i) fprintf(json, "%s%d", i ? "," : "", dynamic[i]);
      }
      fprintf(json, "]}");
      {
        const csmVector2** positions = csmGetDrawableVertexPositions(model);
        const int* vertex_counts = csmGetDrawableVertexCounts(model);
        for (i = 0; i < nd; ++i) fwrite(positions[i], sizeof(csmVector2), (size_t)vertex_counts[i], bin);
        write_floats(bin, csmGetDrawableOpacities(model), (size_t)nd);
        write_colors(bin, csmGetDrawableMultiplyColors(model), nd);
        write_colors(bin, csmGetDrawableScreenColors(model), nd);
        write_floats(bin, values, (size_t)np);
        write_floats(bin, part_opacities, (size_t)nparts);
        if (no > 0) {
          write_floats(bin, csmGetOffscreenOpacities(model), (size_t)no);
          write_colors(bin, csmGetOffscreenMultiplyColors(model), no);
          write_colors(bin, csmGetOffscreenScreenColors(model), no);
        }
      }
      csmResetDrawableDynamicFlags(model);
    }
  }
  fprintf(json, "]}\n");
  fclose(json);
  fclose(bin);
  fclose(constants);
  fprintf(stderr, "csm_dump: Core %u.%u.%u, %d drawables, %d offscreens, %d poses -> %s.json, .bin, .const.bin\n",
          version >> 24, (version >> 16) & 0xff, version & 0xffff, nd, no, count, prefix);
  free(set);
  free(initial_parts);
  free(model_block);
  free(moc_block);
  return 0;
}
