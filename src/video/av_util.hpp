// What every libav* file here shares: ownership of libav's objects (each freed by its own
// function, on every path, errors included) and libav's error codes turned into words. The
// writer's messages name the file and the step ("cannot open the H.264 encoder for out.mp4:
// ..."), so each step passes its own wording to av_message.
#pragma once

#include <memory>
#include <string>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavformat/avformat.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/pixdesc.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
}

namespace p2l::video {

struct CodecFree {
  void operator()(AVCodecContext* c) const noexcept { avcodec_free_context(&c); }
};
struct FrameFree {
  void operator()(AVFrame* f) const noexcept { av_frame_free(&f); }
};
struct PacketFree {
  void operator()(AVPacket* p) const noexcept { av_packet_free(&p); }
};
struct SwsFree {
  void operator()(SwsContext* s) const noexcept { sws_freeContext(s); }
};
struct SwrFree {
  void operator()(SwrContext* s) const noexcept { swr_free(&s); }
};
struct FifoFree {
  void operator()(AVAudioFifo* f) const noexcept { av_audio_fifo_free(f); }
};
struct GraphFree {
  void operator()(AVFilterGraph* g) const noexcept { avfilter_graph_free(&g); }
};

using CodecPtr = std::unique_ptr<AVCodecContext, CodecFree>;
using FramePtr = std::unique_ptr<AVFrame, FrameFree>;
using PacketPtr = std::unique_ptr<AVPacket, PacketFree>;
using SwsPtr = std::unique_ptr<SwsContext, SwsFree>;
using SwrPtr = std::unique_ptr<SwrContext, SwrFree>;
using FifoPtr = std::unique_ptr<AVAudioFifo, FifoFree>;
using GraphPtr = std::unique_ptr<AVFilterGraph, GraphFree>;

// "[what]: [libav's words for err]", e.g. "cannot write out.mp4's header: Invalid argument".
std::string av_message(const std::string& what, int err);

// Where encoded packets go (the muxer): false with [error] set when writing failed.
class PacketSink {
 public:
  virtual ~PacketSink() = default;
  virtual bool write(AVPacket* packet, const AVCodecContext* codec, int stream, std::string& error) = 0;
};

// Sends [frame] (null: the end) to [codec] and hands every packet that comes out to [sink].
bool encode_and_write(AVCodecContext* codec, const AVFrame* frame, AVPacket* packet, PacketSink& sink, int stream,
                      const std::string& name, std::string& error);

}  // namespace p2l::video
