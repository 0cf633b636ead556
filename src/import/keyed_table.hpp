// A value keyed multilinearly over parameter axes, as a Cubism keyform table is, and the
// product of several such tables written as one p2lrt grid.
//
// The importer needs products because p2lrt keeps one colour and one opacity per mesh
// where Cubism multiplies factors from several objects: a mesh's colour composes with its
// deformers' colours, and a mesh is hidden when any binding above it leaves its keys. A
// product of multilinear functions of disjoint parameters is itself multilinear on the
// merged grid, so the merged grid reproduces it exactly; a parameter shared by two factors
// makes the product quadratic between keys, which the merged grid only approximates
// (combine() says so).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "p2l/rig.hpp"

namespace p2l::moc3 {

struct KeyedTable {
  struct Axis {
    std::uint32_t parameter = 0;
    std::vector<float> keys;  // ascending
  };
  std::vector<Axis> axes;   // the first varies fastest
  std::vector<Rgb> values;  // one per key combination

  bool constant() const;
  // The multilinear value at [parameters] (indexed by parameter; beyond the end keys the
  // end value holds). At key values it is exactly the stored value.
  Rgb at(std::span<const float> parameters) const;
};

struct Combined {
  Grid<Rgb> grid;
  bool shared_parameter = false;  // some parameter keyed two factors: exact only at keys
};

// The grid over the union of the tables' axes (each parameter's keys merged) whose value
// at every key combination is join(the tables' values there). Nothing when the grid would
// pass max_cells. [parameter_count] sizes the scratch parameter vector.
std::optional<Combined> combine(std::span<const KeyedTable> tables, std::size_t parameter_count,
                                const std::function<Rgb(std::span<const Rgb>)>& join, std::size_t max_cells);

}  // namespace p2l::moc3
