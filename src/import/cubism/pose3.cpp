// pose3.json -> POSE.
#include "import/cubism/side_files.hpp"

namespace p2l::cubism {
namespace {

// A pose decides what shows by its parts (the first of a group starts visible), so an ID
// the moc lacks would change what it does: fatal.
std::uint32_t part_of(const Node& id, const Rig& rig) {
  const std::int32_t p = rig.find_part(id.string());
  if (p < 0) id.fail(ErrorCode::BadReference, "no part " + quote_id(id.string()));
  return static_cast<std::uint32_t>(p);
}

}  // namespace

void read_pose3(const Node& root, Rig& rig, ImportReport& report) {
  Pose pose;
  // Cubism: missing or negative is 0.5 s.
  const float fade = root.number_or("FadeInTime", 0.5f);
  pose.fade_in = fade < 0 ? 0.5f : fade;
  for (const Node& group : root.at("Groups").elements()) {
    PoseGroup g;
    for (const Node& entry : group.elements()) {
      PoseEntry e;
      e.part = part_of(entry.at("Id"), rig);
      for (const Node& link : entry.elements_of("Link")) e.linked.push_back(part_of(link, rig));
      g.entries.push_back(std::move(e));
    }
    add_pose_group(group, std::move(g), pose, report);
  }
  rig.pose = std::move(pose);
}

void add_pose_group(const Node& group, PoseGroup g, Pose& pose, ImportReport& report) {
  // POSE groups are never empty; an empty Cubism group does nothing.
  if (g.entries.empty())
    report.dropped.push_back(group.note("empty group dropped"));
  else
    pose.groups.push_back(std::move(g));
}

}  // namespace p2l::cubism
