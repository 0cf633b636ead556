#include "gl/programs.hpp"

#include <cstring>

namespace p2l::gl {
namespace {

const char* const kNames[kProgramCount] = {"meshFixed", "meshBackdrop", "layerFixed", "layerBackdrop", "maskCoverage",
                                           "present"};

// The same sources on both: GLSL ES 3.00 and GLSL 3.30 core read them alike.
const char* version_line() { return epoxy_is_desktop_gl() ? "#version 330 core\n" : "#version 300 es\n"; }

std::string log_of(GLuint object, bool program) {
  GLint length = 0;
  program ? glGetProgramiv(object, GL_INFO_LOG_LENGTH, &length) : glGetShaderiv(object, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<std::size_t>(length > 1 ? length : 1), '\0');
  GLsizei written = 0;
  program ? glGetProgramInfoLog(object, length, &written, log.data()) : glGetShaderInfoLog(object, length, &written, log.data());
  log.resize(static_cast<std::size_t>(written));
  return log;
}

GLuint compile(GLenum type, const std::string& text, const std::string& what, std::string& error) {
  const GLuint shader = glCreateShader(type);
  const char* parts[2] = {version_line(), text.c_str()};
  glShaderSource(shader, 2, parts, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    error = "p2l_gl: the " + what + " shader does not compile: " + log_of(shader, false);
    glDeleteShader(shader);
    return 0;
  }
  return shader;
}

}  // namespace

bool build_programs(Program (&out)[kProgramCount], std::string& error) {
  for (int p = 0; p < kProgramCount; ++p) {
    const ProgramSource* source = nullptr;
    for (const ProgramSource& s : program_sources())
      if (std::strcmp(s.name, kNames[p]) == 0) source = &s;
    if (source == nullptr) {
      error = std::string("p2l_gl: no program ") + kNames[p] + " in src/gl/shaders/programs.txt";
      return false;
    }
    const GLuint vs = compile(GL_VERTEX_SHADER, source->vertex, std::string(kNames[p]) + " vertex", error);
    const GLuint fs = vs ? compile(GL_FRAGMENT_SHADER, source->fragment, std::string(kNames[p]) + " fragment", error) : 0;
    if (!vs || !fs) {
      if (vs) glDeleteShader(vs);
      return false;
    }
    Program& program = out[p];
    program.id = glCreateProgram();
    glAttachShader(program.id, vs);
    glAttachShader(program.id, fs);
    glBindAttribLocation(program.id, kAttributePosition, "aPosition");
    glBindAttribLocation(program.id, kAttributeUv, "aUv");
    glLinkProgram(program.id);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = GL_FALSE;
    glGetProgramiv(program.id, GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE) {
      error = std::string("p2l_gl: the ") + kNames[p] + " program does not link: " + log_of(program.id, true);
      return false;
    }
    const GLuint id = program.id;
    program.row0 = glGetUniformLocation(id, "uRow0");
    program.row1 = glGetUniformLocation(id, "uRow1");
    program.size = glGetUniformLocation(id, "uSize");
    program.multiply = glGetUniformLocation(id, "uMultiply");
    program.screen = glGetUniformLocation(id, "uScreen");
    program.opacity = glGetUniformLocation(id, "uOpacity");
    program.blend = glGetUniformLocation(id, "uBlend");
    program.alpha_blend = glGetUniformLocation(id, "uAlphaBlend");
    program.mask_mode = glGetUniformLocation(id, "uMaskMode");
    glUseProgram(id);
    const struct {
      const char* name;
      GLint unit;
    } samplers[] = {{"uPage", kUnitPage}, {"uBackdrop", kUnitBackdrop}, {"uLayer", kUnitLayer}, {"uMask", kUnitMask},
                    {"uFrame", kUnitFrame}};
    for (const auto& s : samplers)
      if (const GLint at = glGetUniformLocation(id, s.name); at >= 0) glUniform1i(at, s.unit);
  }
  glUseProgram(0);
  return true;
}

void delete_programs(Program (&programs)[kProgramCount]) {
  for (Program& p : programs) {
    if (p.id) glDeleteProgram(p.id);
    p = Program{};
  }
}

}  // namespace p2l::gl
