// The picture stream: a libavcodec encoder chosen by the output's kind, fed straight RGBA
// frames through ColorConvert (H.264, VP9) or GifPalette (GIF). One reusable frame: after the
// first, a frame costs no allocation here unless the encoder still holds the last one.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "video/av_util.hpp"
#include "video/color_convert.hpp"
#include "video/gif_palette.hpp"
#include "video/video_writer.hpp"

namespace p2l::video {

class VideoEncoder {
 public:
  // Check ok(); [error] names [path] and the step.
  VideoEncoder(OutputKind kind, const VideoSettings& settings, bool global_header, const std::string& path, std::string& error);
  bool ok() const { return ok_; }
  AVCodecContext* codec() const { return codec_.get(); }
  // Frame number [index] (its time: index / fps).
  bool encode(const std::uint8_t* rgba, std::int64_t index, PacketSink& sink, int stream, std::string& error);
  bool flush(PacketSink& sink, int stream, std::string& error);
  std::string describe() const;

 private:
  bool send_palettes(PacketSink& sink, int stream, std::string& error);

  std::string name_;  // "the H.264 video of out.mp4"
  CodecPtr codec_;
  FramePtr frame_;
  PacketPtr packet_;
  std::optional<ColorConvert> convert_;
  std::optional<GifPalette> palette_;
  bool ok_ = false;
};

}  // namespace p2l::video
