// The C API's Cubism import (include/p2l/p2l_cubism.h): p2l::import_cubism, from a path or
// through the host's reader, into the same model data p2l_model_load makes, with the report
// kept beside it. Part of the import component, so that libp2l.a needs nothing of it.
#include "p2l/p2l_cubism.h"

#include <memory>
#include <string>
#include <vector>

#include "capi/handle.hpp"
#include "import/cubism/flags.hpp"
#include "p2l/cubism.hpp"

namespace p2l::capi {
namespace {

// Imports with [run] (which calls one of the import_cubism overloads with the options) and
// compiles the rig; null with [message] set on failure.
template <class Run>
std::shared_ptr<const ModelData> import_model(std::uint32_t flags, std::string& message, Run run) noexcept {
  P2L_TRY {
    CubismImportOptions options;
    if (!cubism::options_from_flags(flags, options, message)) return nullptr;
    ImportResult imported = run(options);
    if (!imported) {
      message = imported.error.message;
      return nullptr;
    }
    return compile_model(std::make_shared<const Rig>(std::move(imported.rig)), std::move(imported.report.dropped), message);
  } P2L_CATCH_ALL {
    P2L_TRY {
      message = "The model could not be imported: " + current_exception_message();
    } P2L_CATCH_ALL {
      message.clear();
    }
    return nullptr;
  }
}

std::shared_ptr<const ModelData> import_path(const char* path, std::uint32_t flags, std::string& message) noexcept {
  if (path == nullptr) {
    message = "No path to import";
    return nullptr;
  }
  return import_model(flags, message, [&](const CubismImportOptions& options) { return import_cubism(path, options); });
}

std::shared_ptr<const ModelData> import_through(const char* name, P2lReadFile read, void* user, std::uint32_t flags,
                                                std::string& message) noexcept {
  if (name == nullptr || read == nullptr) {
    message = name == nullptr ? "No model name to import" : "No reader to import with";
    return nullptr;
  }
  // The host's bytes are copied at once: they need to live only until its next call.
  const CubismFileReader reader = [&](const std::string& file, std::vector<std::uint8_t>& out) {
    const std::uint8_t* data = nullptr;
    std::size_t size = 0;
    if (!read(file.c_str(), &data, &size, user)) return false;
    if (data == nullptr && size != 0) return false;
    out.assign(data, data + size);
    return true;
  };
  return import_model(flags, message, [&](const CubismImportOptions& options) { return import_cubism(name, reader, options); });
}

P2lModel* model_or_report(std::shared_ptr<const ModelData> data, std::string& message, char* error, std::size_t capacity) {
  P2lModel* model = create_model(std::move(data));
  if (model == nullptr) report_failure(message, error, capacity);
  return model;
}

P2lRig* rig_or_report(std::shared_ptr<const ModelData> data, std::string& message, char* error, std::size_t capacity) {
  P2lRig* rig = data ? create_rig(std::move(data), message) : nullptr;
  if (rig == nullptr) report_failure(message, error, capacity);
  return rig;
}

// The report of a model, of a working rig's model; null for a null handle (or a failed rig).
const CStrings* report_of(const P2lModel* model) { return model && model->data ? &model->data->import_report : nullptr; }
const CStrings* report_of(const P2lRig* rig) { return rig && !rig->failed && rig->data ? &rig->data->import_report : nullptr; }
uint32_t count(const CStrings* lines) { return lines ? static_cast<uint32_t>(lines->size()) : 0; }
const char* line(const CStrings* lines, uint32_t index) { return lines ? lines->at(index) : nullptr; }

}  // namespace
}  // namespace p2l::capi

using namespace p2l::capi;

extern "C" {

P2lModel* p2l_model_import_cubism(const char* path, uint32_t flags, char* error, size_t error_capacity) {
  std::string message;
  return model_or_report(import_path(path, flags, message), message, error, error_capacity);
}

P2lModel* p2l_model_import_cubism_with(const char* name, P2lReadFile read, void* user, uint32_t flags, char* error,
                                       size_t error_capacity) {
  std::string message;
  return model_or_report(import_through(name, read, user, flags, message), message, error, error_capacity);
}

P2lRig* p2l_rig_import_cubism(const char* path, uint32_t flags, char* error, size_t error_capacity) {
  std::string message;
  return rig_or_report(import_path(path, flags, message), message, error, error_capacity);
}

P2lRig* p2l_rig_import_cubism_with(const char* name, P2lReadFile read, void* user, uint32_t flags, char* error,
                                   size_t error_capacity) {
  std::string message;
  return rig_or_report(import_through(name, read, user, flags, message), message, error, error_capacity);
}

uint32_t p2l_model_import_report_count(const P2lModel* model) { return count(report_of(model)); }
const char* p2l_model_import_report_line(const P2lModel* model, uint32_t index) { return line(report_of(model), index); }
uint32_t p2l_import_report_count(const P2lRig* rig) { return count(report_of(rig)); }
const char* p2l_import_report_line(const P2lRig* rig, uint32_t index) { return line(report_of(rig), index); }

}  // extern "C"
