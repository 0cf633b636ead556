#include "p2lrt/view/view_command.hpp"

#include <epoxy/gl.h>  // before GLFW, which then includes no GL header of its own
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "p2l/p2l_gl.h"
#include "p2lrt/view/character.hpp"
#include "p2lrt/view/desktop.hpp"
#include "p2lrt/view/framing.hpp"
#include "p2lrt/view/panel.hpp"

namespace p2lrt {
namespace {

using viewer::Character;
using viewer::Framing;
using viewer::PanelState;

constexpr double kFrameSeconds = 1.0 / 60;
constexpr double kDragPixels = 4;        // a press that moves less is a click
constexpr float kOpaqueAlpha = 0.1f;      // mascot: under this, clicks pass through (faint edges too)
constexpr double kBannerSeconds = 4;

std::string glfw_error;  // GLFW's last error, for the messages a failure prints

void on_glfw_error(int, const char* description) { glfw_error = description ? description : ""; }

// The panel's fonts, from Debian packages in fixed places: a Latin one, then one with Japanese
// and Chinese glyphs merged into it (cdi3 names are often Japanese). Without them ImGui's own
// font shows ASCII, and names it cannot show give way to ids.
constexpr const char* kLatinFonts[] = {
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",                  // fonts-dejavu-core
};
constexpr const char* kWideFonts[] = {
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",        // fonts-droid-fallback
    "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",                // fonts-ipafont-gothic
};

bool readable(const char* path) {
  FILE* f = std::fopen(path, "rb");
  if (f) std::fclose(f);
  return f != nullptr;
}

bool parse_size(const std::string& text, int& width, int& height) {
  const auto x = text.find('x');
  if (x == std::string::npos) return false;
  const char* end = text.data() + text.size();
  const auto a = std::from_chars(text.data(), text.data() + x, width);
  const auto b = std::from_chars(text.data() + x + 1, end, height);
  return a.ec == std::errc() && a.ptr == text.data() + x && b.ec == std::errc() && b.ptr == end && width >= 64 &&
         height >= 64 && width <= 16384 && height <= 16384;
}

std::string file_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

struct Viewer {
  ViewOptions options;
  std::unique_ptr<Character> character;
  GLFWwindow* window = nullptr;
  P2lGl* gl = nullptr;
  std::unique_ptr<viewer::Desktop> desktop;
  Framing framing;
  PanelState panel;
  // The left button: where it went down (window pixels, and screen pixels with the window's place
  // for a mascot's drag), and whether it has moved far enough to be a drag.
  bool pressing = false, dragging = false;
  double press_x = 0, press_y = 0, press_screen_x = 0, press_screen_y = 0;
  int press_window_x = 0, press_window_y = 0;
  double event_x = 0, event_y = 0;  // the pointer in the window as the last event put it
  float press_pan_x = 0, press_pan_y = 0;
  bool open_menu = false;
  std::string banner;
  double banner_until = 0;

  // Window pixels to framebuffer pixels (they differ on high-density screens).
  void scale(float& sx, float& sy) const {
    int ww = 1, wh = 1, fw = 1, fh = 1;
    glfwGetWindowSize(window, &ww, &wh);
    glfwGetFramebufferSize(window, &fw, &fh);
    sx = ww > 0 ? static_cast<float>(fw) / static_cast<float>(ww) : 1;
    sy = wh > 0 ? static_cast<float>(fh) / static_cast<float>(wh) : 1;
  }

  void tap(double x, double y) {
    float sx = 1, sy = 1, cx = 0, cy = 0;
    scale(sx, sy);
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(window, &fw, &fh);
    framing.to_canvas(static_cast<float>(fw), static_cast<float>(fh), static_cast<float>(x) * sx,
                      static_cast<float>(y) * sy, cx, cy);
    std::int32_t played = -1;
    bool from_tap_group = false;
    const std::int32_t area = character->tap(cx, cy, played, from_tap_group);
    if (area < 0) return;
    P2lRig* rig = character->rig();
    const std::string id = p2l_hit_area_id(rig, static_cast<std::uint32_t>(area));
    const std::string name = p2l_hit_area_name(rig, static_cast<std::uint32_t>(area));
    std::string what = (name.empty() || name == id ? id : name + " (" + id + ")") + ": ";
    if (played < 0) what += "no motion to play";
    else what += "plays " + character->clip_label(played) + (from_tap_group ? "" : " (no tap group for it: a motion outside Idle)");
    std::cout << "tap " << what << std::endl;
    panel.last_tap = what;
    banner = what;
    banner_until = glfwGetTime() + kBannerSeconds;
  }

  void reset() {
    p2l_clear_parameter_overrides(character->rig());
    std::fill(panel.held.begin(), panel.held.end(), 0);
    p2l_physics_reset(character->rig());
    framing.zoom = 1;
    framing.pan_x = framing.pan_y = 0;
  }
};

Viewer& viewer_of(GLFWwindow* window) { return *static_cast<Viewer*>(glfwGetWindowUserPointer(window)); }

// A mascot follows the pointer's place on the screen, polled every frame and at the release: the
// window moves under the pointer, so the pointer's place in it (all that GLFW's cursor events
// carry, and only when it changes) says nothing of the drag.
void follow_mascot_drag(Viewer& v) {
  double sx = 0, sy = 0;
  if (!v.desktop->pointer(sx, sy)) return;
  const double dx = sx - v.press_screen_x, dy = sy - v.press_screen_y;
  if (!v.dragging && std::hypot(dx, dy) < kDragPixels) return;
  v.dragging = true;
  glfwSetWindowPos(v.window, v.press_window_x + static_cast<int>(std::lround(dx)),
                   v.press_window_y + static_cast<int>(std::lround(dy)));
}

// The callbacks are set before ImGui's backend, which passes every event on to them (its
// WantCapture flags, from the last frame, tell whether the panel took it).
void on_key(GLFWwindow* window, int key, int, int action, int mods) {
  Viewer& v = viewer_of(window);
  if (action == GLFW_RELEASE || ImGui::GetIO().WantCaptureKeyboard) return;
  const int step = (mods & GLFW_MOD_SHIFT) ? -1 : 1;
  switch (key) {
    case GLFW_KEY_RIGHT: v.character->step_clip(1); break;
    case GLFW_KEY_LEFT: v.character->step_clip(-1); break;
    case GLFW_KEY_UP: v.character->step_expression(-1); break;
    case GLFW_KEY_DOWN: v.character->step_expression(1); break;
    case GLFW_KEY_E: v.character->step_expression(step); break;
    case GLFW_KEY_M: v.character->step_clip(step); break;
    case GLFW_KEY_TAB: v.panel.shown = !v.panel.shown; break;
    case GLFW_KEY_SPACE: v.panel.paused = !v.panel.paused; break;
    case GLFW_KEY_R: v.reset(); break;
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_Q: glfwSetWindowShouldClose(window, GLFW_TRUE); break;
    default: break;
  }
}

void on_mouse_button(GLFWwindow* window, int button, int action, int) {
  Viewer& v = viewer_of(window);
  if (action == GLFW_PRESS && ImGui::GetIO().WantCaptureMouse) return;
  if (button == GLFW_MOUSE_BUTTON_RIGHT && action == GLFW_PRESS && v.options.mascot) v.open_menu = true;
  if (button != GLFW_MOUSE_BUTTON_LEFT) return;
  if (action == GLFW_PRESS) {
    v.pressing = true;
    v.dragging = false;
    // Where the press happened: the pointer as the events before it left it, not as it is now
    // (glfwGetCursorPos asks the X server), since a quick drag has moved on by the time this event
    // is read.
    glfwGetWindowPos(window, &v.press_window_x, &v.press_window_y);
    v.press_x = v.event_x, v.press_y = v.event_y;
    v.press_screen_x = v.press_window_x + v.press_x, v.press_screen_y = v.press_window_y + v.press_y;
    v.press_pan_x = v.framing.pan_x;
    v.press_pan_y = v.framing.pan_y;
  } else if (action == GLFW_RELEASE && v.pressing) {
    if (v.options.mascot) follow_mascot_drag(v);
    if (!v.dragging) v.tap(v.press_x, v.press_y);
    v.pressing = v.dragging = false;
  }
}

void on_cursor(GLFWwindow* window, double x, double y) {
  Viewer& v = viewer_of(window);
  v.event_x = x, v.event_y = y;
  if (!v.pressing || v.options.mascot) return;
  const double dx = x - v.press_x, dy = y - v.press_y;
  if (!v.dragging && std::hypot(dx, dy) < kDragPixels) return;
  v.dragging = true;
  float sx = 1, sy = 1;
  v.scale(sx, sy);
  v.framing.pan_x = v.press_pan_x + static_cast<float>(dx) * sx;
  v.framing.pan_y = v.press_pan_y + static_cast<float>(dy) * sy;
}

void on_scroll(GLFWwindow* window, double, double dy) {
  Viewer& v = viewer_of(window);
  if (ImGui::GetIO().WantCaptureMouse || dy == 0) return;
  double x = 0, y = 0;
  glfwGetCursorPos(window, &x, &y);
  float sx = 1, sy = 1;
  v.scale(sx, sy);
  int fw = 0, fh = 0;
  glfwGetFramebufferSize(window, &fw, &fh);
  v.framing.zoom_about(static_cast<float>(fw), static_cast<float>(fh), static_cast<float>(x) * sx,
                       static_cast<float>(y) * sy, static_cast<float>(std::pow(1.1, dy)));
}

// The mascot's menu (right click): what a window's border and the panel give otherwise.
void mascot_menu(Viewer& v) {
  if (v.open_menu) ImGui::OpenPopup("mascot");
  v.open_menu = false;
  if (!ImGui::BeginPopup("mascot")) return;
  P2lRig* rig = v.character->rig();
  if (ImGui::BeginMenu("Motions")) {
    for (std::uint32_t i = 0; i < p2l_clip_count(rig); ++i)
      if (ImGui::MenuItem(v.character->clip_label(static_cast<std::int32_t>(i)).c_str())) v.character->play(static_cast<std::int32_t>(i));
    ImGui::EndMenu();
  }
  if (p2l_expression_count(rig) > 0 && ImGui::BeginMenu("Expressions")) {
    if (ImGui::MenuItem("none")) v.character->set_expression(-1);
    for (std::uint32_t i = 0; i < p2l_expression_count(rig); ++i)
      if (ImGui::MenuItem(v.character->expression_label(static_cast<std::int32_t>(i)).c_str()))
        v.character->set_expression(static_cast<std::int32_t>(i));
    ImGui::EndMenu();
  }
  if (ImGui::MenuItem("Quit")) glfwSetWindowShouldClose(v.window, GLFW_TRUE);
  ImGui::EndPopup();
}

// What the last click hit, along the window's bottom for a few seconds.
void draw_banner(const Viewer& v, float left, float width, float height) {
  if (v.banner.empty() || glfwGetTime() > v.banner_until) return;
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  const ImVec2 size = ImGui::CalcTextSize(v.banner.c_str(), nullptr, false, width - left - 24);
  const ImVec2 at(left + 12, height - size.y - 16);
  draw->AddRectFilled(ImVec2(at.x - 6, at.y - 4), ImVec2(at.x + size.x + 6, at.y + size.y + 4), IM_COL32(20, 24, 32, 200), 6);
  draw->AddText(nullptr, 0, at, IM_COL32(255, 255, 255, 255), v.banner.c_str(), nullptr, width - left - 24);
}

// True when names in Japanese and Chinese can be shown.
bool load_fonts(float size) {
  ImGuiIO& io = ImGui::GetIO();
  ImFont* latin = nullptr;
  for (const char* path : kLatinFonts)
    if (!latin && readable(path)) latin = io.Fonts->AddFontFromFileTTF(path, size);
  if (!latin) io.Fonts->AddFontDefault();
  for (const char* path : kWideFonts) {
    if (!readable(path)) continue;
    ImFontGlyphRangesBuilder builder;
    builder.AddRanges(io.Fonts->GetGlyphRangesJapanese());
    builder.AddRanges(io.Fonts->GetGlyphRangesChineseSimplifiedCommon());
    static ImVector<ImWchar> ranges;  // ImGui keeps the pointer until the atlas is built
    ranges.clear();
    builder.BuildRanges(&ranges);
    ImFontConfig merge;
    merge.MergeMode = true;
    if (io.Fonts->AddFontFromFileTTF(path, size, &merge, ranges.Data)) return true;
  }
  return false;
}

void print_trace(const Viewer& v, double now, double px, double py, float lx, float ly) {
  P2lRig* rig = v.character->rig();
  std::printf("trace t=%.2f pointer=%.0f,%.0f look=%.2f,%.2f", now, px, py, lx, ly);
  for (const char* role : {"AngleX", "AngleY"}) {
    std::uint32_t p = 0;
    if (p2l_role_parameters(rig, role, &p, 1) > 0) std::printf(" %s=%.2f", role, p2l_parameter_current(rig)[p]);
  }
  // Where each hit area is in the window, for scripts that click it.
  int fw = 0, fh = 0;
  glfwGetFramebufferSize(v.window, &fw, &fh);
  float sx = 1, sy = 1;
  v.scale(sx, sy);
  const auto t = v.framing.transform(static_cast<float>(fw), static_cast<float>(fh));
  for (std::uint32_t a = 0; a < p2l_hit_area_count(rig); ++a) {
    float x = 0, y = 0;
    if (v.character->hit_area_point(a, x, y))
      std::printf(" %s@%.0f,%.0f", p2l_hit_area_id(rig, a), (t[0] * x + t[4]) / sx, (t[3] * y + t[5]) / sy);
  }
  std::printf(" motion=%s expression=%s fps=%.0f\n", v.character->clip_label(p2l_clip_playing(rig)).c_str(),
              v.character->expression_label(v.character->expression()).c_str(), v.panel.fps);
  std::fflush(stdout);
}

int run(Viewer& v) {
  GLFWwindow* window = v.window;
  P2lRig* rig = v.character->rig();
  double last = glfwGetTime(), next_trace = last, fps_since = last;
  int fps_frames = 0;
  while (!glfwWindowShouldClose(window)) {
    const double now = glfwGetTime();
    const float dt = static_cast<float>(std::min(now - last, 0.1));  // a stall does not jump
    last = now;
    int fw = 0, fh = 0, ww = 1, wh = 1;
    glfwGetFramebufferSize(window, &fw, &fh);
    glfwGetWindowSize(window, &ww, &wh);
    const float sx = ww > 0 ? static_cast<float>(fw) / static_cast<float>(ww) : 1;
    const float sy = wh > 0 ? static_cast<float>(fh) / static_cast<float>(wh) : 1;

    // The gaze: the pointer from the character's centre, in half window heights (x right, y up).
    if (v.options.mascot && v.pressing) follow_mascot_drag(v);
    double px = 0, py = 0;
    glfwGetCursorPos(window, &px, &py);
    const auto t = v.framing.transform(static_cast<float>(fw), static_cast<float>(fh));
    const double centre_x = (t[0] * v.framing.center_x + t[4]) / sx, centre_y = (t[3] * v.framing.center_y + t[5]) / sy;
    const double reach = std::max(1, wh) / 2.0;
    const auto lx = static_cast<float>(std::clamp((px - centre_x) / reach, -1.0, 1.0));
    const auto ly = static_cast<float>(std::clamp(-(py - centre_y) / reach, -1.0, 1.0));
    p2l_look_at(rig, lx, ly);

    const auto clock = std::chrono::steady_clock::now;
    const auto t0 = clock();
    // Paused, time stands still but the pose is applied again: a slider still moves its parameter.
    v.character->update(v.panel.paused ? 0.0f : dt, P2L_STAGE_ALL & ~(v.panel.physics ? 0u : P2L_STAGE_PHYSICS));
    const auto t1 = clock();

    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, fw, fh);
    if (v.options.mascot) glClearColor(0, 0, 0, 0);
    else glClearColor(0.93f, 0.94f, 0.96f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    if (fw > 0 && fh > 0 && !p2l_gl_draw(v.gl, rig, static_cast<std::uint32_t>(fw), static_cast<std::uint32_t>(fh), t.data(), 0)) {
      std::cerr << "p2lrt view: " << p2l_gl_failure(v.gl) << "\n";
      return 1;
    }
    glFinish();  // so that the draw time is the GPU's too
    const auto t2 = clock();
    v.panel.update_ms = std::chrono::duration<float, std::milli>(t1 - t0).count();
    v.panel.draw_ms = std::chrono::duration<float, std::milli>(t2 - t1).count();

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    const float panel_width = v.options.mascot ? 0 : draw_panel(*v.character, v.panel, static_cast<float>(wh));
    v.framing.left = panel_width * sx;
    if (v.options.mascot) mascot_menu(v);
    draw_banner(v, panel_width, static_cast<float>(ww), static_cast<float>(wh));
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

    if (v.options.mascot) {
      // Clicks pass through where the picture under the pointer is (nearly) transparent. A drag
      // in progress keeps them, however fast the pointer moves off the character.
      const int x = static_cast<int>(px * sx), y = fh - 1 - static_cast<int>(py * sy);
      if (x >= 0 && y >= 0 && x < fw && y < fh && !v.pressing) {
        std::uint8_t rgba[4] = {0, 0, 0, 0};
        glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
        v.desktop->pass_clicks(rgba[3] < kOpaqueAlpha * 255);
      }
    }
    glfwSwapBuffers(window);

    ++fps_frames;
    if (now - fps_since >= 0.5) {
      v.panel.fps = static_cast<float>(fps_frames / (now - fps_since));
      fps_frames = 0;
      fps_since = now;
    }
    if (v.options.trace && now >= next_trace) {
      print_trace(v, now, px, py, lx, ly);
      next_trace = now + 0.5;
    }
    // At most 60 frames a second, whether or not the swap waits for the screen (Xvfb's does not).
    glfwWaitEventsTimeout(std::max(0.0, kFrameSeconds - (glfwGetTime() - now)));
  }
  return 0;
}

}  // namespace

int view(const ViewOptions& options) {
  Viewer v;
  v.options = options;
  int width = 1100, height = 800;
  if (!options.size.empty() && !parse_size(options.size, width, height)) {
    std::cerr << "p2lrt view: --size takes WxH, each 64..16384 (e.g. 1100x800), not \"" << options.size << "\"\n";
    return 2;
  }
  glfwSetErrorCallback(on_glfw_error);
  const char* display = std::getenv("DISPLAY");
  if (!glfwInit()) {
    std::cerr << "p2lrt view: no display to open a window on"
              << (display && *display ? " (" + glfw_error + ")" : std::string(" (DISPLAY is not set)"))
              << "; run it in a desktop session, or under xvfb-run for a virtual one\n";
    return 1;
  }
  std::string error, notes;
  v.character = Character::open(options.input, options.seed, error, notes);
  if (!v.character) {
    std::cerr << "p2lrt view: " << error << "\n";
    glfwTerminate();
    return 1;
  }
  if (!notes.empty()) {
    const auto lines = std::count(notes.begin(), notes.end(), '\n');
    std::cerr << "p2lrt view: imported " << options.input << " (" << lines
              << " things not carried over exactly; `p2lrt import` lists them)\n";
  }
  // Pages that will draw transparent, on the terminal and along the window's bottom.
  for (const std::string& problem : v.character->load_page_files(options.input)) {
    std::cerr << "p2lrt view: " << problem << "\n";
    v.banner += (v.banner.empty() ? "" : "\n") + problem;
  }
  v.banner_until = v.banner.empty() ? 0 : 1e9;
  v.framing = Framing::of(v.character->rig());
  v.panel.title = file_name(options.input);
  v.panel.shown = !options.no_panel;

  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  int area_x = 0, area_y = 0, area_w = 1280, area_h = 800;  // the screen's work area (mascot)
  if (options.mascot) {
    glfwWindowHint(GLFW_DECORATED, GLFW_FALSE);
    glfwWindowHint(GLFW_TRANSPARENT_FRAMEBUFFER, GLFW_TRUE);
    glfwWindowHint(GLFW_FLOATING, GLFW_TRUE);
    glfwWindowHint(GLFW_FOCUS_ON_SHOW, GLFW_FALSE);
    // The character's own shape, half the screen's height, in the work area's lower right corner.
    if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) glfwGetMonitorWorkarea(monitor, &area_x, &area_y, &area_w, &area_h);
    if (options.size.empty()) {
      height = std::max(64, area_h / 2);
      width = std::max(64, static_cast<int>(std::lround(static_cast<float>(height) * v.framing.extent_x / v.framing.extent_y)));
    }
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);  // shown once placed
  }
  const std::string title = "p2lrt view: " + v.panel.title;
  v.window = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
  if (!v.window) {
    std::cerr << "p2lrt view: this display gives no OpenGL 3.3 core context (" << glfw_error
              << "); the viewer needs OpenGL 3.3 (with Mesa, LIBGL_ALWAYS_SOFTWARE=1 draws in software)\n";
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(v.window);
  glfwSwapInterval(1);
  int code = 0;
  char message[512] = "";
  v.gl = p2l_gl_create(v.character->rig(), message, sizeof message);
  if (!v.gl) {
    std::cerr << "p2lrt view: " << message << "\n";
    glfwDestroyWindow(v.window);
    glfwTerminate();
    return 1;
  }
  glfwSetWindowUserPointer(v.window, &v);
  v.desktop = std::make_unique<viewer::Desktop>(v.window);
  if (options.mascot) {
    glfwSetWindowPos(v.window, area_x + std::max(0, area_w - width - 24), area_y + std::max(0, area_h - height));
    glfwShowWindow(v.window);
    if (!v.desktop->can_pass_clicks())
      std::cerr << "p2lrt view: this display cannot pass clicks through windows (no XFixes); the whole window takes them\n";
  }
  glfwGetCursorPos(v.window, &v.event_x, &v.event_y);
  glfwSetKeyCallback(v.window, on_key);
  glfwSetMouseButtonCallback(v.window, on_mouse_button);
  glfwSetCursorPosCallback(v.window, on_cursor);
  glfwSetScrollCallback(v.window, on_scroll);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // nothing written into the user's folder
  ImGui::StyleColorsDark();
  ImGui::GetStyle().Alpha = 0.96f;
  v.panel.wide_glyphs = load_fonts(15);
  ImGui_ImplGlfw_InitForOpenGL(v.window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  code = run(v);

  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  p2l_gl_destroy(v.gl);
  v.desktop.reset();
  glfwDestroyWindow(v.window);
  glfwTerminate();
  return code;
}

}  // namespace p2lrt
