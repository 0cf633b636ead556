// Measures what each input of a fuzz corpus costs the entry point it is for, against its size:
// the peak of heap memory in use during the call (every malloc, new and aligned allocation
// of the process, the codecs' included) and the time, for the worst input of the corpus and in
// total. docs/RELIABILITY.md "Bounds" states the bounds these figures back.
//   p2l_fuzz_bounds load|moc3|json|csm CORPUS_DIR
// load: p2l::load, then Model::create and one evaluation; moc3: p2l::import_moc3, then the
// same; json: a side file (first byte: its kind, as p2l_cubism_json_fuzzer) read into the
// small rig; csm: csmReviveMocInPlace, csmInitializeModelInPlace and csmUpdateModel.
// Build it without sanitizers (scripts/fuzz_bounds.sh), or the figures are the sanitizers'.
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "Live2DCubismCore.h"
#include "import/cubism/document.hpp"
#include "import/cubism/side_files.hpp"
#include "p2l/csm_release.h"
#include "p2l/eval.hpp"
#include "p2l/format.hpp"
#include "p2l/import.hpp"
#include "side_file_rig.hpp"

// ---- Heap accounting: glibc's allocator underneath, bytes in use and their peak on top ----
extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
void __libc_free(void*);
}

namespace {
std::atomic<std::int64_t> g_in_use{0}, g_peak{0};
void note_alloc(void* p) {
  if (!p) return;
  const std::int64_t now = g_in_use += static_cast<std::int64_t>(malloc_usable_size(p));
  std::int64_t peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
}
void note_free(void* p) {
  if (p) g_in_use -= static_cast<std::int64_t>(malloc_usable_size(p));
}
}  // namespace

extern "C" {
void* malloc(size_t n) {
  void* p = __libc_malloc(n);
  note_alloc(p);
  return p;
}
void* calloc(size_t n, size_t size) {
  void* p = __libc_calloc(n, size);
  note_alloc(p);
  return p;
}
void* realloc(void* old, size_t n) {
  note_free(old);
  void* p = __libc_realloc(old, n);
  if (p)
    note_alloc(p);
  else if (old && n)
    note_alloc(old);  // failed: the old block stays
  return p;
}
void free(void* p) {
  note_free(p);
  __libc_free(p);
}
void* memalign(size_t alignment, size_t n) {
  void* p = __libc_memalign(alignment, n);
  note_alloc(p);
  return p;
}
void* aligned_alloc(size_t alignment, size_t n) { return memalign(alignment, n); }
int posix_memalign(void** out, size_t alignment, size_t n) {
  void* p = memalign(alignment, n);
  if (!p) return 12;  // ENOMEM
  *out = p;
  return 0;
}
}

namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

void evaluate(std::shared_ptr<const p2l::Rig> rig) {
  auto model = p2l::Model::create(std::move(rig));
  if (!model) return;
  p2l::Instance in(model.model);
  in.evaluate();
}

void run_load(const Bytes& b) {
  p2l::LoadResult loaded = p2l::load(b);
  if (loaded) evaluate(loaded.rig);
}

void run_moc3(const Bytes& b) {
  p2l::ImportResult imported = p2l::import_moc3(b);
  if (imported) evaluate(std::make_shared<const p2l::Rig>(std::move(imported.rig)));
}

void run_json(const Bytes& b) {
  if (b.empty()) return;
  p2l::Rig rig = p2l_test::make_side_file_rig();
  p2l::ImportReport report;
  static const char kKinds[] = "mpoescu";
  char kind = static_cast<char>(b[0]);
  if (!std::strchr(kKinds, kind) || kind == 0) kind = kKinds[b[0] % 7];
  (void)p2l::cubism::guarded([&] {
    const p2l::cubism::Document doc = p2l::cubism::parse_document("f.json", std::span(b).subspan(1));
    const p2l::cubism::Node root(doc);
    switch (kind) {
      case 'm': (void)p2l::cubism::read_model3(root, report); break;
      case 'p': p2l::cubism::read_physics3(root, rig, report); break;
      case 'o': p2l::cubism::read_motion3(root, {"Idle", "f", -1, -1, "f"}, "f", true, rig, report); break;
      case 'e': p2l::cubism::read_exp3(root, "f", true, rig, report); break;
      case 's': p2l::cubism::read_pose3(root, rig, report); break;
      case 'c': p2l::cubism::read_cdi3(root, rig, report); break;
      default: p2l::cubism::read_userdata3(root, rig, report); break;
    }
  });
}

void run_csm(const Bytes& b) {
  const std::size_t size = (b.size() + csmAlignofMoc) / csmAlignofMoc * csmAlignofMoc;
  void* block = aligned_alloc(csmAlignofMoc, size);
  std::memcpy(block, b.data(), b.size());
  if (csmMoc* moc = csmReviveMocInPlace(block, static_cast<unsigned>(b.size()))) {
    const unsigned bytes = csmGetSizeofModel(moc);
    void* memory = aligned_alloc(csmAlignofModel, (bytes + csmAlignofModel) / csmAlignofModel * csmAlignofModel);
    if (csmModel* model = csmInitializeModelInPlace(moc, memory, bytes)) {
      csmUpdateModel(model);
      p2lcsm_release_model(model);
    }
    free(memory);
    p2lcsm_release_moc(moc);
  }
  free(block);
}

struct Worst {
  double value = -1;
  std::string file;
  std::size_t size = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s load|moc3|json|csm CORPUS_DIR\n", argv[0]);
    return 2;
  }
  const std::string kind = argv[1];
  void (*run)(const Bytes&) = kind == "load" ? run_load : kind == "moc3" ? run_moc3 : kind == "json" ? run_json
                                                        : kind == "csm"  ? run_csm
                                                                         : nullptr;
  if (!run) {
    std::fprintf(stderr, "p2l_fuzz_bounds: unknown kind %s\n", argv[1]);
    return 2;
  }
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(argv[2]))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  csmSetLogFunction(nullptr);

  // The bound is stated as heap peak <= K x input size + kConstant: kConstant covers what any
  // input costs (tables, the small rig, the codecs' contexts), K is the largest slope seen.
  constexpr double kConstant = 256.0 * 1024.0;
  Worst memory_ratio, memory_peak, time_per_byte, time_max, slope;
  double total_seconds = 0;
  std::uint64_t total_bytes = 0;
  for (const fs::path& path : files) {
    std::ifstream in(path, std::ios::binary);
    const Bytes bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const std::int64_t before = g_in_use.load();
    g_peak = before;
    const auto start = std::chrono::steady_clock::now();
    run(bytes);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double peak = static_cast<double>(g_peak.load() - before);
    const double size = static_cast<double>(std::max<std::size_t>(bytes.size(), 1));
    auto keep = [&](Worst& w, double v) {
      if (v > w.value) w = {v, path.filename().string(), bytes.size()};
    };
    keep(memory_ratio, peak / size);
    keep(memory_peak, peak);
    keep(slope, std::max(0.0, peak - kConstant) / size);
    keep(time_per_byte, seconds / size);
    keep(time_max, seconds);
    total_seconds += seconds;
    total_bytes += bytes.size();
  }
  std::printf("p2l_fuzz_bounds %s: %zu inputs, %llu bytes, %.3f s in all\n", kind.c_str(), files.size(),
              static_cast<unsigned long long>(total_bytes), total_seconds);
  std::printf("  largest heap peak / input size: %.1f (%s, %zu bytes)\n", memory_ratio.value, memory_ratio.file.c_str(),
              memory_ratio.size);
  std::printf("  heap peak <= %.1f x input size + 256 KiB for every input (steepest: %s, %zu bytes)\n",
              slope.value, slope.file.c_str(), slope.size);
  std::printf("  largest heap peak: %.0f bytes (%s, %zu bytes)\n", memory_peak.value, memory_peak.file.c_str(),
              memory_peak.size);
  std::printf("  longest time: %.3f ms (%s, %zu bytes)\n", time_max.value * 1e3, time_max.file.c_str(), time_max.size);
  std::printf("  longest time per input byte: %.3f us (%s, %zu bytes)\n", time_per_byte.value * 1e6,
              time_per_byte.file.c_str(), time_per_byte.size);
  return 0;
}
