// The JSON form of a rig, as docs/JSON.md describes it.
//
// Every struct of the model has one field list (json/fields.hpp) naming its members in
// declaration order; the Writer and the Reader below walk those lists, and add what the
// lists cannot say: how each kind of value is spelled (floats, enums, base64, optionals,
// grids) and what the document around the rig looks like. nlohmann-json parses the text
// and prints single values; exceptions are used inside this file and turned into a return
// value at the two public functions.
#include "p2l/json.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "json/fields.hpp"

namespace p2l {
namespace {

using json_fields::Cell;
using json_fields::fields;
using json_fields::GridForm;

using Json = nlohmann::ordered_json;

constexpr const char* kFormatName = "p2lrt-json";
constexpr std::int64_t kFormatVersion = 1;

// ---- paths and errors -------------------------------------------------------------------

// Where a value sits in the document: a chain of frames on the reader's stack. It is only
// turned into text when an error needs it, so walking a large array costs nothing extra.
struct Path {
  const Path* parent = nullptr;
  const char* key = nullptr;  // null: an array element (or the document itself)
  std::size_t index = 0;

  Path member(const char* k) const { return {this, k, 0}; }
  Path element(std::size_t i) const { return {this, nullptr, i}; }

  std::string str() const {
    if (!parent) return {};
    std::string head = parent->str();
    if (!key) return head + "[" + std::to_string(index) + "]";
    return head.empty() ? std::string(key) : head + "." + key;
  }
};

class FormError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void fail(const Path& at, const std::string& what) {
  std::string where = at.str();
  throw FormError((where.empty() ? std::string("document") : where) + ": " + what);
}

// ---- floats -----------------------------------------------------------------------------

// The shortest decimal that reads back as `f`, held as the double nlohmann will print.
// Reading that decimal as a double and rounding to float is a double rounding, which on
// rare values lands one ulp away; those are written as the exact double of `f` instead.
// std::from_chars rather than strtod: it does not depend on the C locale.
Json float_json(float f) {
  if (!std::isfinite(f)) return nullptr;  // JSON has no such number; reading it back fails
  char text[32];
  char* end = std::to_chars(text, text + sizeof text, f).ptr;
  double shortest = 0;
  std::from_chars(text, end, shortest);
  bool same = std::bit_cast<std::uint32_t>(static_cast<float>(shortest)) == std::bit_cast<std::uint32_t>(f);
  return same ? shortest : static_cast<double>(f);
}

float float_from_json(const Json& j, const Path& at) {
  if (!j.is_number()) fail(at, "expected a number");
  double d = j.get<double>();
  // At and past the midpoint between FLT_MAX and 2^128 a double rounds to infinity.
  constexpr double kPastFloatRange = 0x1.ffffffp127;
  if (!(std::fabs(d) < kPastFloatRange)) fail(at, "the number is not finite as a 32-bit float");
  return static_cast<float>(d);
}

// ---- base64 -----------------------------------------------------------------------------

constexpr char kBase64Alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64_encode(std::span<const std::uint8_t> bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t group = std::uint32_t{bytes[i]} << 16;
    if (n > 1) group |= std::uint32_t{bytes[i + 1]} << 8;
    if (n > 2) group |= bytes[i + 2];
    for (std::size_t k = 0; k < 4; ++k) out += k <= n ? kBase64Alphabet[(group >> (18 - 6 * k)) & 63] : '=';
  }
  return out;
}

int base64_digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// Only the canonical spelling is accepted (padded, unused bits zero), so that every byte
// string has exactly one JSON text and dump -> build -> dump cannot change it.
std::vector<std::uint8_t> base64_decode(const std::string& text, const Path& at) {
  if (text.size() % 4 != 0) fail(at, "base64 length " + std::to_string(text.size()) + " is not a multiple of 4");
  std::size_t padding = 0;
  while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') ++padding;
  std::size_t digits = text.size() - padding;
  std::vector<std::uint8_t> out;
  out.reserve(digits * 3 / 4);
  std::uint32_t bits = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    int d = base64_digit(text[i]);
    if (d < 0) fail(at, "base64 has an invalid character at offset " + std::to_string(i));
    bits = (bits << 6) | static_cast<std::uint32_t>(d);
    if (i % 4 == 3) {
      out.push_back(static_cast<std::uint8_t>(bits >> 16));
      out.push_back(static_cast<std::uint8_t>(bits >> 8));
      out.push_back(static_cast<std::uint8_t>(bits));
      bits = 0;
    }
  }
  std::uint32_t unused_mask = padding == 1 ? 0x3u : padding == 2 ? 0xFu : 0u;
  if (bits & unused_mask) fail(at, "base64 padding bits are not zero");
  if (padding == 1) {  // three digits: 18 bits, two bytes
    out.push_back(static_cast<std::uint8_t>(bits >> 10));
    out.push_back(static_cast<std::uint8_t>(bits >> 2));
  } else if (padding == 2) {  // two digits: 12 bits, one byte
    out.push_back(static_cast<std::uint8_t>(bits >> 4));
  }
  return out;
}

// ---- enums ------------------------------------------------------------------------------

template <class E>
struct Named {
  E value;
  const char* name;
};

constexpr Named<ChannelType> kChannelTypes[] = {{ChannelType::DrawOrder, "draw_order"},
                                                {ChannelType::Opacity, "opacity"},
                                                {ChannelType::MultiplyColor, "multiply_color"},
                                                {ChannelType::ScreenColor, "screen_color"},
                                                {ChannelType::FlipX, "flip_x"},
                                                {ChannelType::FlipY, "flip_y"},
                                                {ChannelType::GlueIntensity, "glue_intensity"}};
constexpr Named<ChannelKind> kChannelKinds[] = {
    {ChannelKind::Scalar, "scalar"}, {ChannelKind::Color, "color"}, {ChannelKind::Flag, "flag"}};
constexpr Named<CoreRules> kCoreRules[] = {{CoreRules::Original, "original"}, {CoreRules::Cubism, "cubism"}, {CoreRules::Cubism2, "cubism2"}};
constexpr Named<DeformerKind> kDeformerKinds[] = {{DeformerKind::Warp, "warp"}, {DeformerKind::Rotation, "rotation"}};
constexpr Named<ChildKind> kChildKinds[] = {{ChildKind::Part, "part"}, {ChildKind::Mesh, "mesh"}};
constexpr Named<DrawChildKind> kDrawChildKinds[] = {{DrawChildKind::Group, "group"}, {DrawChildKind::Mesh, "mesh"}};
constexpr Named<TextureKind> kTextureKinds[] = {
    {TextureKind::Png, "png"}, {TextureKind::Ktx2, "ktx2"}, {TextureKind::External, "external"}};
constexpr Named<PhysicsSource> kPhysicsSources[] = {
    {PhysicsSource::X, "x"}, {PhysicsSource::Angle, "angle"}, {PhysicsSource::Y, "y"}};
constexpr Named<SegmentKind> kSegmentKinds[] = {{SegmentKind::Linear, "linear"},
                                                {SegmentKind::Bezier, "bezier"},
                                                {SegmentKind::Stepped, "stepped"},
                                                {SegmentKind::InverseStepped, "inverse_stepped"}};
constexpr Named<GuiLabel> kGuiLabels[] = {
    {GuiLabel::None, "none"}, {GuiLabel::Preset, "preset"}, {GuiLabel::Custom, "custom"}};
constexpr Named<HairSource> kHairSources[] = {
    {HairSource::X, "x"}, {HairSource::Y, "y"}, {HairSource::GravityAngle, "gravity_angle"}};
constexpr Named<HairValue> kHairValues[] = {{HairValue::Angle, "angle"}, {HairValue::AngularVelocity, "angular_velocity"}};
constexpr Named<ExpressionBlend> kExpressionBlends[] = {
    {ExpressionBlend::Add, "add"}, {ExpressionBlend::Multiply, "multiply"}, {ExpressionBlend::Overwrite, "overwrite"}};
constexpr Named<ClipCurveTarget> kClipCurveTargets[] = {{ClipCurveTarget::PartOpacity, "part_opacity"},
                                                        {ClipCurveTarget::ModelOpacity, "model_opacity"},
                                                        {ClipCurveTarget::EyeBlink, "eye_blink"},
                                                        {ClipCurveTarget::LipSync, "lip_sync"}};

// Chosen by overloading on the enum type.
std::span<const Named<ChannelType>> names_of(ChannelType) { return kChannelTypes; }
std::span<const Named<ChannelKind>> names_of(ChannelKind) { return kChannelKinds; }
std::span<const Named<CoreRules>> names_of(CoreRules) { return kCoreRules; }
std::span<const Named<DeformerKind>> names_of(DeformerKind) { return kDeformerKinds; }
std::span<const Named<ChildKind>> names_of(ChildKind) { return kChildKinds; }
std::span<const Named<DrawChildKind>> names_of(DrawChildKind) { return kDrawChildKinds; }
std::span<const Named<TextureKind>> names_of(TextureKind) { return kTextureKinds; }
std::span<const Named<PhysicsSource>> names_of(PhysicsSource) { return kPhysicsSources; }
std::span<const Named<SegmentKind>> names_of(SegmentKind) { return kSegmentKinds; }
std::span<const Named<GuiLabel>> names_of(GuiLabel) { return kGuiLabels; }
std::span<const Named<ExpressionBlend>> names_of(ExpressionBlend) { return kExpressionBlends; }
std::span<const Named<HairSource>> names_of(HairSource) { return kHairSources; }
std::span<const Named<HairValue>> names_of(HairValue) { return kHairValues; }
std::span<const Named<ClipCurveTarget>> names_of(ClipCurveTarget) { return kClipCurveTargets; }

// A type with a field list: a JSON object.
struct FieldProbe {
  template <class T>
  void operator()(const char*, T&) {}
};
template <class T>
concept Record = requires(FieldProbe& probe, T& value) {
  fields(probe, value);
};

template <class E>
concept Enum = std::is_enum_v<E>;
template <class I>
concept Integer = std::integral<I> && !std::same_as<I, bool>;

// ---- writing ----------------------------------------------------------------------------

class Writer {
 public:
  // Collects a struct's members as the keys of one object, in field-list order.
  class Object {
   public:
    template <class T>
    void operator()(const char* key, const T& member) {
      json_.emplace(key, Writer::value(member));
    }
    Json take() { return std::move(json_); }

   private:
    Json json_ = Json::object();
  };

  static Json value(bool b) { return b; }
  static Json value(float f) { return float_json(f); }
  static Json value(const std::string& s) { return s; }
  template <Integer I>
  static Json value(const I& i) {
    return i;
  }
  // A value outside the enum's names (an unvalidated rig) is written as its number, which
  // the reader refuses: the document then says plainly where the model was wrong.
  template <Enum E>
  static Json value(const E& e) {
    for (const auto& n : names_of(e))
      if (n.value == e) return n.name;
    return static_cast<std::underlying_type_t<E>>(e);
  }
  static Json value(const Array<float>& a) {
    return sequence(a.size(), [&](std::size_t i) { return float_json(a[i]); });
  }
  static Json value(const Array<std::uint8_t>& a) { return base64_encode(a.span()); }
  static Json value(const IndexArray& a) {
    return sequence(a.size(), [&](std::size_t i) { return Json(a[i]); });
  }
  template <class T, std::size_t N>
  static Json value(const std::array<T, N>& a) {
    return sequence(N, [&](std::size_t i) { return value(a[i]); });
  }
  template <class T>
  static Json value(const std::vector<T>& v) {
    return sequence(v.size(), [&](std::size_t i) { return value(v[i]); });
  }
  template <class T>
  static Json value(const std::optional<T>& o) {
    return o ? value(*o) : Json(nullptr);
  }
  template <class F>
  static Json value(const Grid<F>& g) {
    return value(grid_form(g));
  }
  template <Record T>
  static Json value(const T& s) {
    Object o;
    fields(o, s);
    return o.take();
  }

 private:
  template <class Element>
  static Json sequence(std::size_t n, Element element) {
    Json out = Json::array();
    out.get_ref<Json::array_t&>().reserve(n);
    for (std::size_t i = 0; i < n; ++i) out.push_back(element(i));
    return out;
  }

  // Cells take the flat coordinates in axis-sized slices. A grid whose coordinate count is
  // not cells x axes (which validate() refuses) cannot be written whole: the slices stop
  // where the coordinates do.
  template <class F>
  static GridForm<F> grid_form(const Grid<F>& g) {
    GridForm<F> out{g.axes, {}};
    const std::size_t n = g.axes.size();
    out.cells.resize(g.forms.size());
    for (std::size_t c = 0; c < g.forms.size(); ++c) {
      std::size_t begin = std::min(c * n, g.coords.size()), end = std::min(begin + n, g.coords.size());
      out.cells[c].at.assign(g.coords.begin() + static_cast<std::ptrdiff_t>(begin),
                             g.coords.begin() + static_cast<std::ptrdiff_t>(end));
      out.cells[c].form = g.forms[c];
    }
    return out;
  }
};

Json document(const Rig& rig) {
  Writer::Object o;
  o("format", std::string(kFormatName));
  o("version", kFormatVersion);
  fields(o, rig);
  return o.take();
}

// nlohmann's own indentation puts every number on a line of its own. Here an array of
// plain values (keys, colours, coordinates, vertex data) stays on one line, and objects
// and arrays of objects are indented by two spaces.
void print(const Json& j, std::size_t depth, std::string& out);

void newline(std::size_t depth, std::string& out) {
  out += '\n';
  out.append(depth * 2, ' ');
}

void print_scalar(const Json& j, std::string& out) {
  // Strings of a loaded rig are valid UTF-8; a hand-built rig's stray bytes become U+FFFD
  // rather than an exception.
  out += j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

void print_object(const Json& j, std::size_t depth, std::string& out) {
  if (j.empty()) {
    out += "{}";
    return;
  }
  out += '{';
  bool first = true;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!first) out += ',';
    first = false;
    newline(depth + 1, out);
    print_scalar(Json(it.key()), out);
    out += ": ";
    print(it.value(), depth + 1, out);
  }
  newline(depth, out);
  out += '}';
}

// Numbers, booleans and nulls hold no commas, so one dump of the whole array with a space
// added after each comma spells it as printing the values one by one would, but without a
// serializer per value: the difference is large for vertex data.
void print_plain_values(const Json& j, std::string& out) {
  std::string compact = j.dump();
  out.reserve(out.size() + compact.size() + j.size());
  for (char c : compact) {
    out += c;
    if (c == ',') out += ' ';
  }
}

void print_array(const Json& j, std::size_t depth, std::string& out) {
  if (std::all_of(j.begin(), j.end(), [](const Json& e) { return e.is_number() || e.is_boolean() || e.is_null(); })) {
    print_plain_values(j, out);
    return;
  }
  bool flat = std::none_of(j.begin(), j.end(), [](const Json& e) { return e.is_structured(); });
  out += '[';
  for (std::size_t i = 0; i < j.size(); ++i) {
    if (i) out += flat ? ", " : ",";
    if (!flat) newline(depth + 1, out);
    print(j[i], depth + 1, out);
  }
  if (!flat) newline(depth, out);
  out += ']';
}

void print(const Json& j, std::size_t depth, std::string& out) {
  if (j.is_object())
    print_object(j, depth, out);
  else if (j.is_array())
    print_array(j, depth, out);
  else
    print_scalar(j, out);
}

// ---- reading ----------------------------------------------------------------------------

// "\"warp\", \"rotation\"": the names an enum member accepts, for error messages.
template <Enum E>
std::string quoted_names(E e) {
  std::string list;
  for (const auto& n : names_of(e)) list += (list.empty() ? "\"" : ", \"") + std::string(n.name) + "\"";
  return list;
}

class Reader {
 public:
  // Reads a struct's members from one object. Keys the JSON leaves out keep the value the
  // struct already has (its default); keys the field list does not name are errors.
  class Object {
   public:
    Object(const Json& j, const Path& at) : json_(j), at_(at) {
      if (!j.is_object()) fail(at, "expected an object");
    }

    template <class T>
    void operator()(const char* key, T& member) {
      known_.push_back(key);
      auto it = json_.find(key);
      if (it == json_.end()) return;
      ++found_;
      Reader::read(*it, at_.member(key), member);
    }

    bool has(const char* key) const { return json_.contains(key); }

    // JSON objects have unique keys here (nlohmann keeps the last of a repeated key), so
    // all keys were known when as many were found as the object holds.
    void finish() const {
      if (found_ == json_.size()) return;
      for (auto it = json_.begin(); it != json_.end(); ++it) {
        const std::string& key = it.key();
        if (std::find(known_.begin(), known_.end(), key) != known_.end()) continue;
        std::string expected;
        for (const char* k : known_) expected += (expected.empty() ? "" : ", ") + std::string(k);
        fail(at_.member(key.c_str()), "unknown key (expected one of: " + expected + ")");
      }
    }

   private:
    const Json& json_;
    const Path& at_;
    std::vector<const char*> known_;
    std::size_t found_ = 0;
  };

  static void read(const Json& j, const Path& at, bool& out) {
    if (!j.is_boolean()) fail(at, "expected true or false");
    out = j.get<bool>();
  }
  static void read(const Json& j, const Path& at, float& out) { out = float_from_json(j, at); }
  static void read(const Json& j, const Path& at, std::string& out) {
    if (!j.is_string()) fail(at, "expected a string");
    out = j.get_ref<const std::string&>();
  }
  template <Integer I>
  static void read(const Json& j, const Path& at, I& out) {
    if (!j.is_number_integer()) fail(at, "expected an integer");
    bool fits =
        j.is_number_unsigned() ? std::in_range<I>(j.get<std::uint64_t>()) : std::in_range<I>(j.get<std::int64_t>());
    if (!fits)
      fail(at, "expected an integer in " + std::to_string(+std::numeric_limits<I>::min()) + ".." +
                   std::to_string(+std::numeric_limits<I>::max()));
    out = j.get<I>();
  }
  template <Enum E>
  static void read(const Json& j, const Path& at, E& out) {
    if (!j.is_string()) fail(at, "expected one of " + quoted_names(out));
    const std::string& name = j.get_ref<const std::string&>();
    for (const auto& n : names_of(out))
      if (name == n.name) {
        out = n.value;
        return;
      }
    fail(at, "unknown value \"" + name + "\" (expected one of " + quoted_names(out) + ")");
  }
  static void read(const Json& j, const Path& at, Array<float>& out) {
    std::vector<float> values;
    read(j, at, values);
    out = Array<float>(std::move(values));
  }
  static void read(const Json& j, const Path& at, Array<std::uint8_t>& out) {
    if (!j.is_string()) fail(at, "expected a base64 string");
    out = Array<std::uint8_t>(base64_decode(j.get_ref<const std::string&>(), at));
  }
  // The stored width (u16 or u32) is the file writer's choice; the JSON form has values only.
  static void read(const Json& j, const Path& at, IndexArray& out) {
    std::vector<std::uint32_t> values;
    read(j, at, values);
    out = IndexArray(std::move(values));
  }
  template <class T, std::size_t N>
  static void read(const Json& j, const Path& at, std::array<T, N>& out) {
    if (!j.is_array() || j.size() != N) fail(at, "expected an array of " + std::to_string(N) + " numbers");
    for (std::size_t i = 0; i < N; ++i) read(j[i], at.element(i), out[i]);
  }
  template <class T>
  static void read(const Json& j, const Path& at, std::vector<T>& out) {
    if (!j.is_array()) fail(at, "expected an array");
    out.assign(j.size(), T{});
    for (std::size_t i = 0; i < out.size(); ++i) read(j[i], at.element(i), out[i]);
  }
  template <class T>
  static void read(const Json& j, const Path& at, std::optional<T>& out) {
    if (j.is_null()) {
      out.reset();
      return;
    }
    read(j, at, out.emplace());
  }
  template <class F>
  static void read(const Json& j, const Path& at, Grid<F>& out) {
    GridForm<F> form;
    read(j, at, form);
    out = grid_from(std::move(form), at);
  }
  template <Record T>
  static void read(const Json& j, const Path& at, T& out) {
    Object o(j, at);
    fields(o, out);
    o.finish();
  }

 private:
  // Each cell needs one coordinate per axis: the model keeps them in one flat vector, so a
  // cell with another count would shift every cell after it.
  template <class F>
  static Grid<F> grid_from(GridForm<F>&& form, const Path& at) {
    Grid<F> g;
    g.axes = std::move(form.axes);
    const std::size_t n = g.axes.size();
    const Path cells = at.member("cells");
    for (std::size_t c = 0; c < form.cells.size(); ++c) {
      Cell<F>& cell = form.cells[c];
      if (cell.at.size() != n)
        fail(cells.element(c).member("at"),
             "expected " + std::to_string(n) + " coordinates (one per axis), found " + std::to_string(cell.at.size()));
      g.coords.insert(g.coords.end(), cell.at.begin(), cell.at.end());
      g.forms.push_back(std::move(cell.form));
    }
    return g;
  }
};

void read_document(const Json& doc, Rig& rig) {
  const Path root;
  Reader::Object o(doc, root);
  // The format is checked first, so that a different kind of JSON file is named as such
  // rather than reported key by key.
  if (!o.has("format")) fail(root.member("format"), std::string("missing (expected \"") + kFormatName + "\")");
  std::string format;
  o("format", format);
  if (format != kFormatName) fail(root.member("format"), "\"" + format + "\" is not \"" + kFormatName + "\"");
  std::int64_t version = kFormatVersion;
  o("version", version);
  if (version != kFormatVersion)
    fail(root.member("version"), "version " + std::to_string(version) +
                                     " is not supported (this reader knows version " + std::to_string(kFormatVersion) +
                                     ")");
  fields(o, rig);
  o.finish();
}

// nlohmann's messages start with "[json.exception.parse_error.101] "; the tag is noise here.
std::string without_exception_tag(const char* what) {
  std::string message = what;
  if (message.starts_with("[json.exception.")) {
    std::size_t end = message.find("] ");
    if (end != std::string::npos) message.erase(0, end + 2);
  }
  return message;
}

}  // namespace

std::string rig_to_json(const Rig& rig) {
  try {
    std::string out;
    print(document(rig), 0, out);
    out += '\n';
    return out;
  } catch (const std::exception&) {
    // Only running out of memory can get here; the signature has no error channel.
    return {};
  }
}

bool rig_from_json(std::string_view json, Rig& rig, std::string& error) {
  try {
    Json doc = Json::parse(json.begin(), json.end());
    Rig parsed;
    read_document(doc, parsed);
    rig = std::move(parsed);
    return true;
  } catch (const FormError& e) {
    error = e.what();
  } catch (const Json::exception& e) {
    error = "JSON syntax: " + without_exception_tag(e.what());
  } catch (const std::exception& e) {
    error = e.what();
  }
  return false;
}

}  // namespace p2l
