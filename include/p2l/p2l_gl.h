/*
 * p2l_gl.h: drawing rigs on the GPU, with OpenGL 3.3 core or OpenGL ES 3.0 (one code path; the
 * functions come through libepoxy), by the rules p2l_render draws them in software: masks with
 * the same coverage, inverted masks, isolated groups (Cubism offscreens), every colour x alpha
 * blend pair, multiply and screen colours, culling, premultiplied alpha (docs/RUNTIME.md,
 * "Rendering"; docs/GL.md). Library: p2l_gl (libp2l_gl.a, CMake p2l::gl) beside libp2l.
 *
 * Every call needs the GL context the renderer was made in to be current on the calling thread.
 * p2l_gl_create makes the renderer for a rig's model: it compiles the programs and uploads the
 * texture pages once. Pages the drawn rig was given with p2l_render_texture (files stored next
 * to the rig, a swapped skin) are drawn in place of the file's, as p2l_render draws them; a
 * p2l_render_texture after the first draw is uploaded at the next one. p2l_gl_draw draws a rig of that model (its last evaluation) into the
 * framebuffer bound for drawing, [width] x [height] pixels, composited over what is there
 * (premultiplied: ONE, ONE_MINUS_SRC_ALPHA), or over transparency with P2L_GL_CLEAR; [transform]
 * maps canvas pixels to the framebuffer's pixels with y down, six floats [a, b, c, d, tx, ty] as
 * p2l_render takes them (p2l_framing makes one; NULL fits the canvas from the top left). It
 * leaves the framebuffer binding as it found it and changes the viewport, the program, the vertex
 * array, texture bindings and the blend, cull and test states. Vertex buffers follow the rig's
 * change flags of its last evaluation: draw after every evaluation, or pass P2L_GL_UPLOAD_ALL.
 * After the first frame at a size no GL object is made and nothing is allocated.
 * p2l_gl_context_lost forgets every object of a context that is gone (nothing is deleted); the
 * next draw makes them again in the current one. p2l_gl_destroy deletes every object it made.
 */
#ifndef P2L_P2L_GL_H
#define P2L_P2L_GL_H

#include "p2l/p2l.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct P2lGl P2lGl;

#define P2L_GL_CLEAR 1u
#define P2L_GL_UPLOAD_ALL 2u

/* NULL, with a message in [error] (cut to [error_capacity]), for a NULL or failed rig, a context
 * older than OpenGL 3.3 / ES 3.0, or a program that does not build. */
P2L_API P2lGl *p2l_gl_create(const P2lRig *rig, char *error, size_t error_capacity);
/* False, drawing nothing, for a NULL renderer or rig, a rig of another model, a zero size or
 * more than 2^28 pixels, or a framebuffer the context cannot make (p2l_gl_failure says why). */
P2L_API bool p2l_gl_draw(P2lGl *gl, const P2lRig *rig, uint32_t width, uint32_t height, const float *transform,
                         uint32_t flags);
/* Why the last p2l_gl_draw failed ("" after one that did not); valid until the next call. */
P2L_API const char *p2l_gl_failure(const P2lGl *gl);
P2L_API void p2l_gl_context_lost(P2lGl *gl);
P2L_API void p2l_gl_destroy(P2lGl *gl);

#ifdef __cplusplus
}
#endif

#endif /* P2L_P2L_GL_H */
