// The Cubism Core API's one log channel (csmSetLogFunction): every refusal and misuse is said
// there, in a line that names the function and the problem, as the official Core does.
#pragma once

#include <string_view>

#include "Live2DCubismCore.h"

namespace p2l::csm {

csmLogFunction log_function();
void set_log_function(csmLogFunction f);
// "[CSM] [E]FUNCTION: what": nothing when no function is set.
void log_error(std::string_view function, std::string_view what);

}  // namespace p2l::csm
