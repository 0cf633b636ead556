#include "video/gif_palette.hpp"

#include <cstring>

extern "C" {
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
}

namespace p2l::video {

GifPalette::GifPalette(int width, int height, AVRational time_base, bool alpha, std::string& error)
    : width_(width), height_(height), graph_(avfilter_graph_alloc()), input_(av_frame_alloc()) {
  if (!graph_ || !input_) {
    error = "out of memory";
    return;
  }
  const std::string args = "video_size=" + std::to_string(width) + "x" + std::to_string(height) +
                           ":pix_fmt=" + std::to_string(AV_PIX_FMT_RGBA) + ":time_base=" + std::to_string(time_base.num) +
                           "/" + std::to_string(time_base.den) + ":pixel_aspect=1/1";
  AVFilterContext* source = nullptr;
  AVFilterContext* sink = nullptr;
  int err = avfilter_graph_create_filter(&source, avfilter_get_by_name("buffer"), "in", args.c_str(), nullptr, graph_.get());
  if (err >= 0) err = avfilter_graph_create_filter(&sink, avfilter_get_by_name("buffersink"), "out", nullptr, nullptr, graph_.get());
  if (err < 0) {
    error = av_message("cannot make the GIF palette filters", err);
    return;
  }
  const std::string chain = std::string("split[a][b];[a]palettegen=stats_mode=single:reserve_transparent=") + (alpha ? "1" : "0") +
                            "[p];[b][p]paletteuse=new=1:dither=sierra2_4a:alpha_threshold=128";
  AVFilterInOut* outputs = avfilter_inout_alloc();
  AVFilterInOut* inputs = avfilter_inout_alloc();
  if (outputs && inputs) {
    outputs->name = av_strdup("in");
    outputs->filter_ctx = source;
    inputs->name = av_strdup("out");
    inputs->filter_ctx = sink;
    err = avfilter_graph_parse_ptr(graph_.get(), chain.c_str(), &inputs, &outputs, nullptr);
    if (err >= 0) err = avfilter_graph_config(graph_.get(), nullptr);
  } else {
    err = AVERROR(ENOMEM);
  }
  avfilter_inout_free(&inputs);
  avfilter_inout_free(&outputs);
  if (err < 0) {
    error = av_message("cannot make the GIF palette filters (palettegen, paletteuse)", err);
    return;
  }
  input_->format = AV_PIX_FMT_RGBA;
  input_->width = width;
  input_->height = height;
  source_ = source;
  sink_ = sink;
}

bool GifPalette::push(const std::uint8_t* rgba, std::int64_t pts, std::string& error) {
  // The graph may still hold the last frame's buffer: a fresh one only then.
  int err = input_->buf[0] ? av_frame_make_writable(input_.get()) : av_frame_get_buffer(input_.get(), 0);
  if (err < 0) {
    error = av_message("cannot make a GIF frame", err);
    return false;
  }
  for (int y = 0; y < height_; ++y)
    std::memcpy(input_->data[0] + static_cast<std::ptrdiff_t>(y) * input_->linesize[0], rgba + static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) * 4,
                static_cast<std::size_t>(width_) * 4);
  input_->pts = pts;
  err = av_buffersrc_add_frame_flags(source_, input_.get(), AV_BUFFERSRC_FLAG_KEEP_REF);
  if (err < 0) {
    error = av_message("cannot map a frame onto a GIF palette", err);
    return false;
  }
  return true;
}

bool GifPalette::end(std::string& error) {
  const int err = av_buffersrc_add_frame_flags(source_, nullptr, 0);
  if (err < 0) {
    error = av_message("cannot finish the GIF palettes", err);
    return false;
  }
  return true;
}

int GifPalette::pull(AVFrame* out, std::string& error) {
  const int err = av_buffersink_get_frame(sink_, out);
  if (err == AVERROR(EAGAIN) || err == AVERROR_EOF) return 0;
  if (err < 0) {
    error = av_message("cannot map a frame onto a GIF palette", err);
    return -1;
  }
  return 1;
}

}  // namespace p2l::video
