// PNG pages in and out (include/p2l/render.hpp): decode_png and encode_png.
//
// Decoding uses libpng's low-level reader rather than the simplified png_image API: the
// simplified API takes 16-bit samples without a gAMA or sRGB chunk for linear light and
// converts gamma-tagged images to sRGB, while a texture is data. Like the loaders Cubism
// hosts use, pixels come out as stored: palettes and tRNS expanded, gray spread to RGB, 16-bit
// samples stripped to their high byte, gAMA, cHRM and iCCP ignored.
//
// libpng reports errors by longjmp. The jump lands in read_rows(), whose frame and the
// libpng frames it calls hold nothing with a destructor between setjmp and any call that can
// fail: the objects it fills (the pixels, the row pointers) live in the caller, the libpng
// structures are freed by the caller's guard, and the read callback only copies bytes.
#include <png.h>

#include <csetjmp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <span>
#include <string>
#include <vector>

#include "p2l/render.hpp"
#include "render/large_pages.hpp"

namespace p2l {
namespace {

constexpr std::uint64_t kMaxPixels = std::uint64_t{1} << 28;
constexpr std::uint64_t kMaxBytes = std::uint64_t{1} << 30;
constexpr std::size_t kSignatureBytes = 8;

// Everything the libpng callbacks touch: the input, and where an error message goes.
struct ReadContext {
  const std::uint8_t* data = nullptr;
  std::size_t size = 0, offset = 0;
  char message[256] = {};
  std::jmp_buf jump;
};

void copy_message(char (&to)[256], const char* text) {
  std::strncpy(to, text ? text : "unknown libpng error", sizeof to - 1);
  to[sizeof to - 1] = '\0';
}

extern "C" void on_png_error(png_structp png, png_const_charp text) {
  auto* context = static_cast<ReadContext*>(png_get_error_ptr(png));
  copy_message(context->message, text);
  std::longjmp(context->jump, 1);
}

extern "C" void on_png_warning(png_structp, png_const_charp) {}  // benign: ancillary CRCs, odd chunks

extern "C" void on_png_read(png_structp png, png_bytep to, png_size_t length) {
  auto* context = static_cast<ReadContext*>(png_get_io_ptr(png));
  if (length > context->size - context->offset) png_error(png, "the data ends early (truncated PNG)");
  std::memcpy(to, context->data + context->offset, length);
  context->offset += length;
}

// The libpng structures, freed on every way out of decode_png.
struct ReadGuard {
  png_structp png = nullptr;
  png_infop info = nullptr;
  ~ReadGuard() {
    if (png) png_destroy_read_struct(&png, info ? &info : nullptr, nullptr);
  }
};

// Reads the header, sets up the transformations to RGBA8 and reads every row into
// [pixels]. Returns false with context.message set on any libpng error or refusal.
// [pixels] and [rows] are the caller's so that no object with a destructor lives in this
// frame across setjmp.
bool read_rows(ReadGuard& guard, ReadContext& context, std::vector<std::uint8_t>& pixels,
               std::vector<png_bytep>& rows, std::uint32_t& width_out, std::uint32_t& height_out) {
  png_structp png = guard.png;
  png_infop info = guard.info;
  if (setjmp(context.jump)) return false;

  png_set_read_fn(png, &context, on_png_read);
  // libpng's own default caps a side at 1,000,000 pixels; the pixel-count bound below is
  // the one that matters, so a side may go as far as it.
  png_set_user_limits(png, static_cast<png_uint_32>(kMaxPixels), static_cast<png_uint_32>(kMaxPixels));
  png_read_info(png, info);

  const png_uint_32 width = png_get_image_width(png, info);
  const png_uint_32 height = png_get_image_height(png, info);
  const int color_type = png_get_color_type(png, info);
  const std::uint64_t pixel_count = std::uint64_t{width} * height;
  if (width == 0 || height == 0) {
    copy_message(context.message, "the image has no pixels");
    return false;
  }
  if (pixel_count > kMaxPixels || pixel_count * 4 > kMaxBytes) {
    copy_message(context.message, "the image is too large (more than 2^28 pixels or 1 GiB decoded)");
    return false;
  }

  // To straight RGBA8 whatever the colour type and depth.
  png_set_expand(png);  // palette to RGB, gray below 8 bits to 8, tRNS to alpha
  png_set_strip_16(png);
  if (!(color_type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(png);
  if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
    png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
  png_set_interlace_handling(png);  // Adam7: every pass lands in the full rows
  png_read_update_info(png, info);

  if (png_get_rowbytes(png, info) != std::size_t{width} * 4 || png_get_channels(png, info) != 4 ||
      png_get_bit_depth(png, info) != 8) {
    copy_message(context.message, "libpng could not convert the image to RGBA8");
    return false;
  }

  render::reserve_in_large_pages(pixels, static_cast<std::size_t>(pixel_count) * 4);
  pixels.resize(static_cast<std::size_t>(pixel_count) * 4);
  rows.resize(height);
  for (png_uint_32 y = 0; y < height; ++y) rows[y] = pixels.data() + std::size_t{y} * width * 4;
  png_read_image(png, rows.data());
  png_read_end(png, nullptr);  // checks the trailing chunks' CRCs up to IEND
  width_out = width;
  height_out = height;
  return true;
}

// png_image_write_to_memory's output grows here: a first call measures, a second writes.
bool write_simplified(const std::uint8_t* rgba, std::uint32_t width, std::uint32_t height,
                      std::vector<std::uint8_t>& out, std::string& error) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = PNG_FORMAT_RGBA;
  const auto stride = static_cast<png_int_32>(width * 4);

  png_alloc_size_t size = 0;
  if (!png_image_write_to_memory(&image, nullptr, &size, 0, rgba, stride, nullptr)) {
    error = std::string("PNG encoding failed: ") + image.message;
    png_image_free(&image);
    return false;
  }
  out.resize(size);
  if (!png_image_write_to_memory(&image, out.data(), &size, 0, rgba, stride, nullptr)) {
    error = std::string("PNG encoding failed: ") + image.message;
    png_image_free(&image);
    out.clear();
    return false;
  }
  out.resize(size);
  return true;
}

}  // namespace

bool decode_png(std::span<const std::uint8_t> png, Image& out, std::string& error) {
  out = Image{};
  if (png.size() < kSignatureBytes || png_sig_cmp(png.data(), 0, kSignatureBytes) != 0) {
    error = png.size() < kSignatureBytes ? "not a PNG: fewer bytes than the PNG signature"
                                         : "not a PNG: the PNG signature is missing";
    return false;
  }
  ReadContext context;
  context.data = png.data();
  context.size = png.size();

  ReadGuard guard;
  guard.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, on_png_error, on_png_warning);
  if (guard.png) guard.info = png_create_info_struct(guard.png);
  if (!guard.png || !guard.info) {
    error = "PNG decoding failed: libpng could not allocate its structures";
    return false;
  }

  std::vector<std::uint8_t> pixels;
  std::vector<png_bytep> rows;
  std::uint32_t width = 0, height = 0;
  if (!read_rows(guard, context, pixels, rows, width, height)) {
    error = std::string("PNG decoding failed: ") + context.message;
    return false;
  }
  out.width = width;
  out.height = height;
  out.rgba = std::move(pixels);
  return true;
}

bool encode_png(const std::uint8_t* rgba, std::uint32_t width, std::uint32_t height, std::vector<std::uint8_t>& out,
                std::string& error) {
  out.clear();
  if (!rgba) {
    error = "PNG encoding failed: no pixels";
    return false;
  }
  const std::uint64_t pixel_count = std::uint64_t{width} * height;
  if (width == 0 || height == 0) {
    error = "PNG encoding failed: the image has no pixels";
    return false;
  }
  if (pixel_count > kMaxPixels || pixel_count * 4 > kMaxBytes) {
    error = "PNG encoding failed: the image is too large (more than 2^28 pixels)";
    return false;
  }
  return write_simplified(rgba, width, height, out, error);
}

}  // namespace p2l
