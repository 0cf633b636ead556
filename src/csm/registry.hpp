// Where the Cubism Core API keeps what it made. The official API hands out handles placed in
// memory the caller owns and never says when that memory is freed; p2lrt's mocs and models
// live on its own heap instead, each registered with the caller's buffer it was made in.
//
// A buffer the caller hands in again, or any new buffer overlapping a registered one, means the
// old one was freed (an allocator cannot hand out memory still in use): what was made in it is
// released then. So a host that creates and frees models over and over, as the Frameworks do,
// reuses the memory instead of piling it up; p2lcsm_release_* (p2l/csm_release.h) release at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "csm/model_state.hpp"
#include "csm/moc_data.hpp"

namespace p2l::csm {

// Registers [moc] as made in [address, address + size), releasing what overlapped it.
void register_moc(const void* address, std::size_t size, std::shared_ptr<const MocData> moc);
// The moc made at [address], or null.
std::shared_ptr<const MocData> find_moc(const void* address);
// Registers a model made in [address, address + size) (releasing what overlapped it) and writes
// the buffer's header; the registry owns it until released.
ModelState* register_model(void* address, std::size_t size, std::unique_ptr<ModelState> model);
bool release_moc(const void* address);
bool release_model(const void* address);

}  // namespace p2l::csm
