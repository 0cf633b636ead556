// Seeded synthetic Cubism models written as valid .moc3 files (version 3 = Cubism 4.0,
// version 4 = Cubism 4.2), to check p2lrt's importer against the official Core on content
// the sample models lack. What a model holds (each part can be turned off, see Features):
//  - 2-6 parameters (ranges like [-30,30], [0,1]; some repeat; keys covering the whole range
//    or only part of it), in version 4 also 1-2 blend-shape parameters (type 1);
//  - 2-4 parts, nested, with draw-order keyforms keyed on a parameter; in about a third of the
//    models one part is disabled or invisible, or one deformer disabled; some meshes disabled;
//  - 1-5 deformers: warps (1-3 x 1-3 cells, bilinear or triangle cells) and rotations (base
//    angle, per-keyform reflect flags), at the root or under any earlier deformer;
//  - 3-8 art meshes, each a small grid of triangles with UVs in [0,1], at the root or under a
//    deformer, with opacity and draw-order keyforms, blend modes, masks, double-sided flags;
//  - keyform bindings with 0-2 axes (the first axis varies fastest);
//  - a draw-order group tree in which some parts own a group; 0-2 glues (between partner meshes
//    with the same part, deformer, enabled flag and keys, so both are enabled or neither; the
//    intensity keyed over whole ranges);
//  - version 4: multiply and screen colours per keyform of warps, rotations and meshes, and
//    blend shapes on warps and meshes (delta keyforms, base key, 0-2 constraints).
// Coordinates stay sane: children of a warp inside its unit square, rotations of scale ~1,
// root objects within the canvas (1.2 x 1 units, 1000 pixels a unit, origin at the centre).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace p2l_test::synth {

struct Features {
  bool partial_keys = true;       // some key lists do not cover their parameter's range
  bool repeat = true;             // repeat (wrapping) parameters
  bool multi_axis = true;         // keyform bindings with two axes
  bool nested_parts = true;       // parts under parts
  bool part_groups = true;        // parts owning draw-order groups
  bool disabled = true;           // disabled / invisible parts, deformers, meshes
  bool opacity = true;            // keyform opacities other than 1
  bool draw_order = true;         // draw orders that vary between keyforms
  bool rotations = true;          // rotation deformers
  bool nested_deformers = true;   // deformers under deformers
  bool rot_under_warp = true;     // rotation deformers under warps
  bool reflect = true;            // rotation reflect flags
  bool quad = true;               // bilinear (isQuadSource) warps
  bool masks = true;              // clipping masks, inverted masks
  bool glue = true;               // glue between meshes that are shown and hidden together
  bool glue_stale = false;        // glue the Core evaluates from an earlier update's state, which a
                                  // stateless runtime lacks: to a mesh that can be disabled alone
                                  // (the Core glues to its stale vertex buffer, zeros if never
                                  // computed) or with intensity keys not covering the range (the
                                  // Core keeps the intensity of the last update in range)
  bool colors = true;             // version 4: keyform multiply / screen colours of meshes
  bool deformer_colors = true;    // version 4: ... of warps and rotations (composed down the chain)
  bool shared_colors = true;      // ... also when a mesh and a deformer above it key one parameter
                                  // (the composed colour is then quadratic between keys: the
                                  // importer approximates it and reports so)
  bool blend = true;              // version 4: blend-shape parameters and shapes
  bool constraints = true;        // version 4: blend-shape weight constraints (one a shape)
  bool multi_constraints = true;  // version 4: two constraints on one shape (the Core takes the minimum)
  bool blend_ignored = false;     // version 4: blend-shape keyforms with opacity and draw-order
                                  // deltas too (not Editor-like; Core 4.2.2 blends positions only)
  bool outside = false;           // mesh vertices beyond their warp's unit square
  bool single_key = false;        // bindings with a single key (never seen in real files)

  // Applies "NAME" (on) or "no-NAME" (off); "default" (the values above), "all", "none",
  // "full-keys" (= no-partial-keys).
  // Names use dashes: partial-keys, multi-axis, rot-under-warp, ... False when unknown.
  bool set(std::string_view name);
  static std::string names();  // every name, for usage messages
};

struct Generated {
  std::vector<std::uint8_t> bytes;  // empty on failure
  std::string summary;              // counts, one line
  std::string description;          // every object, one a line
  std::string error;
};

// The same seed, version and features give the same bytes on every platform (own PRNG,
// no <random> distributions).
Generated generate_moc3(std::uint64_t seed, int version, const Features& features);

}  // namespace p2l_test::synth
