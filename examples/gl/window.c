/* A window that shows a .p2lrt character with p2l_gl: GLFW opens an OpenGL 3.3 core window, the
 * rig plays its first clip, and each frame p2l_update evaluates it and p2l_gl_draw draws it,
 * framed to fit the window. Esc closes it.
 *
 *   p2l_gl_window MODEL.p2lrt              a window
 *   p2l_gl_window MODEL.p2lrt --png F.png  one 512 x 512 frame into F.png, then exit (CI runs this
 *                                          under Xvfb: scripts/test.sh)
 */
#include <epoxy/gl.h> /* before GLFW, which then includes no GL header of its own */
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stb/stb_image_write.h>

#include "p2l/p2l.h"
#include "p2l/p2l_gl.h"

static unsigned char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *bytes = n > 0 ? malloc((size_t)n) : NULL;
  if (bytes && fread(bytes, 1, (size_t)n, f) != (size_t)n) {
    free(bytes);
    bytes = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return bytes;
}

/* The window's pixels (premultiplied, rows bottom first) as a PNG, top row first. */
static bool write_png(const char *path, int width, int height) {
  unsigned char *pixels = malloc((size_t)width * (size_t)height * 4);
  if (!pixels) return false;
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  stbi_flip_vertically_on_write(1);
  bool ok = stbi_write_png(path, width, height, 4, pixels, width * 4) != 0;
  free(pixels);
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 2 && !(argc == 4 && strcmp(argv[2], "--png") == 0)) {
    fprintf(stderr, "usage: %s MODEL.p2lrt [--png FRAME.png]\n", argv[0]);
    return 2;
  }
  const char *png = argc == 4 ? argv[3] : NULL;
  size_t size = 0;
  unsigned char *bytes = read_file(argv[1], &size);
  char error[512] = "cannot be read";
  P2lRig *rig = bytes ? p2l_rig_load(bytes, size, error, sizeof error) : NULL;
  free(bytes);
  if (!rig) {
    fprintf(stderr, "%s: %s\n", argv[1], error);
    return 1;
  }
  if (!glfwInit()) {
    fprintf(stderr, "no display to open a window on (set DISPLAY, or run under xvfb-run)\n");
    return 1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_VISIBLE, png ? GLFW_FALSE : GLFW_TRUE);
  GLFWwindow *window = glfwCreateWindow(512, 512, "p2l_gl", NULL, NULL);
  if (!window) {
    fprintf(stderr, "no OpenGL 3.3 core context on this display\n");
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);
  P2lGl *gl = p2l_gl_create(rig, error, sizeof error);
  if (!gl) {
    fprintf(stderr, "%s\n", error);
    glfwTerminate();
    return 1;
  }
  if (p2l_clip_count(rig) > 0) p2l_play(rig, 0);
  int status = 0;
  double last = glfwGetTime();
  while (!glfwWindowShouldClose(window)) {
    const double now = glfwGetTime();
    p2l_update(rig, png ? 0.0f : (float)(now - last));
    last = now;
    int width = 0, height = 0;
    glfwGetFramebufferSize(window, &width, &height);
    float transform[6];
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glClearColor(0.93f, 0.94f, 0.96f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    if (p2l_framing(rig, (uint32_t)width, (uint32_t)height, P2L_FRAME_DRAWN, 0.04f, transform) &&
        !p2l_gl_draw(gl, rig, (uint32_t)width, (uint32_t)height, transform, 0)) {
      fprintf(stderr, "%s\n", p2l_gl_failure(gl));
      status = 1;
      break;
    }
    if (png) {
      status = write_png(png, width, height) ? 0 : 1;
      if (status) fprintf(stderr, "%s: cannot be written\n", png);
      break;
    }
    glfwSwapBuffers(window);
    glfwPollEvents();
    if (glfwGetKey(window, GLFW_KEY_ESCAPE) == GLFW_PRESS) glfwSetWindowShouldClose(window, GLFW_TRUE);
  }
  p2l_gl_destroy(gl);
  glfwDestroyWindow(window);
  glfwTerminate();
  p2l_rig_free(rig);
  return status;
}
