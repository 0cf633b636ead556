// `p2lrt view` in a build without the viewer's libraries.
#include <iostream>

#include "p2lrt/view/view_command.hpp"

namespace p2lrt {

int view(const ViewOptions&) {
  std::cerr << "p2lrt view: this p2lrt was built without the viewer; it needs libepoxy, GLFW, Dear ImGui and "
               "the X11 XFixes library (scripts/setup.sh --gl installs them), then a new build\n";
  return 1;
}

}  // namespace p2lrt
