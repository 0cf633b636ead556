// decode_png and encode_png (src/render/png_codec.cpp). Fixtures of every colour type and depth
// are written here with libpng's low-level writer, and the RGBA8 each must decode to is
// computed from the samples written: gray spread to RGB, palettes and tRNS expanded, 16-bit
// samples stripped to their high byte, no gamma applied.
#include <gtest/gtest.h>
#include <png.h>

#include <csetjmp>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "p2l/render.hpp"

namespace {

using Bytes = std::vector<std::uint8_t>;

// A small deterministic generator, so that every run draws the same fixtures.
struct Random {
  std::uint32_t state;
  std::uint32_t next() {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  }
  std::uint8_t byte() { return static_cast<std::uint8_t>(next()); }
  std::uint16_t word() { return static_cast<std::uint16_t>(next()); }
};

// What the low-level writer is given: samples per row (packed as the PNG stores them) and
// the optional PLTE and tRNS content.
struct Fixture {
  std::uint32_t width = 0, height = 0;
  int color_type = PNG_COLOR_TYPE_RGB, bit_depth = 8;
  bool interlaced = false;
  std::vector<Bytes> rows;
  std::vector<png_color> palette;
  Bytes trans_alpha;  // palette tRNS
  bool has_trans_color = false;
  png_color_16 trans_color{};  // gray or RGB tRNS
  double gamma = 0;            // a gAMA chunk when positive
  Bytes expected;              // RGBA8
};

Fixture make_fixture(std::uint32_t width, std::uint32_t height, int color_type, int bit_depth, bool interlaced) {
  Fixture f;
  f.width = width;
  f.height = height;
  f.color_type = color_type;
  f.bit_depth = bit_depth;
  f.interlaced = interlaced;
  return f;
}

extern "C" void append_bytes(png_structp png, png_bytep data, png_size_t length) {
  auto* out = static_cast<Bytes*>(png_get_io_ptr(png));
  out->insert(out->end(), data, data + length);
}
extern "C" void flush_nothing(png_structp) {}

// Writes [fixture] into [out]; false on a libpng error. Only trivially destructible locals
// live in this frame across setjmp.
bool write_png(const Fixture& fixture, Bytes* out, std::vector<png_bytep>* row_pointers) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  if (!png) return false;
  png_infop info = png_create_info_struct(png);
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, info ? &info : nullptr);
    return false;
  }
  png_set_write_fn(png, out, append_bytes, flush_nothing);
  png_set_IHDR(png, info, fixture.width, fixture.height, fixture.bit_depth, fixture.color_type,
               fixture.interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  if (!fixture.palette.empty())
    png_set_PLTE(png, info, fixture.palette.data(), static_cast<int>(fixture.palette.size()));
  if (!fixture.trans_alpha.empty())
    png_set_tRNS(png, info, fixture.trans_alpha.data(), static_cast<int>(fixture.trans_alpha.size()), nullptr);
  if (fixture.has_trans_color) png_set_tRNS(png, info, nullptr, 0, &fixture.trans_color);
  if (fixture.gamma > 0) png_set_gAMA(png, info, fixture.gamma);
  png_write_info(png, info);
  png_write_image(png, row_pointers->data());
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

Bytes encode_fixture(const Fixture& fixture) {
  std::vector<Bytes> rows = fixture.rows;
  std::vector<png_bytep> pointers;
  for (auto& row : rows) pointers.push_back(row.data());
  Bytes out;
  EXPECT_TRUE(write_png(fixture, &out, &pointers));
  return out;
}

void push_rgba(Bytes& to, std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a) {
  to.insert(to.end(), {r, g, b, a});
}

void push_be16(Bytes& to, std::uint16_t v) {
  to.push_back(static_cast<std::uint8_t>(v >> 8));
  to.push_back(static_cast<std::uint8_t>(v & 0xFF));
}

std::uint8_t high(std::uint16_t v) { return static_cast<std::uint8_t>(v >> 8); }

// Packs samples of [bits] (1, 2 or 4) bits into a row, first sample in the high bits.
Bytes pack(const std::vector<std::uint8_t>& samples, int bits) {
  Bytes row((samples.size() * static_cast<std::size_t>(bits) + 7) / 8, 0);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const std::size_t bit = i * static_cast<std::size_t>(bits);
    const int shift = 8 - bits - static_cast<int>(bit % 8);
    row[bit / 8] = static_cast<std::uint8_t>(row[bit / 8] | (samples[i] << shift));
  }
  return row;
}

Fixture gray8(std::uint32_t w, std::uint32_t h, bool interlaced) {
  Fixture f = make_fixture(w, h, PNG_COLOR_TYPE_GRAY, 8, interlaced);
  Random random{1};
  for (std::uint32_t y = 0; y < h; ++y) {
    Bytes row;
    for (std::uint32_t x = 0; x < w; ++x) {
      const std::uint8_t v = random.byte();
      row.push_back(v);
      push_rgba(f.expected, v, v, v, 255);
    }
    f.rows.push_back(row);
  }
  return f;
}

Fixture gray16(std::uint32_t w, std::uint32_t h) {
  Fixture f = make_fixture(w, h, PNG_COLOR_TYPE_GRAY, 16, false);
  Random random{2};
  for (std::uint32_t y = 0; y < h; ++y) {
    Bytes row;
    for (std::uint32_t x = 0; x < w; ++x) {
      const std::uint16_t v = random.word();
      push_be16(row, v);
      push_rgba(f.expected, high(v), high(v), high(v), 255);
    }
    f.rows.push_back(row);
  }
  return f;
}

Fixture gray_low_bits(std::uint32_t w, std::uint32_t h, int bits, bool interlaced) {
  Fixture f = make_fixture(w, h, PNG_COLOR_TYPE_GRAY, bits, interlaced);
  Random random{3};
  const int top = (1 << bits) - 1;
  for (std::uint32_t y = 0; y < h; ++y) {
    std::vector<std::uint8_t> samples;
    for (std::uint32_t x = 0; x < w; ++x) {
      const auto v = static_cast<std::uint8_t>(random.next() % static_cast<std::uint32_t>(top + 1));
      samples.push_back(v);
      const auto g = static_cast<std::uint8_t>(v * 255 / top);  // the sample scaled to 8 bits
      push_rgba(f.expected, g, g, g, 255);
    }
    f.rows.push_back(pack(samples, bits));
  }
  return f;
}

Fixture gray_alpha8(std::uint32_t w, std::uint32_t h) {
  Fixture f = make_fixture(w, h, PNG_COLOR_TYPE_GRAY_ALPHA, 8, false);
  Random random{4};
  for (std::uint32_t y = 0; y < h; ++y) {
    Bytes row;
    for (std::uint32_t x = 0; x < w; ++x) {
      const std::uint8_t g = random.byte(), a = random.byte();
      row.insert(row.end(), {g, a});
      push_rgba(f.expected, g, g, g, a);  // straight: the gray is kept under any alpha
    }
    f.rows.push_back(row);
  }
  return f;
}

Fixture gray_alpha16(std::uint32_t w, std::uint32_t h) {
  Fixture f = make_fixture(w, h, PNG_COLOR_TYPE_GRAY_ALPHA, 16, false);
  Random random{5};
  for (std::uint32_t y = 0; y < h; ++y) {
    Bytes row;
    for (std::uint32_t x = 0; x < w; ++x) {
      const std::uint16_t g = random.word(), a = random.word();
      push_be16(row, g);
      push_be16(row, a);
      push_rgba(f.expected, high(g), high(g), high(g), high(a));
    }
    f.rows.push_back(row);
  }
  return f;
}

// A palette of [entries] colours; tRNS gives alpha to the first [alphas] of them only, so the
// rest must come out opaque.
Fixture palette(std::uint32_t w, std::uint32_t h, int bits, std::size_t entries, std::size_t alphas,
                bool interlaced) {
  Fixture f = make_fixture(w, h, PNG_COLOR_TYPE_PALETTE, bits, interlaced);
  Random random{6};
  for (std::size_t i = 0; i < entries; ++i) f.palette.push_back({random.byte(), random.byte(), random.byte()});
  for (std::size_t i = 0; i < alphas; ++i) f.trans_alpha.push_back(static_cast<std::uint8_t>(i * 37 % 256));
  for (std::uint32_t y = 0; y < h; ++y) {
    std::vector<std::uint8_t> samples;
    for (std::uint32_t x = 0; x < w; ++x) {
      const auto index = static_cast<std::uint8_t>(random.next() % entries);
      samples.push_back(index);
      const png_color& c = f.palette[index];
      push_rgba(f.expected, c.red, c.green, c.blue, index < alphas ? f.trans_alpha[index] : 255);
    }
    f.rows.push_back(bits == 8 ? Bytes(samples.begin(), samples.end()) : pack(samples, bits));
  }
  return f;
}

Fixture rgb8_color_key(std::uint32_t w, std::uint32_t h) {
  Fixture f = make_fixture(w, h, PNG_COLOR_TYPE_RGB, 8, false);
  f.has_trans_color = true;
  f.trans_color.red = 10;
  f.trans_color.green = 20;
  f.trans_color.blue = 30;
  Random random{7};
  for (std::uint32_t y = 0; y < h; ++y) {
    Bytes row;
    for (std::uint32_t x = 0; x < w; ++x) {
      const bool key = (x + y) % 3 == 0;
      const std::uint8_t r = key ? 10 : random.byte(), g = key ? 20 : random.byte(), b = key ? 30 : random.byte();
      row.insert(row.end(), {r, g, b});
      const bool transparent = r == 10 && g == 20 && b == 30;
      push_rgba(f.expected, r, g, b, transparent ? 0 : 255);
    }
    f.rows.push_back(row);
  }
  return f;
}

Fixture rgb16(std::uint32_t w, std::uint32_t h, bool interlaced) {
  Fixture f = make_fixture(w, h, PNG_COLOR_TYPE_RGB, 16, interlaced);
  Random random{8};
  for (std::uint32_t y = 0; y < h; ++y) {
    Bytes row;
    for (std::uint32_t x = 0; x < w; ++x) {
      const std::uint16_t r = random.word(), g = random.word(), b = random.word();
      push_be16(row, r);
      push_be16(row, g);
      push_be16(row, b);
      push_rgba(f.expected, high(r), high(g), high(b), 255);
    }
    f.rows.push_back(row);
  }
  return f;
}

Fixture rgba(std::uint32_t w, std::uint32_t h, int bits, bool interlaced) {
  Fixture f = make_fixture(w, h, PNG_COLOR_TYPE_RGB_ALPHA, bits, interlaced);
  Random random{9};
  for (std::uint32_t y = 0; y < h; ++y) {
    Bytes row;
    for (std::uint32_t x = 0; x < w; ++x) {
      std::uint8_t px[4];
      for (auto& c : px) {
        if (bits == 16) {
          const std::uint16_t v = random.word();
          push_be16(row, v);
          c = high(v);
        } else {
          c = random.byte();
          row.push_back(c);
        }
      }
      push_rgba(f.expected, px[0], px[1], px[2], px[3]);
    }
    f.rows.push_back(row);
  }
  return f;
}

// Decodes a fixture and compares every pixel with what was computed for it.
void expect_decodes(const Fixture& fixture) {
  const Bytes png = encode_fixture(fixture);
  ASSERT_FALSE(png.empty());
  p2l::Image image;
  std::string error;
  ASSERT_TRUE(p2l::decode_png(png, image, error)) << error;
  EXPECT_EQ(image.width, fixture.width);
  EXPECT_EQ(image.height, fixture.height);
  ASSERT_EQ(image.rgba.size(), fixture.expected.size());
  for (std::size_t i = 0; i < image.rgba.size(); ++i) {
    ASSERT_EQ(image.rgba[i], fixture.expected[i])
        << "pixel " << i / 4 << " (x " << (i / 4) % fixture.width << ", y " << (i / 4) / fixture.width
        << ") channel " << i % 4;
  }
}

Bytes random_rgba(std::uint32_t w, std::uint32_t h, std::uint32_t seed) {
  Random random{seed};
  Bytes pixels(std::size_t{w} * h * 4);
  for (auto& b : pixels) b = random.byte();
  // Fully transparent pixels with colour under them: straight alpha must keep the colour.
  for (std::size_t i = 0; i < pixels.size(); i += 4 * 7) pixels[i + 3] = 0;
  return pixels;
}

// Big-endian chunk with its CRC, for hand-made headers.
void push_chunk(Bytes& to, const char* type, const Bytes& data) {
  const auto length = static_cast<std::uint32_t>(data.size());
  for (int s = 24; s >= 0; s -= 8) to.push_back(static_cast<std::uint8_t>(length >> s));
  Bytes body(type, type + 4);
  body.insert(body.end(), data.begin(), data.end());
  to.insert(to.end(), body.begin(), body.end());
  std::uint32_t crc = 0xFFFFFFFFu;
  for (std::uint8_t b : body) {
    crc ^= b;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  crc ^= 0xFFFFFFFFu;
  for (int s = 24; s >= 0; s -= 8) to.push_back(static_cast<std::uint8_t>(crc >> s));
}

// A PNG whose header claims [w] x [h] RGBA8, followed by an IDAT that never comes.
Bytes claimed_size(std::uint32_t w, std::uint32_t h) {
  Bytes png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  Bytes ihdr;
  for (std::uint32_t v : {w, h})
    for (int s = 24; s >= 0; s -= 8) ihdr.push_back(static_cast<std::uint8_t>(v >> s));
  ihdr.insert(ihdr.end(), {8, 6, 0, 0, 0});
  push_chunk(png, "IHDR", ihdr);
  push_chunk(png, "IDAT", Bytes(16, 0));
  return png;
}

TEST(PngCodec, RoundTripKeepsStraightRgba) {
  for (auto [w, h] : {std::pair<std::uint32_t, std::uint32_t>{1, 1}, {37, 23}, {256, 3}}) {
    const Bytes pixels = random_rgba(w, h, w * 131 + h);
    Bytes png;
    std::string error;
    ASSERT_TRUE(p2l::encode_png(pixels.data(), w, h, png, error)) << error;
    ASSERT_GT(png.size(), 8u);
    p2l::Image image;
    ASSERT_TRUE(p2l::decode_png(png, image, error)) << error;
    EXPECT_EQ(image.width, w);
    EXPECT_EQ(image.height, h);
    EXPECT_EQ(image.rgba, pixels);
  }
}

TEST(PngCodec, Gray) {
  expect_decodes(gray8(19, 7, false));
  expect_decodes(gray16(17, 9));
  expect_decodes(gray_low_bits(21, 5, 1, false));
  expect_decodes(gray_low_bits(21, 5, 2, false));
  expect_decodes(gray_low_bits(21, 5, 4, false));
}

TEST(PngCodec, GrayAlpha) {
  expect_decodes(gray_alpha8(15, 11));
  expect_decodes(gray_alpha16(15, 11));
}

TEST(PngCodec, PaletteWithTrns) {
  expect_decodes(palette(23, 13, 8, 200, 90, false));
  expect_decodes(palette(23, 13, 4, 11, 5, false));
  expect_decodes(palette(23, 13, 1, 2, 1, false));
  expect_decodes(palette(23, 13, 8, 16, 0, false));  // no tRNS: opaque
}

TEST(PngCodec, RgbAndRgba) {
  expect_decodes(rgb8_color_key(20, 6));
  expect_decodes(rgb16(13, 17, false));
  expect_decodes(rgba(13, 17, 8, false));
  expect_decodes(rgba(13, 17, 16, false));
}

TEST(PngCodec, GammaIsIgnored) {
  // Texture pixels are data: a gAMA chunk (here linear light) changes nothing.
  Fixture linear = rgba(11, 7, 8, false);
  linear.gamma = 1.0;
  expect_decodes(linear);
  Fixture linear16 = rgb16(11, 7, false);
  linear16.gamma = 1.0;
  expect_decodes(linear16);
}

TEST(PngCodec, Adam7Interlaced) {
  // Sizes that leave some passes empty or short, and one large enough to fill every pass.
  for (std::uint32_t w : {1u, 3u, 13u, 64u}) {
    expect_decodes(rgba(w, 11, 8, true));
    expect_decodes(gray8(w, 5, true));
  }
  expect_decodes(rgb16(29, 31, true));
  expect_decodes(palette(29, 31, 4, 16, 16, true));
  expect_decodes(gray_low_bits(29, 31, 2, true));
}

TEST(PngCodec, TruncatedIsRefused) {
  const Bytes png = encode_fixture(rgba(24, 24, 8, true));
  for (std::size_t length = 0; length < png.size(); ++length) {
    p2l::Image image;
    std::string error;
    EXPECT_FALSE(p2l::decode_png(std::span(png.data(), length), image, error)) << "length " << length;
    EXPECT_FALSE(error.empty()) << "length " << length;
    EXPECT_TRUE(image.rgba.empty());
  }
}

TEST(PngCodec, GarbageIsRefused) {
  Random random{11};
  p2l::Image image;
  std::string error;

  Bytes garbage(500);
  for (auto& b : garbage) b = random.byte();
  EXPECT_FALSE(p2l::decode_png(garbage, image, error));
  EXPECT_NE(error.find("not a PNG"), std::string::npos) << error;

  // A valid signature, then noise.
  Bytes signed_noise = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  signed_noise.insert(signed_noise.end(), garbage.begin(), garbage.end());
  error.clear();
  EXPECT_FALSE(p2l::decode_png(signed_noise, image, error));
  EXPECT_FALSE(error.empty());

  // A real PNG with every byte after the header flipped in turn: refused or decoded, never a crash.
  const Bytes png = encode_fixture(rgba(9, 9, 8, false));
  for (std::size_t i = 33; i < png.size(); ++i) {
    Bytes damaged = png;
    damaged[i] ^= 0x5A;
    error.clear();
    if (!p2l::decode_png(damaged, image, error)) {
      EXPECT_FALSE(error.empty()) << "byte " << i;
    }
  }

  // The damaged IHDR CRC of a critical chunk is an error, not a warning.
  Bytes bad_crc = png;
  bad_crc[29] ^= 0xFF;
  error.clear();
  EXPECT_FALSE(p2l::decode_png(bad_crc, image, error));
  EXPECT_FALSE(error.empty());

  error.clear();
  EXPECT_FALSE(p2l::decode_png({}, image, error));
  EXPECT_FALSE(error.empty());
}

TEST(PngCodec, OversizedIsRefusedBeforeDecoding) {
  p2l::Image image;
  std::string error;
  EXPECT_FALSE(p2l::decode_png(claimed_size(20000, 20000), image, error));  // 4e8 pixels
  EXPECT_NE(error.find("too large"), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(p2l::decode_png(claimed_size(1u << 20, (1u << 8) + 1), image, error));  // just past 2^28
  EXPECT_NE(error.find("too large"), std::string::npos) << error;
  // Within the bound, the header passes and the missing data is what fails.
  error.clear();
  EXPECT_FALSE(p2l::decode_png(claimed_size(64, 64), image, error));
  EXPECT_EQ(error.find("too large"), std::string::npos) << error;
  EXPECT_FALSE(error.empty());
}

TEST(PngCodec, EncodeRefusals) {
  Bytes out{1, 2, 3};
  std::string error;
  const std::uint8_t pixel[4] = {1, 2, 3, 4};
  EXPECT_FALSE(p2l::encode_png(nullptr, 1, 1, out, error));
  EXPECT_FALSE(error.empty());
  EXPECT_TRUE(out.empty());
  error.clear();
  EXPECT_FALSE(p2l::encode_png(pixel, 0, 1, out, error));
  EXPECT_FALSE(error.empty());
  error.clear();
  EXPECT_FALSE(p2l::encode_png(pixel, 1, 0, out, error));
  EXPECT_FALSE(error.empty());
  // 2^29 pixels: refused before a pixel is read.
  error.clear();
  EXPECT_FALSE(p2l::encode_png(pixel, 1u << 15, 1u << 14, out, error));
  EXPECT_NE(error.find("too large"), std::string::npos) << error;
}

TEST(PngCodec, FailedDecodeLeavesAnEmptyImage) {
  p2l::Image image;
  image.width = 3;
  image.height = 3;
  image.rgba.assign(36, 7);
  std::string error;
  const Bytes png = encode_fixture(gray8(4, 4, false));
  EXPECT_FALSE(p2l::decode_png(std::span(png.data(), png.size() - 20), image, error));
  EXPECT_EQ(image.width, 0u);
  EXPECT_EQ(image.height, 0u);
  EXPECT_TRUE(image.rgba.empty());
}

}  // namespace
