// Expressions (docs/RUNTIME.md "Expressions"): entries in start order, each weighted by its
// sine fade-in times its fade-out; per parameter Add sums, Multiply multiplies and
// Overwrite lerps from the value on entry, the result being (over + add) * mul.
#include "anim/expressions.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "base/libm.hpp"
#include "anim/cubism_store.hpp"
#include "base/sized.hpp"

namespace p2l::anim {
namespace {

constexpr double kFloatMax = static_cast<double>(std::numeric_limits<float>::max());

double ease(double x) { return 0.5 - 0.5 * libm::cos(std::numbers::pi * std::clamp(x, 0.0, 1.0)); }

// The fade-in term of an entry [age] seconds old: 1 at once for a fade time <= 0 (or NaN).
double fade_in_term(double age, float fade) { return fade > 0.0f ? ease(age / fade) : 1.0; }

// touched_ bits: the parameter has accumulators this update; an expression with Cubism
// playback wrote it.
constexpr std::uint8_t kTouched = 1, kByCubism = 2;

}  // namespace

Expressions::Expressions(const Rig& rig, bool cubism_playback) : parameters_(rig.parameters) {
  const std::size_t parameter_count = rig.parameters.size();
  // Counted first, then filled in place (src/base/sized.hpp says why).
  std::size_t value_count = 0;
  for (const Expression& e : rig.expressions)
    for (const ExpressionValue& v : e.values) value_count += v.parameter < parameter_count;
  sized(infos_, rig.expressions.size());
  sized(values_, value_count);
  std::uint32_t values = 0;
  for (std::size_t k = 0; k < infos_.size(); ++k) {
    const Expression& e = rig.expressions[k];
    Info& info = infos_[k];
    info = {e.fade_in, e.fade_out, values, 0, cubism_playback && e.cubism_playback};
    for (const ExpressionValue& v : e.values) {
      if (v.parameter >= parameter_count) continue;  // a bad record: ignored
      values_[values++] = {v.parameter, v.blend, v.value};
      ++info.count;
    }
  }
  entries_.reserve(2 * infos_.size() + 4);
  add_.assign(parameter_count, 0.0);
  mul_.assign(parameter_count, 1.0);
  over_.assign(parameter_count, 0.0);
  touched_.assign(parameter_count, 0);
  touched_list_.reserve(parameter_count);
}

void Expressions::push(std::uint32_t index) {
  Entry e;
  e.expression = index;
  entries_.push_back(e);
}

void Expressions::fade_out(Entry& e, Fade as, std::uint32_t by) {
  const Info& info = infos_[e.expression];
  e.out_time = 0;
  if (info.cubism) {
    // Cubism's queue: every entry fades out by its own fade-out time, from the end of its
    // next update (1 - ease(elapsed / fade) is Cubism's ease((end - now) / fade)).
    e.fade = Fade::Removed;
    e.out_fade = info.fade_out;
    e.out_pending = true;
    return;
  }
  e.fade = as;
  e.out_fade = as == Fade::Removed ? info.fade_out : infos_[by].fade_in;
}

void Expressions::play(std::int32_t index) {
  if (index < 0 || static_cast<std::size_t>(index) >= infos_.size()) {
    for (Entry& e : entries_)
      if (e.fade == Fade::None) fade_out(e, Fade::Removed, 0);
    return;
  }
  const auto i = static_cast<std::uint32_t>(index);
  // Every entry still playing (the same expression too: it restarts) fades out as the new
  // one fades in.
  for (Entry& e : entries_)
    if (e.fade == Fade::None) fade_out(e, Fade::Replaced, i);
  push(i);
}

bool Expressions::add(std::uint32_t index) {
  if (index >= infos_.size()) return false;
  for (const Entry& e : entries_)
    if (e.expression == index && e.fade == Fade::None) return false;
  push(index);
  return true;
}

bool Expressions::remove(std::uint32_t index) {
  bool found = false;
  for (Entry& e : entries_)
    if (e.expression == index && e.fade == Fade::None) {
      fade_out(e, Fade::Removed, 0);
      found = true;
    }
  return found;
}

std::uint32_t Expressions::playing(std::span<std::uint32_t> out) const {
  std::uint32_t n = 0;
  for (const Entry& e : entries_)
    if (e.fade == Fade::None) {
      if (n < out.size()) out[n] = e.expression;
      ++n;
    }
  return n;
}

void Expressions::update(float dt, std::span<float> values) {
  const double step = dt > 0.0f ? static_cast<double>(dt) : 0.0;  // negative or NaN: 0

  // Age every entry, weigh it, and drop the fading ones whose weight reached 0.
  std::size_t kept = 0;
  for (std::size_t k = 0; k < entries_.size(); ++k) {
    Entry e = entries_[k];
    const bool cubism = infos_[e.expression].cubism;
    // Cubism's first update of an entry starts its clock: it samples age 0, weight 0.
    if (!(cubism && e.fresh)) e.age += step;
    e.fresh = false;
    double fade_out = 1.0;
    if (e.fade != Fade::None) {
      if (!e.out_pending) e.out_time += step;
      e.out_pending = false;
      fade_out = e.out_fade > 0.0f ? 1.0 - ease(e.out_time / e.out_fade) : (cubism && e.out_time == 0.0 ? 1.0 : 0.0);
    }
    e.weight = fade_in_term(e.age, infos_[e.expression].fade_in) * fade_out;
    if (e.fade != Fade::None && e.weight == 0.0) continue;
    entries_[kept++] = e;
  }
  entries_.resize(kept);  // shrinks: no allocation

  // Accumulate, entry by entry in start order.
  const std::size_t limit = std::min(values.size(), touched_.size());
  for (const Entry& e : entries_) {
    const Info& info = infos_[e.expression];
    const double w = e.weight;
    for (std::uint32_t k = info.first; k < info.first + info.count; ++k) {
      const Value& v = values_[k];
      const std::uint32_t p = v.parameter;
      if (p >= limit) continue;
      if (!touched_[p]) {
        touched_list_.push_back(p);  // capacity: one per parameter
        add_[p] = 0.0;
        mul_[p] = 1.0;
        over_[p] = static_cast<double>(values[p]);
      }
      touched_[p] |= kTouched | (info.cubism ? kByCubism : 0);
      const double x = static_cast<double>(v.value);
      switch (v.blend) {
        case ExpressionBlend::Add: add_[p] += w * x; break;
        case ExpressionBlend::Multiply: mul_[p] *= 1.0 + (x - 1.0) * w; break;
        case ExpressionBlend::Overwrite: over_[p] += (x - over_[p]) * w; break;
      }
    }
  }
  for (const std::uint32_t p : touched_list_) {
    // Saturated to float's range: a host value near FLT_MAX times a Multiply would otherwise
    // leave it (a double to float conversion out of range is undefined, and gives an infinity
    // here), and what the layers write over a finite value stays finite (p2l.h).
    const double r = (over_[p] + add_[p]) * mul_[p];
    const float v = static_cast<float>(std::clamp(r, -kFloatMax, kFloatMax));
    // Cubism's model stores an expression's result in the range (what a host reads after it,
    // and what physics and the later stages start from); p2lrt's own rules leave it raw.
    values[p] = (touched_[p] & kByCubism) ? cubism_store(parameters_[p], v) : v;
    touched_[p] = 0;
  }
  touched_list_.clear();
}

}  // namespace p2l::anim
