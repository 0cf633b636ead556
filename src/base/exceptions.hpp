// The C API's guard against exceptions, in builds that have them. The library throws none
// itself; what could throw is the C++ runtime (std::bad_alloc) or a C++ host's log callback.
// In a build without exceptions (the WebAssembly module) there is nothing to catch: an
// allocation that fails traps instead, so P2L_TRY runs its block and P2L_CATCH_ALL's never.
#pragma once

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#define P2L_HAS_EXCEPTIONS 1
#define P2L_TRY try
#define P2L_CATCH_ALL catch (...)
#else
#define P2L_HAS_EXCEPTIONS 0
#define P2L_TRY if (true)
#define P2L_CATCH_ALL else
#endif
