// p2l-import.wasm's exports: the Cubism import (p2l::import_cubism through a reader over files
// the host has put into the module), its output written as .p2lrt bytes for the runtime module
// to load, and its report. Built without exceptions, the importer traps on a fatal problem
// after recording it (src/import/cubism/document.hpp): web/p2l.js therefore runs each import in
// a fresh instance of this module, reads p2li_failure() after a trap, and drops the instance,
// so that nothing half-built outlives a failed import.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "import/cubism/document.hpp"
#include "import/cubism/flags.hpp"
#include "p2l/cubism.hpp"
#include "p2l/format.hpp"

#define P2LI_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

std::map<std::string, std::vector<std::uint8_t>> files;
std::vector<std::uint8_t> output;
std::vector<std::string> report;
std::string listed, message;

const p2l::CubismFileReader reader = [](const std::string& name, std::vector<std::uint8_t>& out) {
  const auto it = files.find(name);
  if (it == files.end()) return false;
  out = it->second;
  return true;
};

}  // namespace

// Room for [size] bytes of the file [name] (as the import will ask for it), for the host to fill.
P2LI_EXPORT std::uint8_t* p2li_file(const char* name, std::size_t size) {
  std::vector<std::uint8_t>& bytes = files[name];
  bytes.assign(size, 0);
  return size ? bytes.data() : reinterpret_cast<std::uint8_t*>(&bytes);
}

// The names the import of [model] will read, one per line (p2l::cubism_files), the model first;
// null when its model3.json cannot be read (p2li_failure() says why).
P2LI_EXPORT const char* p2li_files(const char* model) {
  const p2l::CubismFiles names = p2l::cubism_files(model, reader);
  if (!names) {
    message = names.error.message;
    return nullptr;
  }
  listed.clear();
  for (const std::string& n : names.names) listed += n + "\n";
  return listed.c_str();
}

// Imports [model] with p2l_cubism.h's [flags]: true with the .p2lrt bytes in p2li_output(),
// false (or a trap) with p2li_failure() set.
P2LI_EXPORT bool p2li_import(const char* model, std::uint32_t flags) {
  p2l::CubismImportOptions options;
  if (!p2l::cubism::options_from_flags(flags, options, message)) return false;
  p2l::ImportResult imported = p2l::import_cubism(model, reader, options);
  if (!imported) {
    message = imported.error.message;
    return false;
  }
  files.clear();  // the bytes are in the rig now
  // Stored as they are: the runtime module decodes deflate and zstd, but this one has no
  // compressor, and the bytes only cross from one module to the other.
  p2l::WriteOptions write;
  write.compression = p2l::Compression::None;
  p2l::WriteResult written = p2l::write(imported.rig, write);
  if (!written) {
    message = written.error.message;
    return false;
  }
  output = std::move(written.bytes);
  report = std::move(imported.report.dropped);
  return true;
}

P2LI_EXPORT const std::uint8_t* p2li_output() { return output.data(); }
P2LI_EXPORT std::size_t p2li_output_size() { return output.size(); }
P2LI_EXPORT std::uint32_t p2li_report_count() { return static_cast<std::uint32_t>(report.size()); }
P2LI_EXPORT const char* p2li_report_line(std::uint32_t index) { return index < report.size() ? report[index].c_str() : nullptr; }

// Why the last call failed: its message, or after a trap the failure the importer recorded
// ("" when it trapped for want of memory).
P2LI_EXPORT const char* p2li_failure() {
  const p2l::Error& trapped = p2l::cubism::trapped_failure();
  return trapped.ok() ? message.c_str() : trapped.message.c_str();
}
