// VideoWriter over libav*: the muxer, the picture encoder and (MP4, WebM) the sound encoder,
// made in that order and torn down in reverse by their owners; the sound follows the pictures
// (after frame k, the audio up to (k + 1) / fps is encoded).
#include "video/video_writer.hpp"

#include <optional>

#include "video/encoder_audio.hpp"
#include "video/encoder_video.hpp"
#include "video/muxer.hpp"

namespace p2l::video {
namespace {

const char* container(OutputKind kind) {
  switch (kind) {
    case OutputKind::Mp4: return "mp4";
    case OutputKind::WebM: return "webm";
    default: return "gif";
  }
}

class AvWriter final : public VideoWriter {
 public:
  AvWriter(const std::string& path, OutputKind kind, const VideoSettings& settings) : muxer_(path, container(kind)), fps_(settings.fps) {}

  bool open(const std::string& path, OutputKind kind, const VideoSettings& settings, std::string& error) {
    if (!muxer_.error().empty()) {
      error = muxer_.error();
      return false;
    }
    video_.emplace(kind, settings, muxer_.global_header(), path, error);
    if (!video_->ok() || (video_stream_ = muxer_.add_stream(video_->codec(), error)) < 0) return false;
    if (settings.audio && kind != OutputKind::Gif) {
      audio_.emplace(kind, *settings.audio, muxer_.global_header(), path, error);
      if (!audio_->ok() || (audio_stream_ = muxer_.add_stream(audio_->codec(), error)) < 0) return false;
    }
    return muxer_.start(error);
  }

  bool write_frame(const std::uint8_t* rgba, std::string& error) override {
    if (!video_->encode(rgba, frames_, muxer_, video_stream_, error)) return false;
    ++frames_;
    return !audio_ || audio_->encode_until(static_cast<double>(frames_) / fps_, muxer_, audio_stream_, error);
  }

  bool finish(std::string& error) override {
    return video_->flush(muxer_, video_stream_, error) && (!audio_ || audio_->finish(muxer_, audio_stream_, error)) &&
           muxer_.finish(error);
  }

  std::string describe() const override { return video_->describe() + (audio_ ? ", " + audio_->describe() : ""); }

 private:
  // Declared first, destroyed last: the encoders go before the file they wrote into.
  Muxer muxer_;
  std::optional<VideoEncoder> video_;
  std::optional<AudioEncoder> audio_;
  int video_stream_ = -1, audio_stream_ = -1;
  std::int64_t frames_ = 0;
  double fps_;
};

}  // namespace

bool video_supported() { return true; }

std::unique_ptr<VideoWriter> VideoWriter::open(const std::string& path, OutputKind kind, const VideoSettings& settings, std::string& error) {
  if (!is_video(kind)) {
    error = "cannot write " + path + " as a video: its name does not end in .mp4, .webm or .gif";
    return nullptr;
  }
  if (settings.audio && (settings.audio->channels == 0 || settings.audio->sample_rate == 0)) {
    error = "cannot write " + path + ": the audio has no channels or no sample rate";
    return nullptr;
  }
  av_log_set_level(AV_LOG_ERROR);  // the encoders' chatter stays off the progress bar; errors still show
  auto writer = std::make_unique<AvWriter>(path, kind, settings);
  if (!writer->open(path, kind, settings, error)) return nullptr;
  return writer;
}

}  // namespace p2l::video
