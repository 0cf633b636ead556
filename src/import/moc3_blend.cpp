#include "import/moc3_blend.hpp"

#include <cmath>
#include <string>

namespace p2l::moc3 {
namespace {

bool fail(Error& error, const std::string& message) {
  error = Error{ErrorCode::BadStructure, "moc3", -1, false, message};
  return false;
}

// [first, first + count) inside [0, size), from signed file values.
bool inside(std::int64_t first, std::int64_t count, std::uint64_t size) {
  return first >= 0 && count >= 0 && static_cast<std::uint64_t>(first + count) <= size;
}

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Warp: return "warp";
    case Kind::Rotation: return "rotation";
    case Kind::Mesh: return "art mesh";
    case Kind::Part: return "part";
    case Kind::Glue: return "glue";
    case Kind::Offscreen: return "offscreen";
  }
  return "?";
}

struct TargetTable {
  Kind kind;
  std::size_t target_slot;  // then first, count
  Count keyforms;           // the kind's keyform arrays
  std::uint32_t targets;    // rows of the target table
};

class Reader {
 public:
  Reader(const File& f, const Objects& o, Error& e) : f_(f), o_(o), error_(e) {}

  // Each blend-shape parameter binding's owner: the type-1 parameter whose range holds it.
  bool owners() {
    const std::uint32_t n = f_.count(kBlendShapeParameterBindings);
    owner_.assign(n, -1);
    for (std::uint32_t p = 0; p < o_.parameters.size(); ++p) {
      const std::int32_t first = f_.i32(115, p), count = f_.i32(116, p);
      if (count == 0) continue;
      if (!inside(first, count, n))
        return fail(error_, "parameter \"" + o_.parameters[p].id + "\": blend-shape bindings " + std::to_string(first) +
                                " + " + std::to_string(count) + " lie outside the " + std::to_string(n) + " there are");
      for (std::int32_t q = first; q < first + count; ++q) {
        if (owner_[static_cast<std::size_t>(q)] >= 0)
          return fail(error_, "blend-shape parameter binding " + std::to_string(q) + " belongs to two parameters");
        owner_[static_cast<std::size_t>(q)] = static_cast<std::int32_t>(p);
      }
    }
    return true;
  }

  bool binding(std::uint32_t a, const TargetTable& t, const std::string& who, BlendBinding& out) {
    const std::int32_t q = f_.i32(120, a), first = f_.i32(121, a), count = f_.i32(122, a);
    const std::int32_t first_constraint = f_.i32(123, a), constraints = f_.i32(124, a);
    if (q < 0 || static_cast<std::size_t>(q) >= owner_.size() || owner_[static_cast<std::size_t>(q)] < 0)
      return fail(error_, who + ": blend-shape parameter binding " + std::to_string(q) + " is not one a parameter owns");
    out.parameter = static_cast<std::uint32_t>(owner_[static_cast<std::size_t>(q)]);
    const std::int32_t first_key = f_.i32(117, static_cast<std::size_t>(q)), keys = f_.i32(118, static_cast<std::size_t>(q));
    const std::int32_t base = f_.i32(119, static_cast<std::size_t>(q));
    if (keys < 1 || !inside(first_key, keys, f_.count(kKeys)))
      return fail(error_, who + ": blend-shape keys " + std::to_string(first_key) + " + " + std::to_string(keys) +
                              " lie outside the " + std::to_string(f_.count(kKeys)) + " keys");
    for (std::int32_t k = 0; k < keys; ++k) {
      const float v = f_.f32(77, static_cast<std::size_t>(first_key + k));
      if (!std::isfinite(v) || (k > 0 && !(v > out.keys.back())))
        return fail(error_, who + ": blend-shape keys are not finite and ascending");
      out.keys.push_back(v);
    }
    if (base < 0 || base >= keys)
      return fail(error_, who + ": base key " + std::to_string(base) + " is not one of its " + std::to_string(keys) + " keys");
    out.base = static_cast<std::uint32_t>(base);
    if (count != keys || !inside(first, count, f_.count(t.keyforms)))
      return fail(error_, who + ": blend-shape keyforms " + std::to_string(first) + " + " + std::to_string(count) +
                              " (one per key of " + std::to_string(keys) + ") lie outside the " +
                              std::to_string(f_.count(t.keyforms)) + " " + kind_name(t.kind) + " keyforms");
    out.first = static_cast<std::uint32_t>(first);
    if (constraints != 0 && !inside(first_constraint, constraints, f_.count(kBlendShapeConstraintIndices)))
      return fail(error_, who + ": constraint indices " + std::to_string(first_constraint) + " + " +
                              std::to_string(constraints) + " lie outside the list");
    for (std::int32_t c = 0; c < constraints; ++c) {
      const std::int32_t ci = f_.i32(131, static_cast<std::size_t>(first_constraint + c));
      if (ci < 0 || static_cast<std::uint32_t>(ci) >= f_.count(kBlendShapeConstraints))
        return fail(error_, who + ": constraint " + std::to_string(ci) + " is out of range");
      const std::int32_t p = f_.i32(132, static_cast<std::size_t>(ci)), fv = f_.i32(133, static_cast<std::size_t>(ci));
      const std::int32_t nv = f_.i32(134, static_cast<std::size_t>(ci));
      if (p < 0 || static_cast<std::size_t>(p) >= o_.parameters.size())
        return fail(error_, who + ": constraint " + std::to_string(ci) + " names parameter " + std::to_string(p));
      if (!inside(fv, nv, f_.count(kBlendShapeConstraintValues)))
        return fail(error_, who + ": constraint " + std::to_string(ci) + "'s values lie outside the list");
      Constraint out_c;
      out_c.parameter = static_cast<std::uint32_t>(p);
      for (std::int32_t v = 0; v < nv; ++v) {
        const float x = f_.f32(135, static_cast<std::size_t>(fv + v)), w = f_.f32(136, static_cast<std::size_t>(fv + v));
        if (!std::isfinite(x) || !std::isfinite(w)) return fail(error_, who + ": a constraint value is not finite");
        out_c.points.push_back({x, w});
      }
      out.constraints.push_back(std::move(out_c));
    }
    return true;
  }

  bool table(const TargetTable& t, std::vector<std::vector<BlendBinding>>& out) {
    out.assign(t.targets, {});
    const std::uint32_t bindings = f_.count(kBlendShapeKeyformBindings);
    for (std::uint32_t r = 0; r < record_count(t); ++r) {
      const std::int32_t target = f_.i32(t.target_slot, r), first = f_.i32(t.target_slot + 1, r);
      const std::int32_t count = f_.i32(t.target_slot + 2, r);
      const std::string who = std::string("blend shape ") + std::to_string(r) + " on " + kind_name(t.kind) + " " +
                              std::to_string(target);
      if (target < 0 || static_cast<std::uint32_t>(target) >= t.targets)
        return fail(error_, who + ": no such " + kind_name(t.kind) + " (there are " + std::to_string(t.targets) + ")");
      if (!inside(first, count, bindings))
        return fail(error_, who + ": keyform bindings " + std::to_string(first) + " + " + std::to_string(count) +
                                " lie outside the " + std::to_string(bindings) + " there are");
      for (std::int32_t a = first; a < first + count; ++a) {
        BlendBinding b;
        if (!binding(static_cast<std::uint32_t>(a), t, who, b)) return false;
        out[static_cast<std::size_t>(target)].push_back(std::move(b));
      }
    }
    return true;
  }

  std::uint32_t record_count(const TargetTable& t) const {
    switch (t.kind) {
      case Kind::Warp: return f_.count(kBlendShapesWarps);
      case Kind::Mesh: return f_.count(kBlendShapesArtMeshes);
      case Kind::Part: return f_.count(kBlendShapesParts);
      case Kind::Rotation: return f_.count(kBlendShapesRotations);
      case Kind::Glue: return f_.count(kBlendShapesGlue);
      case Kind::Offscreen: return f_.count(kBlendShapesOffscreens);
    }
    return 0;
  }

 private:
  const File& f_;
  const Objects& o_;
  Error& error_;
  std::vector<std::int32_t> owner_;
};

// Blend-shape keyforms of warps and meshes point into the position array like regular ones.
bool positions_inside(const File& f, std::size_t slot, const BlendBinding& b, std::uint32_t points, const std::string& who,
                      Error& error) {
  for (std::uint32_t j = b.first; j < b.first + b.keys.size(); ++j) {
    const std::int32_t p = f.i32(slot, j);
    if (p % 2 != 0 || !inside(p, std::int64_t{points} * 2, f.count(kKeyformPositions)))
      return fail(error, who + ": blend-shape keyform " + std::to_string(j) + "'s positions lie outside the array");
  }
  return true;
}

}  // namespace

bool BlendShapes::any() const {
  for (const auto* t : {&warps, &rotations, &meshes, &parts, &glues, &offscreens})
    for (const auto& list : *t)
      if (!list.empty()) return true;
  return false;
}

bool BlendShapes::read(const File& f, const Objects& o, BlendShapes& out, Error& error) {
  out = BlendShapes{};
  if (f.version() < 4) return true;
  Reader r(f, o, error);
  if (!r.owners()) return false;
  const auto meshes = static_cast<std::uint32_t>(o.meshes.size());
  if (!r.table({Kind::Warp, 125, kWarpKeyforms, f.count(kWarps)}, out.warps) ||
      !r.table({Kind::Mesh, 128, kArtMeshKeyforms, meshes}, out.meshes))
    return false;
  if (f.version() >= 5 && (!r.table({Kind::Part, 143, kPartKeyforms, f.count(kParts)}, out.parts) ||
                           !r.table({Kind::Rotation, 146, kRotationKeyforms, f.count(kRotations)}, out.rotations) ||
                           !r.table({Kind::Glue, 149, kGlueKeyforms, f.count(kGlue)}, out.glues)))
    return false;
  if (f.version() >= 6 && !r.table({Kind::Offscreen, 164, kOffscreenKeyforms, f.count(kOffscreens)}, out.offscreens))
    return false;
  if (out.offscreens.empty()) out.offscreens.assign(f.count(kOffscreens), {});
  if (out.rotations.empty()) out.rotations.assign(f.count(kRotations), {});
  if (out.parts.empty()) out.parts.assign(f.count(kParts), {});
  if (out.glues.empty()) out.glues.assign(f.count(kGlue), {});
  // Warp rows and mesh positions: the blend-shape keyforms' runs must lie inside the array.
  for (const auto& d : o.deformers)
    if (d.warp)
      for (const auto& b : out.warps[d.specific])
        if (!positions_inside(f, 60, b, (d.rows + 1) * (d.columns + 1), "warp \"" + d.id + "\"", error)) return false;
  for (std::size_t m = 0; m < o.meshes.size(); ++m)
    for (const auto& b : out.meshes[m])
      if (!positions_inside(f, 70, b, o.meshes[m].vertex_count, "art mesh \"" + o.meshes[m].id + "\"", error)) return false;
  return true;
}

bool KeyformColors::read(const File& f, const Objects& o, KeyformColors& out, Error& error) {
  out = KeyformColors{};
  if (f.version() < 4) return true;
  const std::uint32_t multiplies = f.count(kMultiplyColors), screens = f.count(kScreenColors);
  auto check = [&](std::int64_t e, const std::string& who) {
    return (e >= 0 && e < multiplies && e < screens) ||
           fail(error, who + ": colour entry " + std::to_string(e) + " is out of range (" + std::to_string(multiplies) +
                           " multiply, " + std::to_string(screens) + " screen colours)");
  };
  // Version 5: one entry pair per keyform, regular and blend-shape alike.
  auto per_keyform = [&](std::size_t slot, Count total, std::vector<std::uint32_t>& mul, std::vector<std::uint32_t>& scr,
                         const char* what) {
    for (std::uint32_t j = 0; j < f.count(total); ++j) {
      const std::string who = std::string(what) + " keyform " + std::to_string(j);
      if (!check(f.i32(slot, j), who) || !check(f.i32(slot + 1, j), who)) return false;
      mul.push_back(static_cast<std::uint32_t>(f.i32(slot, j)));
      scr.push_back(static_cast<std::uint32_t>(f.i32(slot + 1, j)));
    }
    return true;
  };
  // Version 6: offscreen keyforms too; -1 (never seen in a file) is the neutral colour pair.
  if (f.has(162))
    for (std::uint32_t j = 0; j < f.count(kOffscreenKeyforms); ++j) {
      const std::string who = "offscreen keyform " + std::to_string(j);
      const std::int32_t mul = f.i32(162, j), scr = f.i32(163, j);
      if ((mul != -1 && !check(mul, who)) || (scr != -1 && !check(scr, who))) return false;
      out.offscreen_multiply.push_back(mul);
      out.offscreen_screen.push_back(scr);
    }
  if (f.version() >= 5)
    return per_keyform(137, kWarpKeyforms, out.warp_multiply, out.warp_screen, "warp") &&
           per_keyform(139, kRotationKeyforms, out.rotation_multiply, out.rotation_screen, "rotation") &&
           per_keyform(141, kArtMeshKeyforms, out.mesh_multiply, out.mesh_screen, "art mesh");
  // Version 4: the object's first entry plus the local keyform number; blend-shape keyforms
  // carry positions only and get no entry.
  out.warp_multiply.assign(f.count(kWarpKeyforms), 0);
  out.rotation_multiply.assign(f.count(kRotationKeyforms), 0);
  out.mesh_multiply.assign(f.count(kArtMeshKeyforms), 0);
  auto per_object = [&](std::int32_t first, const KeyformRange& k, std::vector<std::uint32_t>& entries, const std::string& who) {
    if (k.count == 0) return true;
    if (!check(first, who) || !check(std::int64_t{first} + k.count - 1, who)) return false;
    for (std::uint32_t l = 0; l < k.count; ++l) entries[k.first + l] = static_cast<std::uint32_t>(first) + l;
    return true;
  };
  for (const auto& d : o.deformers)
    if (!per_object(f.i32(d.warp ? 105 : 106, d.specific), d.keyforms, d.warp ? out.warp_multiply : out.rotation_multiply,
                    (d.warp ? "warp \"" : "rotation \"") + d.id + "\""))
      return false;
  for (std::size_t m = 0; m < o.meshes.size(); ++m)
    if (!per_object(f.i32(107, m), o.meshes[m].keyforms, out.mesh_multiply, "art mesh \"" + o.meshes[m].id + "\"")) return false;
  out.warp_screen = out.warp_multiply;
  out.rotation_screen = out.rotation_multiply;
  out.mesh_screen = out.mesh_multiply;
  return true;
}

}  // namespace p2l::moc3
