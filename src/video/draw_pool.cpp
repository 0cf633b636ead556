#include "video/draw_pool.hpp"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "eval/state.hpp"

namespace p2l::video {

void copy_drawn(const p2l::Instance& from, p2l::Instance& to) {
  const p2l::InstanceState& a = from.state();
  p2l::InstanceState& b = to.state();
  // Exactly the reads of src/render/renderer.cpp (render_commands, vertices, opacity, multiply,
  // screen, part_composite); a renderer reading more must be listed here too.
  b.render_commands = a.render_commands;
  b.vertices = a.vertices;
  b.opacity = a.opacity;
  b.multiply = a.multiply;
  b.screen = a.screen;
  b.part_composite = a.part_composite;
}

namespace {

enum class SlotState { Free, Queued, Done, Failed };

}  // namespace

struct DrawPool::Shared {
  struct Slot {
    std::vector<p2l::Instance> instances;
    std::vector<p2l::Instance*> lanes;
    std::vector<Frame> lane_frames;
    Frame frame;
    SlotState state = SlotState::Free;
  };
  std::vector<Slot> slots;
  std::mutex mutex;
  std::condition_variable work, done;
  std::size_t submitted = 0, next_job = 0;
  bool stop = false;
};

DrawPool::DrawPool(const DrawSetup& setup) : setup_(setup) {
  setup_.threads = std::max(1u, setup_.threads);
  auto pages = std::make_shared<p2l::TexturePages>(setup_.model);
  for (unsigned t = 0; t < setup_.threads; ++t) {
    p2l::Renderer& renderer = renderers_.emplace_back(setup_.model, pages);
    renderer.set_threads(setup_.band_threads);
    for (const auto& [page, image] : setup_.textures)
      if (!renderer.set_texture(page, image->rgba, image->width, image->height))
        error_ = "the renderer refused texture page " + std::to_string(page);
  }
  if (setup_.threads == 1) return;
  shared_ = std::make_unique<Shared>();
  shared_->slots.resize(2 * std::size_t{setup_.threads});  // each thread drawing one while the next waits
  for (Shared::Slot& slot : shared_->slots) {
    for (std::uint32_t i = 0; i < setup_.lanes; ++i) slot.instances.emplace_back(setup_.model);
    for (p2l::Instance& instance : slot.instances) slot.lanes.push_back(&instance);
  }
}

DrawPool::~DrawPool() = default;

bool DrawPool::draw(p2l::Renderer& renderer, std::span<p2l::Instance* const> lanes, std::vector<Frame>& lane_frames, Frame& out) {
  const std::uint32_t w = setup_.width, h = setup_.height;
  const std::size_t lane_bytes = std::size_t{w} * h * 4;
  if (out.rgba.size() != lane_bytes * lanes.size()) out = Frame{w * static_cast<std::uint32_t>(lanes.size()), h, std::vector<std::uint8_t>(lane_bytes * lanes.size())};
  if (lanes.size() > 1 && lane_frames.size() != lanes.size()) lane_frames.assign(lanes.size(), Frame{w, h, std::vector<std::uint8_t>(lane_bytes)});
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    // One lane draws straight into the frame; several are drawn apart, then put side by side.
    std::vector<std::uint8_t>& pixels = lanes.size() == 1 ? out.rgba : lane_frames[i].rgba;
    for (std::size_t p = 0; p < pixels.size(); p += 4) std::copy(setup_.background.begin(), setup_.background.end(), pixels.begin() + static_cast<std::ptrdiff_t>(p));
    if (!renderer.render(*lanes[i], pixels.data(), w, h, &setup_.transform, p2l::kRenderStraight | p2l::kRenderKeep)) return false;
  }
  if (lanes.size() > 1)
    for (std::size_t i = 0; i < lanes.size(); ++i)
      for (std::uint32_t y = 0; y < h; ++y)
        std::copy_n(lane_frames[i].rgba.begin() + static_cast<std::ptrdiff_t>(std::size_t{y} * w * 4), std::size_t{w} * 4,
                    out.rgba.begin() + static_cast<std::ptrdiff_t>((std::size_t{y} * out.width + i * w) * 4));
  return true;
}

bool DrawPool::run(std::size_t count, const Update& update, const Write& write) {
  if (!error_.empty()) return false;
  return setup_.threads == 1 ? run_here(count, update, write) : run_threads(count, update, write);
}

bool DrawPool::run_here(std::size_t count, const Update& update, const Write& write) {
  std::vector<Frame> lane_frames;
  Frame frame;
  for (std::size_t k = 0; k < count; ++k) {
    const std::span<p2l::Instance* const> lanes = update(k);
    if (lanes.empty()) return false;
    if (!draw(renderers_[0], lanes, lane_frames, frame)) {
      error_ = "the renderer refused a " + std::to_string(setup_.width) + "x" + std::to_string(setup_.height) + " image";
      return false;
    }
    if (!write(k, frame)) return false;
  }
  return true;
}

void DrawPool::work(std::size_t worker) {
  Shared& s = *shared_;
  std::vector<Frame> lane_frames;
  std::unique_lock lock(s.mutex);
  for (;;) {
    s.work.wait(lock, [&] { return s.stop || s.next_job < s.submitted; });
    if (s.stop) return;
    Shared::Slot& slot = s.slots[s.next_job++ % s.slots.size()];
    lock.unlock();
    const bool ok = draw(renderers_[worker], slot.lanes, lane_frames, slot.frame);
    lock.lock();
    slot.state = ok ? SlotState::Done : SlotState::Failed;
    s.done.notify_all();
  }
}

bool DrawPool::run_threads(std::size_t count, const Update& update, const Write& write) {
  Shared& s = *shared_;
  s.submitted = s.next_job = 0;
  s.stop = false;
  for (Shared::Slot& slot : s.slots) slot.state = SlotState::Free;
  std::vector<std::thread> workers;
  // Joined on every way out of here.
  struct Join {
    Shared& s;
    std::vector<std::thread>& workers;
    ~Join() {
      {
        std::lock_guard lock(s.mutex);
        s.stop = true;
      }
      s.work.notify_all();
      for (std::thread& t : workers) t.join();
    }
  } join{s, workers};
  for (std::size_t t = 0; t < renderers_.size(); ++t) workers.emplace_back(&DrawPool::work, this, t);

  const std::size_t ring = s.slots.size();
  std::size_t submitted = 0;
  for (std::size_t written = 0; written < count;) {
    if (submitted < count && submitted - written < ring) {
      // The slot's last frame was written: no thread touches it now.
      const std::span<p2l::Instance* const> lanes = update(submitted);
      if (lanes.empty()) return false;
      Shared::Slot& slot = s.slots[submitted % ring];
      for (std::size_t i = 0; i < lanes.size(); ++i) copy_drawn(*lanes[i], *slot.lanes[i]);
      std::lock_guard lock(s.mutex);
      slot.state = SlotState::Queued;
      s.submitted = ++submitted;
      s.work.notify_one();
      continue;
    }
    Shared::Slot& slot = s.slots[written % ring];
    {
      std::unique_lock lock(s.mutex);
      s.done.wait(lock, [&] { return slot.state == SlotState::Done || slot.state == SlotState::Failed; });
    }
    if (slot.state == SlotState::Failed) {
      error_ = "the renderer refused a " + std::to_string(setup_.width) + "x" + std::to_string(setup_.height) + " image";
      return false;
    }
    if (!write(written, slot.frame)) return false;
    std::lock_guard lock(s.mutex);
    slot.state = SlotState::Free;
    ++written;
  }
  return true;
}

}  // namespace p2l::video
