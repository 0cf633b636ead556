#include "video/av_util.hpp"

namespace p2l::video {

std::string av_message(const std::string& what, int err) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(err, text, sizeof text);
  return what + ": " + text;
}

bool encode_and_write(AVCodecContext* codec, const AVFrame* frame, AVPacket* packet, PacketSink& sink, int stream,
                      const std::string& name, std::string& error) {
  int err = avcodec_send_frame(codec, frame);
  if (err < 0) {
    error = av_message("cannot encode " + name, err);
    return false;
  }
  for (;;) {
    err = avcodec_receive_packet(codec, packet);
    if (err == AVERROR(EAGAIN) || err == AVERROR_EOF) return true;
    if (err < 0) {
      error = av_message("cannot encode " + name, err);
      return false;
    }
    const bool written = sink.write(packet, codec, stream, error);
    av_packet_unref(packet);
    if (!written) return false;
  }
}

}  // namespace p2l::video
