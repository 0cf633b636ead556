// Seeded synthetic Cubism models written as valid .moc3 files (version 3 = Cubism 4.0,
// version 4 = Cubism 4.2, version 5 = Cubism 5.0, version 6 = Cubism 5.3), to check p2lrt's importer against the
// official Core on content the sample models lack. What a model holds (each part can be
// turned off, see Features):
//  - 2-6 parameters (ranges like [-30,30], [0,1]; some repeat; keys covering the whole range
//    or only part of it), in version 4 and 5 also 1-2 blend-shape parameters (type 1);
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
//    blend shapes on warps and meshes (delta keyforms, base key, 0-2 constraints);
//  - version 5: the same, every warp, rotation and mesh keyform (blend-shape keyforms too)
//    naming its own multiply and screen colour entry; blend-shape keyforms of warps and
//    meshes carrying opacity, draw-order and colour deltas besides positions; blend shapes
//    on parts (draw order), rotations (angle, origin, scale, opacity, colours) and glue
//    (intensity).
//  - version 6: the same as version 5, every mesh with a blend mode (colour blend in the low
//    byte, alpha blend in the next); with the version 6 features (off by default) offscreens
//    on parts, nested (an offscreen part under an offscreen part, and with a part without one
//    between), their keyforms (opacity, multiply and screen colour entries, one per keyform of
//    the owner part), masks and inverted masks, blend modes, blend shapes on offscreens. The
//    offscreen keyforms' colour entries come first in the colour arrays and the offscreens'
//    mask entries first in the mask array, as in an Editor 5.3 file.
// Coordinates stay sane unless a feature says otherwise: children of a warp inside its unit
// square, rotations of scale ~1, root objects within the canvas (1.2 x 1 units, 1000 pixels a
// unit, origin at the centre). The features off by default each build a structure the Core
// is known to treat in a particular way (tiny scales, angles past 180 degrees, opacities and
// colours outside [0, 1], decimal places other than 3, ...); they draw from the random
// stream only when on, so the files of the other features stay the same.
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
  bool colors = true;             // version 4-5: keyform multiply / screen colours of meshes
  bool deformer_colors = true;    // version 4-5: ... of warps and rotations (composed down the chain)
  bool shared_colors = true;      // ... also when a mesh and a deformer above it key one parameter
                                  // (the composed colour is then quadratic between keys: the
                                  // importer approximates it and reports so)
  bool blend = true;              // version 4-5: blend-shape parameters and shapes (version 5 also
                                  // on some rotations, parts and glue)
  bool constraints = true;        // version 4-5: blend-shape weight constraints (one a shape)
  bool multi_constraints = true;  // version 4-5: two constraints on one shape (the Core takes the minimum)
  bool blend_ignored = false;     // version 4: blend-shape keyforms with opacity and draw-order
                                  // deltas too (not Editor-like; Core 4.2.2 blends positions only;
                                  // version 5 has such deltas anyway)
  bool outside = false;           // mesh vertices beyond their warp's unit square
  bool single_key = false;        // bindings with a single key (never seen in real files)
  bool far_outside = false;       // mesh vertices of warp children 2 and more units outside the
                                  // unit square (the Core's affine far field) and in the ring
  bool tiny_scale = false;        // a chain of 4-8 rotations (warps between) whose scales multiply
                                  // down to 1e-7..1e-9, below it a rotation scaled back up: its
                                  // direction probe through the tiny parent comes back equal to
                                  // the origin in float (some poses) or a few ulps off (others)
  bool big_angles = false;        // base angles near +-170 degrees, keyform angles +-45, nested
                                  // rotations: composed angles pass +-180
  bool opacity_over_one = false;  // keyform opacities 1.00005..1.2 on meshes and deformers
  bool color_overshoot = false;   // version 4-5: keyform colours (version 5: blend-shape colour
                                  // deltas too) outside [0, 1], below 0 and above 1
  bool constraint_extremes = false;  // version 4-5: constraint weights outside [0, 1] (1.5, -0.3
                                     // ...) and three constraints on one shape
  bool decimals = false;          // parameters with 1, 2, 4 or 5 decimal places; keys closer than
                                  // 1.5 x 10^-d, keys and defaults within 10^-d of the values
                                  // the poses use (minimum, maximum, default)
  bool blend_everything = false;  // version 5: blend shapes on every kind (warps under rotations,
                                  // rotations under warps, meshes, parts, glue), two or three on
                                  // one object, on keys [0, 1] (base 0) and [-1, 0, 1] (base 1)
  bool pixel_scale = false;       // the root in pixels (pixels per unit 1, coordinates in the
                                  // thousands), as some game exports are; not part of "all"
  bool unsorted_keys = false;     // key lists that repeat a key or go down (not Editor-like, but
                                  // found in game exports the Core loads; not part of "all")
  bool eps_exact = false;         // a key at 0 and the default exactly 10^-d beside it, so that
                                  // value - key is exactly +-epsilon (not in "all": it came
                                  // after the fixtures "all" made)
  // Version 6 (Cubism 5.3) only: in versions 1-5 these are ignored and draw nothing, so "all"
  // leaves the version 5 files as they were.
  bool offscreens = false;          // parts owning an offscreen (each then owns a draw-order
                                    // group, and the offscreen takes a place in the group totals):
                                    // random ones and a chain offscreen > plain part > offscreen >
                                    // offscreen, each with a mesh of its own; the offscreen's
                                    // keyforms follow its owner part's binding
  bool offscreen_keyforms = false;  // offscreen keyforms with opacities other than 1 (0 too) and
                                    // multiply / screen colours that vary between keyforms
  bool offscreen_masks = false;     // offscreens clipped by 1-2 meshes outside their subtree (a -1
                                    // entry now and then), half of them with the inverted-mask flag
  bool blend_modes = false;         // blend modes other than Normal + Over: meshes deal the 90
                                    // (colour, alpha) pairs from a shuffled deck, offscreens step
                                    // through the 18 colour and 5 alpha modes from random starts
                                    // (without it, version 6 meshes get AddCompatible /
                                    // MultiplyCompatible from their flags, offscreens Normal + Over)
  bool blend_sweep = false;         // with offscreens and blend-modes: 18 more offscreen parts
                                    // and meshes up to 90, so that one model has every (colour,
                                    // alpha) pair on a mesh and every colour and alpha mode on an
                                    // offscreen (not in "all": it only makes the model bigger)
  bool offscreen_shapes = false;    // blend shapes on offscreens (opacity and colour deltas; turns
                                    // blend on)

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
