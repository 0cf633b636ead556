// TexturePages: a model's embedded PNG pages, each decoded once on first use and shared
// by every renderer given the same object, on any threads.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/mutex.hpp"
#include "p2l/render.hpp"
#include "render/report.hpp"

namespace p2l {

namespace render {
namespace {
std::atomic<PageFailureReporter> g_reporter{nullptr};
}  // namespace

void set_page_failure_reporter(PageFailureReporter reporter) noexcept { g_reporter.store(reporter); }
}  // namespace render

struct TexturePages::State {
  explicit State(std::size_t n) : done(n), decoded(n), errors(n) {}
  p2l::Mutex mutex;                               // held while a page decodes
  std::vector<std::atomic<std::uint8_t>> done;    // 1 once page() has tried the page
  std::vector<std::unique_ptr<Image>> decoded;    // null: not a PNG or it does not decode
  std::vector<std::string> errors;
};

TexturePages::TexturePages(std::shared_ptr<const Model> model)
    : model_(std::move(model)), state_(std::make_unique<State>(model_ ? model_->rig().textures.size() : 0)) {}

TexturePages::~TexturePages() = default;

const Image* TexturePages::page(std::uint32_t page) {
  if (!model_ || page >= state_->done.size()) return nullptr;
  const Texture& texture = model_->rig().textures[page];
  if (texture.kind != TextureKind::Png) return nullptr;
  State& s = *state_;
  if (s.done[page].load(std::memory_order_acquire) != 0) return s.decoded[page].get();

  std::string failure;
  {
    std::lock_guard<p2l::Mutex> lock(s.mutex);
    if (s.done[page].load(std::memory_order_relaxed) != 0) return s.decoded[page].get();
    auto image = std::make_unique<Image>();
    std::string error;
    if (!decode_png(texture.data.span(), *image, error)) {
      s.errors[page] = error.empty() ? "not a PNG the renderer reads" : error;
      failure = s.errors[page];
    } else if (image->width == 0 || image->height == 0 ||
               image->rgba.size() < std::size_t{image->width} * image->height * 4) {
      s.errors[page] = "the PNG decodes to no pixels";
      failure = s.errors[page];
    } else {
      s.decoded[page] = std::move(image);
    }
    s.done[page].store(1, std::memory_order_release);
  }
  if (!failure.empty()) {
    if (render::PageFailureReporter report = render::g_reporter.load(); report != nullptr) report(page, failure.c_str());
  }
  return s.decoded[page].get();
}

std::string TexturePages::error(std::uint32_t page) const {
  if (!model_ || page >= state_->done.size()) return "no such texture page";
  switch (model_->rig().textures[page].kind) {
    case TextureKind::Ktx2:
      return "a KTX2 page: the renderer draws it once the host gives its pixels";
    case TextureKind::External:
      return "an external page: the renderer draws it once the host gives its pixels";
    default:
      break;
  }
  std::lock_guard<p2l::Mutex> lock(state_->mutex);
  return state_->errors[page];
}

}  // namespace p2l
