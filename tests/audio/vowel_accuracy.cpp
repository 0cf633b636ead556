// Measures the vowel estimator (p2l::audio::VowelTracker) on speech whose phonemes are known:
// the corpus scripts/vowel_corpus.py writes (espeak-ng's held vowels and short words, with its
// own phoneme timing). scripts/vowel_accuracy.sh runs it; docs/AUDIO.md "Vowels" quotes it.
//
//   vowel_accuracy [--dump] NAME=DIR [NAME=DIR...]
//
// Each DIR holds manifest.txt ("voice kind wav lab" lines, kind held or word). The tracker runs
// over each file exactly as p2l::Speech runs it: an update every 1/60 s, given the latest
// window() samples. A frame's estimate (its heaviest weight) is compared with the label at the
// frame's time minus the tracker's latency. Scored frames:
// - held vowels: the vowel's frames but its first and last 30 ms (onset and offset);
// - words: vowel frames but each vowel's first and last 20 ms (transitions from consonants);
// - silence: frames 60 ms or more from any sound, in every file.
// Prints per voice x vowel accuracy for each set and kind, and the confusion tables of the
// first set; exits 1 when a target is missed (held vowels >= 90 % per voice and vowel in every
// set, word vowels >= 75 % per voice and vowel in the first), 2 on bad input. --dump prints
// every scored frame with its resonances instead.
#include <sndfile.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "audio/vowel_formants.hpp"
#include "audio/vowel_resampler.hpp"
#include "audio/vowels.hpp"

namespace {

constexpr double kFrameRate = 60;
constexpr double kHeldTrim = 0.030, kWordTrim = 0.020, kSilenceMargin = 0.060;
constexpr double kHeldTarget = 0.90, kWordTarget = 0.75;
constexpr int kClasses = static_cast<int>(p2l::kVowelCount);
const char* const kClassNames[kClasses] = {"A", "I", "U", "E", "O", "sil"};

struct Label {
  double start = 0, end = 0;
  int vowel = -1;  // 0..5, or -1 for a phoneme not scored
};

struct Utterance {
  std::string voice, kind, wav, lab;
};

struct Tally {
  std::array<std::array<long, kClasses>, kClasses> confusion{};  // [truth][estimate]
  void add(int truth, int estimate) { ++confusion[truth][estimate]; }
  long total(int truth) const {
    long n = 0;
    for (long c : confusion[truth]) n += c;
    return n;
  }
  double accuracy(int truth) const { return total(truth) ? static_cast<double>(confusion[truth][truth]) / static_cast<double>(total(truth)) : -1; }
};

int class_index(const std::string& name) {
  if (name == "silence") return 5;
  for (int c = 0; c < 5; ++c) {
    if (name == kClassNames[c]) return c;
  }
  return -1;
}

bool read_labels(const std::string& path, std::vector<Label>& labels) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    Label label;
    std::string phoneme, name;
    if (!(fields >> label.start >> label.end >> phoneme >> name)) continue;
    label.vowel = class_index(name);
    labels.push_back(label);
  }
  return !labels.empty();
}

bool read_mono(const std::string& path, std::vector<float>& mono, std::uint32_t& rate) {
  SF_INFO info{};
  SNDFILE* file = sf_open(path.c_str(), SFM_READ, &info);
  if (!file) return false;
  std::vector<float> interleaved(static_cast<std::size_t>(info.frames) * info.channels);
  sf_readf_float(file, interleaved.data(), info.frames);
  sf_close(file);
  mono.assign(static_cast<std::size_t>(info.frames), 0.0f);
  for (std::size_t i = 0; i < mono.size(); ++i) {
    double sum = 0;
    for (int c = 0; c < info.channels; ++c) sum += interleaved[i * info.channels + c];
    mono[i] = static_cast<float>(sum / info.channels);
  }
  rate = static_cast<std::uint32_t>(info.samplerate);
  return true;
}

// The class a frame at [time] is scored against, or -1 when it is not scored.
int truth_at(const std::vector<Label>& labels, double time, const std::string& kind) {
  for (const Label& label : labels) {
    if (time < label.start || time >= label.end) continue;
    if (label.vowel < 0) return -1;
    if (label.vowel == 5) {
      // Silence far enough from every sound that the window holds none of it.
      for (const Label& other : labels) {
        if (other.vowel == 5) continue;
        if (time > other.start - kSilenceMargin && time < other.end + kSilenceMargin) return -1;
      }
      return 5;
    }
    const double trim = kind == "held" ? kHeldTrim : kWordTrim;
    return time >= label.start + trim && time < label.end - trim ? label.vowel : -1;
  }
  return -1;
}

struct Resonances {
  double f1 = 0, f2 = 0, f3 = 0;
};

bool measure(const std::string& set, const std::string& dir, const Utterance& utterance, bool dump,
             std::map<std::string, Tally>& tallies) {
  std::vector<float> mono;
  std::uint32_t rate = 0;
  std::vector<Label> labels;
  if (!read_mono(dir + "/" + utterance.wav, mono, rate) || !read_labels(dir + "/" + utterance.lab, labels)) {
    std::fprintf(stderr, "vowel_accuracy: cannot read %s/%s or its labels\n", dir.c_str(), utterance.wav.c_str());
    return false;
  }
  p2l::audio::VowelTracker tracker(rate);
  p2l::audio::VowelResampler resampler(rate);
  p2l::audio::FormantAnalyser analyser;
  std::array<double, p2l::audio::VowelResampler::kFrame> frame{};
  std::array<float, p2l::kVowelCount> weights{};
  Tally& tally = tallies[utterance.voice + "/" + utterance.kind];
  const double duration = static_cast<double>(mono.size()) / rate;
  for (int k = 1; k / kFrameRate <= duration; ++k) {
    const double time = k / kFrameRate;
    const std::size_t end = std::min(mono.size(), static_cast<std::size_t>(time * rate));
    const std::size_t begin = end > tracker.window() ? end - tracker.window() : 0;
    const std::span<const float> window(mono.data() + begin, end - begin);
    tracker.analyse(window, 1 / kFrameRate, weights);
    const int estimate = static_cast<int>(std::max_element(weights.begin(), weights.end()) - weights.begin());
    const int truth = truth_at(labels, time - tracker.latency(), utterance.kind);
    if (truth < 0) continue;
    tally.add(truth, estimate);
    if (dump) {
      resampler.resample(window, frame);
      const p2l::audio::Resonances found = analyser.analyse(frame);
      std::printf("%s %s %s %.3f truth %s est %s |", set.c_str(), utterance.voice.c_str(), utterance.wav.c_str(), time,
                  kClassNames[truth], kClassNames[estimate]);
      for (std::size_t i = 0; i < found.count; ++i) std::printf(" %4.0f/%3.0f", found.frequency[i], found.bandwidth[i]);
      std::printf(" | w");
      for (float w : weights) std::printf(" %.2f", static_cast<double>(w));
      std::printf("\n");
    }
  }
  return true;
}

void print_accuracy(const std::string& set, const std::string& kind, const std::vector<std::string>& voices,
                    const std::map<std::string, Tally>& tallies, double target, bool check, bool& missed) {
  std::printf("\n%s, %s: frame accuracy %% (frames)%s\n", set.c_str(), kind == "held" ? "held vowels" : "vowels in words",
              check ? "" : ", not a target");
  std::printf("| voice | A | I | U | E | O | silence |\n|---|---|---|---|---|---|---|\n");
  Tally all;
  for (const std::string& voice : voices) {
    auto found = tallies.find(voice + "/" + kind);
    if (found == tallies.end()) continue;
    const Tally& tally = found->second;
    std::printf("| %s |", voice.c_str());
    for (int c = 0; c < kClasses; ++c) {
      for (int e = 0; e < kClasses; ++e) all.confusion[c][e] += tally.confusion[c][e];
      const double accuracy = tally.accuracy(c);
      if (accuracy < 0) {
        std::printf(" - |");
        continue;
      }
      const bool miss = check && c < 5 && accuracy < target;
      missed = missed || miss;
      std::printf(" %.1f (%ld)%s |", 100 * accuracy, tally.total(c), miss ? " MISSED" : "");
    }
    std::printf("\n");
  }
  std::printf("| all |");
  for (int c = 0; c < kClasses; ++c) {
    if (all.accuracy(c) < 0) std::printf(" - |");
    else std::printf(" %.1f (%ld) |", 100 * all.accuracy(c), all.total(c));
  }
  std::printf("\n");
}

void print_confusion(const std::string& title, const std::map<std::string, Tally>& tallies, const std::string& kind) {
  Tally all;
  for (const auto& [key, tally] : tallies) {
    if (key.substr(key.find('/') + 1) != kind) continue;
    for (int c = 0; c < kClasses; ++c) {
      for (int e = 0; e < kClasses; ++e) all.confusion[c][e] += tally.confusion[c][e];
    }
  }
  std::printf("\n%s: confusion (frames; rows: truth, columns: estimate)\n", title.c_str());
  std::printf("| truth \\ estimate | A | I | U | E | O | silence |\n|---|---|---|---|---|---|---|\n");
  for (int c = 0; c < kClasses; ++c) {
    std::printf("| %s |", c == 5 ? "silence" : kClassNames[c]);
    for (int e = 0; e < kClasses; ++e) std::printf(" %ld |", all.confusion[c][e]);
    std::printf("\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool dump = false;
  std::vector<std::pair<std::string, std::string>> sets;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::size_t equals = arg.find('=');
    if (arg == "--dump") dump = true;
    else if (equals != std::string::npos) sets.emplace_back(arg.substr(0, equals), arg.substr(equals + 1));
    else {
      std::fprintf(stderr, "usage: vowel_accuracy [--dump] NAME=DIR [NAME=DIR...]\n");
      return 2;
    }
  }
  if (sets.empty()) {
    std::fprintf(stderr, "usage: vowel_accuracy [--dump] NAME=DIR [NAME=DIR...]\n");
    return 2;
  }
  bool missed = false;
  for (std::size_t s = 0; s < sets.size(); ++s) {
    const auto& [name, dir] = sets[s];
    std::ifstream manifest(dir + "/manifest.txt");
    if (!manifest) {
      std::fprintf(stderr, "vowel_accuracy: no %s/manifest.txt\n", dir.c_str());
      return 2;
    }
    std::vector<std::string> voices;
    std::map<std::string, Tally> tallies;
    std::string line;
    while (std::getline(manifest, line)) {
      std::istringstream fields(line);
      Utterance utterance;
      if (!(fields >> utterance.voice >> utterance.kind >> utterance.wav >> utterance.lab)) continue;
      if (std::find(voices.begin(), voices.end(), utterance.voice) == voices.end()) voices.push_back(utterance.voice);
      if (!measure(name, dir, utterance, dump, tallies)) return 2;
    }
    if (dump) continue;
    print_accuracy(name, "held", voices, tallies, kHeldTarget, true, missed);
    const bool has_words = std::any_of(tallies.begin(), tallies.end(), [](const auto& t) { return t.first.ends_with("/word"); });
    if (has_words) print_accuracy(name, "word", voices, tallies, kWordTarget, s == 0, missed);
    if (s == 0) {
      print_confusion(name + ", held vowels", tallies, "held");
      if (has_words) print_confusion(name + ", vowels in words", tallies, "word");
    }
  }
  if (dump) return 0;
  std::printf("\n%s\n", missed ? "vowel_accuracy: a target was missed" : "vowel_accuracy: every target met");
  return missed ? 1 : 0;
}
