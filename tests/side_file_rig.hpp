// The small rig with more parameters and parts for Cubism side files to point at:
// parameters ParamAngle(0) ParamB(1) ParamC(2) ParamD(3); parts Body(0) Arm1(1) Arm2(2)
// Arm3(3); meshes A(0) B(1). For the side-file tests, the side-file fuzzer and its bounds.
#pragma once

#include "small_rig.hpp"

namespace p2l_test {

inline p2l::Rig make_side_file_rig() {
  p2l::Rig rig = make_small_rig();
  rig.parameters.push_back({"ParamB", "ParamB", 0, 1, 0, false, false});
  rig.parameters.push_back({"ParamC", "ParamC", -1, 1, 0, false, false});
  rig.parameters.push_back({"ParamD", "ParamD", -1, 1, 0, false, false});
  for (const char* id : {"Arm1", "Arm2", "Arm3"}) {
    p2l::Part p;
    p.id = id;
    p.name = id;
    rig.parts.push_back(p);
  }
  return rig;
}

}  // namespace p2l_test
