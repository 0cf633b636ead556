#include "video/encoder_video.hpp"

#include <algorithm>

namespace p2l::video {
namespace {

struct Choice {
  const char* encoder;
  const char* label;
};

Choice choose(OutputKind kind) {
  switch (kind) {
    case OutputKind::Mp4: return {"libx264", "H.264"};
    case OutputKind::WebM: return {"libvpx-vp9", "VP9"};
    default: return {"gif", "GIF"};
  }
}

}  // namespace

VideoEncoder::VideoEncoder(OutputKind kind, const VideoSettings& settings, bool global_header, const std::string& path,
                           std::string& error)
    : frame_(av_frame_alloc()), packet_(av_packet_alloc()) {
  const Choice choice = choose(kind);
  name_ = std::string("the ") + choice.label + " video of " + path;
  const AVCodec* encoder = avcodec_find_encoder_by_name(choice.encoder);
  if (!encoder) {
    error = "cannot write " + path + ": this FFmpeg has no " + choice.encoder + " encoder";
    return;
  }
  codec_.reset(avcodec_alloc_context3(encoder));
  if (!codec_ || !frame_ || !packet_) {
    error = "cannot write " + path + ": out of memory";
    return;
  }
  const int width = static_cast<int>(settings.width), height = static_cast<int>(settings.height);
  const bool yuv = kind != OutputKind::Gif;
  if (yuv && (width % 2 || height % 2)) {
    error = "cannot write " + path + ": " + choice.label + " in 4:2:0 needs even sides, not " + std::to_string(width) + "x" +
            std::to_string(height);
    return;
  }
  const AVRational rate = av_d2q(settings.fps, 100000);
  AVCodecContext* c = codec_.get();
  c->width = width;
  c->height = height;
  c->time_base = av_inv_q(rate);
  c->framerate = rate;
  c->sample_aspect_ratio = {1, 1};
  c->thread_count = 0;  // the encoder's own choice: every core
  if (global_header) c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  AVDictionary* raw = nullptr;
  if (kind == OutputKind::Mp4) {
    c->pix_fmt = AV_PIX_FMT_YUV420P;
    c->gop_size = static_cast<int>(std::max(1.0, settings.fps * 2));  // a keyframe every 2 s: seeking
    av_dict_set(&raw, "crf", "18", 0);
    av_dict_set(&raw, "preset", "faster", 0);
  } else if (kind == OutputKind::WebM) {
    c->pix_fmt = settings.alpha ? AV_PIX_FMT_YUVA420P : AV_PIX_FMT_YUV420P;
    c->gop_size = static_cast<int>(std::max(1.0, settings.fps * 2));
    c->bit_rate = 0;  // constant quality
    av_dict_set(&raw, "crf", "30", 0);
    av_dict_set(&raw, "deadline", "good", 0);
    av_dict_set(&raw, "cpu-used", "4", 0);
    av_dict_set(&raw, "row-mt", "1", 0);
  } else {
    c->pix_fmt = AV_PIX_FMT_PAL8;
  }
  if (yuv) ColorConvert::tag(c);
  const int err = avcodec_open2(c, encoder, &raw);
  av_dict_free(&raw);
  if (err < 0) {
    error = av_message("cannot open the " + std::string(choice.encoder) + " encoder for " + path, err);
    return;
  }
  if (yuv) {
    frame_->format = c->pix_fmt;
    frame_->width = width;
    frame_->height = height;
    const int got = av_frame_get_buffer(frame_.get(), 0);
    if (got < 0) {
      error = av_message("cannot make a frame for " + path, got);
      return;
    }
    convert_.emplace(width, height, c->pix_fmt, error);
    if (!convert_->ok()) {
      error = "cannot write " + path + ": " + error;
      return;
    }
  } else {
    palette_.emplace(width, height, c->time_base, settings.alpha, error);
    if (!palette_->ok()) {
      error = "cannot write " + path + ": " + error;
      return;
    }
  }
  ok_ = true;
}

bool VideoEncoder::encode(const std::uint8_t* rgba, std::int64_t index, PacketSink& sink, int stream, std::string& error) {
  if (palette_) return palette_->push(rgba, index, error) && send_palettes(sink, stream, error);
  const int err = av_frame_make_writable(frame_.get());  // allocates only while the encoder holds the last one
  if (err < 0) {
    error = av_message("cannot make a frame for " + name_, err);
    return false;
  }
  convert_->convert(rgba, frame_.get());
  frame_->pts = index;
  return encode_and_write(codec_.get(), frame_.get(), packet_.get(), sink, stream, name_, error);
}

bool VideoEncoder::send_palettes(PacketSink& sink, int stream, std::string& error) {
  for (;;) {
    av_frame_unref(frame_.get());
    const int got = palette_->pull(frame_.get(), error);
    if (got < 0) return false;
    if (got == 0) return true;
    if (!encode_and_write(codec_.get(), frame_.get(), packet_.get(), sink, stream, name_, error)) return false;
  }
}

bool VideoEncoder::flush(PacketSink& sink, int stream, std::string& error) {
  if (palette_ && !(palette_->end(error) && send_palettes(sink, stream, error))) return false;
  return encode_and_write(codec_.get(), nullptr, packet_.get(), sink, stream, name_, error);
}

std::string VideoEncoder::describe() const {
  return std::string(codec_->codec->name) + " " + av_get_pix_fmt_name(codec_->pix_fmt) + " " + std::to_string(codec_->width) + "x" +
         std::to_string(codec_->height);
}

}  // namespace p2l::video
