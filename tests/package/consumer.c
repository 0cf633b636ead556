/* An out-of-tree C99 host of an installed p2lrt, built with `pkg-config --cflags --libs p2l`
 * (tests/package/run.sh). It loads a rig, sets a parameter by id, evaluates, and prints every
 * mesh's vertices; the C++ consumer prints the same through the C++ API, and run.sh checks that
 * the two agree. It also renders one frame and checks that something was drawn.
 * Usage: p2l_consumer_c FILE.p2lrt PARAMETER VALUE */
#include <stdio.h>
#include <stdlib.h>

#include <p2l/p2l.h>

static unsigned char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  unsigned char *bytes = NULL;
  long size;
  if (f == NULL) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
    bytes = (unsigned char *)malloc((size_t)size);
    if (bytes != NULL && fread(bytes, 1, (size_t)size, f) != (size_t)size) {
      free(bytes);
      bytes = NULL;
    }
    *len = (size_t)size;
  }
  fclose(f);
  return bytes;
}

int main(int argc, char **argv) {
  char error[256] = "";
  size_t len = 0;
  unsigned char *bytes;
  unsigned char *pixels;
  P2lRig *rig;
  int32_t parameter;
  uint32_t mesh, vertex, drawn = 0, i;

  if (argc != 4) {
    fprintf(stderr, "usage: %s FILE.p2lrt PARAMETER VALUE\n", argv[0]);
    return 2;
  }
  if (!P2L_ABI_COMPATIBLE(p2l_abi_version())) {
    fprintf(stderr, "libp2l's ABI %#x does not serve this header's %#x\n", (unsigned)p2l_abi_version(),
            (unsigned)P2L_ABI_VERSION);
    return 1;
  }
  bytes = read_file(argv[1], &len);
  if (bytes == NULL) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  rig = p2l_rig_load(bytes, len, error, sizeof error);
  free(bytes);
  if (rig == NULL) {
    fprintf(stderr, "%s: %s\n", argv[1], error);
    return 1;
  }
  parameter = p2l_parameter_index(rig, argv[2]);
  if (parameter < 0) {
    fprintf(stderr, "no parameter %s\n", argv[2]);
    p2l_rig_free(rig);
    return 1;
  }
  p2l_set_parameter(rig, (uint32_t)parameter, strtof(argv[3], NULL));
  p2l_evaluate(rig);
  fprintf(stderr, "consumer.c: libp2l %s\n", p2l_version());
  printf("meshes %u, parameters %u\n", p2l_mesh_count(rig), p2l_parameter_count(rig));
  for (mesh = 0; mesh < p2l_mesh_count(rig); ++mesh) {
    const float *xy = p2l_mesh_vertices(rig, mesh);
    printf("%s", p2l_mesh_id(rig, mesh));
    for (vertex = 0; vertex < 2 * p2l_mesh_vertex_count(rig, mesh); ++vertex) printf(" %.9g", xy[vertex]);
    printf("\n");
  }

  /* One 128x128 frame of the whole canvas: the character covers part of it. */
  pixels = (unsigned char *)calloc(128u * 128u * 4u, 1);
  if (pixels == NULL || !p2l_render(rig, pixels, 128, 128, NULL, P2L_RENDER_STRAIGHT)) {
    fprintf(stderr, "p2l_render failed: %s\n", p2l_rig_failure(rig) ? p2l_rig_failure(rig) : "(no reason)");
    free(pixels);
    p2l_rig_free(rig);
    return 1;
  }
  for (i = 0; i < 128u * 128u; ++i) drawn += pixels[4 * i + 3] != 0;
  fprintf(stderr, "consumer.c: %u of %u pixels drawn\n", drawn, 128u * 128u);
  free(pixels);
  p2l_rig_free(rig);
  return drawn > 0 && drawn < 128u * 128u ? 0 : 1;
}
