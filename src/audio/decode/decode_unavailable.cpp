// Built without libsndfile: every audio file is refused, saying why.
#include "p2l/audio.hpp"

namespace p2l {

bool audio_files_supported() { return false; }

AudioFile decode_audio_file(const std::string& path, double) {
  return audio_error(path + ": this build of p2lrt reads no audio files (built without libsndfile)");
}

AudioFile decode_audio_memory(std::span<const std::uint8_t>, double) {
  return audio_error("audio: this build of p2lrt reads no audio files (built without libsndfile)");
}

}  // namespace p2l
