#include "eval/channels.hpp"

namespace p2l::eval {

std::vector<ChannelPlan> plan_channels(const Channels& channels) {
  std::vector<ChannelPlan> out(channels.size());  // filled in place (base/sized.hpp says why)
  for (std::size_t i = 0; i < channels.size(); ++i) {
    const Channel& c = channels[i];
    out[i] = {c.type, c.kind, GridPlan(c.grid), c.grid.forms.data()};
  }
  return out;
}

void apply_channels(std::span<const ChannelPlan> channels, const Weigher& weigh, ChannelState& state) {
  for (const ChannelPlan& ch : channels) {
    if (ch.type == ChannelType::FlipX || ch.type == ChannelType::FlipY) {
      // Flags are not blended: the key at or below the value holds until the next one.
      if (ch.kind != ChannelKind::Flag) continue;
      const std::int64_t cell = ch.grid.floor_cell(weigh.values);
      if (cell < 0) continue;
      const bool on = ch.forms[cell][0] != 0.0f;
      (ch.type == ChannelType::FlipX ? state.flip_x : state.flip_y) = on;
      continue;
    }
    float scalar = 0.0f;
    Rgb color{0.0f, 0.0f, 0.0f};
    for (const CellWeight& c : weigh(ch.grid)) {
      const Rgb& form = ch.forms[c.cell];
      const float w = c.weight;
      if (ch.kind == ChannelKind::Scalar) {
        scalar += form[0] * w;
      } else if (ch.kind == ChannelKind::Color) {
        for (int k = 0; k < 3; ++k) color[k] += form[k] * w;
      }
    }
    switch (ch.type) {
      case ChannelType::DrawOrder: state.draw_order = scalar; break;
      case ChannelType::Opacity: state.opacity = scalar; break;
      case ChannelType::GlueIntensity: state.glue_intensity = scalar; break;
      case ChannelType::MultiplyColor: state.multiply = color; break;
      case ChannelType::ScreenColor: state.screen = color; break;
      case ChannelType::FlipX:
      case ChannelType::FlipY: break;
    }
  }
}

void toward(ChannelState& state, const ChannelState& base, float opacity, const float* draw_order, const Rgb& multiply,
            const Rgb& screen, float w) {
  state.opacity += (opacity - base.opacity) * w;
  if (draw_order) state.draw_order += (*draw_order - base.draw_order) * w;
  for (int k = 0; k < 3; ++k) {
    state.multiply[k] += (multiply[k] - base.multiply[k]) * w;
    state.screen[k] += (screen[k] - base.screen[k]) * w;
  }
}

float piecewise(const std::vector<std::array<float, 2>>& points, float x) {
  if (points.empty()) return 1.0f;
  if (points.size() == 1) return points[0][1];
  if (x <= points[0][0]) return points[0][1];
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    const auto& a = points[i];
    const auto& b = points[i + 1];
    if (x <= b[0]) {
      const float width = b[0] - a[0];
      const float t = width > 0.0f ? (x - a[0]) / width : 1.0f;
      return a[1] + (b[1] - a[1]) * t;
    }
  }
  return points.back()[1];
}

}  // namespace p2l::eval
