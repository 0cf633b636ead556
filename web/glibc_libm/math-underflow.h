/* glibc-internal header name; see shim.h. */
#include "shim.h"
