// Writes the records of every chunk, the reverse of RecordReader: version 2 with string
// references and array<T> encodings, version 1 with inline strings and counted arrays.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "format/array_codec.hpp"
#include "format/byte_writer.hpp"
#include "p2l/format.hpp"

namespace p2l::format {

// Version 2 strings: records are written with provisional ids and every use is
// remembered; finish() sorts the distinct strings (so STRS does not depend on the order
// they were met) and patches each use with its final index.
class StringPool {
 public:
  void use(ByteWriter& chunk, const std::string& s);
  // Sorts, patches every use, and returns the STRS chunk content.
  std::vector<std::uint8_t> finish();

 private:
  struct Use {
    ByteWriter* chunk;
    std::size_t at;
  };
  std::vector<std::string> strings_;
  std::unordered_map<std::string, std::uint32_t> ids_;
  std::vector<Use> uses_;
};

// What a float array holds decides its codec under the "publish" option.
enum class FloatUse { Plain, Position, Uv };

class RecordWriter {
 public:
  RecordWriter(ByteWriter& w, StringPool* pool, const WriteOptions& options, std::vector<std::string>& dropped)
      : w_(w), pool_(pool), options_(options), dropped_(dropped) {}

  // The first string given that is not valid UTF-8, or empty.
  const std::string& invalid_utf8() const { return invalid_utf8_; }

  // Version 2 layouts of the core geometry chunks, for a rig under Cubism's rules.
  void set_cubism_layout(bool on) { cubism_ = on; }

  void canvas(const Canvas& c);
  void parameters(const std::vector<Parameter>& list);
  void deformers(const std::vector<Deformer>& list);
  void parts(const std::vector<Part>& list);
  void meshes(const std::vector<Mesh>& list);
  void glues(const std::vector<Glue>& list);
  void draw_tree(const std::vector<DrawGroup>& groups);
  void textures(const std::vector<Texture>& list);
  void physics(const Rig& rig);
  void clips(const std::vector<Clip>& list);
  void roles(const std::vector<Role>& list);
  void gui(const Gui& gui);
  void meta(const std::vector<MetaEntry>& list);
  void bones(const BoneChunk& b);
  void skins(const SkinChunk& s);
  void colliders(const ColliderChunk& c);
  void simulations(const SimulationChunk& s);
  void expressions(const std::vector<Expression>& list);  // at expression_version(list)
  void hit_areas(const std::vector<HitArea>& list);
  void user_data(const std::vector<UserData>& list);
  void pose(const Pose& p);  // at pose_version(p)
  void hairs(const std::vector<Hair>& list);
  template <class Link, class Kind>
  void hair_links(const std::vector<Link>& list, Kind Link::*kind);
  void clip_extensions(const std::vector<ClipExtension>& list);  // at clip_extension_version(list)

 private:
  std::string invalid_utf8_;
  bool v2() const { return pool_ != nullptr; }
  void str(const std::string& s);
  void name(const std::string& s) { str(options_.strip_names ? std::string() : s); }
  void array_header(ArrayCodec codec, std::size_t count);
  void floats(const Array<float>& a, FloatUse use = FloatUse::Plain);
  void indices(const IndexArray& a, bool allow_narrow);
  void byte_string(const Array<std::uint8_t>& a);
  void rgb(const Rgb& c);
  void refs(const std::vector<std::uint32_t>& list);
  void deformer(const Deformer& d);
  void composite(const Composite& c);
  void channels(const Channels& list);
  template <class F, class WriteForm>
  void grid(const std::optional<Grid<F>>& g, WriteForm write_form);
  template <class S, class WriteShape>
  void bindings(const std::vector<Binding<S>>& list, WriteShape write_shape);
  void segments(const std::vector<CurveSegment>& list);
  void extension_header(const ExtensionHeader& h);
  void draw_group(const std::vector<DrawGroup>& groups, std::size_t index);

  ByteWriter& w_;
  StringPool* pool_;
  const WriteOptions& options_;
  std::vector<std::string>& dropped_;
  bool cubism_ = false;
};

// The EXPR version the writer uses: 2 when an expression carries flags, else 1.
std::uint16_t expression_version(const std::vector<Expression>& list);
// The POSE version the writer uses: 2 when the pose carries flags, else 1.
std::uint16_t pose_version(const Pose& p);
// The CEXT version the writer uses: 2 when a record carries playback flags, else 1.
std::uint16_t clip_extension_version(const std::vector<ClipExtension>& list);

}  // namespace p2l::format
