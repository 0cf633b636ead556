#include "p2lrt/view/panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "p2lrt/view/character.hpp"

namespace p2lrt::viewer {
namespace {

constexpr float kPanelWidth = 380;

bool is_ascii(const char* text) {
  for (; *text; ++text)
    if (static_cast<unsigned char>(*text) >= 0x80) return false;
  return true;
}

// A name the font can show: the name, or the id when the name needs glyphs the font lacks.
const char* shown(const char* name, const char* id, bool wide_glyphs) {
  if (!name || !*name) return id;
  return wide_glyphs || is_ascii(name) ? name : id;
}

void parameter_slider(Character& character, PanelState& state, std::uint32_t p) {
  P2lRig* rig = character.rig();
  float lo = 0, hi = 1, rest = 0;
  p2l_parameter_range(rig, p, &lo, &hi, &rest);
  const char* id = p2l_parameter_id(rig, p);
  ImGui::PushID(static_cast<int>(p));
  float v = state.held[p] ? state.value[p] : p2l_parameter_current(rig)[p];
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.55f);
  if (ImGui::SliderFloat("##v", &v, lo, hi, "%.2f")) {
    state.held[p] = 1;
    state.value[p] = v;
    p2l_set_parameter_override(rig, p, v, 1);
  }
  ImGui::SameLine();
  if (state.held[p]) {
    if (ImGui::SmallButton("x")) {
      state.held[p] = 0;
      p2l_set_parameter_override(rig, p, 0, 0);
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Let go: the motion, behaviours and physics move it again");
    ImGui::SameLine();
  }
  ImGui::TextUnformatted(shown(p2l_parameter_name(rig, p), id, state.wide_glyphs));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s  [%g, %g], default %g", id, lo, hi, rest);
  ImGui::PopID();
}

// The index after node [i]'s subtree (nodes are stored in pre-order).
std::uint32_t skip(const P2lRig* rig, std::uint32_t i) {
  std::int32_t parameter = -1;
  std::uint32_t children = 0;
  bool open = false;
  if (!p2l_gui_node(rig, i, &parameter, &children, &open)) return i + 1;
  std::uint32_t next = i + 1;
  for (std::uint32_t c = 0; c < children; ++c) next = skip(rig, next);
  return next;
}

// [opened]: the caller has set the node's initial state.
std::uint32_t draw_node(Character& character, PanelState& state, std::uint32_t i, bool opened = false) {
  P2lRig* rig = character.rig();
  std::int32_t parameter = -1;
  std::uint32_t children = 0;
  bool open = false;
  if (!p2l_gui_node(rig, i, &parameter, &children, &open)) return i + 1;
  std::uint32_t next = i + 1;
  if (parameter >= 0) {
    if (static_cast<std::uint32_t>(parameter) < state.held.size())
      parameter_slider(character, state, static_cast<std::uint32_t>(parameter));
    for (std::uint32_t c = 0; c < children; ++c) next = skip(rig, next);
    return next;
  }
  if (!opened) ImGui::SetNextItemOpen(open, ImGuiCond_Once);
  ImGui::PushID(static_cast<int>(i));
  const bool expanded = ImGui::TreeNode("##group", "%s", shown(p2l_gui_node_name(rig, i), p2l_gui_node_id(rig, i), state.wide_glyphs));
  ImGui::PopID();
  for (std::uint32_t c = 0; c < children; ++c) next = expanded ? draw_node(character, state, next) : skip(rig, next);
  if (expanded) ImGui::TreePop();
  return next;
}

void parameters(Character& character, PanelState& state) {
  P2lRig* rig = character.rig();
  const std::uint32_t count = p2l_parameter_count(rig);
  const std::uint32_t nodes = p2l_gui_node_count(rig);
  if (state.held.size() != count) {
    // Once: a model that marks no group open shows its first one open, so that sliders are in sight.
    state.held.assign(count, 0), state.value.assign(count, 0);
    state.open_first_group = true;
    for (std::uint32_t i = 0; i < nodes && state.open_first_group; ++i) {
      std::int32_t parameter = -1;
      std::uint32_t children = 0;
      bool open = false;
      state.open_first_group = !(p2l_gui_node(rig, i, &parameter, &children, &open) && parameter < 0 && open);
    }
  }
  if (ImGui::Button("Let go of every slider")) {
    std::fill(state.held.begin(), state.held.end(), 0);
    p2l_clear_parameter_overrides(rig);
  }
  if (nodes == 0) {
    for (std::uint32_t p = 0; p < count; ++p) parameter_slider(character, state, p);
    return;
  }
  for (std::uint32_t i = 0; i < nodes;) {
    const bool opened = state.open_first_group && i == 0;
    if (opened) ImGui::SetNextItemOpen(true, ImGuiCond_Once);
    i = draw_node(character, state, i, opened);
  }
}

}  // namespace

void apply_behaviors(Character& character, const PanelState& state) {
  p2l_behaviors(character.rig(), (state.blink ? P2L_BLINK : 0u) | (state.breath ? P2L_BREATH : 0u) | (state.look ? P2L_LOOK : 0u));
}

float draw_panel(Character& character, PanelState& state, float height) {
  if (!state.shown) return 0;
  P2lRig* rig = character.rig();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(kPanelWidth, height));
  ImGui::Begin("p2lrt view", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoTitleBar);
  ImGui::TextUnformatted(state.title.c_str());
  ImGui::Text("update %.2f ms   draw %.2f ms   %.0f fps", state.update_ms, state.draw_ms, state.fps);
  ImGui::Separator();

  const std::int32_t clip = p2l_clip_playing(rig);
  ImGui::Text("Motion: %s", character.clip_label(clip).c_str());
  if (clip >= 0) ImGui::Text("   %.2f s%s", p2l_clip_time(rig), p2l_clip_finished(rig) ? " (finished)" : "");
  const std::uint32_t clips = p2l_clip_count(rig);
  if (ImGui::BeginCombo("##motions", "Play a motion...")) {
    for (std::uint32_t i = 0; i < clips; ++i)
      if (ImGui::Selectable(character.clip_label(static_cast<std::int32_t>(i)).c_str(), static_cast<std::int32_t>(i) == clip))
        character.play(static_cast<std::int32_t>(i));
    ImGui::EndCombo();
  }
  ImGui::Text("Expression: %s", character.expression_label(character.expression()).c_str());
  const std::uint32_t expressions = p2l_expression_count(rig);
  if (expressions > 0 && ImGui::BeginCombo("##expressions", "Show an expression...")) {
    if (ImGui::Selectable("none", character.expression() < 0)) character.set_expression(-1);
    for (std::uint32_t i = 0; i < expressions; ++i)
      if (ImGui::Selectable(character.expression_label(static_cast<std::int32_t>(i)).c_str(),
                            static_cast<std::int32_t>(i) == character.expression()))
        character.set_expression(static_cast<std::int32_t>(i));
    ImGui::EndCombo();
  }
  if (!state.last_tap.empty()) ImGui::TextWrapped("Tapped: %s", state.last_tap.c_str());
  ImGui::Separator();

  bool changed = ImGui::Checkbox("Blink", &state.blink);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("Breath", &state.breath);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("Look at the pointer", &state.look);
  if (changed) apply_behaviors(character, state);
  ImGui::Checkbox("Physics", &state.physics);
  ImGui::SameLine();
  ImGui::Checkbox("Pause", &state.paused);
  ImGui::TextDisabled("Left/Right: motions  Up/Down: expressions\nTab: panel  Space: pause  R: reset  Esc: quit\n"
                      "Wheel: zoom  Drag: move  Click: tap a hit area");
  ImGui::Separator();

  if (ImGui::CollapsingHeader("Parameters", ImGuiTreeNodeFlags_DefaultOpen)) parameters(character, state);
  ImGui::End();
  return kPanelWidth;
}

}  // namespace p2lrt::viewer
