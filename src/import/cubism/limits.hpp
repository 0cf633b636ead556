// How much of a Cubism model the importer takes on before it refuses the model. Every limit
// sits far above the largest official sample and far below what would make a host run out
// of memory or frames: a hostile file is refused at once, with a message naming the file,
// the limit and what the file holds (docs/RELIABILITY.md "Bounds").
#pragma once

#include <cstddef>
#include <cstdint>

namespace p2l::cubism {

// Any JSON side file, checked before it is read or parsed: the parsed document takes about
// 10 times the text (docs/RELIABILITY.md). Haru's largest file is 146 KB.
inline constexpr std::uint64_t kMaxJsonBytes = std::uint64_t{32} << 20;
// Points in one motion3.json, as Cubism counts them (the first point of a curve, one for a
// linear or stepped segment, three for a Bezier): 524,288 is 2 hours of one curve keyed at
// 60 frames a second, or 10 minutes of 15 curves.
inline constexpr std::size_t kMaxMotionPoints = std::size_t{1} << 19;
// Particles in one physics3.json: each is stepped every physics frame; Haru has 128.
inline constexpr std::size_t kMaxPhysicsParticles = std::size_t{1} << 14;

}  // namespace p2l::cubism
