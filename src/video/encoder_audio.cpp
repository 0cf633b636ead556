#include "video/encoder_audio.hpp"

#include <algorithm>
#include <cmath>

namespace p2l::video {
namespace {

constexpr std::size_t kChunk = 4096;  // track frames resampled at a time: the buffers stay this size

int pick_rate(const AVCodec* encoder, int wanted) {
  if (!encoder->supported_samplerates) return wanted;
  for (const int* r = encoder->supported_samplerates; *r; ++r)
    if (*r == wanted) return wanted;
  return 48000;
}

AVSampleFormat pick_format(const AVCodec* encoder) {
  if (!encoder->sample_fmts) return AV_SAMPLE_FMT_FLTP;
  for (const AVSampleFormat* f = encoder->sample_fmts; *f != AV_SAMPLE_FMT_NONE; ++f)
    if (*f == AV_SAMPLE_FMT_FLTP || *f == AV_SAMPLE_FMT_FLT) return *f;
  return encoder->sample_fmts[0];
}

}  // namespace

AudioEncoder::AudioEncoder(OutputKind kind, const AudioTrack& track, bool global_header, const std::string& path, std::string& error)
    : track_(track), frame_(av_frame_alloc()), packet_(av_packet_alloc()) {
  const bool mp4 = kind == OutputKind::Mp4;
  const char* encoder_name = mp4 ? "aac" : "libopus";
  name_ = std::string("the ") + (mp4 ? "AAC" : "Opus") + " audio of " + path;
  const AVCodec* encoder = avcodec_find_encoder_by_name(encoder_name);
  if (!encoder) {
    error = "cannot write " + path + ": this FFmpeg has no " + encoder_name + " encoder";
    return;
  }
  codec_.reset(avcodec_alloc_context3(encoder));
  if (!codec_ || !frame_ || !packet_) {
    error = "cannot write " + path + ": out of memory";
    return;
  }
  const int in_channels = static_cast<int>(track.channels), out_channels = std::min(in_channels, 2);
  const int in_rate = static_cast<int>(track.sample_rate);
  AVCodecContext* c = codec_.get();
  c->sample_rate = mp4 ? pick_rate(encoder, in_rate) : 48000;
  c->sample_fmt = pick_format(encoder);
  av_channel_layout_default(&c->ch_layout, out_channels);
  c->bit_rate = 64000 * out_channels;
  c->time_base = {1, c->sample_rate};
  if (global_header) c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  int err = avcodec_open2(c, encoder, nullptr);
  if (err < 0) {
    error = av_message("cannot open the " + std::string(encoder_name) + " encoder for " + path, err);
    return;
  }
  AVChannelLayout in_layout;
  av_channel_layout_default(&in_layout, in_channels);
  SwrContext* swr = nullptr;
  err = swr_alloc_set_opts2(&swr, &c->ch_layout, c->sample_fmt, c->sample_rate, &in_layout, AV_SAMPLE_FMT_FLT, in_rate, 0, nullptr);
  av_channel_layout_uninit(&in_layout);
  resample_.reset(swr);
  if (err >= 0) err = swr_init(swr);
  if (err < 0) {
    error = av_message("cannot resample the audio for " + path, err);
    return;
  }
  const int frame_size = c->frame_size > 0 ? c->frame_size : 1024;
  fifo_.reset(av_audio_fifo_alloc(c->sample_fmt, out_channels, 4 * frame_size));
  frame_->format = c->sample_fmt;
  frame_->nb_samples = frame_size;
  frame_->sample_rate = c->sample_rate;
  err = av_channel_layout_copy(&frame_->ch_layout, &c->ch_layout);
  if (err >= 0) err = av_frame_get_buffer(frame_.get(), 0);
  const int capacity = swr_get_out_samples(swr, static_cast<int>(kChunk)) + 64;
  if (err >= 0) err = av_samples_alloc_array_and_samples(&converted_, nullptr, out_channels, capacity, c->sample_fmt, 0);
  if (err < 0 || !fifo_) {
    error = av_message("cannot make audio buffers for " + path, err < 0 ? err : AVERROR(ENOMEM));
    return;
  }
  converted_capacity_ = capacity;
  ok_ = true;
}

AudioEncoder::~AudioEncoder() {
  if (converted_) av_freep(&converted_[0]);
  av_freep(&converted_);
}

bool AudioEncoder::convert_more(std::size_t input_frames, std::string& error) {
  const std::uint8_t* in = input_frames ? reinterpret_cast<const std::uint8_t*>(track_.samples.data() + consumed_ * track_.channels) : nullptr;
  const int got = swr_convert(resample_.get(), converted_, converted_capacity_, in ? &in : nullptr, static_cast<int>(input_frames));
  if (got < 0) {
    error = av_message("cannot resample " + name_, got);
    return false;
  }
  consumed_ += input_frames;
  if (got > 0 && av_audio_fifo_write(fifo_.get(), reinterpret_cast<void**>(converted_), got) < got) {
    error = "cannot buffer " + name_ + ": out of memory";
    return false;
  }
  return true;
}

bool AudioEncoder::send(int samples, PacketSink& sink, int stream, std::string& error) {
  int err = av_frame_make_writable(frame_.get());
  if (err >= 0) {
    frame_->nb_samples = samples;
    err = av_audio_fifo_read(fifo_.get(), reinterpret_cast<void**>(frame_->data), samples);
  }
  if (err < 0) {
    error = av_message("cannot encode " + name_, err);
    return false;
  }
  frame_->pts = sent_;
  sent_ += samples;
  return encode_and_write(codec_.get(), frame_.get(), packet_.get(), sink, stream, name_, error);
}

bool AudioEncoder::encode_until(double seconds, PacketSink& sink, int stream, std::string& error) {
  const std::size_t total = track_.samples.size() / track_.channels;
  const double wanted = std::ceil(std::max(0.0, seconds) * track_.sample_rate);
  const std::size_t target = wanted >= static_cast<double>(total) ? total : static_cast<std::size_t>(wanted);
  const int frame_size = codec_->frame_size > 0 ? codec_->frame_size : 1024;
  while (consumed_ < target) {
    if (!convert_more(std::min(kChunk, target - consumed_), error)) return false;
    while (av_audio_fifo_size(fifo_.get()) >= frame_size)
      if (!send(frame_size, sink, stream, error)) return false;
  }
  return true;
}

bool AudioEncoder::finish(PacketSink& sink, int stream, std::string& error) {
  if (!encode_until(1e300, sink, stream, error)) return false;
  const int frame_size = codec_->frame_size > 0 ? codec_->frame_size : 1024;
  // The resampler's tail (its filter delay), then what is left: a shorter last frame.
  for (int before = -1; before != av_audio_fifo_size(fifo_.get());) {
    before = av_audio_fifo_size(fifo_.get());
    if (!convert_more(0, error)) return false;
  }
  while (av_audio_fifo_size(fifo_.get()) > 0)
    if (!send(std::min(frame_size, av_audio_fifo_size(fifo_.get())), sink, stream, error)) return false;
  return encode_and_write(codec_.get(), nullptr, packet_.get(), sink, stream, name_, error);
}

std::string AudioEncoder::describe() const {
  return std::string(codec_->codec->name) + " " + std::to_string(codec_->sample_rate) + " Hz " +
         (codec_->ch_layout.nb_channels == 1 ? "mono" : "stereo");
}

}  // namespace p2l::video
