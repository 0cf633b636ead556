// The sound stream: the whole track is known from the start (a decoded file), and is handed to
// the encoder in step with the pictures (encode_until the time the frames have reached), so the
// muxer interleaves without buffering seconds of either. AAC in MP4 (libavcodec's own encoder,
// 128 kb/s per channel pair, the source's rate when AAC has it, else 48 kHz), Opus in WebM
// (libopus at 48 kHz). libswresample converts rate and sample format; more than two channels are
// mixed down to stereo (AAC and Opus take more, but only with layouts a WAV does not state).
#pragma once

#include <cstdint>
#include <string>

#include "video/av_util.hpp"
#include "video/video_writer.hpp"

namespace p2l::video {

class AudioEncoder {
 public:
  // Check ok(); [error] names [path] and the step.
  AudioEncoder(OutputKind kind, const AudioTrack& track, bool global_header, const std::string& path, std::string& error);
  ~AudioEncoder();
  AudioEncoder(const AudioEncoder&) = delete;
  AudioEncoder& operator=(const AudioEncoder&) = delete;
  bool ok() const { return ok_; }
  AVCodecContext* codec() const { return codec_.get(); }
  // Encodes the track up to [seconds] from its start (whole encoder frames).
  bool encode_until(double seconds, PacketSink& sink, int stream, std::string& error);
  // The rest of the track, then the encoder's delayed packets.
  bool finish(PacketSink& sink, int stream, std::string& error);
  std::string describe() const;

 private:
  bool convert_more(std::size_t input_frames, std::string& error);  // [input_frames] of the track (0: the resampler's tail) into the FIFO
  bool send(int samples, PacketSink& sink, int stream, std::string& error);

  const AudioTrack& track_;
  std::string name_;
  CodecPtr codec_;
  SwrPtr resample_;
  FifoPtr fifo_;
  FramePtr frame_;
  PacketPtr packet_;
  std::size_t consumed_ = 0;  // track frames given to the resampler
  std::int64_t sent_ = 0;     // samples given to the encoder (its pts)
  std::uint8_t** converted_ = nullptr;
  int converted_capacity_ = 0;
  bool ok_ = false;
};

}  // namespace p2l::video
