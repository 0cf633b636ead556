// The writer in a build without FFmpeg's libraries (CMake found no libavcodec & co.): every
// video output is refused with the reason, the PNG outputs work as before.
#include "video/video_writer.hpp"

namespace p2l::video {

bool video_supported() { return false; }

std::unique_ptr<VideoWriter> VideoWriter::open(const std::string& path, OutputKind kind, const VideoSettings&, std::string& error) {
  error = "cannot write " + path + " (" + kind_name(kind) +
          "): this p2lrt was built without FFmpeg; install libavcodec-dev libavformat-dev libavfilter-dev "
          "libswscale-dev libswresample-dev and build again, or write PNG frames into a folder";
  return nullptr;
}

}  // namespace p2l::video
