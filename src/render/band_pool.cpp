#include "render/band_pool.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "base/mutex.hpp"

#if P2L_HAS_THREADS
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>
#endif

namespace p2l::render {

#if P2L_HAS_THREADS

// A frame is one generation: the caller publishes the job and bumps the generation, workers
// wake, take indices from [next] until none are left and count themselves out; the caller
// takes indices too and then waits until every worker has counted out.
struct BandPool::Shared {
  std::mutex mutex;
  std::condition_variable wake, finished;
  std::uint64_t generation = 0;
  unsigned working = 0;  // workers still inside this generation
  bool stop = false;
  void (*job)(void*, std::size_t) = nullptr;
  void* context = nullptr;
  std::size_t count = 0;
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> workers;

  void take() {
    for (std::size_t i = next.fetch_add(1, std::memory_order_relaxed); i < count;
         i = next.fetch_add(1, std::memory_order_relaxed))
      job(context, i);
  }

  void work() {
    std::uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex);
        wake.wait(lock, [&] { return stop || generation != seen; });
        if (stop) return;
        seen = generation;
      }
      take();
      std::lock_guard<std::mutex> lock(mutex);
      if (--working == 0) finished.notify_one();
    }
  }
};

bool platform_has_threads() { return true; }
unsigned processor_cores() { return std::max(1u, std::thread::hardware_concurrency()); }

BandPool::BandPool(unsigned threads) : threads_(std::max(1u, threads)) {
  if (threads_ == 1) return;
  shared_ = std::make_unique<Shared>();
  shared_->workers.reserve(threads_ - 1);
  try {
    for (unsigned t = 1; t < threads_; ++t) shared_->workers.emplace_back([s = shared_.get()] { s->work(); });
  } catch (...) {  // no more threads to be had: draw with the ones started
    threads_ = static_cast<unsigned>(shared_->workers.size()) + 1;
  }
}

BandPool::~BandPool() {
  if (!shared_) return;
  {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    shared_->stop = true;
  }
  shared_->wake.notify_all();
  for (std::thread& t : shared_->workers) t.join();
}

void BandPool::run(std::size_t count, void (*job)(void*, std::size_t), void* context) {
  if (!shared_ || shared_->workers.empty() || count < 2) {
    for (std::size_t i = 0; i < count; ++i) job(context, i);
    return;
  }
  Shared& s = *shared_;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.job = job;
    s.context = context;
    s.count = count;
    s.next.store(0, std::memory_order_relaxed);
    s.working = static_cast<unsigned>(s.workers.size());
    ++s.generation;
  }
  s.wake.notify_all();
  s.take();
  std::unique_lock<std::mutex> lock(s.mutex);
  s.finished.wait(lock, [&] { return s.working == 0; });
}

#else

struct BandPool::Shared {};

bool platform_has_threads() { return false; }
unsigned processor_cores() { return 1; }

BandPool::BandPool(unsigned) {}
BandPool::~BandPool() = default;

void BandPool::run(std::size_t count, void (*job)(void*, std::size_t), void* context) {
  for (std::size_t i = 0; i < count; ++i) job(context, i);
}

#endif

}  // namespace p2l::render
