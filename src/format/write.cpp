// write(): Rig -> records -> chunks (optionally compressed) -> container, or the
// version-1 sequential layout. Chunks are written in the specification's order.
#include <array>
#include <deque>

#include "format/chunk_ids.hpp"
#include "format/compression.hpp"
#include "format/container.hpp"
#include "format/record_writer.hpp"
#include "format/validate.hpp"
#include "p2l/format.hpp"

namespace p2l {
namespace {

using format::ChunkId;

bool uses_vertical_physics(const Rig& rig) {
  for (const auto& g : rig.physics) {
    for (const auto& in : g.inputs)
      if (in.source == PhysicsSource::Y) return true;
    for (const auto& o : g.outputs)
      if (o.source == PhysicsSource::Y) return true;
  }
  return false;
}

// The core geometry chunks, whose version says which rules they evaluate by.
bool ruled(ChunkId id) {
  switch (id) {
    case ChunkId::CANV:
    case ChunkId::PARM:
    case ChunkId::DEFM:
    case ChunkId::PART:
    case ChunkId::MESH:
    case ChunkId::GLUE:
    case ChunkId::DRAW: return true;
    default: return false;
  }
}

// Which optional chunks this rig needs; the core ones are always written.
bool has_content(const Rig& rig, ChunkId id) {
  switch (id) {
    case ChunkId::GLUE: return !rig.glues.empty();
    case ChunkId::TEXR: return !rig.textures.empty();
    case ChunkId::PHYS: return !rig.physics.empty() || rig.physics_fps != 0;
    case ChunkId::CLIP: return !rig.clips.empty();
    case ChunkId::ROLE: return !rig.roles.empty();
    case ChunkId::PGUI: return rig.gui.has_value();
    case ChunkId::META: return !rig.meta.empty();
    case ChunkId::BONE: return rig.bones.has_value();
    case ChunkId::SKIN: return rig.skins.has_value();
    case ChunkId::COLL: return rig.colliders.has_value();
    case ChunkId::SIMS: return rig.simulations.has_value();
    case ChunkId::EXPR: return !rig.expressions.empty();
    case ChunkId::HITA: return !rig.hit_areas.empty();
    case ChunkId::UDAT: return !rig.user_data.empty();
    case ChunkId::POSE: return rig.pose.has_value();
    case ChunkId::CEXT: return !rig.clip_extensions.empty();
    case ChunkId::HAIR: return !rig.hairs.empty();
    default: return true;
  }
}

void write_records(format::RecordWriter& w, const Rig& rig, ChunkId id) {
  switch (id) {
    case ChunkId::STRS: break;
    case ChunkId::CANV: w.canvas(rig.canvas); break;
    case ChunkId::PARM: w.parameters(rig.parameters); break;
    case ChunkId::DEFM: w.deformers(rig.deformers); break;
    case ChunkId::PART: w.parts(rig.parts); break;
    case ChunkId::MESH: w.meshes(rig.meshes); break;
    case ChunkId::GLUE: w.glues(rig.glues); break;
    case ChunkId::DRAW: w.draw_tree(rig.draw_groups); break;
    case ChunkId::TEXR: w.textures(rig.textures); break;
    case ChunkId::PHYS: w.physics(rig); break;
    case ChunkId::CLIP: w.clips(rig.clips); break;
    case ChunkId::ROLE: w.roles(rig.roles); break;
    case ChunkId::PGUI: w.gui(*rig.gui); break;
    case ChunkId::META: w.meta(rig.meta); break;
    case ChunkId::BONE: w.bones(*rig.bones); break;
    case ChunkId::SKIN: w.skins(*rig.skins); break;
    case ChunkId::COLL: w.colliders(*rig.colliders); break;
    case ChunkId::SIMS: w.simulations(*rig.simulations); break;
    case ChunkId::EXPR: w.expressions(rig.expressions); break;
    case ChunkId::HITA: w.hit_areas(rig.hit_areas); break;
    case ChunkId::UDAT: w.user_data(rig.user_data); break;
    case ChunkId::POSE: w.pose(*rig.pose); break;
    case ChunkId::CEXT: w.clip_extensions(rig.clip_extensions); break;
    case ChunkId::HAIR: w.hairs(rig.hairs); break;
    case ChunkId::Count: break;
  }
}

struct OutChunk {
  std::string tag;
  std::uint16_t version = 1;
  bool required = false;
  std::vector<std::uint8_t> raw;
};

std::vector<std::uint8_t> assemble(const std::vector<OutChunk>& chunks, const WriteOptions& options,
                                   bool names_stripped) {
  // Store each chunk compressed only when that makes it smaller; TEXR payloads are
  // already compressed images.
  std::vector<std::vector<std::uint8_t>> stored(chunks.size());
  std::vector<Compression> method(chunks.size(), Compression::None);
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    if (options.compression != Compression::None && chunks[i].tag != "TEXR" && !chunks[i].raw.empty()) {
      auto packed = format::compress(options.compression, chunks[i].raw, options.level);
      if (!packed.empty() && packed.size() < chunks[i].raw.size()) {
        stored[i] = std::move(packed);
        method[i] = options.compression;
      }
    }
  }
  format::ByteWriter out;
  out.raw(std::string_view(format::kMagic, 8));
  out.u16(2);
  out.u16(0);  // minor: this writer knows 2.0
  out.u32(names_stripped ? format::kHeaderNamesStripped : 0);
  out.u32(static_cast<std::uint32_t>(chunks.size()));
  out.u32(format::kHeaderSize);
  out.u32(0);
  out.u32(0);
  std::uint64_t offset = format::kHeaderSize + chunks.size() * format::kEntrySize;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const auto& bytes = method[i] == Compression::None ? chunks[i].raw : stored[i];
    offset = (offset + 15) / 16 * 16;
    std::uint16_t flags = static_cast<std::uint16_t>((chunks[i].required ? format::kChunkRequired : 0) |
                                                     (options.crc ? format::kChunkHasCrc : 0) |
                                                     (static_cast<std::uint16_t>(method[i]) << 2));
    out.raw(std::string_view(chunks[i].tag.data(), 4));
    out.u16(chunks[i].version);
    out.u16(flags);
    out.u64(offset);
    out.u64(bytes.size());
    out.u64(chunks[i].raw.size());
    out.u32(options.crc ? format::crc32(bytes) : 0);
    out.u32(0);
    offset += bytes.size();
  }
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    out.pad_to(16);
    out.raw(method[i] == Compression::None ? chunks[i].raw : stored[i]);
  }
  return std::move(out.bytes());
}

// A string the reader would refuse: the writer writes nothing rather than an unreadable file.
void refuse_string(WriteResult& result, ChunkId id, const std::string& s) {
  std::string shown;
  for (unsigned char ch : s.substr(0, 64)) {
    static const char* kHex = "0123456789abcdef";
    if (ch >= 0x20 && ch < 0x7F) {
      shown += static_cast<char>(ch);
    } else {
      shown += "\\x";
      shown += kHex[ch >> 4];
      shown += kHex[ch & 15];
    }
  }
  result.error = {ErrorCode::BadString, id == ChunkId::STRS ? "" : std::string(format::tag_of(id)), -1, false,
                  "the string \"" + shown + "\" is not valid UTF-8"};
  result.dropped.clear();
}

// A number the reader would refuse (NaN or an infinity, which p2l::validate does not look for).
void refuse_non_finite(WriteResult& result, ChunkId id) {
  result.error = {ErrorCode::NonFinite, id == ChunkId::STRS ? "" : std::string(format::tag_of(id)), -1, false,
                  "a number in it is not finite (NaN or an infinity)"};
  result.dropped.clear();
}

void write_v2(const Rig& rig, const WriteOptions& options, WriteResult& result) {
  format::StringPool pool;
  // Chunk buffers must not move: the string pool remembers where each reference sits.
  std::deque<format::ByteWriter> buffers;
  std::vector<OutChunk> chunks;
  std::vector<format::ByteWriter*> owners;
  for (std::size_t i = 1; i < format::kChunkIdCount; ++i) {
    auto id = static_cast<ChunkId>(i);
    if (!has_content(rig, id)) continue;
    format::ByteWriter& buffer = buffers.emplace_back();
    format::RecordWriter w(buffer, &pool, options, result.dropped);
    const bool cubism = rig.rules != CoreRules::Original && ruled(id);
    w.set_cubism_layout(cubism);
    write_records(w, rig, id);
    if (!w.invalid_utf8().empty()) return refuse_string(result, id, w.invalid_utf8());
    if (buffer.non_finite()) return refuse_non_finite(result, id);
    OutChunk c;
    c.tag = std::string(format::tag_of(id));
    c.required = format::spec(id).core;
    c.version = cubism                                           ? (rig.rules == CoreRules::Cubism2 ? 3 : 2)
                : id == ChunkId::PHYS && uses_vertical_physics(rig) ? 2
                : id == ChunkId::CEXT                            ? format::clip_extension_version(rig.clip_extensions)
                : id == ChunkId::POSE                            ? format::pose_version(*rig.pose)
                : id == ChunkId::EXPR                            ? format::expression_version(rig.expressions)
                                                                 : 1;
    chunks.push_back(std::move(c));
    owners.push_back(&buffer);
  }
  OutChunk strs{"STRS", 1, true, pool.finish()};
  for (std::size_t i = 0; i < chunks.size(); ++i) chunks[i].raw = std::move(owners[i]->bytes());
  chunks.insert(chunks.begin(), std::move(strs));
  for (const RawChunk& u : rig.unknown_chunks) {
    if (u.tag.size() != 4) continue;
    chunks.push_back({u.tag, u.version, u.required, u.data.to_vector()});
  }
  result.bytes = assemble(chunks, options, options.strip_names || rig.names_stripped);
}

void write_v1(const Rig& rig, const WriteOptions& options, WriteResult& result) {
  format::ByteWriter out;
  out.raw(std::string_view(format::kMagic, 8));
  out.u32(1);
  format::RecordWriter w(out, nullptr, options, result.dropped);
  for (ChunkId id : {ChunkId::CANV, ChunkId::PARM, ChunkId::DEFM, ChunkId::PART, ChunkId::MESH, ChunkId::GLUE,
                     ChunkId::DRAW, ChunkId::TEXR})
    write_records(w, rig, id);
  w.physics(rig);
  w.clips(rig.clips);
  w.roles(rig.roles);
  if (!w.invalid_utf8().empty()) return refuse_string(result, ChunkId::STRS, w.invalid_utf8());
  if (out.non_finite()) return refuse_non_finite(result, ChunkId::STRS);
  auto lost = [&](bool present, const char* what) {
    if (present) result.dropped.push_back(what);
  };
  lost(rig.gui.has_value(), "PGUI: the parameter panel layout (groups, joysticks, snap values)");
  lost(!rig.meta.empty(), "META: generator and other information entries");
  lost(rig.bones.has_value(), "BONE: virtual bones, attachable bones and exact-link arcs (the core keeps their bake)");
  lost(rig.skins.has_value(), "SKIN: runtime skinning (the core keeps its baked keyforms)");
  lost(rig.colliders.has_value(), "COLL: colliders");
  lost(rig.simulations.has_value(), "SIMS: vertex simulations (the core keeps their bake)");
  lost(!rig.expressions.empty(), "EXPR: expressions");
  lost(!rig.hit_areas.empty(), "HITA: hit areas");
  lost(!rig.user_data.empty(), "UDAT: mesh user data");
  lost(rig.pose.has_value(), "POSE: part pose groups");
  lost(!rig.clip_extensions.empty(), "CEXT: clip events, part/model opacity curves and per-curve fades");
  lost(!rig.hairs.empty(), "HAIR: Cubism 2 hair pendulums");
  for (const RawChunk& u : rig.unknown_chunks) result.dropped.push_back(u.tag + ": an unknown chunk kept from the source");
  result.bytes = std::move(out.bytes());
}

}  // namespace

WriteResult write(const Rig& rig, const WriteOptions& options) {
  WriteResult result;
  if (options.version != 1 && options.version != 2) {
    result.error.code = ErrorCode::WriteUnsupported;
    result.error.message = "expected version 1 or 2, asked for " + std::to_string(options.version);
    return result;
  }
  result.error = format::validate_rig(rig, nullptr);
  if (!result.error.ok()) return result;
  if (options.version == 1 && rig.rules != CoreRules::Original) {
    // Version 1 has no chunk versions, so nothing in it could say which rules to evaluate by.
    result.error = {ErrorCode::WriteUnsupported, "", -1, false,
                    rig.rules == CoreRules::Cubism2
                        ? "this rig evaluates by Cubism 2's rules (core chunks version 3), which the version-1 layout "
                          "cannot carry: write version 2"
                        : "this rig evaluates by Cubism's rules (core chunks version 2), which the version-1 layout cannot "
                          "carry: write version 2"};
    return result;
  }
  if (options.version == 1)
    write_v1(rig, options, result);
  else
    write_v2(rig, options, result);
  return result;
}

Error validate(const Rig& rig) { return format::validate_rig(rig, nullptr); }

}  // namespace p2l
