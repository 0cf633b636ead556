// The chunks this library parses, in the order the writer writes them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace p2l::format {

enum class ChunkId : std::uint8_t {
  STRS, CANV, PARM, DEFM, PART, MESH, GLUE, DRAW, TEXR, PHYS, CLIP, ROLE,  // core
  PGUI, META,                                                                // information
  BONE, SKIN, COLL, SIMS,                                                    // extensions
  EXPR, HITA, UDAT, POSE, CEXT, HAIR,                                        // attached
  Count
};
inline constexpr std::size_t kChunkIdCount = static_cast<std::size_t>(ChunkId::Count);

struct ChunkSpec {
  std::string_view tag;
  std::uint16_t newest_version;  // versions 1..newest are read
  bool core;                     // written with the required bit
  bool must_exist;               // a file without it is rejected
};

inline constexpr std::array<ChunkSpec, kChunkIdCount> kChunkSpecs{{
    {"STRS", 1, true, true},  {"CANV", 3, true, true},  {"PARM", 3, true, true},  {"DEFM", 3, true, true},
    {"PART", 3, true, true},  {"MESH", 3, true, true},  {"GLUE", 3, true, false}, {"DRAW", 3, true, true},
    {"TEXR", 1, true, false}, {"PHYS", 2, true, false}, {"CLIP", 1, true, false}, {"ROLE", 1, true, false},
    {"PGUI", 1, false, false}, {"META", 1, false, false}, {"BONE", 1, false, false}, {"SKIN", 1, false, false},
    {"COLL", 1, false, false}, {"SIMS", 1, false, false}, {"EXPR", 2, false, false}, {"HITA", 1, false, false},
    {"UDAT", 1, false, false}, {"POSE", 2, false, false}, {"CEXT", 2, false, false}, {"HAIR", 1, false, false},
}};

// CEXT version 2: the flags byte that ends each record (docs/FORMAT.md 12.5).
inline constexpr std::uint8_t kClipFlagCubism = 1, kClipFlagUnrestricted = 2;
inline constexpr std::uint8_t kClipFlagsKnown = kClipFlagCubism | kClipFlagUnrestricted;
// EXPR version 2: the flags byte that ends each expression (docs/FORMAT.md 12.1).
inline constexpr std::uint8_t kExpressionFlagCubism = 1;
// POSE version 2: the flags byte after the groups (docs/FORMAT.md 12.4).
inline constexpr std::uint8_t kPoseFlagCubism = 1, kPoseFlagCubism2 = 2;

inline const ChunkSpec& spec(ChunkId id) { return kChunkSpecs[static_cast<std::size_t>(id)]; }
inline std::string_view tag_of(ChunkId id) { return spec(id).tag; }

inline std::optional<ChunkId> chunk_id_of(std::string_view tag) {
  for (std::size_t i = 0; i < kChunkIdCount; ++i)
    if (kChunkSpecs[i].tag == tag) return static_cast<ChunkId>(i);
  return std::nullopt;
}

}  // namespace p2l::format
