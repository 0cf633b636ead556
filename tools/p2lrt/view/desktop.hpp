// What the viewer asks of the desktop beyond GLFW 3.3: clicks that pass through a window (its X11
// input shape, through XFixes), and where the pointer is on the screen. GLFW 3.4 has the first as
// GLFW_MOUSE_PASSTHROUGH, for the whole window only; a mascot needs it to follow the pixels.
#pragma once

struct GLFWwindow;

namespace p2lrt::viewer {

class Desktop {
 public:
  explicit Desktop(GLFWwindow* window);
  // Whether clicks can pass through (an X11 display with the XFixes extension).
  bool can_pass_clicks() const { return can_pass_; }
  // Clicks on the window reach the window beneath ([pass]) or the window itself; does nothing
  // when the state is already that one.
  void pass_clicks(bool pass);
  // The pointer in screen pixels; false when it cannot be told.
  bool pointer(double& x, double& y) const;

 private:
  GLFWwindow* window_;
  bool can_pass_ = false;
  bool passing_ = false;
};

}  // namespace p2lrt::viewer
