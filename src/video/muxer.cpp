#include "video/muxer.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>

namespace p2l::video {

namespace fs = std::filesystem;

Muxer::Muxer(const std::string& path, const char* format) : path_(path) {
  const fs::path p(path);
  // Hidden, and named after the process, so that two renders into one folder do not meet.
  temp_ = (p.parent_path() / ("." + p.filename().string() + ".p2lrt-" + std::to_string(getpid()) + ".part")).string();
  const int err = avformat_alloc_output_context2(&context_, nullptr, format, temp_.c_str());
  if (err < 0 || !context_) error_ = av_message("cannot make a " + std::string(format) + " container for " + path_, err);
}

Muxer::~Muxer() {
  if (context_) {
    if (opened_) avio_closep(&context_->pb);
    avformat_free_context(context_);
  }
  if (opened_ && !finished_) std::remove(temp_.c_str());
}

bool Muxer::global_header() const { return context_ && (context_->oformat->flags & AVFMT_GLOBALHEADER); }

int Muxer::add_stream(const AVCodecContext* codec, std::string& error) {
  AVStream* stream = avformat_new_stream(context_, nullptr);
  if (!stream) {
    error = "cannot add a stream to " + path_ + ": out of memory";
    return -1;
  }
  const int err = avcodec_parameters_from_context(stream->codecpar, codec);
  if (err < 0) {
    error = av_message("cannot describe a stream of " + path_, err);
    return -1;
  }
  stream->time_base = codec->time_base;
  if (codec->codec_type == AVMEDIA_TYPE_VIDEO) stream->avg_frame_rate = codec->framerate;
  return stream->index;
}

bool Muxer::start(std::string& error) {
  int err = avio_open(&context_->pb, temp_.c_str(), AVIO_FLAG_WRITE);
  if (err < 0) {
    error = av_message("cannot write " + path_ + " (its temporary file " + temp_ + ")", err);
    return false;
  }
  opened_ = true;
  // MP4: the index goes before the media (moved there when the file is finished), so that a
  // player or a browser starts playing before it has the whole file.
  AVDictionary* options = nullptr;
  if (std::strcmp(context_->oformat->name, "mp4") == 0) av_dict_set(&options, "movflags", "+faststart", 0);
  err = avformat_write_header(context_, &options);
  av_dict_free(&options);
  if (err < 0) {
    error = av_message("cannot write the header of " + path_, err);
    return false;
  }
  return true;
}

bool Muxer::write(AVPacket* packet, const AVCodecContext* codec, int stream, std::string& error) {
  av_packet_rescale_ts(packet, codec->time_base, context_->streams[stream]->time_base);
  packet->stream_index = stream;
  const int err = av_interleaved_write_frame(context_, packet);
  if (err < 0) {
    error = av_message("cannot write into " + path_, err);
    return false;
  }
  return true;
}

bool Muxer::finish(std::string& error) {
  int err = av_write_trailer(context_);
  if (err < 0) {
    error = av_message("cannot finish " + path_, err);
    return false;
  }
  err = avio_closep(&context_->pb);
  opened_ = false;
  if (err < 0) {
    std::remove(temp_.c_str());
    error = av_message("cannot finish " + path_, err);
    return false;
  }
  std::error_code ec;
  fs::rename(temp_, path_, ec);
  if (ec) {
    std::remove(temp_.c_str());
    error = "cannot move " + temp_ + " to " + path_ + ": " + ec.message();
    return false;
  }
  finished_ = true;
  return true;
}

}  // namespace p2l::video
