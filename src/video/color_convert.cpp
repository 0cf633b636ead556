#include "video/color_convert.hpp"

namespace p2l::video {

ColorConvert::ColorConvert(int width, int height, AVPixelFormat to, std::string& error) : width_(width), height_(height) {
  context_.reset(sws_getContext(width, height, AV_PIX_FMT_RGBA, width, height, to,
                                SWS_BICUBIC | SWS_ACCURATE_RND, nullptr, nullptr, nullptr));
  if (!context_) {
    error = std::string("libswscale cannot convert RGBA to ") + av_get_pix_fmt_name(to);
    return;
  }
  // RGB in full range, YUV in limited range, BT.709 coefficients both ways.
  const int* coefficients = sws_getCoefficients(SWS_CS_ITU709);
  sws_setColorspaceDetails(context_.get(), coefficients, 1, coefficients, 0, 0, 1 << 16, 1 << 16);
}

void ColorConvert::convert(const std::uint8_t* rgba, AVFrame* frame) const {
  const std::uint8_t* source[1] = {rgba};
  const int stride[1] = {width_ * 4};
  sws_scale(context_.get(), source, stride, 0, height_, frame->data, frame->linesize);
}

void ColorConvert::tag(AVCodecContext* codec) {
  codec->color_range = AVCOL_RANGE_MPEG;
  codec->colorspace = AVCOL_SPC_BT709;
  codec->color_primaries = AVCOL_PRI_BT709;
  codec->color_trc = AVCOL_TRC_IEC61966_2_1;  // sRGB: what the renderer's pixels are
}

}  // namespace p2l::video
