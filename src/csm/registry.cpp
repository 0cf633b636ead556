#include "csm/registry.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

#include "base/mutex.hpp"

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

std::uintptr_t address_of(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

// Adds [e] for the buffer [address, address + size), after taking out every entry that overlaps
// it (their memory was freed by the caller). What is taken out is destroyed in [dropped], which
// the caller declares before the lock so that it is destroyed after the lock is released.
void add(Registry& r, const void* address, std::size_t size, Entry e, std::vector<Entry>& dropped) {
  e.begin = address_of(address);
  e.end = e.begin + std::max<std::size_t>(size, 1);
  for (auto& old : r.entries)
    if (old.begin < e.end && e.begin < old.end) dropped.push_back(std::move(old));
  std::erase_if(r.entries, [](const Entry& x) { return !x.moc && !x.model; });
  r.entries.push_back(std::move(e));
}

// Takes out the moc (or the model) made at [address]; whether there was one.
bool remove(Registry& r, const void* address, bool model, std::vector<Entry>& dropped) {
  for (auto& e : r.entries)
    if ((model ? e.model != nullptr : e.moc != nullptr) && e.begin == address_of(address)) dropped.push_back(std::move(e));
  std::erase_if(r.entries, [](const Entry& x) { return !x.moc && !x.model; });
  return !dropped.empty();
}

}  // namespace

void register_moc(const void* address, std::size_t size, std::shared_ptr<const MocData> moc) {
  std::vector<Entry> dropped;
  Registry& r = registry();
  std::lock_guard<p2l::Mutex> lock(r.mutex);
  Entry e;
  e.moc = std::move(moc);
  add(r, address, size, std::move(e), dropped);
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
  ModelState* state = model.get();
  const ModelHeader header{kModelMagic, state, kModelMagic ^ static_cast<std::uint64_t>(address_of(state))};
  std::memcpy(address, &header, sizeof header);
  Entry e;
  e.model = std::move(model);
  add(r, address, size, std::move(e), dropped);
  return state;
}

bool release_moc(const void* address) {
  std::vector<Entry> dropped;
  Registry& r = registry();
  std::lock_guard<p2l::Mutex> lock(r.mutex);
  return remove(r, address, false, dropped);
}

bool release_model(const void* address) {
  std::vector<Entry> dropped;
  Registry& r = registry();
  std::lock_guard<p2l::Mutex> lock(r.mutex);
  if (!remove(r, address, true, dropped)) return false;
  std::memset(const_cast<void*>(address), 0, sizeof(ModelHeader));
  return true;
}

}  // namespace p2l::csm
