// cdi3.json (display info) -> parameter and part names, and PGUI: the parameter groups as
// a tree and the combined parameters as joysticks.
#include <map>

#include "import/cubism/side_files.hpp"

namespace p2l::cubism {
namespace {

constexpr std::size_t kTop = static_cast<std::size_t>(-1);

struct Group {
  std::string id, name;
  std::size_t parent = kTop;
  std::vector<std::size_t> groups;        // child groups, in ParameterGroups order
  std::vector<std::uint32_t> parameters;  // leaves, in PARM order
};

// The children of [g] (a group, or the top level) in pre-order: each child group followed by
// its own subtree, then the parameter leaves.
void emit(const std::vector<Group>& groups, const Group& g, Gui& gui) {
  for (std::size_t c : g.groups) {
    const Group& child = groups[c];
    GuiNode node;
    node.group = true;
    node.id = child.id;
    node.name = child.name;
    node.children = static_cast<std::uint32_t>(child.groups.size() + child.parameters.size());
    gui.nodes.push_back(std::move(node));
    emit(groups, child, gui);
  }
  for (std::uint32_t p : g.parameters) {
    GuiNode leaf;
    leaf.parameter = static_cast<std::int32_t>(p);
    gui.nodes.push_back(std::move(leaf));
  }
}

// ParameterGroups -> groups; a GroupId that names no group, or a cycle of groups, puts the
// group at the top level (reported).
std::vector<Group> parameter_groups(const Node& root, std::map<std::string, std::size_t>& by_id, ImportReport& report) {
  std::vector<Group> groups;
  std::vector<std::string> parent_ids;
  std::vector<Node> where;
  for (const Node& g : root.elements_of("ParameterGroups")) {
    const std::string id = g.at("Id").string();
    if (!by_id.emplace(id, groups.size()).second) {
      report.dropped.push_back(g.at("Id").note("group " + quote_id(id) + " listed twice: the second dropped"));
      continue;
    }
    groups.push_back({id, g.string_or("Name", id), kTop, {}, {}});
    parent_ids.push_back(g.string_or("GroupId", ""));
    where.push_back(g);
  }
  for (std::size_t i = 0; i < groups.size(); ++i) {
    if (parent_ids[i].empty()) continue;
    auto parent = by_id.find(parent_ids[i]);
    if (parent == by_id.end()) {
      report.dropped.push_back(
          where[i].at("GroupId").note("no group " + quote_id(parent_ids[i]) + ": put at the top level"));
      continue;
    }
    // Walking up from the new parent must end at the top without meeting this group.
    bool cycle = false;
    std::size_t steps = 0;
    for (std::size_t up = parent->second; up != kTop && !cycle; up = groups[up].parent)
      cycle = up == i || ++steps > groups.size();
    if (cycle) {
      report.dropped.push_back(
          where[i].at("GroupId").note("groups nest in a cycle: " + quote_id(groups[i].id) + " put at the top level"));
      continue;
    }
    groups[i].parent = parent->second;
  }
  for (std::size_t i = 0; i < groups.size(); ++i)
    if (groups[i].parent != kTop) groups[groups[i].parent].groups.push_back(i);
  return groups;
}

}  // namespace

void read_cdi3(const Node& root, Rig& rig, ImportReport& report) {
  std::map<std::string, std::size_t> group_ids;
  std::vector<Group> groups = parameter_groups(root, group_ids, report);
  Group top;
  for (std::size_t i = 0; i < groups.size(); ++i)
    if (groups[i].parent == kTop) top.groups.push_back(i);

  // Names, and each parameter's group; a parameter the file does not list has none.
  std::vector<std::size_t> group_of(rig.parameters.size(), kTop);
  for (const Node& p : root.elements_of("Parameters")) {
    const Node id = p.at("Id");
    const std::int32_t index = rig.find_parameter(id.string());
    if (index < 0) {
      report.dropped.push_back(id.note("no parameter " + quote_id(id.string()) + ": its display info dropped"));
      continue;
    }
    const std::string name = p.string_or("Name", "");
    if (!name.empty()) rig.parameters[index].name = name;
    const std::string group = p.string_or("GroupId", "");
    if (group.empty()) continue;
    auto g = group_ids.find(group);
    if (g == group_ids.end())
      report.dropped.push_back(
          p.at("GroupId").note("no group " + quote_id(group) + ": the parameter is put at the top level"));
    else
      group_of[index] = g->second;
  }
  for (std::uint32_t i = 0; i < rig.parameters.size(); ++i)
    (group_of[i] == kTop ? top : groups[group_of[i]]).parameters.push_back(i);

  for (const Node& part : root.elements_of("Parts")) {
    const Node id = part.at("Id");
    const std::int32_t index = rig.find_part(id.string());
    // The Editor lists parts the moc leaves out (sketch parts).
    if (index < 0) {
      report.dropped.push_back(id.note("no part " + quote_id(id.string()) + ": its name dropped"));
      continue;
    }
    const std::string name = part.string_or("Name", "");
    if (!name.empty()) rig.parts[index].name = name;
  }

  Gui gui;
  for (const Node& pair : root.elements_of("CombinedParameters")) {
    if (pair.size() != 2) pair.fail(ErrorCode::BadRecord, "expected two parameter IDs");
    const std::string h = pair.element(0).string(), v = pair.element(1).string();
    const std::int32_t hi = rig.find_parameter(h), vi = rig.find_parameter(v);
    if (hi < 0 || vi < 0) {
      report.dropped.push_back(pair.note("no parameter " + quote_id(hi < 0 ? h : v) + ": combined parameters dropped"));
      continue;
    }
    gui.joysticks.push_back({static_cast<std::uint32_t>(hi), static_cast<std::uint32_t>(vi)});
  }
  emit(groups, top, gui);
  rig.gui = std::move(gui);
}

}  // namespace p2l::cubism
