// p2l::Speech: Cubism's mouth level on generated speech (against LAppWavFileHandler's own
// numbers, tests/audio/data/cubism_rms.json), the same curve whatever the file format, pushed
// in any chunks, without allocating per update; audio files that are not good audio refused
// with a message. run_audio_tests.sh prepares the files (P2L_AUDIO_DIR) and runs this.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "audio/wav_data.hpp"
#include "counting_allocator.hpp"
#include "p2l/audio.hpp"

namespace {

namespace fs = std::filesystem;
constexpr double kFrame = 1.0 / 60.0;

fs::path audio_dir() {
  const char* dir = std::getenv("P2L_AUDIO_DIR");
  return dir ? fs::path(dir) : fs::path();
}

std::vector<std::uint8_t> read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

struct Curve {
  std::vector<float> level;
  std::vector<std::array<float, p2l::kVowelCount>> vowels;
};

// The speech's curve at 60 updates a second, as Cubism's sample runs it: until the audio is
// consumed.
Curve play(p2l::Speech& speech, double dt = kFrame) {
  Curve c;
  while (!speech.finished()) {
    speech.update(dt);
    c.level.push_back(speech.level());
    c.vowels.push_back(speech.vowels());
  }
  return c;
}

Curve play_file(const fs::path& path, bool vowels = false) {
  const p2l::AudioFile file = p2l::decode_audio_file(path.string());
  EXPECT_TRUE(file) << file.error;
  p2l::Speech speech(file.sample_rate, file.channels, {.vowels = vowels});
  EXPECT_TRUE(speech.push(file.samples)) << speech.error();
  speech.end();
  return play(speech);
}

using p2l_test::WavData;
using p2l_test::wav_data;

p2l::PcmFormat format_of_bits(std::uint32_t bits) {
  return bits == 8 ? p2l::PcmFormat::U8 : bits == 16 ? p2l::PcmFormat::S16 : p2l::PcmFormat::S24;
}

TEST(Speech, LevelIsCubismSampleRmsOnGeneratedSpeech) {
  const fs::path dir = audio_dir();
  if (dir.empty()) GTEST_SKIP() << "P2L_AUDIO_DIR not set (run_audio_tests.sh sets it)";
  std::ifstream in(fs::path(P2L_SOURCE_DIR) / "tests/audio/data/cubism_rms.json");
  const nlohmann::json reference = nlohmann::json::parse(in);
  ASSERT_FALSE(reference["files"].empty());
  for (const auto& [name, expected] : reference["files"].items()) {
    SCOPED_TRACE(name);
    const std::vector<double> rms = expected["rms"].get<std::vector<double>>();
    // Through libsndfile, as a host reading a file does; and the WAV's own bytes pushed in
    // their format, as a host streaming PCM does.
    const Curve decoded = play_file(dir / "cubism" / name);
    const WavData wav = wav_data(dir / "cubism" / name);
    p2l::Speech speech(wav.rate, wav.channels);
    ASSERT_TRUE(speech.push(wav.bytes.data(), wav.bytes.size() / (wav.bits / 8) / wav.channels, format_of_bits(wav.bits)));
    speech.end();
    const Curve pushed = play(speech);
    ASSERT_EQ(decoded.level.size(), rms.size());
    ASSERT_EQ(pushed.level.size(), rms.size());
    double worst_decoded = 0, worst_pushed = 0;
    for (std::size_t k = 0; k < rms.size(); ++k) {
      worst_decoded = std::max(worst_decoded, std::fabs(decoded.level[k] - rms[k]));
      worst_pushed = std::max(worst_pushed, std::fabs(pushed.level[k] - rms[k]));
    }
    EXPECT_LE(worst_decoded, 1e-3);
    EXPECT_LE(worst_pushed, 1e-6);  // Cubism's own scaling: only float rounding differs
    std::printf("%-22s %3zu frames: |p2l - Cubism| <= %.2g decoded by libsndfile, %.2g pushed as PCM\n", name.c_str(),
                rms.size(), worst_decoded, worst_pushed);
  }
}

// Every file run_audio_tests.sh made from one sentence against the 16-bit original, update by
// update at 60 Hz and at 50 Hz.
//
// Same rate, lossless: equal within 1e-3 (identical, but for 8-bit's rounding).
// Other rates: Cubism's window is whole samples, floor(time x rate), so at 60 Hz on 22,050 Hz
// every other window ends half a sample early, moving a loud sample from one update to the
// next (up to 2.6e-3 of level here), in Cubism's sample as here; at 50 Hz every rate's windows
// end on the same instants, and the rates agree within 1.1e-3 (the rest is resampling's
// interpolation of content near 11 kHz). Vorbis drops what it deems inaudible: 2.5e-3.
TEST(Speech, FormatsGiveTheSameMouthCurve) {
  const fs::path dir = audio_dir();
  if (dir.empty()) GTEST_SKIP() << "P2L_AUDIO_DIR not set (run_audio_tests.sh sets it)";
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir / "formats")) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 10u);
  const p2l::AudioFile original = p2l::decode_audio_file((dir / "formats" / "speech_s16.wav").string());
  ASSERT_TRUE(original) << original.error;
  for (const double dt : {1.0 / 60.0, 1.0 / 50.0}) {
    std::printf("updates of 1/%.0f s:\n", 1.0 / dt);
    p2l::Speech base_speech(original.sample_rate, original.channels);
    ASSERT_TRUE(base_speech.push(original.samples));
    base_speech.end();
    const Curve base = play(base_speech, dt);
    ASSERT_GT(base.level.size(), 100u);
    for (const fs::path& f : files) {
      const std::string name = f.filename().string();
      const p2l::AudioFile file = p2l::decode_audio_file(f.string());
      ASSERT_TRUE(file) << file.error;
      p2l::Speech speech(file.sample_rate, file.channels);
      ASSERT_TRUE(speech.push(file.samples));
      speech.end();
      const Curve c = play(speech, dt);
      // Another rate ends within one update of the original.
      ASSERT_NEAR(static_cast<double>(c.level.size()), static_cast<double>(base.level.size()), 1.0) << name;
      double worst = 0;
      std::size_t at = 0;
      for (std::size_t k = 0; k < std::min(c.level.size(), base.level.size()); ++k)
        if (std::fabs(c.level[k] - base.level[k]) > worst) {
          worst = std::fabs(c.level[k] - base.level[k]);
          at = k;
        }
      const bool other_rate = file.sample_rate != original.sample_rate;
      const bool lossy = name.ends_with(".ogg");
      const double tolerance = lossy ? 2.5e-3 : !other_rate ? 1e-3 : dt == 1.0 / 50.0 ? 1.1e-3 : 2.8e-3;
      std::printf("  %-24s %6u Hz %-50s %3zu updates, worst |difference| %.2g at update %zu\n", name.c_str(),
                  file.sample_rate, file.format.c_str(), c.level.size(), worst, at);
      EXPECT_LE(worst, tolerance) << name;
    }
  }
}

std::vector<float> speech_samples(std::uint32_t& rate) {
  const fs::path path = fs::path(P2L_SOURCE_DIR) / "tests/audio/data/speech_en.wav";
  const p2l::AudioFile file = p2l::decode_audio_file(path.string());
  EXPECT_TRUE(file) << file.error;
  rate = file.sample_rate;
  return file.samples;
}

// Chunks of random sizes, pushed just ahead of the clock, against the whole buffer at once.
TEST(Speech, ChunksOfAnySizeGiveTheSameCurveBitForBit) {
  std::uint32_t rate = 0;
  const std::vector<float> samples = speech_samples(rate);
  ASSERT_FALSE(samples.empty());
  for (const bool vowels : {false, true}) {
    p2l::Speech whole(rate, 1, {.vowels = vowels});
    ASSERT_TRUE(whole.push(samples));
    whole.end();
    const Curve expected = play(whole);
    std::mt19937 random(vowels ? 7 : 3);
    for (int run = 0; run < 3; ++run) {
      p2l::Speech chunked(rate, 1, {.vowels = vowels});
      Curve got;
      std::size_t sent = 0;
      while (!chunked.finished()) {
        // Before each update, push chunks until the update's audio is there.
        const double next = chunked.time() + kFrame + 1.0 / rate;
        while (sent < samples.size() && static_cast<double>(sent) < next * rate) {
          const std::size_t n = std::min<std::size_t>(std::uniform_int_distribution<std::size_t>(1, 4096)(random), samples.size() - sent);
          ASSERT_TRUE(chunked.push(std::span<const float>(samples.data() + sent, n)));
          sent += n;
        }
        if (sent == samples.size()) chunked.end();
        chunked.update(kFrame);
        got.level.push_back(chunked.level());
        got.vowels.push_back(chunked.vowels());
      }
      ASSERT_EQ(got.level.size(), expected.level.size());
      for (std::size_t k = 0; k < got.level.size(); ++k) {
        ASSERT_EQ(got.level[k], expected.level[k]) << "update " << k;
        ASSERT_EQ(got.vowels[k], expected.vowels[k]) << "update " << k;
      }
    }
  }
}

TEST(Speech, UpdatesAllocateNothingAfterWarmUp) {
  std::uint32_t rate = 0;
  const std::vector<float> samples = speech_samples(rate);
  for (const bool vowels : {false, true}) {
    p2l::Speech speech(rate, 1, {.vowels = vowels});
    // A steady stream: 1/60 s pushed and consumed each frame; the ring grows in the first ones.
    const std::size_t chunk = rate / 60;
    std::size_t sent = 0, during = 0;
    for (int frame = 0; sent + chunk <= samples.size(); ++frame) {
      ASSERT_TRUE(speech.push(std::span<const float>(samples.data() + sent, chunk)));
      sent += chunk;
      const std::size_t before = p2l_test::allocation_count();
      speech.update(kFrame);
      if (frame >= 10) during += p2l_test::allocation_count() - before;
    }
    EXPECT_EQ(during, 0u) << (vowels ? "with vowels" : "level only");
  }
}

// The clock waits for audio that has not come, reading silence meanwhile.
TEST(Speech, TheClockWaitsForAudio) {
  p2l::Speech speech(16000, 1);
  std::vector<float> tone(1600);
  for (std::size_t i = 0; i < tone.size(); ++i) tone[i] = 0.5f * static_cast<float>(std::sin(0.2 * static_cast<double>(i)));
  speech.update(0.5);
  EXPECT_EQ(speech.level(), 0.0f);
  EXPECT_EQ(speech.time(), 0.0);
  ASSERT_TRUE(speech.push(tone));  // 0.1 s
  speech.update(0.05);
  EXPECT_NEAR(speech.level(), 0.5 / std::sqrt(2.0), 0.01);
  EXPECT_NEAR(speech.time(), 0.05, 1e-9);
  speech.update(1.0);  // past the audio: consumes the rest, then waits
  EXPECT_NEAR(speech.time(), 0.1, 1e-9);
  EXPECT_GT(speech.level(), 0.3f);
  speech.update(kFrame);
  EXPECT_EQ(speech.level(), 0.0f);
  EXPECT_FALSE(speech.finished());
  speech.end();
  EXPECT_TRUE(speech.finished());
}

// How far the mouth lags the audio: a tone starting at a random time within an update.
TEST(Speech, LatencyIsTheMeasuredOne) {
  const std::uint32_t rate = 48000;
  std::mt19937 random(11);
  double worst_level = 0, worst_vowel = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const double onset = 0.3 + std::uniform_real_distribution<double>(0, kFrame)(random);
    // 1 s: silence, then a steady tone (for the level) or a vowel-like buzz (for the vowels).
    std::vector<float> tone(rate), buzz(rate);
    for (std::size_t i = static_cast<std::size_t>(onset * rate); i < tone.size(); ++i) {
      const double t = static_cast<double>(i) / rate;
      tone[i] = static_cast<float>(0.3 * std::sin(2 * M_PI * 700 * t));
      buzz[i] = static_cast<float>(0.3 * std::sin(2 * M_PI * 700 * t) * (0.6 + 0.4 * std::sin(2 * M_PI * 120 * t)) +
                                   0.2 * std::sin(2 * M_PI * 1200 * t));
    }
    const float half = static_cast<float>(0.3 / std::sqrt(2.0) / 2.0);
    p2l::Speech level(rate, 1);
    p2l::Speech vowels(rate, 1, {.vowels = true});
    ASSERT_TRUE(level.push(tone));
    ASSERT_TRUE(vowels.push(buzz));
    double level_at = -1, vowel_at = -1;
    for (int k = 1; k <= 50 && (level_at < 0 || vowel_at < 0); ++k) {
      level.update(kFrame);
      vowels.update(kFrame);
      if (level_at < 0 && level.level() > half) level_at = k * kFrame;
      if (vowel_at < 0 && vowels.vowel() != p2l::Vowel::Silence) vowel_at = k * kFrame;
    }
    ASSERT_GE(level_at, onset);
    worst_level = std::max(worst_level, level_at - onset);
    if (vowel_at >= 0) worst_vowel = std::max(worst_vowel, vowel_at - onset);
  }
  // The level covers the audio since the previous update: a sound starting late in an
  // update's window shows weakly there (the root of the part of the window it fills) and fully
  // at the next one: it passes half its level within 1.25 updates.
  EXPECT_LE(worst_level, 1.25 * kFrame);
  p2l::Speech probe(rate, 1, {.vowels = true});
  std::printf("level: passes half a sound's level within %.1f ms of its start at 60 updates/s; vowels: named within %.1f "
              "ms (window centre %.1f ms behind the clock)\n",
              worst_level * 1e3, worst_vowel * 1e3, probe.vowel_latency() * 1e3);
}

TEST(Speech, BadArgumentsAreRefusedWithReasons) {
  EXPECT_FALSE(p2l::Speech(7999, 1).ok());
  EXPECT_FALSE(p2l::Speech(400000, 1).ok());
  EXPECT_FALSE(p2l::Speech(48000, 0).ok());
  EXPECT_FALSE(p2l::Speech(48000, 33).ok());
  p2l::Speech bad(48000, 0);
  EXPECT_NE(bad.error().find("channels"), std::string::npos);
  const float one = 0.5f;
  EXPECT_FALSE(bad.push(&one, 1, p2l::PcmFormat::F32));

  p2l::Speech speech(48000, 2);
  EXPECT_FALSE(speech.push(&one, 1, static_cast<p2l::PcmFormat>(9)));
  EXPECT_NE(speech.error().find("format"), std::string::npos);
  EXPECT_FALSE(speech.push(nullptr, 4, p2l::PcmFormat::S16));
  EXPECT_FALSE(speech.push(std::span<const float>(&one, 1)));  // half a stereo frame
  EXPECT_NE(speech.error().find("whole frames"), std::string::npos);
  EXPECT_FALSE(speech.push(&one, p2l::Speech::kMaxBufferedFrames + 1, p2l::PcmFormat::F32));
  EXPECT_NE(speech.error().find("wait"), std::string::npos);
  speech.end();
  const float two[2] = {0.1f, 0.1f};
  EXPECT_FALSE(speech.push(two, 1, p2l::PcmFormat::F32));
  EXPECT_NE(speech.error().find("after the end"), std::string::npos);
  // Non-finite samples are silence; hostile time steps are no time.
  p2l::Speech odd(8000, 1, {.vowels = true});
  const float weird[4] = {NAN, INFINITY, -INFINITY, 1e30f};
  ASSERT_TRUE(odd.push(weird, 4, p2l::PcmFormat::F32));
  for (const double dt : {-1.0, std::nan(""), HUGE_VAL, 1e300, 0.0}) {
    odd.update(dt);
    EXPECT_TRUE(std::isfinite(odd.level()));
    float sum = 0;
    for (const float w : odd.vowels()) sum += w;
    EXPECT_NEAR(sum, 1.0f, 1e-5f);
  }
}

TEST(AudioFile, BadFilesAreRefusedWithAClearMessage) {
  const fs::path dir = audio_dir();
  if (dir.empty()) GTEST_SKIP() << "P2L_AUDIO_DIR not set (run_audio_tests.sh sets it)";
  const struct {
    const char* file;
    const char* says;
  } cases[] = {
      {"bad/truncated.wav", "truncated"},
      {"bad/truncated.ogg", "truncated"},
      {"bad/not_audio.wav", "not an audio file"},
      {"bad/ulaw.wav", "U-Law samples are not supported"},
      {"bad/speech.mp3", "not supported"},
      {"bad/empty.wav", "not an audio file"},
      {"bad/no_such_file.wav", "no_such_file.wav"},
  };
  for (const auto& c : cases) {
    const p2l::AudioFile file = p2l::decode_audio_file((dir / c.file).string());
    EXPECT_FALSE(file) << c.file;
    EXPECT_NE(file.error.find(c.says), std::string::npos) << c.file << ": " << file.error;
    EXPECT_TRUE(file.samples.empty());
    std::printf("%-22s -> %s\n", c.file, file.error.c_str());
    const std::vector<std::uint8_t> bytes = read_bytes(dir / c.file);
    const p2l::AudioFile memory = p2l::decode_audio_memory(bytes);
    EXPECT_FALSE(memory) << c.file;
  }
  const p2l::AudioFile too_long = p2l::decode_audio_file((dir / "formats/speech_s16.wav").string(), 1.0);
  EXPECT_NE(too_long.error.find("longer than"), std::string::npos) << too_long.error;
}

}  // namespace
