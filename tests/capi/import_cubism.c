/*
 * A C99 host importing a Cubism model through include/p2l/p2l_cubism.h: the model3.json from its
 * path, and the same through the host's reader from memory; both play a motion and must draw the
 * vertices that `p2lrt import` + p2l_rig_load draw, to the bit. A missing side file, a damaged
 * moc3 and a model3.json that is not JSON each give a clear error and no handle.
 *
 *   p2l_capi_import_cubism MODEL_FOLDER MODEL3_JSON_NAME IMPORTED.p2lrt
 *
 * IMPORTED.p2lrt is what `p2lrt import` wrote for the model. Exit 0: passed; 1: failed; 77: the
 * model is not there (skipped).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2l/p2l_cubism.h"

static int failures = 0;

static void check(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "FAILED: %s\n", what);
    ++failures;
  }
}

/* A whole file into a malloc'd buffer; NULL when it cannot be read. */
static uint8_t *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  uint8_t *bytes = NULL;
  long n;
  if (f == NULL) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
    bytes = (uint8_t *)malloc((size_t)n + 1);
    if (bytes != NULL && fread(bytes, 1, (size_t)n, f) != (size_t)n) {
      free(bytes);
      bytes = NULL;
    }
    *size = (size_t)n;
  }
  fclose(f);
  return bytes;
}

/* The host's reader: files under a folder, read into memory as an archive would hand them out.
 * [refuse] names a file it claims not to have; [replace] one whose bytes it swaps for
 * [replacement]. The last buffer stays valid until the next call, as p2l_cubism.h allows. */
struct Files {
  const char *folder;
  const char *refuse, *replace;
  const char *replacement;
  uint8_t *last;
  int calls;
};

static bool read_from_memory(const char *name, const uint8_t **data, size_t *size, void *user) {
  struct Files *files = (struct Files *)user;
  char path[4096];
  ++files->calls;
  free(files->last);
  files->last = NULL;
  if (files->refuse != NULL && strcmp(name, files->refuse) == 0) return false;
  if (files->replace != NULL && strcmp(name, files->replace) == 0) {
    *data = (const uint8_t *)files->replacement;
    *size = strlen(files->replacement);
    return true;
  }
  if ((size_t)snprintf(path, sizeof path, "%s/%s", files->folder, name) >= sizeof path) return false;
  files->last = read_file(path, size);
  *data = files->last;
  return files->last != NULL;
}

/* Plays clip 0 for 60 updates of 1/60 s and compares every mesh's vertices with [reference]'s. */
static int same_frames(P2lRig *rig, P2lRig *reference) {
  uint32_t frame, m, meshes = p2l_mesh_count(rig);
  if (meshes != p2l_mesh_count(reference) || p2l_clip_count(rig) == 0) return 0;
  p2l_play(rig, 0);
  p2l_play(reference, 0);
  for (frame = 0; frame < 60; ++frame) {
    p2l_update(rig, 1.0f / 60);
    p2l_update(reference, 1.0f / 60);
    for (m = 0; m < meshes; ++m) {
      size_t bytes = sizeof(float) * 2 * p2l_mesh_vertex_count(rig, m);
      if (memcmp(p2l_mesh_vertices(rig, m), p2l_mesh_vertices(reference, m), bytes) != 0) {
        fprintf(stderr, "frame %u, mesh %s: vertices differ\n", (unsigned)frame, p2l_mesh_id(rig, m));
        return 0;
      }
    }
  }
  return 1;
}

/* Imports through [files] and expects a failure whose message holds [words]. */
static void refused(struct Files *files, const char *model, const char *words, const char *what) {
  char error[512] = {0};
  P2lRig *rig = p2l_rig_import_cubism_with(model, read_from_memory, files, 0, error, sizeof error);
  check(rig == NULL, what);
  check(strstr(error, words) != NULL, what);
  if (strstr(error, words) == NULL) fprintf(stderr, "  the error was: %s\n", error);
  p2l_rig_free(rig);
}

int main(int argc, char **argv) {
  char path[4096], error[512] = {0};
  size_t size = 0;
  uint8_t *imported;
  P2lRig *from_path, *from_memory, *reference, *reference2;
  P2lModel *model;
  struct Files files;
  if (argc != 4) {
    fprintf(stderr, "usage: %s MODEL_FOLDER MODEL3_JSON_NAME IMPORTED.p2lrt\n", argv[0]);
    return 2;
  }
  snprintf(path, sizeof path, "%s/%s", argv[1], argv[2]);
  imported = read_file(argv[3], &size);
  if (imported == NULL) {
    printf("skipped: %s is not there\n", argv[3]);
    return 77;
  }
  /* One reference rig for each import: each plays alongside its own. */
  reference = p2l_rig_load(imported, size, error, sizeof error);
  reference2 = p2l_rig_load(imported, size, error, sizeof error);
  free(imported);
  check(reference != NULL && reference2 != NULL, "p2l_rig_load of the imported file");

  from_path = p2l_rig_import_cubism(path, 0, error, sizeof error);
  check(from_path != NULL, "p2l_rig_import_cubism from the path");
  if (from_path == NULL) fprintf(stderr, "  %s\n", error);
  check(p2l_import_report_count(from_path) > 0, "the import report has lines");
  check(p2l_import_report_line(from_path, p2l_import_report_count(from_path)) == NULL, "no line past the end");

  memset(&files, 0, sizeof files);
  files.folder = argv[1];
  from_memory = p2l_rig_import_cubism_with(argv[2], read_from_memory, &files, 0, error, sizeof error);
  free(files.last);
  files.last = NULL;
  check(from_memory != NULL, "p2l_rig_import_cubism_with from memory");
  check(files.calls > 2, "the reader was asked for the side files");

  if (reference != NULL && reference2 != NULL && from_path != NULL && from_memory != NULL) {
    check(same_frames(from_path, reference), "the path import plays as p2lrt import + p2l_rig_load");
    check(same_frames(from_memory, reference2), "the memory import plays as p2lrt import + p2l_rig_load");
    check(p2l_import_report_count(from_memory) == p2l_import_report_count(from_path), "the same report both ways");
  }
  model = p2l_model_import_cubism(path, 0, error, sizeof error);
  check(model != NULL && p2l_model_import_report_count(model) == p2l_import_report_count(from_path),
        "p2l_model_import_cubism, and its report");
  p2l_model_free(model);

  /* What goes wrong reads as such, and gives no handle. */
  memset(&files, 0, sizeof files);
  files.folder = argv[1];
  files.refuse = "haru_greeter_t03.physics3.json";
  refused(&files, argv[2], "haru_greeter_t03.physics3.json: no such file", "a missing side file");
  memset(&files, 0, sizeof files);
  files.folder = argv[1];
  files.replace = "haru_greeter_t03.moc3";
  files.replacement = "MOC3 and nothing of what a moc3 holds";
  refused(&files, argv[2], "haru_greeter_t03.moc3: ", "a damaged moc3");
  memset(&files, 0, sizeof files);
  files.folder = argv[1];
  files.replace = argv[2];
  files.replacement = "this is not JSON";
  refused(&files, argv[2], "not valid JSON", "a model3.json that is not JSON");
  free(files.last);
  check(p2l_rig_import_cubism("/no/such/model.model3.json", 0, error, sizeof error) == NULL &&
            strstr(error, "model.model3.json: no such file") != NULL,
        "a path that is not there");
  check(p2l_rig_import_cubism(path, 128, error, sizeof error) == NULL && strstr(error, "Unknown import flags") != NULL,
        "unknown flags");

  p2l_rig_free(from_path);
  p2l_rig_free(from_memory);
  p2l_rig_free(reference);
  p2l_rig_free(reference2);
  printf("p2l_capi_import_cubism: %s (%d failed)\n", failures == 0 ? "every check passed" : "FAILED", failures);
  return failures == 0 ? 0 : 1;
}
