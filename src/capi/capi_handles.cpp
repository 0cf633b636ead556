// Models and rigs: loading, creating, freeing, and what a failed rig reports.
#include <atomic>
#include <new>
#include <span>
#include <string>
#include <utility>

#include "base/exceptions.hpp"
#include "capi/handle.hpp"
#include "p2l/format.hpp"

namespace p2l::capi {

[[gnu::noinline]] CStrings::CStrings() = default;
[[gnu::noinline]] CStrings::~CStrings() = default;

void CStrings::add(const std::string& text) {
  if (text.find('\0') == std::string::npos) {
    pointers_.push_back(text.c_str());
    return;
  }
  std::string& copy = cleaned_.emplace_back(text);
  std::erase(copy, '\0');
  pointers_.push_back(copy.c_str());
}

std::shared_ptr<const ModelData> make_model_data(std::shared_ptr<const Model> model, std::vector<std::string> import_report) {
  auto data = std::make_shared<ModelData>();
  data->model = std::move(model);
  data->import_lines = std::move(import_report);
  for (const std::string& line : data->import_lines) data->import_report.add(line);
  data->pages = std::make_shared<TexturePages>(data->model);
  const Rig& rig = data->rig();

  for (const Parameter& p : rig.parameters) {
    data->parameter_ids.add(p.id);
    data->parameter_names.add(p.name);
  }
  for (const Mesh& m : rig.meshes) {
    data->mesh_ids.add(m.id);
    data->mesh_names.add(m.name);
  }
  // A mesh's user data is the last record of kind 0 that targets it.
  std::vector<const std::string*> user_data(rig.meshes.size(), nullptr);
  for (const UserData& u : rig.user_data)
    if (u.kind == 0 && u.target < user_data.size()) user_data[u.target] = &u.value;
  for (const std::string* text : user_data) {
    if (text != nullptr)
      data->mesh_user_data.add(*text);
    else
      data->mesh_user_data.add_empty();
  }
  for (const Part& p : rig.parts) {
    data->part_ids.add(p.id);
    data->part_names.add(p.name);
  }
  for (const Texture& t : rig.textures) data->texture_uris.add(t.uri);
  if (rig.bones)
    for (const BoneRef& b : rig.bones->bones) data->bone_ids.add(b.id);
  for (const HitArea& h : rig.hit_areas) {
    data->hit_area_ids.add(h.id);
    data->hit_area_names.add(h.name);
  }
  if (rig.gui) {
    for (const GuiNode& n : rig.gui->nodes) {
      data->gui_ids.add(n.id);
      data->gui_names.add(n.name);
      if (n.label == GuiLabel::Preset)
        data->gui_presets.add(n.preset);
      else
        data->gui_presets.add_empty();
    }
  }
  for (const MetaEntry& e : rig.meta) {
    data->meta_keys.add(e.key);
    data->meta_values.add(e.value);
  }
  for (const Clip& c : rig.clips) {
    data->clip_ids.add(c.id);
    data->clip_names.add(c.name);
    data->clip_groups.add(c.group);
  }
  for (const Expression& e : rig.expressions) {
    data->expression_ids.add(e.id);
    data->expression_names.add(e.name);
  }
  for (const ClipExtension& x : rig.clip_extensions) {
    data->event_first.push_back(static_cast<std::uint32_t>(data->event_texts.size()));
    for (const ClipEvent& e : x.events) data->event_texts.add(e.value);
  }
  return data;
}

namespace {
// Rigs made so far in this process: each after the first blinks on a seed of its own, so
// characters side by side do not blink together (as the original runtime does).
std::atomic<std::uint32_t> rigs_made{0};
}  // namespace

}  // namespace p2l::capi

P2lRig::P2lRig(std::shared_ptr<const p2l::capi::ModelData> shared)
    : data(std::move(shared)), instance(data->model), animator(data->model) {
  const std::uint32_t made = p2l::capi::rigs_made.fetch_add(1, std::memory_order_relaxed);
  if (made > 0) animator.behavior_seed((made * 0x9E3779B9u) ^ 0x2545F491u);
  // Under Cubism's rules the instance's own first evaluation is the one the Core makes as it
  // makes a model (the defaults, the parts' saved visibility), and a second would move hidden
  // meshes' buffers again (docs/RUNTIME.md, "Hidden objects"): part poses then apply from the
  // first update, as in Cubism's Framework.
  // Under Cubism 2's rules the same: the 2.1 runtime makes no update as it loads a model, and a
  // second evaluation would leave frames a later update could keep (eval/cubism2_evaluate.hpp).
  if (rig().rules != p2l::CoreRules::Original) return;
  instance.reset_changes();
  animator.evaluate(instance);
}

namespace p2l::capi {

void fail(const P2lRig& rig, const std::string& message) noexcept {
  rig.failed = true;
  P2L_TRY {
    rig.failure = message;
  } P2L_CATCH_ALL {
    rig.failure.clear();  // p2l_rig_failure falls back to a fixed text
  }
  P2L_TRY {
    log(P2L_LOG_ERROR, ("The rig failed: " + message).c_str());
  } P2L_CATCH_ALL {
    log(P2L_LOG_ERROR, "The rig failed");
  }
}

namespace {

// Loads [bytes] into a model's shared data; null with [message] set on failure.
std::shared_ptr<const ModelData> load_model(const std::uint8_t* bytes, std::size_t len, std::uint32_t flags,
                                            std::string& message) noexcept {
  P2L_TRY {
    if (bytes == nullptr) {
      message = "No rig bytes";
      return nullptr;
    }
    LoadOptions options;
    options.verify_crc = (flags & P2L_LOAD_VERIFY_CRC) != 0;
    options.borrow = false;  // the caller may free its bytes once the call returns
    LoadResult loaded = load(std::span<const std::uint8_t>(bytes, len), options);
    if (!loaded) {
      message = loaded.error.to_string();
      return nullptr;
    }
    return compile_model(std::move(loaded.rig), {}, message);
  } P2L_CATCH_ALL {
    P2L_TRY {
      message = "The rig could not be read: " + current_exception_message();
    } P2L_CATCH_ALL {
      message.clear();
    }
    return nullptr;
  }
}

}  // namespace

std::shared_ptr<const ModelData> compile_model(std::shared_ptr<const Rig> rig, std::vector<std::string> import_report,
                                               std::string& message) {
  ModelResult compiled = Model::create(std::move(rig));
  if (!compiled) {
    message = compiled.error.to_string();
    return nullptr;
  }
  return make_model_data(std::move(compiled.model), std::move(import_report));
}

P2lRig* create_rig(std::shared_ptr<const ModelData> data, std::string& message) noexcept {
  P2L_TRY {
    return new P2lRig(std::move(data));
  } P2L_CATCH_ALL {
    P2L_TRY {
      message = "The rig could not be set up: " + current_exception_message();
    } P2L_CATCH_ALL {
      message.clear();
    }
    return nullptr;
  }
}

P2lModel* create_model(std::shared_ptr<const ModelData> data) noexcept {
  return data ? new (std::nothrow) P2lModel{std::move(data)} : nullptr;
}

void report_failure(const std::string& message, char* error, std::size_t capacity) noexcept {
  const char* text = message.empty() ? "Out of memory" : message.c_str();
  log(P2L_LOG_ERROR, text);
  write_error(text, error, capacity);
}

}  // namespace p2l::capi

using namespace p2l::capi;

extern "C" {

P2lRig* p2l_rig_load(const uint8_t* bytes, size_t len, char* error, size_t error_capacity) {
  return p2l_rig_load_ex(bytes, len, 0, error, error_capacity);
}

P2lRig* p2l_rig_load_ex(const uint8_t* bytes, size_t len, uint32_t flags, char* error, size_t error_capacity) {
  std::string message;
  auto data = load_model(bytes, len, flags, message);
  P2lRig* rig = data ? create_rig(std::move(data), message) : nullptr;
  if (rig == nullptr) report_failure(message, error, error_capacity);
  return rig;
}

P2lModel* p2l_model_load(const uint8_t* bytes, size_t len, uint32_t flags, char* error, size_t error_capacity) {
  std::string message;
  auto data = load_model(bytes, len, flags, message);
  P2lModel* model = create_model(std::move(data));
  if (model == nullptr) report_failure(message, error, error_capacity);
  return model;
}

void p2l_model_free(P2lModel* model) { delete model; }

P2lRig* p2l_rig_create(const P2lModel* model, char* error, size_t error_capacity) {
  std::string message = "No model";
  P2lRig* rig = model != nullptr ? create_rig(model->data, message) : nullptr;
  if (rig == nullptr) report_failure(message, error, error_capacity);
  return rig;
}

void p2l_rig_free(P2lRig* rig) { delete rig; }

const char* p2l_rig_failure(const P2lRig* rig) {
  if (rig == nullptr || !rig->failed) return nullptr;
  return rig->failure.empty() ? "The rig failed (out of memory)" : rig->failure.c_str();
}

}  // extern "C"
