// load(): bytes -> container (version 2) or one sequential stream (version 1) -> records
// -> Rig -> validate(). Both versions fill the same Rig through the same RecordReader.
#include <cstring>

#include "base/message.hpp"
#include "format/aligned_buffer.hpp"
#include "format/chunk_ids.hpp"
#include "format/container.hpp"
#include "format/record_reader.hpp"
#include "format/validate.hpp"
#include "p2l/format.hpp"

namespace p2l {
namespace {

using format::ChunkId;

Error make_error(ErrorCode code, std::string chunk, std::int64_t offset, std::string message) {
  Error e;
  e.code = code;
  e.chunk = std::move(chunk);
  e.offset = offset;
  e.message = std::move(message);
  return e;
}

std::uint64_t leading_count(std::span<const std::uint8_t> bytes) {
  return bytes.size() >= 4 ? format::ByteReader::load_u32(bytes.data()) : 0;
}

// How many records a parsed chunk holds, for `info`: its leading count where it has one.
std::uint64_t record_count(ChunkId id, const Rig& rig, std::span<const std::uint8_t> bytes) {
  switch (id) {
    case ChunkId::CANV: return 1;
    case ChunkId::DRAW: return rig.draw_groups.size();
    case ChunkId::PHYS: return rig.physics.size();  // after the f32 fps
    case ChunkId::POSE: return rig.pose->groups.size();  // after the f32 fade-in
    case ChunkId::BONE: return rig.bones->virtual_bones.size() + rig.bones->bones.size() + rig.bones->arcs.size();
    case ChunkId::SKIN: return rig.skins->skins.size();  // the others follow their extension header
    case ChunkId::COLL: return rig.colliders->colliders.size();
    case ChunkId::SIMS: return rig.simulations->simulations.size();
    default: return leading_count(bytes);
  }
}

// Parses one known chunk's records into `rig`; the records must fill it exactly.
bool parse_chunk(ChunkId id, const format::ChunkBytes& c, const std::vector<std::string>& strings, Rig& rig,
                 format::RecordOffsets& offsets, Error& error) {
  format::ByteReader br(c.bytes, c.entry.tag, c.decompressed ? 0 : c.entry.offset, !c.decompressed);
  format::RecordReader rr(br, &strings, c.owner, &offsets);
  rr.set_version(c.entry.version);
  offsets.begin(id, br);
  switch (id) {
    case ChunkId::STRS: break;  // read before every other chunk
    case ChunkId::CANV: rr.canvas(rig.canvas); break;
    case ChunkId::PARM: rr.parameters(rig.parameters); break;
    case ChunkId::DEFM: rr.deformers(rig.deformers); break;
    case ChunkId::PART: rr.parts(rig.parts); break;
    case ChunkId::MESH: rr.meshes(rig.meshes); break;
    case ChunkId::GLUE: rr.glues(rig.glues); break;
    case ChunkId::DRAW: rr.draw_tree(rig.draw_groups); break;
    case ChunkId::TEXR: rr.textures(rig.textures); break;
    case ChunkId::PHYS: rr.physics(rig, c.entry.version); break;
    case ChunkId::CLIP: rr.clips(rig.clips); break;
    case ChunkId::ROLE: rr.roles(rig.roles); break;
    case ChunkId::PGUI: rr.gui(rig.gui.emplace()); break;
    case ChunkId::META: rr.meta(rig.meta); break;
    case ChunkId::BONE: rr.bones(rig.bones.emplace()); break;
    case ChunkId::SKIN: rr.skins(rig.skins.emplace()); break;
    case ChunkId::COLL: rr.colliders(rig.colliders.emplace()); break;
    case ChunkId::SIMS: rr.simulations(rig.simulations.emplace()); break;
    case ChunkId::EXPR: rr.expressions(rig.expressions, c.entry.version); break;
    case ChunkId::HITA: rr.hit_areas(rig.hit_areas); break;
    case ChunkId::UDAT: rr.user_data(rig.user_data); break;
    case ChunkId::POSE: rr.pose(rig.pose.emplace(), c.entry.version); break;
    case ChunkId::CEXT: rr.clip_extensions(rig.clip_extensions, c.entry.version); break;
    case ChunkId::HAIR: rr.hairs(rig.hairs); break;
    case ChunkId::Count: break;
  }
  if (br.ok() && !br.at_end()) {
    br.fail(ErrorCode::BadRecord,
            message("the records end {} bytes before the chunk does (expected them to fill its {} bytes exactly)",
                    br.remaining(), c.bytes.size()));
  }
  if (!br.ok()) {
    error = br.take_error();
    // Running out of bytes inside a chunk means a record reads past the chunk's end.
    if (error.code == ErrorCode::Truncated) error.message = "record reads past the end of the chunk: " + error.message;
    return false;
  }
  return true;
}

// The core geometry chunks evaluate by one set of rules: all at version 1 (the format's own),
// all at version 2 (the Cubism Core's) or all at version 3 (the Cubism 2.1 runtime's). GLUE
// may be absent.
bool core_rules(const std::array<const format::ChunkBytes*, format::kChunkIdCount>& known, Rig& rig, Error& error) {
  constexpr ChunkId kRuled[] = {ChunkId::CANV, ChunkId::PARM, ChunkId::DEFM, ChunkId::PART,
                                ChunkId::MESH, ChunkId::GLUE, ChunkId::DRAW};
  const format::ChunkBytes* first = known[static_cast<std::size_t>(ChunkId::CANV)];
  for (ChunkId id : kRuled) {
    const format::ChunkBytes* c = known[static_cast<std::size_t>(id)];
    if (!c || c->entry.version == first->entry.version) continue;
    error = make_error(ErrorCode::BadStructure, c->entry.tag, static_cast<std::int64_t>(c->entry.offset),
                       message("chunk {} is version {} but CANV is version {}: the core chunks CANV PARM DEFM PART MESH "
                               "GLUE DRAW must all be version 1 (the format's rules), all version 2 (Cubism's rules) or all "
                               "version 3 (Cubism 2's rules)",
                               c->entry.tag, c->entry.version, first->entry.version));
    return false;
  }
  rig.rules = first->entry.version == 3   ? CoreRules::Cubism2
              : first->entry.version == 2 ? CoreRules::Cubism
                                          : CoreRules::Original;
  return true;
}

bool load_v2(std::span<const std::uint8_t> file, const std::shared_ptr<const void>& owner, const LoadOptions& options,
             Rig& rig, FileInfo& info, format::RecordOffsets& offsets, Error& error) {
  std::vector<format::ChunkBytes> chunks;
  // load() has read and checked the table already (on the caller's bytes, which `file`
  // is or copies).
  if (!format::read_chunks(file, owner, options, info, chunks, error)) return false;
  rig.names_stripped = info.flags & format::kHeaderNamesStripped;

  std::array<const format::ChunkBytes*, format::kChunkIdCount> known{};
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const format::ChunkBytes& c = chunks[i];
    auto id = format::chunk_id_of(c.entry.tag);
    bool readable = id && c.entry.version >= 1 && c.entry.version <= format::spec(*id).newest_version;
    if (readable) {
      known[static_cast<std::size_t>(*id)] = &c;
      info.chunks[i].known = true;
    } else if (c.entry.required()) {
      error = make_error(ErrorCode::RequiredFeature, c.entry.tag, static_cast<std::int64_t>(c.entry.offset),
                         id ? message("This rig requires feature {} version {} (this reader knows up to version {})",
                                      c.entry.tag, c.entry.version, format::spec(*id).newest_version)
                            : message("This rig requires feature {} version {} (a required chunk this reader does not "
                                      "know)",
                                      c.entry.tag, c.entry.version));
      return false;
    } else if (!id) {
      // An optional chunk of another vendor or a later spec: kept verbatim.
      rig.unknown_chunks.push_back(
          {c.entry.tag, c.entry.version, false, Array<std::uint8_t>::view(c.bytes.data(), c.bytes.size(), c.owner)});
    }
    // A known tag at a newer optional version is skipped: its layout is not ours to keep.
  }
  for (std::size_t i = 0; i < format::kChunkIdCount; ++i) {
    if (format::kChunkSpecs[i].must_exist && !known[i]) {
      error = make_error(ErrorCode::MissingChunk, std::string(format::kChunkSpecs[i].tag), -1,
                         message("Missing chunk {}: expected every required core chunk (STRS CANV PARM DEFM PART "
                                 "MESH DRAW)",
                                 format::kChunkSpecs[i].tag));
      return false;
    }
  }

  if (!core_rules(known, rig, error)) return false;

  std::vector<std::string> strings;
  {
    const format::ChunkBytes& c = *known[static_cast<std::size_t>(ChunkId::STRS)];
    format::ByteReader br(c.bytes, "STRS", c.decompressed ? 0 : c.entry.offset, !c.decompressed);
    if (!format::read_string_table(br, strings)) return error = br.take_error(), false;
  }
  rig.draw_groups.clear();
  for (std::size_t i = 1; i < format::kChunkIdCount; ++i) {  // STRS (0) is read above
    if (!known[i]) continue;
    if (!parse_chunk(static_cast<ChunkId>(i), *known[i], strings, rig, offsets, error)) return false;
  }
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    auto id = format::chunk_id_of(chunks[i].entry.tag);
    if (id && info.chunks[i].known) info.chunks[i].records = record_count(*id, rig, chunks[i].bytes);
  }
  return true;
}

bool load_v1(std::span<const std::uint8_t> file, const std::shared_ptr<const void>& owner, Rig& rig,
             format::RecordOffsets& offsets, Error& error) {
  format::ByteReader br(file, "", 0, true);
  br.take(12, "the version-1 header");
  format::RecordReader rr(br, nullptr, owner, &offsets);
  auto section = [&](ChunkId id) {
    br.set_chunk(std::string(format::tag_of(id)));
    offsets.begin(id, br);
    return br.ok();
  };
  if (section(ChunkId::CANV)) rr.canvas(rig.canvas);
  if (section(ChunkId::PARM)) rr.parameters(rig.parameters);
  if (section(ChunkId::DEFM)) rr.deformers(rig.deformers);
  if (section(ChunkId::PART)) rr.parts(rig.parts);
  if (section(ChunkId::MESH)) rr.meshes(rig.meshes);
  if (section(ChunkId::GLUE)) rr.glues(rig.glues);
  if (section(ChunkId::DRAW)) rr.draw_tree(rig.draw_groups);
  if (section(ChunkId::TEXR)) rr.textures(rig.textures);
  if (section(ChunkId::PHYS)) rr.physics(rig, 1);
  if (section(ChunkId::CLIP)) rr.clips(rig.clips);
  if (section(ChunkId::ROLE)) rr.roles(rig.roles);
  if (br.ok() && !br.at_end()) {
    br.set_chunk("");
    br.fail(ErrorCode::BadRecord,
            message("expected the version-1 rig to end after its roles, found {} more bytes", br.remaining()));
  }
  if (!br.ok()) return error = br.take_error(), false;
  return true;
}

}  // namespace

bool read_file_info(std::span<const std::uint8_t> bytes, FileInfo& info, Error& error) {
  return format::read_table(bytes, info, error);
}

LoadResult load(std::span<const std::uint8_t> bytes, const LoadOptions& options) {
  LoadResult result;
  FileInfo& info = result.info;
  if (!format::read_table(bytes, info, result.error)) return result;

  // Without borrowing, copy once into an aligned buffer the Rig owns; arrays point into it.
  std::shared_ptr<const void> owner;
  std::span<const std::uint8_t> file = bytes;
  if (!options.borrow) {
    format::AlignedBuffer copy = format::AlignedBuffer::copy_of(bytes.data(), bytes.size());
    if (!copy) {
      result.error = make_error(ErrorCode::TooLarge, "", -1, "cannot allocate a copy of the file");
      return result;
    }
    file = {copy.data.get(), copy.size};
    owner = copy.data;
  }

  auto rig = std::make_shared<Rig>();
  format::RecordOffsets offsets;
  bool ok = info.major == 1 ? load_v1(file, owner, *rig, offsets, result.error)
                            : load_v2(file, owner, options, *rig, info, offsets, result.error);
  if (!ok) return result;
  result.error = format::validate_rig(*rig, &offsets);
  if (!result.error.ok()) return result;
  result.rig = std::move(rig);
  return result;
}

}  // namespace p2l
