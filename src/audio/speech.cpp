// p2l::Speech: the PCM ring, the speech clock and Cubism's RMS (docs/AUDIO.md). The level is
// what LAppWavFileHandler.update computes (Live2D's CubismWebSamples): the clock adds dt, the
// samples up to floor(clock × rate) not yet consumed are the window, and the level is the
// root mean square of every channel's samples in it. Each frame's sum of squares is kept in
// double as the sample sums them, so chunking never changes a bit of the result.
#include <algorithm>
#include <cmath>

#include "audio/pcm.hpp"
#include "audio/vowels.hpp"
#include "base/exceptions.hpp"
#include "p2l/audio.hpp"

namespace p2l {

namespace {
constexpr std::size_t kFirstCapacity = 4096;

std::size_t power_of_two_at_least(std::uint64_t n) {
  std::size_t p = kFirstCapacity;
  while (p < n) p *= 2;
  return p;
}
}  // namespace

const char* vowel_name(Vowel vowel) {
  switch (vowel) {
    case Vowel::A: return "A";
    case Vowel::I: return "I";
    case Vowel::U: return "U";
    case Vowel::E: return "E";
    case Vowel::O: return "O";
    case Vowel::Silence: return "silence";
  }
  return "?";
}

Speech::Speech(std::uint32_t sample_rate, std::uint32_t channels, SpeechOptions options) : options_(options) {
  if (sample_rate < kMinRate || sample_rate > kMaxRate) {
    error_ = "a sample rate of " + std::to_string(sample_rate) + " Hz is out of range (8000..384000)";
    return;
  }
  if (channels < 1 || channels > kMaxChannels) {
    error_ = std::to_string(channels) + " channels are out of range (1..32)";
    return;
  }
  if (!std::isfinite(options_.gain) || options_.gain < 0.0f) options_.gain = 1.0f;
  if (options_.vowels) {
    tracker_ = std::make_unique<audio::VowelTracker>(sample_rate);
    window_.resize(tracker_->window());
  }
  rate_ = sample_rate;
  channels_ = channels;
}

Speech::~Speech() = default;
Speech::Speech(Speech&&) noexcept = default;
Speech& Speech::operator=(Speech&&) noexcept = default;

bool Speech::refuse(std::string message) {
  error_ = std::move(message);
  return false;
}

std::size_t Speech::history() const { return tracker_ ? tracker_->window() : 0; }

bool Speech::make_room(std::uint64_t frames) {
  const std::uint64_t keep_from = consumed_ > history() ? consumed_ - history() : 0;
  const std::uint64_t needed = pushed_ + frames - keep_from;
  if (needed <= capacity_) return true;
  const std::size_t capacity = power_of_two_at_least(needed);
  std::vector<double> energy;
  std::vector<float> mono;
  P2L_TRY {
    energy.resize(capacity);
    mono.resize(capacity);
  } P2L_CATCH_ALL {
    return refuse("out of memory for " + std::to_string(needed) + " frames of audio");
  }
  for (std::uint64_t i = keep_from; i < pushed_; ++i) {
    energy[i & (capacity - 1)] = energy_[i & (capacity_ - 1)];
    mono[i & (capacity - 1)] = mono_[i & (capacity_ - 1)];
  }
  energy_.swap(energy);
  mono_.swap(mono);
  capacity_ = capacity;
  return true;
}

bool Speech::push(const void* data, std::size_t frames, PcmFormat format) {
  if (!ok()) return refuse(error_.empty() ? "the speech was not set up" : error_);
  const std::size_t bytes = pcm_bytes(format);
  if (bytes == 0) return refuse("unknown sample format " + std::to_string(static_cast<std::uint32_t>(format)));
  if (frames == 0) return true;
  if (data == nullptr) return refuse("no samples given for " + std::to_string(frames) + " frames");
  if (ended_) return refuse("audio pushed after the end of the speech");
  if (frames > kMaxBufferedFrames || pushed_ - consumed_ + frames > kMaxBufferedFrames)
    return refuse("more than " + std::to_string(kMaxBufferedFrames) + " frames of audio would wait to be consumed (" +
                  std::to_string(pushed_ - consumed_) + " wait, " + std::to_string(frames) + " pushed)");
  if (!make_room(frames)) return false;
  const auto* in = static_cast<const std::uint8_t*>(data);
  const std::size_t mask = capacity_ - 1;
  const float per_channel = 1.0f / static_cast<float>(channels_);
  for (std::size_t f = 0; f < frames; ++f) {
    double energy = 0.0;
    float sum = 0.0f;
    for (std::uint32_t c = 0; c < channels_; ++c, in += bytes) {
      const float s = audio::pcm_sample(in, format);
      energy += static_cast<double>(s) * static_cast<double>(s);
      sum += s;
    }
    energy_[(pushed_ + f) & mask] = energy;
    mono_[(pushed_ + f) & mask] = sum * per_channel;
  }
  pushed_ += frames;
  return true;
}

bool Speech::push(std::span<const float> interleaved) {
  if (ok() && interleaved.size() % channels_ != 0)
    return refuse(std::to_string(interleaved.size()) + " samples are not whole frames of " + std::to_string(channels_) +
                  " channels");
  return push(interleaved.data(), ok() ? interleaved.size() / channels_ : 0, PcmFormat::F32);
}

void Speech::end() { ended_ = true; }

bool Speech::set_gain(float gain) {
  if (!std::isfinite(gain) || gain < 0.0f) return false;
  options_.gain = gain;
  return true;
}

void Speech::update(double dt) {
  if (!ok()) return;
  const double step = std::isfinite(dt) && dt > 0.0 ? dt : 0.0;
  clock_ += step;
  // The sample's goal offset, floor(time × rate), never past the audio pushed: the clock
  // waits for audio that has not come.
  const double goal_real = std::floor(clock_ * static_cast<double>(rate_));
  std::uint64_t goal = pushed_;
  if (goal_real < static_cast<double>(pushed_)) {
    goal = static_cast<std::uint64_t>(goal_real);
  } else {
    clock_ = static_cast<double>(pushed_) / static_cast<double>(rate_);
  }
  bool starving = false;
  if (goal > consumed_) {
    double sum = 0.0;
    const std::size_t mask = capacity_ - 1;
    for (std::uint64_t i = consumed_; i < goal; ++i) sum += energy_[i & mask];
    rms_ = std::sqrt(sum / (static_cast<double>(channels_) * static_cast<double>(goal - consumed_)));
    consumed_ = goal;
  } else if (step > 0.0 && consumed_ == pushed_) {
    rms_ = 0.0;  // the audio ran out: silence until more comes
    starving = true;
  }
  // else: too short a step for one sample; the level stays
  const double level = rms_ * static_cast<double>(options_.gain);
  level_ = static_cast<float>(std::clamp(level, 0.0, 1.0));

  if (tracker_) {
    // The latest window of mono samples up to the clock; silence when the audio ran out.
    std::size_t n = 0;
    if (!starving) {
      n = static_cast<std::size_t>(std::min<std::uint64_t>(window_.size(), consumed_));
      const std::size_t mask = capacity_ - 1;
      for (std::size_t i = 0; i < n; ++i) window_[i] = mono_[(consumed_ - n + i) & mask];
    }
    tracker_->analyse(std::span<const float>(window_.data(), n), step, weights_);
  }
}

void Speech::reset() {
  pushed_ = consumed_ = 0;
  clock_ = 0.0;
  ended_ = false;
  level_ = 0.0f;
  rms_ = 0.0;
  weights_ = {0, 0, 0, 0, 0, 1};
  if (tracker_) tracker_->reset();
  error_.clear();
}

Vowel Speech::vowel() const {
  const auto heaviest = std::max_element(weights_.begin(), weights_.end());
  return static_cast<Vowel>(heaviest - weights_.begin());
}

double Speech::vowel_latency() const { return tracker_ ? tracker_->latency() : 0.0; }

}  // namespace p2l
