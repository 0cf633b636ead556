// Prints what p2lrt's .moc reader makes of a file, as JSON, for web/test/cubism2_reader.mjs to
// hold against the Cubism 2.1 runtime: canvas, parameters, and every drawable in the runtime's
// order (parts in file order, each part's meshes in file order) with its texture, vertex count
// and triangles.
//   p2l_moc2_dump MODEL.moc
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "import/cubism2/moc_file.hpp"

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
