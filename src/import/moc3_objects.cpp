#include "import/moc3_objects.hpp"

#include <string>

namespace p2l::moc3 {
namespace {

constexpr std::uint32_t kMaxLatticeSide = 1024;
// Keyforms may share one run of the position array, so a small file can name far more
// positions than it holds; the rig copies each keyform's, so their total is capped
// (Haru has 0.6 million).
constexpr std::uint64_t kMaxKeyformFloats = std::uint64_t{1} << 26;

class Reader {
 public:
  Reader(const File& f, const Bindings& b, Error& e) : f_(f), bindings_(b), error_(e) {}

  bool fail(const std::string& message) {
    error_ = Error{ErrorCode::BadStructure, "moc3", -1, false, message};
    return false;
  }

  // A reference that may be -1 ("none"), else below [limit].
  bool optional_ref(std::int32_t v, std::uint32_t limit, const std::string& who, const char* what) {
    if (v == -1 || (v >= 0 && static_cast<std::uint32_t>(v) < limit)) return true;
    return fail(who + ": " + what + " " + std::to_string(v) + " is out of range (-1 or below " + std::to_string(limit) + ")");
  }
  bool ref(std::int32_t v, std::uint32_t limit, const std::string& who, const char* what) {
    if (v >= 0 && static_cast<std::uint32_t>(v) < limit) return true;
    return fail(who + ": " + what + " " + std::to_string(v) + " is out of range (below " + std::to_string(limit) + ")");
  }
  // [first, first + count) within [0, size).
  bool range(std::int64_t first, std::int64_t count, std::uint64_t size, const std::string& who, const char* what) {
    if (first >= 0 && count >= 0 && static_cast<std::uint64_t>(first + count) <= size) return true;
    return fail(who + ": " + what + " " + std::to_string(first) + " + " + std::to_string(count) + " lie outside the " +
                std::to_string(size) + " there are");
  }

  // Counts [k]'s positions toward kMaxKeyformFloats.
  bool budget(const KeyformRange& k, std::uint32_t points, const std::string& who) {
    floats_ += std::uint64_t{k.count} * points * 2;
    if (floats_ <= kMaxKeyformFloats) return true;
    error_ = Error{ErrorCode::TooLarge, "moc3", -1, false,
                   who + ": the keyforms so far hold more than " + std::to_string(kMaxKeyformFloats) +
                       " position floats, which this importer does not take"};
    return false;
  }

  // An object's keyforms: a valid binding, a range of exactly its key product.
  bool keyforms(std::size_t binding_slot, std::size_t first_slot, std::size_t count_slot, std::size_t i, Count total,
                const std::string& who, KeyformRange& out) {
    const std::int32_t b = f_.i32(binding_slot, i), first = f_.i32(first_slot, i), count = f_.i32(count_slot, i);
    if (!ref(b, static_cast<std::uint32_t>(bindings_.size()), who, "keyform binding")) return false;
    if (!range(first, count, f_.count(total), who, "keyforms")) return false;
    if (static_cast<std::uint32_t>(count) != bindings_.keyform_count(static_cast<std::uint32_t>(b)))
      return fail(who + ": " + std::to_string(count) + " keyforms, but its binding's keys combine to " +
                  std::to_string(bindings_.keyform_count(static_cast<std::uint32_t>(b))));
    out = {static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(count)};
    return true;
  }

  // Each keyform's run of 2 * points floats in the shared position array.
  bool positions(std::size_t slot, const KeyformRange& k, std::uint32_t points, const std::string& who) {
    for (std::uint32_t j = k.first; j < k.first + k.count; ++j) {
      const std::int32_t p = f_.i32(slot, j);
      if (p % 2 != 0) return fail(who + ": keyform " + std::to_string(j) + " starts at odd float " + std::to_string(p));
      if (!range(p, std::int64_t{points} * 2, f_.count(kKeyformPositions), who, "keyform positions")) return false;
    }
    return true;
  }

  const File& f_;
  const Bindings& bindings_;
  Error& error_;
  std::uint64_t floats_ = 0;
};

// A version 6 blend mode: colour in the low byte, alpha in the next. A code p2lrt does not
// know is kept (the renderer draws it as Normal / Over) and noted; so are higher bits.
void read_blend(std::int32_t packed, const std::string& who, std::uint8_t& blend, std::uint8_t& alpha,
                std::vector<std::string>& notes) {
  const auto bits = static_cast<std::uint32_t>(packed);
  blend = static_cast<std::uint8_t>(bits & 0xff);
  alpha = static_cast<std::uint8_t>((bits >> 8) & 0xff);
  if (blend >= kColorBlends || alpha >= kAlphaBlends || (bits >> 16) != 0)
    notes.push_back(who + ": blend mode " + std::to_string(bits) + " (colour " + std::to_string(blend) + ", alpha " +
                    std::to_string(alpha) + (bits >> 16 ? ", and bits above them" : "") +
                    ") is not one Cubism 5.3 defines; it is kept, and drawn as Normal / Over");
}

}  // namespace

bool Objects::read(const File& f, const Bindings& bindings, Objects& out, Error& error) {
  out = Objects{};
  Reader r(f, bindings, error);

  const std::uint32_t parts = f.count(kParts), deformers = f.count(kDeformers), meshes = f.count(kArtMeshes);
  out.parts.resize(parts);
  for (std::uint32_t i = 0; i < parts; ++i) {
    Part& p = out.parts[i];
    p.id = f.id(3, i);
    const std::string who = "part " + std::to_string(i) + " \"" + p.id + "\"";
    if (!r.keyforms(4, 5, 6, i, kPartKeyforms, who, p.keyforms)) return false;
    p.visible = f.bool32(7, i);
    p.enabled = f.bool32(8, i);
    p.parent = f.i32(9, i);
    if (!r.optional_ref(p.parent, i, who, "parent part (parents come first)")) return false;
    if (f.has(152)) {
      p.offscreen = f.i32(152, i);
      if (!r.optional_ref(p.offscreen, f.count(kOffscreens), who, "offscreen")) return false;
    }
  }

  out.parameters.resize(f.count(kParameters));
  for (std::uint32_t i = 0; i < out.parameters.size(); ++i) {
    Parameter& p = out.parameters[i];
    p.id = f.id(50, i);
    p.max = f.f32(51, i);
    p.min = f.f32(52, i);
    p.default_value = f.f32(53, i);
    p.repeat = f.bool32(54, i);
    p.decimals = f.u32(55, i);
    p.blend_shape = f.has(114) && f.u32(114, i) == 1;
    if (!(p.min <= p.max) || !(p.default_value >= p.min && p.default_value <= p.max))
      return r.fail("parameter " + std::to_string(i) + " \"" + p.id + "\": range [" + std::to_string(p.min) + ", " +
                    std::to_string(p.max) + "] with default " + std::to_string(p.default_value) + " is not ordered");
  }

  // Deformers: the common table, then the warp or rotation row it names (each row once).
  std::vector<bool> warp_used(f.count(kWarps), false), rotation_used(f.count(kRotations), false);
  out.deformers.resize(deformers);
  for (std::uint32_t i = 0; i < deformers; ++i) {
    Deformer& d = out.deformers[i];
    d.id = f.id(11, i);
    const std::string who = "deformer " + std::to_string(i) + " \"" + d.id + "\"";
    d.visible = f.bool32(13, i);
    d.enabled = f.bool32(14, i);
    d.parent_part = f.i32(15, i);
    d.parent = f.i32(16, i);
    if (!r.optional_ref(d.parent_part, parts, who, "parent part") ||
        !r.optional_ref(d.parent, i, who, "parent deformer (parents come first)"))
      return false;
    const std::uint32_t type = f.u32(17, i);
    const std::int32_t row = f.i32(18, i);
    if (type > 1) return r.fail(who + ": type " + std::to_string(type) + " is neither warp (0) nor rotation (1)");
    d.warp = type == 0;
    std::vector<bool>& used = d.warp ? warp_used : rotation_used;
    if (!r.ref(row, static_cast<std::uint32_t>(used.size()), who, d.warp ? "warp row" : "rotation row")) return false;
    if (used[static_cast<std::size_t>(row)]) return r.fail(who + ": its table row " + std::to_string(row) + " is another deformer's");
    used[static_cast<std::size_t>(row)] = true;
    d.specific = static_cast<std::uint32_t>(row);
    if (d.warp) {
      if (!r.keyforms(19, 20, 21, d.specific, kWarpKeyforms, who, d.keyforms)) return false;
      d.rows = f.u32(23, d.specific);
      d.columns = f.u32(24, d.specific);
      if (d.rows == 0 || d.columns == 0 || d.rows > kMaxLatticeSide || d.columns > kMaxLatticeSide)
        return r.fail(who + ": a " + std::to_string(d.columns) + " x " + std::to_string(d.rows) + " lattice (1 to " +
                      std::to_string(kMaxLatticeSide) + " cells a side)");
      const std::uint32_t points = (d.rows + 1) * (d.columns + 1);
      if (static_cast<std::uint32_t>(f.i32(22, d.specific)) != points)
        return r.fail(who + ": " + std::to_string(f.i32(22, d.specific)) + " lattice points for " + std::to_string(d.columns) +
                      " x " + std::to_string(d.rows) + " cells");
      if (!r.positions(60, d.keyforms, points, who) || !r.budget(d.keyforms, points, who)) return false;
      d.bilinear = f.has(101) && f.bool32(101, d.specific);
    } else {
      if (!r.keyforms(25, 26, 27, d.specific, kRotationKeyforms, who, d.keyforms)) return false;
      d.base_angle = f.f32(28, d.specific);
    }
  }

  out.meshes.resize(meshes);
  for (std::uint32_t i = 0; i < meshes; ++i) {
    Mesh& m = out.meshes[i];
    m.id = f.id(33, i);
    const std::string who = "art mesh " + std::to_string(i) + " \"" + m.id + "\"";
    if (!r.keyforms(34, 35, 36, i, kArtMeshKeyforms, who, m.keyforms)) return false;
    m.visible = f.bool32(37, i);
    m.enabled = f.bool32(38, i);
    m.parent_part = f.i32(39, i);
    m.parent = f.i32(40, i);
    if (!r.optional_ref(m.parent_part, parts, who, "parent part") || !r.optional_ref(m.parent, deformers, who, "parent deformer"))
      return false;
    m.texture = f.u32(41, i);
    m.flags = f.u8(42, i);
    const std::int32_t vertices = f.i32(43, i), first_uv = f.i32(44, i), first_index = f.i32(45, i);
    const std::int32_t index_count = f.i32(46, i), first_mask = f.i32(47, i), mask_count = f.i32(48, i);
    if (vertices < 0 || vertices > 65536) return r.fail(who + ": " + std::to_string(vertices) + " vertices (0 to 65536)");
    if (!r.range(first_uv, std::int64_t{vertices} * 2, f.count(kUvs), who, "UV floats") ||
        !r.range(first_index, index_count, f.count(kPositionIndices), who, "triangle indices") ||
        (mask_count != 0 && !r.range(first_mask, mask_count, f.count(kDrawableMasks), who, "mask entries")))
      return false;
    if (index_count % 3 != 0) return r.fail(who + ": " + std::to_string(index_count) + " triangle indices, not a multiple of 3");
    for (std::int32_t k = 0; k < index_count; ++k)
      if (f.u16(79, static_cast<std::size_t>(first_index + k)) >= vertices)
        return r.fail(who + ": triangle index " + std::to_string(f.u16(79, static_cast<std::size_t>(first_index + k))) +
                      " is not one of its " + std::to_string(vertices) + " vertices");
    m.vertex_count = static_cast<std::uint32_t>(vertices);
    m.first_uv = static_cast<std::uint32_t>(first_uv);
    m.first_index = static_cast<std::uint32_t>(first_index);
    m.index_count = static_cast<std::uint32_t>(index_count);
    for (std::int32_t k = 0; k < mask_count; ++k) {
      const std::int32_t mask = f.i32(80, static_cast<std::size_t>(first_mask + k));
      if (mask == -1) continue;  // the Editor writes these; the Core ignores them
      if (!r.ref(mask, meshes, who, "mask mesh")) return false;
      m.masks.push_back(static_cast<std::uint32_t>(mask));
    }
    if (!r.positions(70, m.keyforms, m.vertex_count, who) || !r.budget(m.keyforms, m.vertex_count, who)) return false;
    if (f.has(153)) {
      read_blend(f.i32(153, i), who, m.blend, m.alpha_blend, out.notes);
      if (m.flags & 3)
        out.notes.push_back(who + ": its flags also say " + ((m.flags & 1) ? "additive" : "multiplicative") +
                            ", which version 6 leaves to the blend mode; the blend mode is kept");
    } else {
      m.blend = (m.flags & 1) ? 1 : (m.flags & 2) ? 2 : 0;
    }
  }

  // Offscreens (version 6): each owned by the part that names it, both ways.
  if (f.has(155)) {
    const std::uint32_t offscreens = f.count(kOffscreens), masks = f.count(kDrawableMasks);
    out.offscreens.resize(offscreens);
    for (std::uint32_t i = 0; i < offscreens; ++i) {
      Offscreen& o = out.offscreens[i];
      const std::string who = "offscreen " + std::to_string(i);
      const std::int32_t owner = f.i32(155, i);
      if (!r.ref(owner, parts, who, "owner part")) return false;
      o.owner = static_cast<std::uint32_t>(owner);
      const Part& part = out.parts[o.owner];
      if (part.offscreen != static_cast<std::int32_t>(i))
        return r.fail(who + ": its owner, part " + std::to_string(owner) + " \"" + part.id + "\", names offscreen " +
                      std::to_string(part.offscreen) + " instead");
      o.flags = f.u8(156, i);
      read_blend(f.i32(157, i), who, o.blend, o.alpha_blend, out.notes);
      const std::int32_t first_mask = f.i32(158, i), mask_count = f.i32(159, i);
      if (mask_count != 0 && !r.range(first_mask, mask_count, masks, who, "mask entries")) return false;
      for (std::int32_t k = 0; k < mask_count; ++k) {
        const std::int32_t mask = f.i32(80, static_cast<std::size_t>(first_mask + k));
        if (mask == -1) continue;
        if (!r.ref(mask, meshes, who, "mask mesh")) return false;
        o.masks.push_back(static_cast<std::uint32_t>(mask));
      }
      // The owner's first keyform names the offscreen's first keyform (-1: none); the rest
      // follow in the owner's keyform order.
      const std::int32_t first = part.keyforms.count ? f.i32(160, part.keyforms.first) : -1;
      if (first < 0) continue;
      if (!r.range(first, part.keyforms.count, f.count(kOffscreenKeyforms), who, "offscreen keyforms")) return false;
      o.keyed = true;
      o.keyforms = {part.keyforms.binding, static_cast<std::uint32_t>(first), part.keyforms.count};
      // The Editor numbers them consecutively in every keyform of the part (Ren does).
      for (std::uint32_t k = 1; k < part.keyforms.count; ++k)
        if (f.i32(160, part.keyforms.first + k) != first + static_cast<std::int32_t>(k)) {
          out.notes.push_back(who + ": its part's keyforms name offscreen keyforms out of order; keyform " +
                              std::to_string(k) + " takes offscreen keyform " + std::to_string(first + k) +
                              " after the first, not " + std::to_string(f.i32(160, part.keyforms.first + k)));
          break;
        }
    }
    for (std::uint32_t i = 0; i < parts; ++i)
      if (out.parts[i].offscreen >= 0 && out.offscreens[static_cast<std::size_t>(out.parts[i].offscreen)].owner != i)
        return r.fail("part " + std::to_string(i) + " \"" + out.parts[i].id + "\": offscreen " +
                      std::to_string(out.parts[i].offscreen) + " belongs to part " +
                      std::to_string(out.offscreens[static_cast<std::size_t>(out.parts[i].offscreen)].owner));
  }

  // Draw-order groups: objects are meshes or parts owning a later group.
  const std::uint32_t groups = f.count(kDrawOrderGroups), objects = f.count(kDrawOrderGroupObjects);
  out.draw_groups.resize(groups);
  for (std::uint32_t g = 0; g < groups; ++g) {
    DrawGroup& group = out.draw_groups[g];
    const std::string who = "draw-order group " + std::to_string(g);
    const std::int32_t first = f.i32(81, g), count = f.i32(82, g);
    if (count != 0 && !r.range(first, count, objects, who, "objects")) return false;
    group.meshes_in_subtree = f.u32(83, g);
    group.max_order = f.u32(84, g);
    group.min_order = f.u32(85, g);
    for (std::int32_t k = 0; k < count; ++k) {
      const std::size_t o = static_cast<std::size_t>(first + k);
      DrawObject obj;
      const std::uint32_t type = f.u32(86, o);
      const std::int32_t index = f.i32(87, o), owned = f.i32(88, o);
      if (type > 1) return r.fail(who + ": object " + std::to_string(o) + " has type " + std::to_string(type));
      obj.part = type == 1;
      if (!r.ref(index, obj.part ? parts : meshes, who, obj.part ? "part object" : "mesh object")) return false;
      obj.index = static_cast<std::uint32_t>(index);
      if (obj.part) {
        if (owned <= static_cast<std::int32_t>(g) || static_cast<std::uint32_t>(owned) >= groups)
          return r.fail(who + ": part object " + std::to_string(index) + " owns group " + std::to_string(owned) +
                        "; expected a later group");
        obj.group = owned;
      }
      group.objects.push_back(obj);
    }
  }

  const std::uint32_t glues = f.count(kGlue), info = f.count(kGlueInfo);
  out.glues.resize(glues);
  for (std::uint32_t i = 0; i < glues; ++i) {
    Glue& g = out.glues[i];
    g.id = f.id(90, i);
    const std::string who = "glue " + std::to_string(i) + " \"" + g.id + "\"";
    if (!r.keyforms(91, 92, 93, i, kGlueKeyforms, who, g.keyforms)) return false;
    const std::int32_t a = f.i32(94, i), b = f.i32(95, i), first = f.i32(96, i), count = f.i32(97, i);
    if (!r.ref(a, meshes, who, "mesh A") || !r.ref(b, meshes, who, "mesh B")) return false;
    g.mesh_a = static_cast<std::uint32_t>(a);
    g.mesh_b = static_cast<std::uint32_t>(b);
    if (count % 2 != 0) return r.fail(who + ": " + std::to_string(count) + " glue entries, not pairs");
    if (count != 0 && !r.range(first, count, info, who, "glue entries")) return false;
    for (std::int32_t k = 0; k < count; k += 2) {
      const std::size_t e = static_cast<std::size_t>(first + k);
      GluePair p{f.u16(99, e), f.u16(99, e + 1), f.f32(98, e), f.f32(98, e + 1)};
      if (p.a >= out.meshes[g.mesh_a].vertex_count || p.b >= out.meshes[g.mesh_b].vertex_count)
        return r.fail(who + ": glues vertex " + std::to_string(p.a) + " to " + std::to_string(p.b) +
                      ", beyond the meshes' vertices");
      g.pairs.push_back(p);
    }
  }
  return true;
}

p2l::Mesh mesh_record(const Mesh& m) {
  p2l::Mesh out;
  out.id = out.name = m.id;
  out.parent = m.parent;
  out.blend = m.blend;
  out.alpha_blend = m.alpha_blend;
  out.mask_meshes = m.masks;
  out.invert_mask = (m.flags & 8) != 0;
  out.culling = (m.flags & 4) == 0;
  out.texture_page = static_cast<std::int32_t>(m.texture);
  return out;
}

Geometry zero_rest_geometry(const File& f, const Mesh& m) {
  std::vector<float> uvs(std::size_t{m.vertex_count} * 2);
  for (std::size_t k = 0; k < uvs.size(); ++k) uvs[k] = f.f32(78, m.first_uv + k);
  std::vector<std::uint32_t> indices(m.index_count);
  for (std::size_t k = 0; k < indices.size(); ++k) indices[k] = f.u16(79, m.first_index + k);
  return Geometry{Array<float>(std::vector<float>(std::size_t{m.vertex_count} * 2, 0.0f)), Array<float>(std::move(uvs)),
                  IndexArray(std::move(indices))};
}

}  // namespace p2l::moc3
