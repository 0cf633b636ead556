// Video files out of straight RGBA frames: `p2lrt render -o out.mp4|out.webm|out.gif`. The
// kind of file follows the output's name (output_kind); the writer takes frames one at a
// time, in order, and the whole audio track at the start (it is muxed in as the frames
// reach it, so packets stay interleaved), and writes into a temporary file beside the
// output that becomes the output only when finish() succeeds: a failure at any step leaves
// no partial file (docs/VIDEO.md).
//
//   MP4:  H.264 (libx264, CRF 18, preset "faster"), yuv420p; AAC audio.
//   WebM: VP9 (libvpx-vp9, CRF 30, row threads), yuva420p with an alpha channel when the
//         frames are transparent, else yuv420p; Opus audio.
//   GIF:  a palette per frame (libavfilter's palettegen and paletteuse), transparency kept
//         as one palette entry where alpha is below half; no audio.
// 4:2:0 needs even sides: the writer refuses odd ones (the caller draws at even sizes).
// Built without FFmpeg, video_supported() is false and open() says so.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace p2l::video {

enum class OutputKind { Png, PngSequence, Mp4, WebM, Gif, Unknown };

// By the name: ".png" one image, ".mp4", ".webm", ".gif" (any case); an existing folder, a name
// ending in '/' or a name without an extension: a folder of PNG frames; any other extension:
// Unknown.
OutputKind output_kind(const std::string& path);
const char* kind_name(OutputKind kind);  // "MP4 (H.264)", ...
bool is_video(OutputKind kind);          // Mp4, WebM, Gif
bool video_supported();                  // false: built without FFmpeg

// Interleaved float samples (any rate, 1..32 channels), as p2l::decode_audio_file gives them.
struct AudioTrack {
  std::uint32_t sample_rate = 0, channels = 0;
  std::span<const float> samples;
};

struct VideoSettings {
  std::uint32_t width = 0, height = 0;  // even for MP4 and WebM
  double fps = 30;                      // frames per second (a rational close to it is used)
  bool alpha = false;                   // keep the frames' alpha (WebM: yuva420p; GIF: a transparent entry)
  const AudioTrack* audio = nullptr;    // muxed in (MP4, WebM); ignored for GIF; must outlive the writer
};

class VideoWriter {
 public:
  // A writer for [path] of [kind], or null with [error] naming the file and the step.
  static std::unique_ptr<VideoWriter> open(const std::string& path, OutputKind kind, const VideoSettings& settings,
                                           std::string& error);
  virtual ~VideoWriter() = default;
  // The next frame: width x height straight RGBA8, rows top first. False with [error] set.
  virtual bool write_frame(const std::uint8_t* rgba, std::string& error) = 0;
  // Flushes the encoders, writes the rest of the audio and the trailer, and moves the file into
  // place. Without a successful finish() the destructor removes what was written.
  virtual bool finish(std::string& error) = 0;
  // What the file holds, for the summary: "H.264 yuv420p 1280x720, AAC 48000 Hz mono".
  virtual std::string describe() const = 0;
};

}  // namespace p2l::video
