// Frames drawn on several cores while the animation stays on one. An animation's updates are
// sequential (each starts from the state the last one left: clips, physics, simulations), its
// drawing is not: the caller's thread updates the character and hands each frame's evaluated
// pose to a bounded ring of slots; worker threads, each with its own p2l::Renderer (the texture
// pages shared, the host's pages set on each), draw the slots, and the caller's thread takes the
// finished frames back in order to write them.
//
// p2l::Instance cannot be copied (it owns its model's buffers), so a slot holds an instance of
// its own on the same model and receives only what p2l::Renderer reads from one: the meshes'
// vertices, opacities and colours, the render commands and the parts' group composites
// (copy_drawn; src/render/renderer.cpp is the list's source). Same-sized vectors are copied
// in place: once every slot has been used, a frame allocates nothing here.
//
// With one thread the pool draws on the caller's thread from the caller's instances: no copy,
// the path `p2lrt render` always had.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "p2l/render.hpp"

namespace p2l::video {

struct Frame {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // straight
};

// Copies into [to] what a renderer reads of [from]'s last evaluation (both on one model).
void copy_drawn(const p2l::Instance& from, p2l::Instance& to);

struct DrawSetup {
  std::shared_ptr<const p2l::Model> model;
  std::uint32_t width = 0, height = 0;  // of one lane; frames are lanes x width wide
  std::uint32_t lanes = 1;              // instances drawn side by side (left to right)
  p2l::Affine transform;                // canvas to image, every lane alike
  std::array<std::uint8_t, 4> background{};
  std::vector<std::pair<std::uint32_t, const p2l::Image*>> textures;  // the host's pages, set on every renderer
  unsigned threads = 1;                 // drawing threads (1: the caller's)
  unsigned band_threads = 1;            // threads each renderer draws one frame on (Renderer::set_threads)
};

class DrawPool {
 public:
  // Makes the renderers (and, with threads, the slots); check error().
  explicit DrawPool(const DrawSetup& setup);
  ~DrawPool();
  DrawPool(const DrawPool&) = delete;
  DrawPool& operator=(const DrawPool&) = delete;
  const std::string& error() const { return error_; }

  // [count] frames: for k = 0, 1, ..., update(k) brings the lanes' instances to frame k (on this
  // thread, in order) and returns them; write(k, frame) takes frame k (on this thread, in order).
  // False, stopping, when update or write return false/null, or the renderer refuses an image
  // (error() says so).
  using Update = std::function<std::span<p2l::Instance* const>(std::size_t)>;
  using Write = std::function<bool(std::size_t, const Frame&)>;
  bool run(std::size_t count, const Update& update, const Write& write);

 private:
  struct Shared;
  bool draw(p2l::Renderer& renderer, std::span<p2l::Instance* const> lanes, std::vector<Frame>& lane_frames, Frame& out);
  bool run_here(std::size_t count, const Update& update, const Write& write);
  bool run_threads(std::size_t count, const Update& update, const Write& write);
  void work(std::size_t worker);

  DrawSetup setup_;
  std::string error_;
  std::vector<p2l::Renderer> renderers_;  // one per drawing thread
  std::unique_ptr<Shared> shared_;
};

}  // namespace p2l::video
