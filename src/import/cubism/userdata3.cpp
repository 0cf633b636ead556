// userdata3.json -> UDAT.
#include "import/cubism/side_files.hpp"

namespace p2l::cubism {

void read_userdata3(const Node& root, Rig& rig, ImportReport& report) {
  for (const Node& entry : root.at("UserData").elements()) {
    const Node target = entry.at("Target"), id = entry.at("Id");
    const std::string value = entry.at("Value").string();
    // UDAT holds mesh user data only.
    if (target.string() != "ArtMesh") {
      report.dropped.push_back(target.note("user data for a " + quote_id(target.string()) + " (" + id.string() +
                                           ") dropped: p2lrt keeps it for art meshes only"));
      continue;
    }
    const std::int32_t mesh = rig.find_mesh(id.string());
    if (mesh < 0) {
      report.dropped.push_back(id.note("no art mesh " + quote_id(id.string()) + ": user data dropped"));
      continue;
    }
    rig.user_data.push_back({0, static_cast<std::uint32_t>(mesh), value});
  }
}

}  // namespace p2l::cubism
