// What else the file carries: texture pages, hit areas, user data, generator information and
// the parameter panel (PGUI).
#include <vector>

#include "capi/handle.hpp"
#include "eval/hit_test.hpp"

using namespace p2l::capi;

namespace {

const p2l::Texture* texture_at(const P2lRig& r, std::uint32_t index) {
  const auto& textures = r.rig().textures;
  return index < textures.size() ? &textures[index] : nullptr;
}

const p2l::GuiNode* gui_node_at(const P2lRig& r, std::uint32_t index) {
  const auto& gui = r.rig().gui;
  return gui && index < gui->nodes.size() ? &gui->nodes[index] : nullptr;
}

}  // namespace

extern "C" {

// --- texture pages ---

uint32_t p2l_texture_count(const P2lRig* rig) {
  return guarded(rig, std::uint32_t{0}, [](const P2lRig& r) { return count_of(r.rig().textures.size()); });
}

const uint8_t* p2l_texture_png(const P2lRig* rig, uint32_t index, size_t* len, uint32_t* width, uint32_t* height) {
  return guarded(rig, static_cast<const std::uint8_t*>(nullptr), [&](const P2lRig& r) -> const std::uint8_t* {
    const p2l::Texture* page = texture_at(r, index);
    if (page == nullptr) {
      put(len, 0);
      return nullptr;
    }
    put(width, page->width);
    put(height, page->height);
    if (page->kind != p2l::TextureKind::Png) {
      put(len, 0);
      return nullptr;
    }
    put(len, page->data.size());
    return page->data.data();
  });
}

const char* p2l_texture_info(const P2lRig* rig, uint32_t index, int32_t* kind, uint32_t* width, uint32_t* height,
                             const uint8_t** data, size_t* len) {
  return guarded(rig, static_cast<const char*>(nullptr), [&](const P2lRig& r) -> const char* {
    const p2l::Texture* page = texture_at(r, index);
    if (page == nullptr) {
      put(kind, -1);
      return nullptr;
    }
    bool external = page->kind == p2l::TextureKind::External;
    put(kind, static_cast<std::int32_t>(page->kind));
    put(width, page->width);
    put(height, page->height);
    put(data, external ? nullptr : page->data.data());
    put(len, external ? 0 : page->data.size());
    return r.data->texture_uris.at(index);
  });
}

// --- hit areas ---

uint32_t p2l_hit_area_count(const P2lRig* rig) {
  return guarded(rig, std::uint32_t{0}, [](const P2lRig& r) { return count_of(r.rig().hit_areas.size()); });
}

const char* p2l_hit_area_id(const P2lRig* rig, uint32_t index) {
  return model_string(rig, &ModelData::hit_area_ids, index);
}

const char* p2l_hit_area_name(const P2lRig* rig, uint32_t index) {
  return model_string(rig, &ModelData::hit_area_names, index);
}

int32_t p2l_hit_test(const P2lRig* rig, float x, float y) {
  return guarded(rig, std::int32_t{-1}, [&](const P2lRig& r) -> std::int32_t {
    const auto& areas = r.rig().hit_areas;
    const std::size_t mesh_count = r.rig().meshes.size();
    for (std::size_t a = 0; a < areas.size(); ++a) {
      for (std::uint32_t m : areas[a].meshes) {
        if (m >= mesh_count || (r.instance.changes(m) & P2L_MESH_VISIBLE) == 0) continue;
        if (p2l::mesh_contains(r.instance.vertices(m), r.model().mesh_indices(m), x, y))
          return static_cast<std::int32_t>(a);
      }
    }
    return -1;
  });
}

uint32_t p2l_hit_area_meshes(const P2lRig* rig, uint32_t index, uint32_t* out, uint32_t capacity) {
  return guarded(rig, std::uint32_t{0}, [&](const P2lRig& r) -> std::uint32_t {
    const auto& areas = r.rig().hit_areas;
    if (index >= areas.size()) return 0;
    return write_all(std::span<const std::uint32_t>(areas[index].meshes), out, capacity);
  });
}

// --- user data and generator information ---

const char* p2l_mesh_user_data(const P2lRig* rig, uint32_t index) {
  return model_string(rig, &ModelData::mesh_user_data, index);
}

uint32_t p2l_meta_count(const P2lRig* rig) {
  return guarded(rig, std::uint32_t{0}, [](const P2lRig& r) { return count_of(r.rig().meta.size()); });
}

const char* p2l_meta_key(const P2lRig* rig, uint32_t index) {
  return model_string(rig, &ModelData::meta_keys, index);
}

const char* p2l_meta_value(const P2lRig* rig, uint32_t index) {
  return model_string(rig, &ModelData::meta_values, index);
}

// --- parameter panel ---

uint32_t p2l_gui_joysticks(const P2lRig* rig, uint32_t* out, uint32_t capacity) {
  return guarded(rig, std::uint32_t{0}, [&](const P2lRig& r) -> std::uint32_t {
    const auto& gui = r.rig().gui;
    if (!gui) return 0;
    const auto& joysticks = gui->joysticks;
    if (out != nullptr) {
      std::size_t n = joysticks.size() < capacity ? joysticks.size() : capacity;
      for (std::size_t i = 0; i < n; ++i) {
        out[2 * i] = joysticks[i].horizontal;
        out[2 * i + 1] = joysticks[i].vertical;
      }
    }
    return count_of(joysticks.size());
  });
}

uint32_t p2l_gui_node_count(const P2lRig* rig) {
  return guarded(rig, std::uint32_t{0}, [](const P2lRig& r) { return count_of(r.data->gui_ids.size()); });
}

bool p2l_gui_node(const P2lRig* rig, uint32_t index, int32_t* parameter, uint32_t* children, bool* open) {
  return guarded(rig, false, [&](const P2lRig& r) {
    const p2l::GuiNode* node = gui_node_at(r, index);
    if (node == nullptr) return false;
    put(parameter, node->group ? -1 : node->parameter);
    put(children, node->children);
    put(open, node->open);
    return true;
  });
}

const char* p2l_gui_node_id(const P2lRig* rig, uint32_t index) {
  return model_string(rig, &ModelData::gui_ids, index);
}

const char* p2l_gui_node_name(const P2lRig* rig, uint32_t index) {
  return model_string(rig, &ModelData::gui_names, index);
}

int32_t p2l_gui_node_label(const P2lRig* rig, uint32_t index, const char** preset, uint32_t* argb) {
  return guarded(rig, std::int32_t{-1}, [&](const P2lRig& r) -> std::int32_t {
    const p2l::GuiNode* node = gui_node_at(r, index);
    if (node == nullptr) return -1;
    put(preset, r.data->gui_presets.at(index));
    put(argb, node->label == p2l::GuiLabel::Custom ? node->argb : 0u);
    return static_cast<std::int32_t>(node->label);
  });
}

}  // extern "C"
