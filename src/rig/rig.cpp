// Look-ups by id. Loaded rigs are immutable, so these are linear scans meant for setup,
// never for a per-frame path (evaluation resolves ids to indices once).
#include "p2l/rig.hpp"

namespace p2l {
namespace {
template <class List>
std::int32_t find_by_id(const List& list, std::string_view id) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i].id == id) return static_cast<std::int32_t>(i);
  return -1;
}
}  // namespace

std::int32_t Rig::find_parameter(std::string_view id) const { return find_by_id(parameters, id); }
std::int32_t Rig::find_mesh(std::string_view id) const { return find_by_id(meshes, id); }
std::int32_t Rig::find_part(std::string_view id) const { return find_by_id(parts, id); }
std::int32_t Rig::find_deformer(std::string_view id) const { return find_by_id(deformers, id); }
const std::string* Rig::find_meta(std::string_view key) const {
  for (const auto& e : meta)
    if (e.key == key) return &e.value;
  return nullptr;
}

}  // namespace p2l
