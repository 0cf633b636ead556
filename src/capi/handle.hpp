// The C API's private side: what a P2lModel and a P2lRig hold, and the helpers every entry
// point uses so that nothing thrown inside the C++ library reaches the C caller.
//
// A model's strings are prepared once, NUL-terminated, when it loads; they point into the
// immutable Rig where they can and live as long as the shared ModelData, which every rig
// created from the model keeps alive. A rig is one p2l::Instance plus its failure state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <list>
#include <exception>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/exceptions.hpp"
#include "p2l/anim.hpp"
#include "p2l/eval.hpp"
#include "p2l/p2l.h"
#include "p2l/render.hpp"
#include "p2l/rig.hpp"

namespace p2l::capi {

// A list of NUL-terminated strings for C. A string without NUL bytes is used where it lies
// (its owner must outlive the list); one with NUL bytes is kept as a copy without them.
class CStrings {
 public:
  // Out of line: a ModelData holds two dozen of these, and its constructor and destructor
  // with each list's set-up inlined cost the WebAssembly module about a kilobyte.
  CStrings();
  ~CStrings();
  CStrings(const CStrings&) = delete;
  CStrings& operator=(const CStrings&) = delete;
  void reserve(std::size_t n) { pointers_.reserve(n); }
  void add(const std::string& text);
  void add_empty() { pointers_.push_back(""); }
  // String [index], or nullptr when there is none.
  const char* at(std::uint32_t index) const { return index < pointers_.size() ? pointers_[index] : nullptr; }
  std::size_t size() const { return pointers_.size(); }

 private:
  std::vector<const char*> pointers_;
  // Never moves what it holds; a list rather than a deque, whose block bookkeeping cost the
  // WebAssembly module 1.5 KB for strings with a NUL in them, which are rare.
  std::list<std::string> cleaned_;
};

// What every rig of one file shares, read-only.
struct ModelData {
  std::shared_ptr<const Model> model;
  CStrings parameter_ids, parameter_names;
  CStrings mesh_ids, mesh_names, mesh_user_data;  // user data: "" for a mesh without any
  CStrings part_ids, part_names;
  CStrings texture_uris;
  CStrings hit_area_ids, hit_area_names;
  CStrings bone_ids;  // BONE's attachable bones
  CStrings gui_ids, gui_names, gui_presets;  // presets: "" for a node without a preset label
  CStrings meta_keys, meta_values;
  CStrings clip_ids, clip_names, clip_groups;
  CStrings expression_ids, expression_names;
  // Every CEXT event's text, record after record; event_first[record] is where a record's start.
  CStrings event_texts;
  std::vector<std::uint32_t> event_first;
  // The embedded PNG pages, decoded on first use and shared by every rig's renderer.
  std::shared_ptr<p2l::TexturePages> pages;
  // The import report of a model made by p2l_*_import_cubism (include/p2l/p2l_cubism.h).
  std::vector<std::string> import_lines;
  CStrings import_report;

  const Rig& rig() const { return model->rig(); }
};

// Builds the strings of [model], with [import_report] the lines of the import that made it.
// May throw std::bad_alloc.
std::shared_ptr<const ModelData> make_model_data(std::shared_ptr<const Model> model,
                                                 std::vector<std::string> import_report = {});

// [rig] compiled into a model's shared data, with [import_report] beside it; null with
// [message] set when it does not compile. May throw std::bad_alloc.
std::shared_ptr<const ModelData> compile_model(std::shared_ptr<const Rig> rig, std::vector<std::string> import_report,
                                               std::string& message);

// A rig on [data] at its defaults; null with [message] set when setting it up fails.
P2lRig* create_rig(std::shared_ptr<const ModelData> data, std::string& message) noexcept;
// A model (null when out of memory) on [data].
P2lModel* create_model(std::shared_ptr<const ModelData> data) noexcept;
// Reports a failed load or creation to the log and to the caller's buffer ("Out of memory"
// for an empty [message]).
void report_failure(const std::string& message, char* error, std::size_t capacity) noexcept;

// The message of the exception being handled; call only inside a catch block.
std::string current_exception_message() noexcept;

// Sends [message] to the host's log function, if any. Never throws.
void log(std::int32_t level, const char* message) noexcept;
// Copies [message] into the caller's buffer, cut to fit and NUL-terminated.
void write_error(std::string_view message, char* error, std::size_t capacity) noexcept;

}  // namespace p2l::capi

struct P2lModel {
  std::shared_ptr<const p2l::capi::ModelData> data;
};

struct P2lRig {
  // A rig at the model's defaults, evaluated once with its part poses (under Cubism's rules
  // with the parts' saved visibility, as the Core's model is made); every change bit is set,
  // as after a first evaluation.
  explicit P2lRig(std::shared_ptr<const p2l::capi::ModelData> shared);

  std::shared_ptr<const p2l::capi::ModelData> data;
  p2l::Instance instance;
  p2l::Animator animator;
  // Set once a call fails inside the runtime; the rig then acts as a null handle. Reading
  // calls take a const rig and may fail too, hence mutable.
  mutable bool failed = false;
  mutable std::string failure;
  // The software renderer (p2l_render), made on first use with the model's shared pages.
  std::unique_ptr<p2l::Renderer> renderer;

  const p2l::Rig& rig() const { return data->rig(); }
  const p2l::Model& model() const { return *data->model; }
};

namespace p2l::capi {

// Marks [rig] failed with [message] and logs it. Never throws.
void fail(const P2lRig& rig, const std::string& message) noexcept;

// Runs body(rig) on a working rig and returns what it returns; [fallback] for a null or
// failed rig, or when the body throws (which fails the rig).
template <class R, class Handle, class F>
R guarded(Handle* rig, R fallback, F&& body) noexcept {
  if (rig == nullptr || rig->failed) return fallback;
  P2L_TRY {
    return body(*rig);
  } P2L_CATCH_ALL {
    fail(*rig, current_exception_message());
  }
  return fallback;
}

template <class Handle, class F>
void guarded_void(Handle* rig, F&& body) noexcept {
  if (rig == nullptr || rig->failed) return;
  P2L_TRY {
    body(*rig);
  } P2L_CATCH_ALL {
    fail(*rig, current_exception_message());
  }
}

// String [index] of one of the model's string lists (ids, names, ...): NULL for a null or
// failed rig and for an index past the end.
inline const char* model_string(const P2lRig* rig, CStrings ModelData::*list, std::uint32_t index) noexcept {
  return guarded(rig, static_cast<const char*>(nullptr), [&](const P2lRig& r) { return ((*r.data).*list).at(index); });
}

// Stores [value] through [out] unless it is null.
template <class T, class V>
void put(T* out, V value) {
  if (out != nullptr) *out = static_cast<T>(value);
}

inline std::uint32_t count_of(std::size_t n) {
  return n > std::numeric_limits<std::uint32_t>::max() ? std::numeric_limits<std::uint32_t>::max()
                                                       : static_cast<std::uint32_t>(n);
}

// Copies up to [capacity] of [values] into [out] (may be null); returns how many there are.
template <class T>
std::uint32_t write_all(std::span<const T> values, T* out, std::uint32_t capacity) {
  if (out != nullptr && !values.empty()) {
    std::size_t n = values.size() < capacity ? values.size() : capacity;
    if (n > 0) std::memcpy(out, values.data(), n * sizeof(T));
  }
  return count_of(values.size());
}

// Three floats from [rgb] into [out] unless it is null.
inline void put_rgb(float* out, const Rgb& rgb) {
  if (out != nullptr) std::memcpy(out, rgb.data(), 3 * sizeof(float));
}

inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

}  // namespace p2l::capi
