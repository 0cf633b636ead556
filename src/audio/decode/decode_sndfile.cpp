// Audio files through libsndfile: WAV (and WAVEX, RF64) and FLAC with 8/16/24/32-bit integer or
// 32/64-bit float samples; OGG/Vorbis through libvorbisfile (decode_vorbis.hpp says why).
// Anything else is refused with its name; so are files whose data ends before their header
// says it does (libsndfile shortens such a file quietly).
#include <sndfile.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <new>

#include "audio/decode/decode_checks.hpp"
#include "audio/decode/decode_vorbis.hpp"
#include "p2l/audio.hpp"

namespace p2l {
namespace {

constexpr sf_count_t kBlockFrames = 4096;

// libsndfile's own name of a major format or subtype, e.g. "WAV (Microsoft)", "U-Law".
std::string format_name(int format) {
  SF_FORMAT_INFO info{};
  info.format = format;
  if (sf_command(nullptr, SFC_GET_FORMAT_INFO, &info, sizeof info) != 0 || info.name == nullptr) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%X", static_cast<unsigned>(format));
    return std::string("format ") + hex;
  }
  return info.name;
}

bool container_supported(int major) {
  return major == SF_FORMAT_WAV || major == SF_FORMAT_WAVEX || major == SF_FORMAT_RF64 || major == SF_FORMAT_FLAC;
}

bool samples_supported(int subtype) {
  switch (subtype) {
    case SF_FORMAT_PCM_S8:
    case SF_FORMAT_PCM_U8:
    case SF_FORMAT_PCM_16:
    case SF_FORMAT_PCM_24:
    case SF_FORMAT_PCM_32:
    case SF_FORMAT_FLOAT:
    case SF_FORMAT_DOUBLE: return true;
    default: return false;
  }
}

// libsndfile shortens a WAV whose data chunk runs past the end of the file, and says so in the
// log it keeps while opening: "data : 181742 (should be 19956)".
bool log_says_truncated(SNDFILE* file) {
  char log[8192] = {};
  sf_command(file, SFC_GET_LOG_INFO, log, sizeof log);
  for (const char* line = std::strstr(log, "data : "); line != nullptr; line = std::strstr(line + 1, "\ndata : ")) {
    const char* end = std::strchr(line + 1, '\n');
    const char* should = std::strstr(line, "(should be");
    if (should != nullptr && (end == nullptr || should < end)) return true;
  }
  return false;
}

AudioFile decode(SNDFILE* file, const SF_INFO& info, const std::string& name, double max_seconds) {
  AudioFile out;
  const int major = info.format & SF_FORMAT_TYPEMASK, subtype = info.format & SF_FORMAT_SUBMASK;
  const std::string kind = format_name(major) + ", " + format_name(subtype);
  if (!container_supported(major)) {
    out.error = name + ": " + kind + " files are not supported (WAV, FLAC or OGG/Vorbis)";
    return out;
  }
  if (!samples_supported(subtype)) {
    out.error = name + ": " + kind + " samples are not supported (8/16/24/32-bit integer, 32/64-bit float or Vorbis)";
    return out;
  }
  if (std::string shape = audio::check_shape(name, info.channels, info.samplerate); !shape.empty()) return audio_error(shape);
  if (info.frames < 0 || static_cast<double>(info.frames) > max_seconds * info.samplerate)
    return audio_error(audio::too_long(name, static_cast<double>(info.frames) / info.samplerate, max_seconds));
  if (log_says_truncated(file)) {
    out.error = name + ": the file is truncated: its data ends before its header says";
    return out;
  }
  try {
    out.samples.resize(static_cast<std::size_t>(info.frames) * static_cast<std::size_t>(info.channels));
  } catch (const std::bad_alloc&) {
    out.error = name + ": out of memory for " + std::to_string(info.frames) + " frames";
    return out;
  }
  sf_count_t done = 0;
  while (done < info.frames) {
    const sf_count_t want = std::min(kBlockFrames, info.frames - done);
    const sf_count_t got = sf_readf_float(file, out.samples.data() + done * info.channels, want);
    if (got <= 0) break;
    done += got;
  }
  if (done < info.frames) {
    const char* why = sf_strerror(file);
    out.samples.clear();
    out.error = name + ": the file is truncated or damaged: " + std::to_string(done) + " of " + std::to_string(info.frames) +
                " frames could be read" + (why && *why && std::strcmp(why, "No Error.") != 0 ? std::string(" (") + why + ")" : "");
    return out;
  }
  for (float& s : out.samples)
    if (!(s == s) || s > 3.4e38f || s < -3.4e38f) s = 0.0f;  // NaN and infinities: silence
  out.sample_rate = static_cast<std::uint32_t>(info.samplerate);
  out.channels = static_cast<std::uint32_t>(info.channels);
  out.format = kind;
  return out;
}

// libsndfile's reasons for refusing to open, said for a person.
std::string open_error(const std::string& name) {
  const char* why = sf_strerror(nullptr);
  std::string reason = why ? why : "unknown error";
  if (reason.find("unknown format") != std::string::npos || reason.find("Format not recognised") != std::string::npos)
    return name + ": not an audio file libsndfile knows (WAV, FLAC or OGG/Vorbis expected)";
  return name + ": cannot read it as audio: " + reason;
}

struct Memory {
  std::span<const std::uint8_t> bytes;
  sf_count_t at = 0;
};

sf_count_t memory_length(void* user) { return static_cast<sf_count_t>(static_cast<Memory*>(user)->bytes.size()); }
sf_count_t memory_seek(sf_count_t offset, int whence, void* user) {
  auto* m = static_cast<Memory*>(user);
  const sf_count_t size = static_cast<sf_count_t>(m->bytes.size());
  sf_count_t to = offset;
  if (whence == SEEK_CUR) to = m->at + offset;
  else if (whence == SEEK_END) to = size + offset;
  if (to < 0 || to > size) return -1;
  m->at = to;
  return m->at;
}
sf_count_t memory_read(void* out, sf_count_t count, void* user) {
  auto* m = static_cast<Memory*>(user);
  const sf_count_t size = static_cast<sf_count_t>(m->bytes.size());
  const sf_count_t n = std::max<sf_count_t>(0, std::min(count, size - m->at));
  if (n > 0) std::memcpy(out, m->bytes.data() + m->at, static_cast<std::size_t>(n));
  m->at += n;
  return n;
}
sf_count_t memory_write(const void*, sf_count_t, void*) { return 0; }
sf_count_t memory_tell(void* user) { return static_cast<Memory*>(user)->at; }

bool bad_limit(double max_seconds) { return !(max_seconds > 0.0) || max_seconds > 1e7; }

}  // namespace

bool audio_files_supported() { return true; }

AudioFile decode_audio_file(const std::string& path, double max_seconds) {
  if (bad_limit(max_seconds)) return audio_error(path + ": the length limit must be positive");
  std::uint8_t head[4] = {};
  if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
    const std::size_t n = std::fread(head, 1, sizeof head, f);
    std::fclose(f);
    if (audio::is_ogg({head, n})) return audio::decode_vorbis_file(path, max_seconds);
  }
  SF_INFO info{};
  SNDFILE* file = sf_open(path.c_str(), SFM_READ, &info);
  if (file == nullptr) return audio_error(open_error(path));
  AudioFile out = decode(file, info, path, max_seconds);
  sf_close(file);
  return out;
}

AudioFile decode_audio_memory(std::span<const std::uint8_t> bytes, double max_seconds) {
  if (bad_limit(max_seconds)) return audio_error("audio: the length limit must be positive");
  if (audio::is_ogg(bytes)) return audio::decode_vorbis_memory(bytes, max_seconds);
  Memory memory{bytes};
  SF_VIRTUAL_IO io{memory_length, memory_seek, memory_read, memory_write, memory_tell};
  SF_INFO info{};
  SNDFILE* file = sf_open_virtual(&io, SFM_READ, &info, &memory);
  if (file == nullptr) return audio_error(open_error("audio"));
  AudioFile out = decode(file, info, "audio", max_seconds);
  sf_close(file);
  return out;
}

}  // namespace p2l
