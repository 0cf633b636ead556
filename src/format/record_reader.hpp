// Parses the records of every chunk. Version 1 and version 2 share the record layouts
// and differ only in how strings, arrays and texture pages are encoded, so one reader
// serves both: `strings` is the STRS table for version 2 and null for version 1.
//
// The parser checks structure (lengths, enums, codecs, finiteness) and records where
// each top-level record starts; references, orders and sizes are checked afterwards by
// validate(), once, for files and hand-built rigs alike.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "format/byte_reader.hpp"
#include "format/chunk_ids.hpp"
#include "p2l/rig.hpp"

namespace p2l::format {

// Where top-level records start, so validation errors can name an offset.
struct RecordOffsets {
  struct Chunk {
    std::vector<std::int64_t> starts;
    bool in_chunk = false;
    bool present = false;
  };
  std::array<Chunk, kChunkIdCount> chunks;
  void begin(ChunkId id, const ByteReader& r) {
    auto& c = chunks[static_cast<std::size_t>(id)];
    c.present = true;
    c.in_chunk = r.reports_in_chunk();
    c.starts.clear();
  }
  void record(ChunkId id, const ByteReader& r) {
    chunks[static_cast<std::size_t>(id)].starts.push_back(r.report_offset(r.pos()));
  }
};

class RecordReader {
 public:
  RecordReader(ByteReader& r, const std::vector<std::string>* strings, std::shared_ptr<const void> owner,
               RecordOffsets* offsets)
      : r_(r), strings_(strings), owner_(std::move(owner)), offsets_(offsets) {}

  bool ok() const { return r_.ok(); }
  ByteReader& bytes() { return r_; }
  // The chunk version the next records are laid out in (version 1 sections: 1). Version 2
  // of the core geometry chunks is the Cubism rules' layout (docs/FORMAT.md section 8.13).
  void set_version(std::uint16_t version) { version_ = version; }

  // Whole chunks (version 2) or sections (version 1).
  void canvas(Canvas& c);
  void parameters(std::vector<Parameter>& out);
  void deformers(std::vector<Deformer>& out);
  void parts(std::vector<Part>& out);
  void meshes(std::vector<Mesh>& out);
  void glues(std::vector<Glue>& out);
  void draw_tree(std::vector<DrawGroup>& out);
  void textures(std::vector<Texture>& out);
  void physics(Rig& rig, std::uint16_t chunk_version);
  void clips(std::vector<Clip>& out);
  void roles(std::vector<Role>& out);
  void gui(Gui& out);
  void meta(std::vector<MetaEntry>& out);
  void bones(BoneChunk& out);
  void skins(SkinChunk& out);
  void colliders(ColliderChunk& out);
  void simulations(SimulationChunk& out);
  void expressions(std::vector<Expression>& out, std::uint16_t chunk_version);
  void hit_areas(std::vector<HitArea>& out);
  void user_data(std::vector<UserData>& out);
  void pose(Pose& out, std::uint16_t chunk_version);
  void hairs(std::vector<Hair>& out);
  template <class Link, class Kind>
  void hair_links(std::vector<Link>& out, const char* what, Kind Link::*kind, std::uint8_t last, const char* kinds);
  void clip_extensions(std::vector<ClipExtension>& out, std::uint16_t chunk_version);

  // Encoded values.
  std::string str(const char* what);
  Array<float> floats(const char* what);
  IndexArray indices(const char* what);
  Array<std::uint8_t> byte_string(const char* what);
  void str(std::string& out, const char* what);
  void floats(Array<float>& out, const char* what);
  void indices(IndexArray& out, const char* what);

 private:
  bool v2() const { return strings_ != nullptr; }
  void mark(ChunkId id) {
    if (offsets_) offsets_->record(id, r_);
  }
  std::uint32_t array_header(std::initializer_list<std::uint8_t> codecs, std::uint8_t& codec, const char* what);
  Rgb rgb(const char* what);
  std::vector<std::uint32_t> refs(const char* what);
  // Parts of records, read into fresh (default) values in place.
  void deformer(Deformer& d);
  void composite(Composite& c);
  void channels(Channels& out);
  // False for "no grid" (0xFFFF) and on failure.
  template <class F, class ReadForm>
  bool grid(Grid<F>& g, ReadForm read_form);
  template <class S, class ReadShape>
  void bindings(std::vector<Binding<S>>& out, ReadShape read_shape);
  PhysicsSource physics_source(std::uint16_t chunk_version);
  void segments(std::vector<CurveSegment>& out);
  void extension_header(ExtensionHeader& h);
  void draw_group(std::vector<DrawGroup>& out, int depth);

  ByteReader& r_;
  const std::vector<std::string>* strings_;
  std::shared_ptr<const void> owner_;
  RecordOffsets* offsets_;
  std::uint16_t version_ = 1;
};

// STRS: u32 count, u32 offsets[count + 1], UTF-8 blob.
bool read_string_table(ByteReader& r, std::vector<std::string>& out);

bool valid_utf8(std::string_view s);

}  // namespace p2l::format
