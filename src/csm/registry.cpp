#include "csm/registry.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>

#include "base/mutex.hpp"
#include <vector>

namespace p2l::csm {
namespace {

struct Entry {
  std::uintptr_t begin = 0, end = 0;
  std::shared_ptr<const MocData> moc;  // a moc, or
  std::unique_ptr<ModelState> model;   // a model
};

struct Registry {
  p2l::Mutex mutex;
  std::vector<Entry> entries;
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: hosts may call in from static destructors
  return *r;
}

// Drops every entry overlapping [begin, end) (under the lock). Their memory was freed by the
// caller; a model's own state is deleted after the lock is released by the caller's vector.
void drop_overlapping(std::vector<Entry>& entries, std::uintptr_t begin, std::uintptr_t end, std::vector<Entry>& dropped) {
  auto overlaps = [&](const Entry& e) { return e.begin < end && begin < e.end; };
  for (auto& e : entries)
    if (overlaps(e)) dropped.push_back(std::move(e));
  entries.erase(std::remove_if(entries.begin(), entries.end(), [](const Entry& e) { return !e.moc && !e.model; }),
                entries.end());
}

std::uintptr_t address_of(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

}  // namespace

void register_moc(const void* address, std::size_t size, std::shared_ptr<const MocData> moc) {
  std::vector<Entry> dropped;
  Registry& r = registry();
  std::lock_guard<p2l::Mutex> lock(r.mutex);
  const std::uintptr_t begin = address_of(address), end = begin + std::max<std::size_t>(size, 1);
  drop_overlapping(r.entries, begin, end, dropped);
  Entry e;
  e.begin = begin;
  e.end = end;
  e.moc = std::move(moc);
  r.entries.push_back(std::move(e));
}

std::shared_ptr<const MocData> find_moc(const void* address) {
  Registry& r = registry();
  std::lock_guard<p2l::Mutex> lock(r.mutex);
  for (const Entry& e : r.entries)
    if (e.moc && e.begin == address_of(address)) return e.moc;
  return nullptr;
}

ModelState* register_model(void* address, std::size_t size, std::unique_ptr<ModelState> model) {
  std::vector<Entry> dropped;
  Registry& r = registry();
  std::lock_guard<p2l::Mutex> lock(r.mutex);
  const std::uintptr_t begin = address_of(address), end = begin + std::max<std::size_t>(size, 1);
  drop_overlapping(r.entries, begin, end, dropped);
  ModelState* state = model.get();
  const ModelHeader header{kModelMagic, state, kModelMagic ^ static_cast<std::uint64_t>(address_of(state))};
  std::memcpy(address, &header, sizeof header);
  Entry e;
  e.begin = begin;
  e.end = end;
  e.model = std::move(model);
  r.entries.push_back(std::move(e));
  return state;
}

bool release_moc(const void* address) {
  std::vector<Entry> dropped;
  Registry& r = registry();
  std::lock_guard<p2l::Mutex> lock(r.mutex);
  for (auto& e : r.entries)
    if (e.moc && e.begin == address_of(address)) dropped.push_back(std::move(e));
  std::erase_if(r.entries, [](const Entry& e) { return !e.moc && !e.model; });
  return !dropped.empty();
}

bool release_model(const void* address) {
  std::vector<Entry> dropped;
  Registry& r = registry();
  std::lock_guard<p2l::Mutex> lock(r.mutex);
  for (auto& e : r.entries)
    if (e.model && e.begin == address_of(address)) dropped.push_back(std::move(e));
  std::erase_if(r.entries, [](const Entry& e) { return !e.moc && !e.model; });
  if (!dropped.empty()) std::memset(const_cast<void*>(address), 0, sizeof(ModelHeader));
  return !dropped.empty();
}

}  // namespace p2l::csm
