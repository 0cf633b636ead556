#include "audio/decode/decode_vorbis.hpp"

// Its header's static callback tables are unused here.
#define OV_EXCLUDE_STATIC_CALLBACKS
#include <vorbis/vorbisfile.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <new>

#include "audio/decode/decode_checks.hpp"

namespace p2l::audio {
namespace {

struct Memory {
  std::span<const std::uint8_t> bytes;
  std::size_t at = 0;
};

std::size_t memory_read(void* out, std::size_t size, std::size_t count, void* user) {
  auto* m = static_cast<Memory*>(user);
  if (size == 0) return 0;
  const std::size_t n = std::min(count, (m->bytes.size() - m->at) / size);
  if (n > 0) std::memcpy(out, m->bytes.data() + m->at, n * size);
  m->at += n * size;
  return n;
}
int memory_seek(void* user, ogg_int64_t offset, int whence) {
  auto* m = static_cast<Memory*>(user);
  const ogg_int64_t size = static_cast<ogg_int64_t>(m->bytes.size());
  ogg_int64_t to = offset;
  if (whence == SEEK_CUR) to = static_cast<ogg_int64_t>(m->at) + offset;
  else if (whence == SEEK_END) to = size + offset;
  if (to < 0 || to > size) return -1;
  m->at = static_cast<std::size_t>(to);
  return 0;
}
long memory_tell(void* user) { return static_cast<long>(static_cast<Memory*>(user)->at); }

std::string open_error(const std::string& name, int code) {
  if (code == OV_ENOTVORBIS) return name + ": an Ogg file without Vorbis audio (Opus, FLAC in Ogg) is not supported (OGG/Vorbis)";
  if (code == OV_EVERSION) return name + ": a Vorbis version this decoder does not read";
  return name + ": a damaged OGG/Vorbis file (its headers do not read)";
}

AudioFile decode(OggVorbis_File& vf, const std::string& name, double max_seconds) {
  const vorbis_info* info = ov_info(&vf, -1);
  if (info == nullptr) return audio_error(name + ": a damaged OGG/Vorbis file (no stream information)");
  if (std::string shape = check_shape(name, info->channels, info->rate); !shape.empty()) return audio_error(shape);
  const std::size_t channels = static_cast<std::size_t>(info->channels);
  const double limit_frames = max_seconds * static_cast<double>(info->rate);
  AudioFile out;
  const ogg_int64_t total = ov_pcm_total(&vf, -1);
  if (total > 0 && static_cast<double>(total) > limit_frames)
    return audio_error(too_long(name, static_cast<double>(total) / static_cast<double>(info->rate), max_seconds));
  int section = 0;
  for (;;) {
    float** pcm = nullptr;
    const long got = ov_read_float(&vf, &pcm, 4096, &section);
    if (got == 0) break;
    if (got < 0) return audio_error(name + (got == OV_HOLE ? ": the OGG/Vorbis data is damaged or cut (a gap in the stream)" : ": the OGG/Vorbis data is damaged"));
    // A chained stream whose later links change the format is not one sound.
    const vorbis_info* now = ov_info(&vf, section);
    if (now == nullptr || now->channels != info->channels || now->rate != info->rate)
      return audio_error(name + ": an Ogg stream whose links change rate or channels is not supported");
    if (static_cast<double>(out.samples.size() / channels + static_cast<std::size_t>(got)) > limit_frames)
      return audio_error(too_long(name, static_cast<double>(out.samples.size() / channels + static_cast<std::size_t>(got)) / static_cast<double>(info->rate), max_seconds));
    const std::size_t at = out.samples.size();
    out.samples.resize(at + static_cast<std::size_t>(got) * channels);
    for (long i = 0; i < got; ++i)
      for (std::size_t c = 0; c < channels; ++c) {
        const float s = pcm[c][i];
        out.samples[at + static_cast<std::size_t>(i) * channels + c] = s == s && s < 3.4e38f && s > -3.4e38f ? s : 0.0f;
      }
  }
  // A whole stream ends with a page marked end-of-stream; a file cut short has none.
  if (vf.os.e_o_s == 0) return audio_error(name + ": the file is truncated: its Ogg stream ends without its last page");
  out.sample_rate = static_cast<std::uint32_t>(info->rate);
  out.channels = static_cast<std::uint32_t>(channels);
  out.format = "OGG (OGG Container format), Vorbis";
  return out;
}

// Runs [decode] on an opened file and always clears it; out of memory becomes a message.
template <class Open>
AudioFile with_file(const std::string& name, double max_seconds, Open open) {
  OggVorbis_File vf;
  const int code = open(vf);
  if (code != 0) return audio_error(open_error(name, code));
  AudioFile out;
  try {
    out = decode(vf, name, max_seconds);
  } catch (const std::bad_alloc&) {
    out = audio_error(name + ": out of memory");
  }
  ov_clear(&vf);
  return out;
}

}  // namespace

bool is_ogg(std::span<const std::uint8_t> head) { return head.size() >= 4 && std::memcmp(head.data(), "OggS", 4) == 0; }

AudioFile decode_vorbis_file(const std::string& path, double max_seconds) {
  return with_file(path, max_seconds, [&](OggVorbis_File& vf) { return ov_fopen(path.c_str(), &vf); });
}

AudioFile decode_vorbis_memory(std::span<const std::uint8_t> bytes, double max_seconds) {
  Memory memory{bytes};
  return with_file("audio", max_seconds, [&](OggVorbis_File& vf) {
    const ov_callbacks callbacks{memory_read, memory_seek, nullptr, memory_tell};
    return ov_open_callbacks(&memory, &vf, nullptr, 0, callbacks);
  });
}

}  // namespace p2l::audio
