// The container: MP4, WebM or GIF written into a temporary file next to the output (same
// folder, so the final rename cannot cross file systems), renamed over the output only by
// finish(); dropped unfinished (an error anywhere), the temporary file is removed.
#pragma once

#include <string>

#include "video/av_util.hpp"

namespace p2l::video {

class Muxer final : public PacketSink {
 public:
  // [format]: libavformat's short name ("mp4", "webm", "gif"). Check error() afterwards.
  Muxer(const std::string& path, const char* format);
  ~Muxer() override;
  Muxer(const Muxer&) = delete;
  Muxer& operator=(const Muxer&) = delete;

  const std::string& error() const { return error_; }
  // Whether encoders must put their headers in extradata (MP4, WebM).
  bool global_header() const;
  // A stream for an opened encoder; its index, or -1 with [error].
  int add_stream(const AVCodecContext* codec, std::string& error);
  // Creates the temporary file and writes the header (after every add_stream).
  bool start(std::string& error);
  bool write(AVPacket* packet, const AVCodecContext* codec, int stream, std::string& error) override;
  // The trailer, then the temporary file becomes [path].
  bool finish(std::string& error);

 private:
  std::string path_, temp_, error_;
  AVFormatContext* context_ = nullptr;
  bool opened_ = false, finished_ = false;
};

}  // namespace p2l::video
