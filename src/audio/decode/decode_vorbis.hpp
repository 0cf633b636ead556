// OGG/Vorbis through the reference decoder, libvorbisfile. libsndfile reads Ogg too, but leaks
// the stream's Vorbis state when a damaged file fails to open (found by the audio fuzzer on
// Debian 12's libsndfile 1.2.0); vorbisfile releases everything in ov_clear on every path.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "p2l/audio.hpp"

namespace p2l::audio {

// Whether [head] (a file's first bytes) starts an Ogg stream.
bool is_ogg(std::span<const std::uint8_t> head);
AudioFile decode_vorbis_file(const std::string& path, double max_seconds);
AudioFile decode_vorbis_memory(std::span<const std::uint8_t> bytes, double max_seconds);

}  // namespace p2l::audio
