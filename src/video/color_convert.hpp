// Straight RGBA8 frames into the encoders' pixel formats (libswscale): YUV 4:2:0 by BT.709 in
// limited range, as the streams are tagged (an untagged HD stream is read as BT.709 by players
// anyway), with the alpha plane copied for yuva420p. Bicubic chroma filtering, accurate
// rounding: the chroma of a character's thin lines is what 4:2:0 loses first.
#pragma once

#include <cstdint>
#include <string>

#include "video/av_util.hpp"

namespace p2l::video {

class ColorConvert {
 public:
  // Check ok(); [error] names the file when the conversion cannot be made.
  ColorConvert(int width, int height, AVPixelFormat to, std::string& error);
  bool ok() const { return context_ != nullptr; }
  // [rgba] (width x height, straight) into [frame] (allocated in [to], writable).
  void convert(const std::uint8_t* rgba, AVFrame* frame) const;
  // The tags the encoder must carry to match the conversion.
  static void tag(AVCodecContext* codec);

 private:
  int width_, height_;
  SwsPtr context_;
};

}  // namespace p2l::video
