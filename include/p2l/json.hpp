// The JSON form of a rig: lossless (every field of every chunk, floats as the shortest
// decimal that reads back to the same f32, byte strings in base64), documented in
// docs/JSON.md. Used to author small rigs by hand, to diff rigs and for test fixtures:
// for a canonical file x, write(from_json(to_json(load(x)))) == x.
#pragma once

#include <string>
#include <string_view>

#include "p2l/rig.hpp"

namespace p2l {

// Pretty-printed, two-space indented, keys in a fixed order.
std::string rig_to_json(const Rig& rig);

// Parses the JSON form. On failure returns false and says where and why in `error`
// (a JSON path such as "meshes[2].geometry.uvs"). The result is not validated: pass it
// to p2l::validate() or p2l::write(), which do.
bool rig_from_json(std::string_view json, Rig& rig, std::string& error);

}  // namespace p2l
