// Forced into every unit of a build without exceptions that includes the JSON library (the
// WebAssembly import module, web/CMakeLists.txt): the library's throw becomes the importer's
// failure (document.cpp: recorded, naming the document being parsed, then a trap) instead of
// its std::abort, which would say nothing.
#pragma once

extern "C" [[noreturn]] void p2l_json_failed(const char* what);
#define JSON_THROW_USER(exception) p2l_json_failed((exception).what())
