#include "p2lrt/info.hpp"

#include <cstdio>
#include <iomanip>
#include <sstream>
#include <string>
#include <utility>

#include "p2l/eval.hpp"

namespace p2lrt {
namespace {

// What each extension chunk declares in its common header: where it acts (hooks) and what it
// replaces there, as a reader can tell without running it.
std::string describe_header(const p2l::Rig& rig, const p2l::ExtensionHeader& h) {
  std::string text = "feature " + std::to_string(h.feature) + ", hooks";
  const std::pair<std::uint16_t, const char*> hooks[] = {{p2l::kHookH1, " H1"}, {p2l::kHookH2, " H2"}, {p2l::kHookH3, " H3"},
                                                        {p2l::kHookH4, " H4"}, {p2l::kHookH6, " H6"}};
  bool any = false;
  for (const auto& [bit, name] : hooks)
    if (h.hooks & bit) text += name, any = true;
  if (!any) text += " none";
  auto ids = [&](const std::vector<std::uint32_t>& list, auto&& name_of) {
    std::string out;
    for (std::size_t i = 0; i < list.size() && i < 4; ++i) out += (i ? ", " : "") + name_of(list[i]);
    if (list.size() > 4) out += ", +" + std::to_string(list.size() - 4);
    return out;
  };
  if (!h.parameters.empty())
    text += "; holds " + ids(h.parameters, [&](std::uint32_t p) { return p < rig.parameters.size() ? rig.parameters[p].id : "?"; });
  if (!h.physics_groups.empty()) text += "; skips " + std::to_string(h.physics_groups.size()) + " pendulum group(s)";
  if (!h.deformers.empty())
    text += "; replaces frames of " + ids(h.deformers, [&](std::uint32_t d) { return d < rig.deformers.size() ? rig.deformers[d].id : "?"; });
  if (!h.meshes.empty()) text += "; touches " + std::to_string(h.meshes.size()) + " mesh(es)";
  if (!h.depends_on.empty()) {
    text += "; needs";
    for (const auto& tag : h.depends_on) text += " " + tag;
  }
  return text;
}

void print_extensions(const p2l::Rig& rig, std::ostream& out) {
  if (rig.bones)
    out << "  BONE         " << rig.bones->virtual_bones.size() << " virtual bones, " << rig.bones->bones.size()
        << " attachable bones, " << rig.bones->arcs.size() << " arcs (" << describe_header(rig, rig.bones->header) << ")\n";
  if (rig.skins)
    out << "  SKIN         " << rig.skins->skins.size() << " skinned meshes (" << describe_header(rig, rig.skins->header) << ")\n";
  if (rig.simulations) {
    std::size_t particles = 0;
    for (const auto& s : rig.simulations->simulations) particles += s.particle_count();
    out << "  SIMS         " << rig.simulations->simulations.size() << " simulations, " << particles << " particles ("
        << describe_header(rig, rig.simulations->header) << ")\n";
  }
  if (rig.colliders)
    out << "  COLL         " << rig.colliders->colliders.size() << " colliders (" << describe_header(rig, rig.colliders->header) << ")\n";
  const std::uint32_t bits = p2l::advanced_features(rig);
  if (!bits) return;
  out << "  advanced     ";
  const char* names[] = {"skinning", "exact links", "simulation", "collision"};
  for (int b = 0, n = 0; b < 4; ++b)
    if (bits & (1u << b)) out << (n++ ? ", " : "") << names[b];
  out << " (bits " << bits << "; off until a host turns them on, e.g. p2lrt render --advanced " << bits << ")\n";
}

std::string human_bytes(std::uint64_t n) {
  char buf[32];
  if (n < 10 * 1024) return std::to_string(n) + " B";
  if (n < 10 * 1024 * 1024) {
    std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(n) / 1024.0);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(n) / (1024.0 * 1024.0));
  return buf;
}

const char* compression_name(p2l::Compression c) {
  switch (c) {
    case p2l::Compression::None: return "none";
    case p2l::Compression::Deflate: return "deflate";
    case p2l::Compression::Zstd: return "zstd";
  }
  return "reserved";
}

std::string hex32(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%08x", v);
  return buf;
}

void print_table(std::ostream& out, const p2l::FileInfo& info) {
  out << "  " << std::left << std::setw(6) << "chunk" << std::setw(5) << "ver" << std::setw(10) << "flags"
      << std::right << std::setw(10) << "offset" << std::setw(12) << "stored" << std::setw(12) << "raw" << "  "
      << std::left << std::setw(9) << "codec" << std::setw(10) << "crc32" << std::right << std::setw(8) << "records"
      << "\n";
  for (const auto& c : info.chunks) {
    std::string flags = c.required() ? "required" : "optional";
    std::string records = c.known ? std::to_string(c.records) : (c.required() ? "?" : "skipped");
    out << "  " << std::left << std::setw(6) << c.tag << std::setw(5) << c.version << std::setw(10) << flags
        << std::right << std::setw(10) << c.offset << std::setw(12) << c.length << std::setw(12) << c.raw_length
        << "  " << std::left << std::setw(9) << compression_name(c.compression()) << std::setw(10)
        << (c.has_crc() ? hex32(c.crc) : std::string("-")) << std::right << std::setw(8) << records << "\n";
  }
}

void print_rig(std::ostream& out, const p2l::Rig& rig) {
  std::size_t vertices = 0, triangles = 0, warps = 0;
  for (const auto& m : rig.meshes) {
    vertices += m.vertex_count();
    if (m.geometry) triangles += m.geometry->indices.size() / 3;
  }
  for (const auto& d : rig.deformers) warps += d.kind == p2l::DeformerKind::Warp;
  const auto& c = rig.canvas;
  out << "rig\n";
  if (rig.rules == p2l::CoreRules::Cubism) out << "  rules        Cubism's (core chunks version 2: evaluates as the Cubism Core)\n";
  if (rig.rules == p2l::CoreRules::Cubism2)
    out << "  rules        Cubism 2's (core chunks version 3: evaluates as the Cubism 2.1 runtime)\n";
  out << "  canvas       " << c.width << " x " << c.height << " px, origin (" << c.origin_x << ", " << c.origin_y << ")";
  if (c.pixels_per_unit >= 0) out << ", " << c.pixels_per_unit << " px/unit";
  out << "\n";
  out << "  parameters   " << rig.parameters.size() << "\n";
  out << "  deformers    " << rig.deformers.size() << " (" << warps << " warp, " << rig.deformers.size() - warps
      << " rotation)\n";
  out << "  parts        " << rig.parts.size() << "\n";
  out << "  meshes       " << rig.meshes.size() << " (" << vertices << " vertices, " << triangles << " triangles)\n";
  out << "  glues        " << rig.glues.size() << "\n";
  out << "  draw groups  " << rig.draw_groups.size() << "\n";
  out << "  textures     " << rig.textures.size();
  for (std::size_t i = 0; i < rig.textures.size(); ++i) {
    const auto& t = rig.textures[i];
    out << (i ? ", " : " (") << (t.kind == p2l::TextureKind::Png ? "PNG" : t.kind == p2l::TextureKind::Ktx2 ? "KTX2" : "external")
        << " " << t.width << "x" << t.height;
    if (t.kind == p2l::TextureKind::External) out << " '" << t.uri << "'";
    if (i + 1 == rig.textures.size()) out << ")";
  }
  out << "\n";
  out << "  physics      " << rig.physics.size() << " groups";
  if (rig.physics_fps > 0) out << " at " << rig.physics_fps << " fps";
  out << "\n";
  out << "  clips        " << rig.clips.size() << "\n";
  out << "  roles        " << rig.roles.size();
  for (std::size_t i = 0; i < rig.roles.size(); ++i) out << (i ? ", " : " (") << rig.roles[i].role;
  out << (rig.roles.empty() ? "" : ")") << "\n";
  if (rig.gui)
    out << "  panel        " << rig.gui->nodes.size() << " tree nodes, " << rig.gui->joysticks.size() << " joysticks, "
        << rig.gui->snaps.size() << " snap lists\n";
  if (!rig.expressions.empty()) out << "  expressions  " << rig.expressions.size() << "\n";
  if (!rig.hit_areas.empty()) out << "  hit areas    " << rig.hit_areas.size() << "\n";
  if (!rig.user_data.empty()) out << "  user data    " << rig.user_data.size() << "\n";
  if (rig.pose) out << "  pose groups  " << rig.pose->groups.size() << "\n";
  if (!rig.clip_extensions.empty()) out << "  clip extras  " << rig.clip_extensions.size() << "\n";
  print_extensions(rig, out);
  for (const auto& u : rig.unknown_chunks) out << "  kept chunk   " << u.tag << " v" << u.version << ", " << u.data.size() << " bytes (unknown to this reader)\n";
  if (const std::string* caps = rig.find_meta("capabilities")) out << "capabilities   " << *caps << "\n";
  for (const auto& e : rig.meta)
    if (e.key != "capabilities") out << "meta           " << e.key << " = " << e.value << "\n";
}

}  // namespace

void print_info(std::ostream& out, const std::string& path, std::span<const std::uint8_t> bytes,
                const p2l::LoadResult& loaded) {
  const p2l::FileInfo& info = loaded.info;
  out << path << ": .p2lrt version " << info.major << "." << info.minor << ", " << human_bytes(bytes.size());
  if (info.major == 2) {
    out << ", " << info.chunks.size() << " chunks";
    if (info.flags & 1) out << ", names stripped";
  } else if (info.major == 1) {
    out << ", single stream (no chunk table)";
  }
  out << "\n";
  if (!info.chunks.empty()) print_table(out, info);
  if (!loaded.rig) {
    out << "not loadable: " << loaded.error.to_string() << "\n";
    return;
  }
  print_rig(out, *loaded.rig);
}

}  // namespace p2lrt
