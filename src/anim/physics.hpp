// Pendulum physics as Cubism's runtime evaluates physics3.json (PHYS chunk versions 1 and
// 2): each group hangs a strand of points (root first) that its inputs move and tilt, and
// its outputs read back into parameters. docs/RUNTIME.md "Physics" states every rule and
// which of Cubism's quirks are reproduced.
//
// Everything is sized when the physics is made; step() and stabilize() allocate nothing.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "p2l/rig.hpp"

namespace p2l::anim {

class Physics {
 public:
  explicit Physics(const Rig& rig);

  // Back to the state at construction (points hanging at rest, no accumulated time); the
  // wind is kept.
  void reset();
  // Wind added to every point's force, physics units (x right, y down), as Cubism's.
  void set_wind(float x, float y);

  // Cubism's CubismPhysics::Evaluate: advances by [dt] seconds (<= 0 or NaN: nothing) from
  // [values] (one per parameter, raw) and writes the outputs into them. Steps at the rig's
  // physics_fps with inputs interpolated between frames and outputs between the last two
  // steps; with physics_fps 0 one step of dt per call (outputs lag one frame). Groups whose
  // [skip] entry is nonzero (empty span: none) neither step nor write.
  void step(float dt, std::span<float> values, std::span<const std::uint8_t> skip = {});
  // Cubism's Stabilization: every strand at rest under the inputs of [values], outputs
  // written without interpolation.
  void stabilize(std::span<float> values);

 private:
  struct Vec {
    float x = 0, y = 0;
  };
  struct Group {
    std::uint32_t first_input = 0, input_count = 0;
    std::uint32_t first_output = 0, output_count = 0;
    std::uint32_t first_point = 0, point_count = 0;
    Normalization normalization;
    float threshold = 0;  // movement threshold x NormalizationPosition.Maximum
  };
  struct Input {
    std::uint32_t parameter = 0;
    float weight = 0;  // Weight / 100
    PhysicsSource source = PhysicsSource::X;
    bool reflect = false;
  };
  struct Output {
    std::uint32_t parameter = 0;
    std::uint32_t vertex = 0;
    float scale = 0;   // Angle: the file's Scale; X and Y: 0, as Cubism (never loaded)
    float weight = 0;  // Weight / 100
    PhysicsSource source = PhysicsSource::X;
    bool reflect = false;
  };
  struct Point {
    float radius = 0, mobility = 0, delay = 0, acceleration = 0;
    Vec position, last_position, velocity, last_gravity;
  };
  struct Range {
    float min = 0, max = 0, default_value = 0;
  };

  float sane(std::span<const float> values, std::uint32_t parameter) const;
  Vec translation(const Group& g, std::span<const float> source, float& angle) const;
  static Vec gravity_direction(float angle);
  void update_points(const Group& g, Vec root, float angle, float h);
  void rest_points(const Group& g, Vec root, float angle);
  float output_value(const Group& g, const Output& o) const;
  void write(float& parameter_value, const Output& o, float out) const;

  std::vector<Range> ranges_;  // per parameter
  std::vector<Group> groups_;
  std::vector<Input> inputs_;
  std::vector<Output> outputs_;  // only outputs naming an existing parameter
  std::vector<Point> points_;
  std::vector<float> current_, previous_;  // per output: the last two steps' values
  std::vector<float> input_cache_, caches_;  // per parameter (only read_ entries used)
  std::vector<std::uint32_t> read_;  // parameters some input reads, each once
  Vec wind_;
  float fps_ = 0, remain_ = 0;
  bool cache_started_ = false;
};

}  // namespace p2l::anim
