// p2l_gl's objects and memory, headless (llvmpipe through EGL): a frame after the first makes no
// allocation (operator new counted: p2l_gl's own, and anything of the driver's in C++); 1,000
// create/draw/destroy cycles leave no live GL object (every texture, buffer, framebuffer, vertex
// array, program and shader name the context knows is counted before and after); and after a
// lost context, the same renderer draws the same frame in a new one.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "counting_allocator.hpp"
#include "egl_context.hpp"
#include "p2l/p2l.h"
#include "p2l/p2l_gl.h"

namespace {

std::vector<std::uint8_t> character() {
  std::ifstream in(std::string(P2L_SOURCE_DIR) + "/examples/character/character.p2lrt", std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Every GL object name from 1 to [up_to] that the current context says is an object.
std::size_t live_objects(GLuint up_to = 1 << 14) {
  std::size_t n = 0;
  for (GLuint name = 1; name <= up_to; ++name)
    n += glIsTexture(name) + glIsBuffer(name) + glIsFramebuffer(name) + glIsVertexArray(name) + glIsProgram(name) +
         glIsShader(name) + glIsRenderbuffer(name);
  return n;
}

struct Rig {
  P2lRig* rig = nullptr;
  Rig() {
    const std::vector<std::uint8_t> bytes = character();
    rig = p2l_rig_load(bytes.data(), bytes.size(), nullptr, 0);
  }
  ~Rig() { p2l_rig_free(rig); }
};

TEST(GlResources, NoAllocationAfterTheFirstFrame) {
  p2l_test::EglContext context(false);
  if (!context.ok()) GTEST_SKIP() << context.why();
  Rig r;
  ASSERT_NE(r.rig, nullptr);
  P2lGl* gl = p2l_gl_create(r.rig, nullptr, 0);
  ASSERT_NE(gl, nullptr);
  context.target(400, 300);
  p2l_play(r.rig, 0);
  std::size_t drawn = 0;
  for (int frame = 0; frame < 60; ++frame) {
    p2l_update(r.rig, 1.0f / 30.0f);
    const std::size_t before = p2l_test::allocation_count();
    ASSERT_TRUE(p2l_gl_draw(gl, r.rig, 400, 300, nullptr, P2L_GL_CLEAR)) << p2l_gl_failure(gl);
    // The first frames make the surfaces (and the driver its shader variants).
    if (frame >= 2) EXPECT_EQ(p2l_test::allocation_count() - before, 0u) << "frame " << frame;
    ++drawn;
  }
  EXPECT_EQ(drawn, 60u);
  p2l_gl_destroy(gl);
}

TEST(GlResources, AThousandCyclesLeaveNoObject) {
  p2l_test::EglContext context(false);
  if (!context.ok()) GTEST_SKIP() << context.why();
  Rig r;
  ASSERT_NE(r.rig, nullptr);
  context.target(96, 96);
  const std::size_t before = live_objects();
  std::size_t most = 0;
  for (int cycle = 0; cycle < 1000; ++cycle) {
    P2lGl* gl = p2l_gl_create(r.rig, nullptr, 0);
    ASSERT_NE(gl, nullptr);
    ASSERT_TRUE(p2l_gl_draw(gl, r.rig, 96, 96, nullptr, 0)) << p2l_gl_failure(gl);
    if (cycle == 0) most = live_objects();
    p2l_gl_destroy(gl);
  }
  const std::size_t after = live_objects();
  std::printf("gl_resources: %zu GL objects before, %zu while a renderer lived, %zu after 1000 cycles\n", before, most, after);
  EXPECT_GT(most, before + 10) << "the count sees the renderer's objects";
  EXPECT_EQ(after, before);
}

TEST(GlResources, ALostContextIsMadeAgain) {
  Rig r;
  ASSERT_NE(r.rig, nullptr);
  std::vector<std::uint8_t> first;
  P2lGl* gl = nullptr;
  {
    p2l_test::EglContext lost(false);
    if (!lost.ok()) GTEST_SKIP() << lost.why();
    gl = p2l_gl_create(r.rig, nullptr, 0);
    ASSERT_NE(gl, nullptr);
    lost.target(200, 160);
    ASSERT_TRUE(p2l_gl_draw(gl, r.rig, 200, 160, nullptr, 0));
    first = lost.read();
    p2l_gl_context_lost(gl);  // the context goes, and every object with it
  }
  p2l_test::EglContext fresh(false);
  ASSERT_TRUE(fresh.ok());
  fresh.target(200, 160);
  const std::size_t before = live_objects();
  ASSERT_TRUE(p2l_gl_draw(gl, r.rig, 200, 160, nullptr, 0)) << p2l_gl_failure(gl);
  EXPECT_TRUE(fresh.read() == first) << "the same frame in the new context";
  p2l_gl_destroy(gl);
  EXPECT_EQ(live_objects(), before);
}

}  // namespace
