/* A C99 host of libp2l.so: loads the compatibility vector chain.p2lrt, poses it as the
 * original runtime's run "chain.a" did, and compares a few outputs with what the original
 * computed (expected/chain.a.c.json). Then NULL handles and out-of-range indices.
 * Usage: p2l_capi_c99_smoke PATH/chain.p2lrt; exits 77 (skipped) when the file is absent. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2l/p2l.h"
#include "p2l/p2l_speech.h"

static int failures = 0;

#define CHECK(cond)                                                                    \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);         \
      ++failures;                                                                      \
    }                                                                                  \
  } while (0)

#define CHECK_NEAR(a, b, tolerance) CHECK(fabs((double)(a) - (double)(b)) <= (tolerance))

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

static int log_calls = 0;
static int log_level = -1;
static void on_log(int32_t level, const char *message, void *user) {
  ++log_calls;
  log_level = level;
  CHECK(message != NULL && message[0] != '\0');
  CHECK(user == (void *)&log_calls);
}

/* Every kind of function on a NULL rig: zeros, NULL, -1 where the original gives -1. */
static void null_handles(void) {
  float f = 5.0f, rgb[3] = {5.0f, 5.0f, 5.0f};
  uint32_t u = 5u, out[4] = {9u, 9u, 9u, 9u};
  int32_t i = 5, commands[2] = {9, 9};
  bool b = true;
  const char *s = "unchanged";
  size_t len = 5u;
  const uint8_t *data = NULL;
  P2lRig *rig = NULL;

  CHECK(p2l_rig_failure(NULL) == NULL);
  p2l_canvas(NULL, &f, &f);
  p2l_canvas_origin(NULL, &f, &f, &f);
  CHECK(f == 5.0f);
  CHECK(p2l_parameter_count(NULL) == 0u);
  CHECK(p2l_parameter_id(NULL, 0) == NULL);
  CHECK(p2l_parameter_name(NULL, 0) == NULL);
  CHECK(p2l_parameter_index(NULL, "ParamAngleX") == -1);
  CHECK(!p2l_parameter_range(NULL, 0, &f, &f, &f));
  CHECK(p2l_parameter_flags(NULL, 0) == 0u);
  CHECK(p2l_parameter_snaps(NULL, 0, &f, 1) == 0u);
  CHECK(p2l_parameter_values(rig) == NULL);
  CHECK(p2l_parameter_current(NULL) == NULL);
  p2l_set_parameter(NULL, 0, 1.0f);
  CHECK(p2l_role_parameters(NULL, "EyeBlink", out, 4) == 0u);
  CHECK(p2l_gui_joysticks(NULL, out, 2) == 0u);
  CHECK(p2l_gui_node_count(NULL) == 0u);
  CHECK(!p2l_gui_node(NULL, 0, &i, &u, &b));
  CHECK(p2l_gui_node_id(NULL, 0) == NULL && p2l_gui_node_name(NULL, 0) == NULL);
  CHECK(p2l_gui_node_label(NULL, 0, &s, &u) == -1);
  p2l_evaluate(NULL);
  p2l_set_opacity(NULL, 0.5f);
  CHECK(p2l_opacity(NULL) == 0.0f);
  CHECK(!p2l_set_mesh_colors(NULL, 0, rgb, rgb) && !p2l_set_part_colors(NULL, 0, rgb, NULL));
  CHECK(p2l_mesh_count(NULL) == 0u);
  CHECK(p2l_mesh_id(NULL, 0) == NULL && p2l_mesh_name(NULL, 0) == NULL);
  CHECK(p2l_mesh_vertex_count(NULL, 0) == 0u);
  CHECK(p2l_mesh_uvs(NULL, 0) == NULL);
  CHECK(p2l_mesh_indices(NULL, 0, &u) == NULL);
  CHECK(p2l_mesh_texture(NULL, 0) == -1);
  CHECK(p2l_mesh_blend(NULL, 0, &b) == 0 && p2l_mesh_alpha_blend(NULL, 0) == 0);
  CHECK(p2l_mesh_part(NULL, 0) == -1);
  CHECK(p2l_mesh_masks(NULL, 0, out, 4, &b) == 0u);
  CHECK(p2l_mesh_vertices(NULL, 0) == NULL);
  CHECK(p2l_mesh_opacity(NULL, 0) == 0.0f && p2l_mesh_draw_order(NULL, 0) == 0.0f);
  p2l_mesh_colors(NULL, 0, rgb, rgb);
  CHECK(rgb[0] == 5.0f);
  CHECK(p2l_mesh_changes(NULL, 0) == 0u);
  CHECK(p2l_render_order(NULL, out, 4) == 0u && out[0] == 9u);
  CHECK(p2l_render_commands(NULL, commands, 2) == 0u && commands[0] == 9);
  CHECK(p2l_part_count(NULL) == 0u);
  CHECK(p2l_part_id(NULL, 0) == NULL && p2l_part_name(NULL, 0) == NULL);
  CHECK(p2l_part_parent(NULL, 0) == -1);
  CHECK(p2l_part_flags(NULL, 0) == 0u);
  CHECK(p2l_part_group(NULL, 0, &i, &i, &b) == -1);
  CHECK(p2l_part_masks(NULL, 0, out, 4) == 0u);
  CHECK(!p2l_part_composite(NULL, 0, &f, rgb, rgb));
  CHECK(p2l_part_opacity(NULL, 0) == 0.0f);
  CHECK(!p2l_set_part_opacity(NULL, 0, 0.5f));
  CHECK(p2l_hit_area_count(NULL) == 0u);
  CHECK(p2l_hit_area_id(NULL, 0) == NULL && p2l_hit_area_name(NULL, 0) == NULL);
  CHECK(p2l_hit_test(NULL, 0.0f, 0.0f) == -1);
  CHECK(p2l_hit_area_meshes(NULL, 0, out, 4) == 0u);
  CHECK(p2l_mesh_user_data(NULL, 0) == NULL);
  CHECK(p2l_meta_count(NULL) == 0u && p2l_meta_key(NULL, 0) == NULL && p2l_meta_value(NULL, 0) == NULL);
  CHECK(p2l_texture_count(NULL) == 0u);
  CHECK(p2l_texture_png(NULL, 0, &len, &u, &u) == NULL);
  CHECK(p2l_texture_info(NULL, 0, &i, &u, &u, &data, &len) == NULL);
  CHECK(i == 5 && u == 5u && len == 5u && s != NULL && b);
  p2l_rig_free(NULL);
  p2l_model_free(NULL);
}

/* Out-of-range indices on a working rig. */
static void out_of_range(const P2lRig *rig) {
  const uint32_t n = 1000u;
  float f = 5.0f, rgb[3] = {5.0f, 5.0f, 5.0f};
  uint32_t u = 5u;
  int32_t i = 5;
  bool b = true;
  size_t len = 5u;
  const uint8_t *data = NULL;
  const char *s = NULL;

  CHECK(p2l_parameter_id(rig, n) == NULL && p2l_parameter_name(rig, n) == NULL);
  CHECK(p2l_parameter_index(rig, "NoSuchParameter") == -1 && p2l_parameter_index(rig, NULL) == -1);
  CHECK(!p2l_parameter_range(rig, n, &f, &f, &f) && f == 5.0f);
  CHECK(p2l_gui_node_label(rig, n, &s, &u) == -1);
  CHECK(!p2l_gui_node(rig, n, &i, &u, &b));
  CHECK(p2l_mesh_id(rig, n) == NULL && p2l_mesh_name(rig, n) == NULL);
  CHECK(p2l_mesh_vertex_count(rig, n) == 0u);
  CHECK(p2l_mesh_uvs(rig, n) == NULL);
  CHECK(p2l_mesh_indices(rig, n, &u) == NULL && u == 0u);
  CHECK(p2l_mesh_texture(rig, n) == -1);
  CHECK(p2l_mesh_blend(rig, n, &b) == -1 && p2l_mesh_alpha_blend(rig, n) == -1);
  CHECK(p2l_mesh_part(rig, n) == -1);
  CHECK(p2l_mesh_vertices(rig, n) == NULL);
  CHECK(isnan(p2l_mesh_opacity(rig, n)) && isnan(p2l_mesh_draw_order(rig, n)));
  p2l_mesh_colors(rig, n, rgb, rgb);
  CHECK(rgb[0] == 5.0f);
  CHECK(p2l_mesh_changes(rig, n) == 0u);
  CHECK(p2l_part_id(rig, n) == NULL && p2l_part_parent(rig, n) == -1);
  CHECK(p2l_part_group(rig, n, &i, &i, &b) == -1);
  CHECK(!p2l_part_composite(rig, n, &f, rgb, rgb));
  CHECK(isnan(p2l_part_opacity(rig, n)));
  CHECK(p2l_hit_area_id(rig, n) == NULL && p2l_mesh_user_data(rig, n) == NULL);
  CHECK(p2l_meta_key(rig, n) == NULL && p2l_meta_value(rig, n) == NULL);
  CHECK(p2l_texture_png(rig, n, &len, &u, &u) == NULL && len == 0u);
  CHECK(p2l_texture_info(rig, n, &i, &u, &u, &data, &len) == NULL && i == -1);
}

/* p2l_speech.h from C99: a tone pushed as 16-bit PCM opens the rig's mouth by Cubism's RMS;
 * refusals say why; a NULL speech is a no-op. */
static void speech(P2lRig *rig) {
  char error[256] = "";
  int16_t tone[1600];
  float weights[6] = {0, 0, 0, 0, 0, 0};
  int i;
  P2lSpeech *voice = p2l_speech_create(16000, 1, P2L_SPEECH_VOWELS, error, sizeof error);
  CHECK(voice != NULL);
  if (voice == NULL) return;
  for (i = 0; i < 1600; ++i) tone[i] = (int16_t)(i % 2 ? 16384 : -16384); /* a square wave at half scale */
  CHECK(p2l_speech_push(voice, tone, 1600, P2L_PCM_S16));
  CHECK(!p2l_speech_push(voice, tone, 4, 99u));
  CHECK(strstr(p2l_speech_error(voice), "format") != NULL);
  p2l_speech_update(voice, 0.05);
  /* Cubism's scaling: (16384 << 16) / (2^31 - 1), squared and rooted. */
  CHECK_NEAR(p2l_speech_level(voice), 16384.0 * 65536.0 / 2147483647.0, 1e-6);
  CHECK(p2l_speech_vowels(voice, weights) <= P2L_VOWEL_SILENCE);
  CHECK_NEAR(weights[0] + weights[1] + weights[2] + weights[3] + weights[4] + weights[5], 1.0, 1e-5);
  CHECK_NEAR(p2l_speech_time(voice), 0.05, 1e-9);
  CHECK(p2l_set_lip_mix(rig, P2L_LIP_SET));
  CHECK(p2l_lip_mix(rig) == P2L_LIP_SET);
  CHECK(!p2l_set_lip_mix(rig, 7u));
  p2l_speak(rig, voice);
  p2l_speech_free(voice);
  CHECK(p2l_speech_create(100, 1, 0, error, sizeof error) == NULL);
  CHECK(strstr(error, "out of range") != NULL);
  CHECK(p2l_speech_load_file("/no/such/voice.wav", 0, error, sizeof error) == NULL);
  CHECK(strstr(error, "voice.wav") != NULL);
  p2l_speech_update(NULL, 1.0);
  CHECK(p2l_speech_level(NULL) == 0.0f);
  CHECK(!p2l_speech_push(NULL, tone, 1, P2L_PCM_S16));
  p2l_speech_free(NULL);
}

int main(int argc, char **argv) {
  static const uint32_t expected_order[] = {4u, 2u, 1u, 0u};
  static const int32_t expected_commands[] = {4, -3, 2, -1, 1, 0};
  char error[256];
  size_t len = 0;
  unsigned char *bytes;
  P2lRig *rig;
  uint32_t order[8], k;
  int32_t commands[8];
  const float *vertices;
  int32_t m1;

  if (argc < 2) {
    fprintf(stderr, "usage: %s chain.p2lrt\n", argv[0]);
    return 2;
  }
  CHECK(P2L_ABI_COMPATIBLE(p2l_abi_version()));
  CHECK(p2l_abi_version() == ((1u << 16) | 4u));
  CHECK(p2l_version() != NULL && strchr(p2l_version(), '.') != NULL);
  CHECK(strncmp(p2l_format_support(), "1,2 STRS/1", 10) == 0);
  CHECK(!p2l_set_allocator(NULL, NULL, NULL));
  CHECK(P2L_RENDER_IS_GROUP(P2L_RENDER_BEGIN_GROUP(1)) && P2L_RENDER_GROUP_PART(P2L_RENDER_BEGIN_GROUP(1)) == 1u);
  null_handles();

  /* Failed loads come back with a message and reach the log. */
  p2l_set_log(on_log, &log_calls);
  CHECK(p2l_rig_load(NULL, 0, error, sizeof error) == NULL && strcmp(error, "No rig bytes") == 0);
  CHECK(p2l_rig_load((const uint8_t *)"not a rig", 9, error, sizeof error) == NULL && error[0] != '\0');
  CHECK(log_calls == 2 && log_level == P2L_LOG_ERROR);
  p2l_set_log(NULL, NULL);

  bytes = read_file(argv[1], &len);
  if (bytes == NULL) {
    fprintf(stderr, "skipped: cannot read %s\n", argv[1]);
    return failures ? 1 : 77;
  }
  error[0] = '\0';
  rig = p2l_rig_load_ex(bytes, len, P2L_LOAD_VERIFY_CRC, error, sizeof error);
  free(bytes); /* the rig keeps its own copy */
  if (rig == NULL) {
    fprintf(stderr, "load failed: %s\n", error);
    return 1;
  }
  CHECK(p2l_rig_failure(rig) == NULL);

  /* The original's run chain.a. */
  p2l_set_parameter(rig, (uint32_t)p2l_parameter_index(rig, "ParamAngleX"), 12.5f);
  p2l_set_parameter(rig, (uint32_t)p2l_parameter_index(rig, "ParamB"), 0.7f);
  p2l_set_parameter(rig, (uint32_t)p2l_parameter_index(rig, "ParamSmile"), 0.4f);
  p2l_parameter_values(rig)[p2l_parameter_index(rig, "ParamSpin")] = 200.0f;
  p2l_evaluate(rig);
  CHECK(p2l_parameter_current(rig)[p2l_parameter_index(rig, "ParamSpin")] == 200.0f);

  CHECK(p2l_render_order(rig, order, 8) == 4u);
  for (k = 0; k < 4; ++k) CHECK(order[k] == expected_order[k]);
  CHECK(p2l_render_commands(rig, commands, 8) == 6u);
  for (k = 0; k < 6; ++k) CHECK(commands[k] == expected_commands[k]);

  m1 = -1;
  for (k = 0; k < p2l_mesh_count(rig); ++k)
    if (strcmp(p2l_mesh_id(rig, k), "M1") == 0) m1 = (int32_t)k;
  CHECK(m1 == 0);
  if (m1 >= 0) {
    CHECK(p2l_mesh_vertex_count(rig, (uint32_t)m1) == 4u);
    CHECK_NEAR(p2l_mesh_opacity(rig, (uint32_t)m1), 0.92, 1e-5);
    CHECK_NEAR(p2l_mesh_draw_order(rig, (uint32_t)m1), 541.6667, 1e-3);
    vertices = p2l_mesh_vertices(rig, (uint32_t)m1);
    CHECK(vertices != NULL);
    if (vertices != NULL) {
      CHECK_NEAR(vertices[0], 145.41667, 1e-3);
      CHECK_NEAR(vertices[1], 144.08333, 1e-3);
    }
    CHECK(p2l_mesh_changes(rig, (uint32_t)m1) == 125u);
  }
  CHECK(p2l_mesh_changes(rig, 3) == 0u); /* M4 is hidden */
  CHECK_NEAR(p2l_mesh_opacity(rig, 1), 0.68629444, 1e-5);

  /* The update pipeline from C: the host's pose stays as set, layers apply over a copy. */
  p2l_behaviors(rig, P2L_BLINK | P2L_BREATH | P2L_LOOK | P2L_LIP_SYNC);
  p2l_behavior_seed(rig, 7u);
  p2l_look_at(rig, 0.5f, -0.25f);
  p2l_play(rig, p2l_clip_count(rig) > 0 ? 0 : -1);
  for (k = 0; k < 30; ++k) p2l_update(rig, 1.0f / 30.0f);
  p2l_update_stages(rig, 0.0f, P2L_STAGE_ALL & ~P2L_STAGE_PHYSICS);
  CHECK(p2l_parameter_values(rig)[p2l_parameter_index(rig, "ParamSpin")] == 200.0f);
  CHECK(p2l_rig_failure(rig) == NULL);

  out_of_range(rig);
  speech(rig);
  p2l_rig_free(rig);

  if (failures) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  puts("c99 smoke: all checks passed");
  return 0;
}
