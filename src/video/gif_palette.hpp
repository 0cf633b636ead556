// GIF frames need a palette of at most 256 colours: libavfilter's palettegen measures each
// frame and paletteuse maps it onto its own palette (a local colour table per frame, dithered
// with Sierra-2-4A), which keeps a character's gradients better than one palette for the whole
// clip would and needs no second pass. With alpha, one entry is reserved for transparency and
// pixels below half alpha take it (GIF has no partial transparency).
#pragma once

#include <cstdint>
#include <string>

#include "video/av_util.hpp"

namespace p2l::video {

class GifPalette {
 public:
  // Check ok(); [error] says why the filter graph could not be made.
  GifPalette(int width, int height, AVRational time_base, bool alpha, std::string& error);
  bool ok() const { return sink_ != nullptr; }
  // A straight RGBA frame in; false with [error].
  bool push(const std::uint8_t* rgba, std::int64_t pts, std::string& error);
  // No more frames.
  bool end(std::string& error);
  // The next palette frame into [out]: 1 a frame, 0 none yet, -1 an error.
  int pull(AVFrame* out, std::string& error);

 private:
  int width_, height_;
  GraphPtr graph_;
  AVFilterContext* source_ = nullptr;
  AVFilterContext* sink_ = nullptr;
  FramePtr input_;
};

}  // namespace p2l::video
