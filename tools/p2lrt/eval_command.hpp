// `p2lrt eval`: evaluate a rig at a pose and print what every mesh shows, as `p2lrt render`
// draws that pose (the part poses applied).
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "p2l/rig.hpp"

namespace p2lrt {

// [settings] are "ID=VALUE" pairs; returns the exit code (2 for a bad setting).
int print_evaluation(std::ostream& out, const std::shared_ptr<const p2l::Rig>& rig, const std::vector<std::string>& settings,
                     bool json);

}  // namespace p2lrt
