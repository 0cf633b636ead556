/* musl's math sources include <features.h> for its internal `hidden` attribute. This folder
 * comes first on their include path, so the platform's own features.h (which its stdint.h and
 * string.h also include) is passed through, and `hidden` is added. */
#include_next <features.h>
#ifndef hidden
#define hidden __attribute__((__visibility__("hidden")))
#endif
