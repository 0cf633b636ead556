// Prints what p2lrt's Cubism 2 readers make of a file, as JSON, for web/test/cubism2_reader.mjs
// to hold against the Cubism 2.1 runtime. A .moc: canvas, parameters, and every drawable in the
// runtime's order (parts in file order, each part's meshes in file order) with its texture,
// vertex count and triangles. A .mtn: frame rate, frames, duration and every curve.
//   p2l_moc2_dump MODEL.moc | MOTION.mtn
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "import/cubism2/moc_file.hpp"
#include "import/cubism2/mtn_file.hpp"

namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s MODEL.moc\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  const std::string path = argv[1];
  if (path.size() > 4 && path.substr(path.size() - 4) == ".mtn") {
    p2l::cubism2::Mtn mtn;
    p2l::Error error;
    if (!p2l::cubism2::read_mtn(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), mtn, error)) {
      std::fprintf(stderr, "%s: %s\n", argv[1], error.to_string().c_str());
      return 1;
    }
    std::printf("{\"fps\":%.9g,\"frames\":%u,\"duration\":%u,\"curves\":[", static_cast<double>(mtn.fps), mtn.frames,
                mtn.duration_ms());
    for (std::size_t c = 0; c < mtn.curves.size(); ++c) {
      const auto& curve = mtn.curves[c];
      // Named as the runtime names them: a part's visibility with its prefix, a layout curve
      // without (X, SCALE_X).
      const char* prefix = curve.kind == p2l::cubism2::CurveKind::Visible ? "VISIBLE:" : "";
      std::printf("%s{\"id\":%s,\"values\":[", c ? "," : "", quoted(prefix + curve.id).c_str());
      for (std::size_t i = 0; i < curve.values.size(); ++i) std::printf("%s%.9g", i ? "," : "", static_cast<double>(curve.values[i]));
      std::printf("]}");
    }
    std::printf("]}\n");
    return 0;
  }
  p2l::cubism2::Moc moc;
  p2l::Error error;
  if (!p2l::cubism2::read_moc(bytes, moc, error)) {
    std::fprintf(stderr, "%s: %s\n", argv[1], error.to_string().c_str());
    return 1;
  }
  std::printf("{\"version\":%d,\"canvas\":[%d,%d],\"parameters\":[", moc.version, moc.canvas_width, moc.canvas_height);
  for (std::size_t i = 0; i < moc.parameters.size(); ++i) {
    const auto& p = moc.parameters[i];
    std::printf("%s{\"id\":%s,\"min\":%.9g,\"max\":%.9g,\"value\":%.9g}", i ? "," : "", quoted(p.id).c_str(),
                static_cast<double>(p.min), static_cast<double>(p.max), static_cast<double>(p.value));
  }
  std::printf("],\"drawables\":[");
  bool first = true;
  for (const auto& part : moc.parts) {
    for (const auto& m : part.meshes) {
      std::printf("%s{\"id\":%s,\"texture\":%d,\"vertices\":%u,\"indices\":[", first ? "" : ",", quoted(m.id).c_str(), m.texture,
                  m.vertex_count);
      for (std::size_t i = 0; i < m.indices.size(); ++i) std::printf("%s%u", i ? "," : "", unsigned{m.indices[i]});
      std::printf("]}");
      first = false;
    }
  }
  std::printf("]}\n");
  return 0;
}
