// Meshes: what the file says about them, the last evaluation's outputs, and the render order.
#include "capi/handle.hpp"

using namespace p2l::capi;

namespace {

// Mesh [index] of the rig, or null.
const p2l::Mesh* mesh_at(const P2lRig& r, std::uint32_t index) {
  const auto& meshes = r.rig().meshes;
  return index < meshes.size() ? &meshes[index] : nullptr;
}

bool has_mesh(const P2lRig& r, std::uint32_t index) { return index < r.rig().meshes.size(); }

}  // namespace

extern "C" {

uint32_t p2l_mesh_count(const P2lRig* rig) {
  return guarded(rig, std::uint32_t{0}, [](const P2lRig& r) { return count_of(r.rig().meshes.size()); });
}

const char* p2l_mesh_id(const P2lRig* rig, uint32_t index) {
  return model_string(rig, &ModelData::mesh_ids, index);
}

const char* p2l_mesh_name(const P2lRig* rig, uint32_t index) {
  return model_string(rig, &ModelData::mesh_names, index);
}

uint32_t p2l_mesh_vertex_count(const P2lRig* rig, uint32_t index) {
  return guarded(rig, std::uint32_t{0}, [&](const P2lRig& r) -> std::uint32_t {
    const p2l::Mesh* mesh = mesh_at(r, index);
    return mesh != nullptr ? count_of(mesh->vertex_count()) : 0;
  });
}

const float* p2l_mesh_uvs(const P2lRig* rig, uint32_t index) {
  return guarded(rig, static_cast<const float*>(nullptr), [&](const P2lRig& r) -> const float* {
    const p2l::Mesh* mesh = mesh_at(r, index);
    if (mesh == nullptr || !mesh->geometry) return nullptr;
    return mesh->geometry->uvs.data();
  });
}

const uint32_t* p2l_mesh_indices(const P2lRig* rig, uint32_t index, uint32_t* count) {
  return guarded(rig, static_cast<const std::uint32_t*>(nullptr), [&](const P2lRig& r) -> const std::uint32_t* {
    const p2l::Mesh* mesh = mesh_at(r, index);
    if (mesh == nullptr || !mesh->geometry) {
      put(count, 0);
      return nullptr;
    }
    auto indices = r.model().mesh_indices(index);
    put(count, count_of(indices.size()));
    return indices.empty() ? nullptr : indices.data();
  });
}

int32_t p2l_mesh_texture(const P2lRig* rig, uint32_t index) {
  return guarded(rig, std::int32_t{-1}, [&](const P2lRig& r) -> std::int32_t {
    const p2l::Mesh* mesh = mesh_at(r, index);
    return mesh != nullptr ? mesh->texture_page : -1;
  });
}

int32_t p2l_mesh_blend(const P2lRig* rig, uint32_t index, bool* culling) {
  // As in the original: 0 for a null handle, -1 for no such mesh.
  return guarded(rig, std::int32_t{0}, [&](const P2lRig& r) -> std::int32_t {
    const p2l::Mesh* mesh = mesh_at(r, index);
    if (mesh == nullptr) return -1;
    put(culling, mesh->culling);
    return mesh->blend;
  });
}

int32_t p2l_mesh_alpha_blend(const P2lRig* rig, uint32_t index) {
  return guarded(rig, std::int32_t{0}, [&](const P2lRig& r) -> std::int32_t {
    const p2l::Mesh* mesh = mesh_at(r, index);
    return mesh != nullptr ? mesh->alpha_blend : -1;
  });
}

int32_t p2l_mesh_part(const P2lRig* rig, uint32_t index) {
  return guarded(rig, std::int32_t{-1},
                 [&](const P2lRig& r) { return has_mesh(r, index) ? r.model().mesh_part(index) : -1; });
}

uint32_t p2l_mesh_masks(const P2lRig* rig, uint32_t index, uint32_t* out, uint32_t capacity, bool* inverted) {
  return guarded(rig, std::uint32_t{0}, [&](const P2lRig& r) -> std::uint32_t {
    const p2l::Mesh* mesh = mesh_at(r, index);
    if (mesh == nullptr) return 0;
    put(inverted, mesh->invert_mask);
    return write_all(std::span<const std::uint32_t>(mesh->mask_meshes), out, capacity);
  });
}

const float* p2l_mesh_vertices(const P2lRig* rig, uint32_t index) {
  return guarded(rig, static_cast<const float*>(nullptr), [&](const P2lRig& r) -> const float* {
    return has_mesh(r, index) ? r.instance.vertices(index).data() : nullptr;
  });
}

float p2l_mesh_opacity(const P2lRig* rig, uint32_t index) {
  return guarded(rig, 0.0f, [&](const P2lRig& r) { return has_mesh(r, index) ? r.instance.opacity(index) : kNaN; });
}

float p2l_mesh_draw_order(const P2lRig* rig, uint32_t index) {
  return guarded(rig, 0.0f,
                 [&](const P2lRig& r) { return has_mesh(r, index) ? r.instance.draw_order(index) : kNaN; });
}

void p2l_mesh_colors(const P2lRig* rig, uint32_t index, float* multiply, float* screen) {
  guarded_void(rig, [&](const P2lRig& r) {
    if (!has_mesh(r, index)) return;
    put_rgb(multiply, r.instance.multiply(index));
    put_rgb(screen, r.instance.screen(index));
  });
}

uint32_t p2l_mesh_changes(const P2lRig* rig, uint32_t index) {
  return guarded(rig, std::uint32_t{0},
                 [&](const P2lRig& r) { return has_mesh(r, index) ? r.instance.changes(index) : 0u; });
}

uint32_t p2l_render_order(const P2lRig* rig, uint32_t* out, uint32_t capacity) {
  return guarded(rig, std::uint32_t{0},
                 [&](const P2lRig& r) { return write_all(r.instance.render_order(), out, capacity); });
}

uint32_t p2l_render_commands(const P2lRig* rig, int32_t* out, uint32_t capacity) {
  return guarded(rig, std::uint32_t{0},
                 [&](const P2lRig& r) { return write_all(r.instance.render_commands(), out, capacity); });
}

}  // extern "C"
