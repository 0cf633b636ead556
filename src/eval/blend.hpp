// The keyform blend at the heart of every evaluation: a start plus weighted rows, summed in
// one pass over the output instead of one pass per row.
#pragma once

#include <cstddef>

namespace p2l::eval {

// out[k] = start[k] (0 when start is null) + rows[0][k]·weights[0] + rows[1][k]·weights[1] + …
// for k < n, added in that order, so the result is the same bit for bit as adding the rows
// one after another. Every row has at least n floats; start may be out itself.
void blend_rows(const float* start, const float* const* rows, const float* weights, std::size_t count, float* out,
                std::size_t n);

}  // namespace p2l::eval
