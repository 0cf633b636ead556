// Prints what p2lrt's Cubism 2 readers make of a file, as JSON, for web/test/cubism2_reader.mjs
// to hold against the Cubism 2.1 runtime. A .moc: canvas, parameters, and every drawable in the
// runtime's order (parts in file order, each part's meshes in file order) with its texture,
// vertex count and triangles. A .mtn: frame rate, frames, duration and every curve.
// With POSES (lines of PARAM_ID and value, all separated by tabs, one pose a line: ids may hold
// spaces, "PARAM_UP DOWN" in a gathered model), the model is imported
// (p2l::cubism2::import_moc) and evaluated at each pose instead: every mesh's canvas-pixel
// vertices, opacity, draw order, whether it is in the render order, and whether an object on its
// chain has five or more axes between keys ("five").
//   p2l_moc2_dump MODEL.moc [POSES] | MOTION.mtn
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "eval/grid.hpp"
#include "import/cubism2/moc_file.hpp"
#include "import/cubism2/moc_import.hpp"
#include "import/cubism2/mtn_file.hpp"
#include "p2l/eval.hpp"

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

// How many axes of [axes] lie between two keys at [values] (Cubism 2's lookup).
template <class Axes>
std::size_t between(const Axes& axes, const std::vector<float>& values) {
  std::size_t n = 0;
  for (const p2l::Axis& a : axes) n += p2l::eval::span_cubism2(a.keys.span(), values[a.parameter]).t != 0.0f ? 1 : 0;
  return n;
}

// Whether the mesh, or a deformer above it, has five or more axes between keys at [values]:
// where the runtime's interpolation is defective (NaN positions, wrong weights) and p2lrt's is
// not, on purpose (docs/RUNTIME.md).
bool five_or_more(const p2l::Rig& rig, std::uint32_t mesh, const std::vector<float>& values) {
  const p2l::Mesh& m = rig.meshes[mesh];
  if (m.keyforms && between(m.keyforms->axes, values) >= 5) return true;
  for (std::int32_t d = m.parent, steps = 0; d >= 0 && steps < 100000; ++steps) {
    const p2l::Deformer& def = rig.deformers[static_cast<std::size_t>(d)];
    if (def.lattice && between(def.lattice->axes, values) >= 5) return true;
    if (def.pivot && between(def.pivot->axes, values) >= 5) return true;
    d = def.parent;
  }
  return false;
}

// The model imported and evaluated at each pose of [poses_path].
int evaluate(const p2l::cubism2::Moc& moc, const char* poses_path) {
  const p2l::ImportResult imported = p2l::cubism2::import_moc(moc);
  if (!imported) {
    std::fprintf(stderr, "import: %s\n", imported.error.to_string().c_str());
    return 1;
  }
  auto made = p2l::Model::create(std::make_shared<const p2l::Rig>(imported.rig));
  if (!made) {
    std::fprintf(stderr, "model: %s\n", made.error.to_string().c_str());
    return 1;
  }
  const p2l::Rig& rig = made.model->rig();
  p2l::Instance instance(made.model);
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < rig.parameters.size(); ++i) index[rig.parameters[i].id] = i;
  std::ifstream poses(poses_path);
  std::string line;
  std::printf("[");
  for (bool first = true; std::getline(poses, line); first = false) {
    auto values = instance.parameters();
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = rig.parameters[i].default_value;
    std::istringstream pairs(line);
    std::string id, value;
    while (std::getline(pairs, id, '\t') && std::getline(pairs, value, '\t'))
      if (const auto it = index.find(id); it != index.end()) values[it->second] = std::stof(value);
    instance.evaluate();
    std::vector<float> clamped(values.begin(), values.end());
    for (std::size_t i = 0; i < clamped.size(); ++i)
      clamped[i] = std::clamp(clamped[i], rig.parameters[i].min, rig.parameters[i].max);
    std::vector<bool> drawn(rig.meshes.size(), false);
    for (const std::uint32_t m : instance.render_order()) drawn[m] = true;
    std::printf("%s[", first ? "" : ",");
    for (std::uint32_t m = 0; m < rig.meshes.size(); ++m) {
      std::printf("%s{\"drawn\":%s,\"five\":%s,\"opacity\":%.9g,\"order\":%.9g,\"points\":[", m ? "," : "",
                  drawn[m] ? "true" : "false", five_or_more(rig, m, clamped) ? "true" : "false",
                  static_cast<double>(instance.opacity(m)), static_cast<double>(instance.draw_order(m)));
      const auto xy = instance.vertices(m);
      for (std::size_t k = 0; k < xy.size(); ++k) std::printf("%s%.9g", k ? "," : "", static_cast<double>(xy[k]));
      std::printf("]}");
    }
    std::printf("]");
  }
  std::printf("]\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: %s MODEL.moc [POSES] | MOTION.mtn\n", argv[0]);
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
  if (argc == 3) return evaluate(moc, argv[2]);
  std::printf("{\"version\":%d,\"canvas\":[%d,%d],\"parameters\":[", moc.version, moc.canvas_width, moc.canvas_height);
  for (std::size_t i = 0; i < moc.parameters.size(); ++i) {
    const auto& p = moc.parameters[i];
    std::printf("%s{\"id\":%s,\"min\":%.9g,\"max\":%.9g,\"value\":%.9g}", i ? "," : "", quoted(p.id).c_str(),
                static_cast<double>(p.min), static_cast<double>(p.max), static_cast<double>(p.value));
  }
  // Every key value each parameter has somewhere in the model (the poses at the keys).
  std::map<std::string, std::vector<float>> keys;
  auto note_keys = [&](const p2l::cubism2::KeyAxes& axes) {
    for (const auto& a : axes) keys[a.parameter].insert(keys[a.parameter].end(), a.keys.begin(), a.keys.end());
  };
  for (const auto& part : moc.parts) {
    for (const auto& d : part.deformers) note_keys(d.axes);
    for (const auto& m : part.meshes) note_keys(m.axes);
  }
  std::printf("],\"keys\":{");
  bool first_key = true;
  for (auto& [id, values] : keys) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    std::printf("%s%s:[", first_key ? "" : ",", quoted(id).c_str());
    for (std::size_t i = 0; i < values.size(); ++i) std::printf("%s%.9g", i ? "," : "", static_cast<double>(values[i]));
    std::printf("]");
    first_key = false;
  }
  std::printf("},\"drawables\":[");
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
