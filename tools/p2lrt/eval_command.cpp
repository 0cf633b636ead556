#include "p2lrt/eval_command.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>

#include "p2l/anim.hpp"
#include "p2l/eval.hpp"

namespace p2lrt {
namespace {

// The shortest decimal that reads back as the same float (as the original's vectors).
std::string shortest(float v) {
  if (!std::isfinite(v)) return "null";
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
  return ec == std::errc() ? std::string(buffer, end) : "null";
}

template <class Seq>
std::string list(const Seq& values) {
  std::string s = "[";
  bool first = true;
  for (auto v : values) {
    if (!first) s += ",";
    first = false;
    if constexpr (std::is_floating_point_v<decltype(v)>)
      s += shortest(v);
    else
      s += std::to_string(v);
  }
  return s + "]";
}

std::string quoted(const std::string& text) {
  std::string s = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      s += '\\';
      s += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char u[8];
      std::snprintf(u, sizeof u, "\\u%04x", c);
      s += u;
    } else {
      s += c;
    }
  }
  return s + "\"";
}

}  // namespace

int print_evaluation(std::ostream& out, const std::shared_ptr<const p2l::Rig>& rig, const std::vector<std::string>& settings,
                     bool json) {
  auto model = p2l::Model::create(rig);
  if (!model) {
    std::cerr << "p2lrt: cannot evaluate: " << model.error.to_string() << "\n";
    return 1;
  }
  p2l::Instance in(model.model);
  for (const std::string& s : settings) {
    const auto eq = s.find('=');
    const std::int32_t index = eq == std::string::npos ? -1 : rig->find_parameter(s.substr(0, eq));
    float value = 0;
    const char* first = eq == std::string::npos ? nullptr : s.data() + eq + 1;
    const auto parsed = first ? std::from_chars(first, s.data() + s.size(), value) : std::from_chars_result{nullptr, std::errc::invalid_argument};
    if (index < 0 || parsed.ec != std::errc() || parsed.ptr != s.data() + s.size()) {
      std::cerr << "p2lrt: --set " << s << ": expected PARAMETER_ID=NUMBER with a parameter of the rig";
      if (index < 0 && eq != std::string::npos) std::cerr << " (no parameter \"" << s.substr(0, eq) << "\")";
      std::cerr << "\n";
      return 2;
    }
    in.parameters()[static_cast<std::size_t>(index)] = value;
  }
  // Evaluated as `p2lrt render` evaluates a pose: through the Animator, so that the rig's part
  // poses (a Cubism pose3: each group's first part shown, the others hidden) apply.
  p2l::Animator(model.model).evaluate(in);
  std::vector<std::int32_t> place(rig->meshes.size(), -1);
  for (std::size_t k = 0; k < in.render_order().size(); ++k) place[in.render_order()[k]] = static_cast<std::int32_t>(k);

  if (json) {
    out << "{\"parameters\":[";
    for (std::size_t i = 0; i < rig->parameters.size(); ++i)
      out << (i ? "," : "") << "{\"id\":" << quoted(rig->parameters[i].id) << ",\"value\":" << shortest(in.parameters()[i]) << "}";
    out << "],\n\"meshes\":[";
    for (std::uint32_t m = 0; m < rig->meshes.size(); ++m) {
      const auto v = in.vertices(m);
      out << (m ? ",\n" : "\n") << "{\"index\":" << m << ",\"id\":" << quoted(rig->meshes[m].id)
          << ",\"vertex_count\":" << v.size() / 2 << ",\"opacity\":" << shortest(in.opacity(m))
          << ",\"draw_order\":" << shortest(in.draw_order(m)) << ",\"multiply\":" << list(in.multiply(m))
          << ",\"screen\":" << list(in.screen(m)) << ",\"render_place\":" << place[m] << ",\"vertices\":" << list(v) << "}";
    }
    out << "],\n\"parts\":[";
    for (std::uint32_t p = 0; p < rig->parts.size(); ++p) {
      const auto& c = in.part_composite(p);
      out << (p ? "," : "") << "{\"index\":" << p << ",\"id\":" << quoted(rig->parts[p].id)
          << ",\"draw_order\":" << shortest(in.part_draw_order(p)) << ",\"composite_opacity\":" << shortest(c.opacity)
          << ",\"composite_multiply\":" << list(c.multiply) << ",\"composite_screen\":" << list(c.screen) << "}";
    }
    out << "],\n\"render_order\":" << list(in.render_order()) << ",\"render_commands\":" << list(in.render_commands()) << "}\n";
    return out ? 0 : 1;
  }

  out << "parameters:";
  for (std::size_t i = 0; i < rig->parameters.size(); ++i) out << " " << rig->parameters[i].id << "=" << shortest(in.parameters()[i]);
  out << "\n\n";
  out << std::left << std::setw(5) << "#" << std::setw(20) << "mesh" << std::right << std::setw(8) << "verts" << std::setw(9)
      << "opacity" << std::setw(10) << "order" << std::setw(7) << "draws" << "  bounds (canvas px)\n";
  for (std::uint32_t m = 0; m < rig->meshes.size(); ++m) {
    const auto v = in.vertices(m);
    float x0 = std::numeric_limits<float>::infinity(), y0 = x0, x1 = -x0, y1 = -x0;
    for (std::size_t i = 0; i + 1 < v.size(); i += 2) {
      x0 = std::min(x0, v[i]);
      x1 = std::max(x1, v[i]);
      y0 = std::min(y0, v[i + 1]);
      y1 = std::max(y1, v[i + 1]);
    }
    std::string id = rig->meshes[m].id;
    if (id.size() > 19) id = id.substr(0, 18) + "~";
    out << std::left << std::setw(5) << m << std::setw(20) << id << std::right << std::setw(8) << v.size() / 2 << std::setw(9)
        << std::fixed << std::setprecision(3) << in.opacity(m) << std::setw(10) << std::setprecision(1) << in.draw_order(m)
        << std::setw(7) << (place[m] >= 0 ? std::to_string(place[m]) : std::string("-"));
    if (!v.empty())
      out << "  (" << std::setprecision(1) << x0 << ", " << y0 << ") .. (" << x1 << ", " << y1 << ")";
    out << "\n";
  }
  out << "\nrender order (back to front): " << list(in.render_order()) << "\n";
  out << "render commands: " << list(in.render_commands()) << "  (-2-p opens part p's isolated group, -1 closes it)\n";
  return out ? 0 : 1;
}

}  // namespace p2lrt
