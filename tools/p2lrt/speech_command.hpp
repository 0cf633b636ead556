// `p2lrt speech`: what p2lrt hears in a voice, frame by frame: the mouth level (Cubism's RMS)
// and, with --vowels, the vowel weights, as CSV; to check a recording, pick a gain, or find the
// frames where each vowel is spoken (scripts/speech_sheet.sh).
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace p2lrt {

struct SpeechOptions {
  std::string input;
  float fps = 60;
  float gain = 1;
  bool vowels = false;
  void add_to(CLI::App* command);
};

int speech(const SpeechOptions& options);

}  // namespace p2lrt
