// The output's kind from its name, the same in builds with and without FFmpeg, so that a build
// without it can still say "built without FFmpeg" for a video name and nothing else.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "video/video_writer.hpp"

namespace p2l::video {

OutputKind output_kind(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (path.empty()) return OutputKind::Unknown;
  if (path.back() == '/' || fs::is_directory(path, ec)) return OutputKind::PngSequence;
  std::string ext = fs::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext.empty()) return OutputKind::PngSequence;
  if (ext == ".png") return OutputKind::Png;
  if (ext == ".mp4") return OutputKind::Mp4;
  if (ext == ".webm") return OutputKind::WebM;
  if (ext == ".gif") return OutputKind::Gif;
  return OutputKind::Unknown;
}

const char* kind_name(OutputKind kind) {
  switch (kind) {
    case OutputKind::Png: return "PNG image";
    case OutputKind::PngSequence: return "folder of PNG frames";
    case OutputKind::Mp4: return "MP4 (H.264, AAC)";
    case OutputKind::WebM: return "WebM (VP9, Opus)";
    case OutputKind::Gif: return "GIF";
    case OutputKind::Unknown: break;
  }
  return "unknown";
}

bool is_video(OutputKind kind) { return kind == OutputKind::Mp4 || kind == OutputKind::WebM || kind == OutputKind::Gif; }

}  // namespace p2l::video
