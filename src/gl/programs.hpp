// The GPU programs of p2l_gl, compiled from the GLSL the WebGL2 player shares
// (src/gl/shaders/, embedded by cmake/gl_shaders.cmake), with the uniform locations the
// renderer sets.
#pragma once

#include <epoxy/gl.h>

#include <string>
#include <vector>

namespace p2l::gl {

struct ProgramSource {
  const char* name;
  std::string vertex, fragment;  // without a #version line
};
const std::vector<ProgramSource>& program_sources();  // gl_shaders.cpp, generated

// Attribute locations, fixed so that one vertex array per mesh serves every program.
inline constexpr GLuint kAttributePosition = 0, kAttributeUv = 1;
// Texture units.
inline constexpr GLint kUnitPage = 0, kUnitBackdrop = 1, kUnitLayer = 2, kUnitMask = 3, kUnitFrame = 4;

struct Program {
  GLuint id = 0;
  GLint row0 = -1, row1 = -1, size = -1, multiply = -1, screen = -1, opacity = -1, blend = -1, alpha_blend = -1,
        mask_mode = -1;
};

enum ProgramName { kMeshFixed, kMeshBackdrop, kLayerFixed, kLayerBackdrop, kMaskCoverage, kPresent, kProgramCount };

// Compiles and links every program for the current context (GLSL ES 3.00 on OpenGL ES,
// GLSL 3.30 core on desktop OpenGL); false with [error] naming the program and the log.
bool build_programs(Program (&out)[kProgramCount], std::string& error);
void delete_programs(Program (&programs)[kProgramCount]);

}  // namespace p2l::gl
