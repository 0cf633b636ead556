// The threads that draw one frame's bands (renderer.cpp): the caller and threads - 1 workers
// kept waiting between frames, so that a frame starts no thread and allocates nothing.
// Where the platform has no threads (the WebAssembly build) the caller draws every band.
#pragma once

#include <cstddef>
#include <memory>

namespace p2l::render {

class BandPool {
 public:
  // [threads] drawing in all, the caller's included (at least one).
  explicit BandPool(unsigned threads);
  ~BandPool();
  BandPool(const BandPool&) = delete;
  BandPool& operator=(const BandPool&) = delete;

  unsigned threads() const { return threads_; }
  // Calls job(context, i) once for every i in [0, count), each on one of the threads (the
  // caller's among them), and returns when every call has. [job] must not throw.
  void run(std::size_t count, void (*job)(void* context, std::size_t i), void* context);

 private:
  struct Shared;
  unsigned threads_ = 1;
  std::unique_ptr<Shared> shared_;
};

// Whether this build can start threads, and how many the processor runs at once (1 when it
// cannot say).
bool platform_has_threads();
unsigned processor_cores();

}  // namespace p2l::render
