// The whole-model Cubism importer (library p2l_cubism): a model3.json and every file it
// names (moc3, textures, physics3, pose3, cdi3, userdata3, exp3, motion3) into one Rig.
// docs/IMPORT.md gives the mapping of each side file onto the chunks, and what the report
// lists. Nothing here throws.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "p2l/import.hpp"

namespace p2l {

struct CubismImportOptions {
  // TEXR pages refer to the PNG files (TextureKind::External) instead of embedding them.
  // The uri is the path as the model3.json writes it (relative to the model3.json's folder:
  // where the .p2lrt will be written is not known here).
  bool external_textures = false;
  // Which core rules the moc3 becomes (p2l::Moc3ImportOptions): Cubism's (the default) or the
  // format's own, for hosts of the original runtime.
  CoreRules rules = CoreRules::Cubism;
  // Every motion plays as Cubism's Framework plays it (CEXT version 2, flag bit 0: start at
  // time 0 with weight 0, fade out before the end and stop, Meta.Loop ignored, ...; see
  // docs/RUNTIME.md "Cubism playback"). False: p2lrt's own clip rules (Meta.Loop applies,
  // one-shots hold their end), and only the Bezier flag is written.
  bool cubism_playback = true;
};

// MODEL.model3.json and everything it references, or a bare .moc3 (core chunks only). Every
// error names the file and the JSON path of the value at fault, for example
// `haru.physics3.json: PhysicsSettings[2].Input[0].Source.Id: no parameter "ParamFoo"`.
// On error the result's rig is empty.
ImportResult import_cubism(const std::filesystem::path& model, const CubismImportOptions& options = {});

// Reads one file of a model for the import below: the file [name] into [out], true; false
// when there is no such file (the import then fails, naming it). Names are '/'-separated: the
// model's own, then each file the model3.json names, joined to the model's folder ("." and
// ".." resolved by name), so a host whose files live in an archive, app assets or behind
// fetch looks them up as they are. It may be called again for a name it gave before.
using CubismFileReader = std::function<bool(const std::string& name, std::vector<std::uint8_t>& out)>;

// The same import from the host's files: [model] is the model3.json's (or a bare moc3's)
// name, read through [read] like every file it names; same rules, same report and errors as
// the import from disk, the files' bytes hashed the same way (META source_hash).
ImportResult import_cubism(const std::string& model, const CubismFileReader& read, const CubismImportOptions& options = {});

// The names [read] will be asked for when [model] is imported through it: the model itself, then
// every file its model3.json names, joined to its folder as the import joins them, each once, in
// the order the import reads them (for a bare .moc3: its own name). For hosts that fetch the
// files first (the WebAssembly module's JavaScript, archives read ahead). The error is the
// import's when the model3.json itself cannot be read or is not one.
struct CubismFiles {
  Error error;
  std::vector<std::string> names;
  explicit operator bool() const { return error.ok(); }
};
CubismFiles cubism_files(const std::string& model, const CubismFileReader& read);

}  // namespace p2l
