#include "p2lrt/view/desktop.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#define GLFW_EXPOSE_NATIVE_X11
#include <GLFW/glfw3native.h>
#include <X11/Xlib.h>
#include <X11/extensions/Xfixes.h>
#include <X11/extensions/shape.h>

namespace p2lrt::viewer {

Desktop::Desktop(GLFWwindow* window) : window_(window) {
  int event_base = 0, error_base = 0;
  Display* display = glfwGetX11Display();
  can_pass_ = display && glfwGetX11Window(window_) && XFixesQueryExtension(display, &event_base, &error_base);
}

void Desktop::pass_clicks(bool pass) {
  if (!can_pass_ || pass == passing_) return;
  Display* display = glfwGetX11Display();
  const Window window = glfwGetX11Window(window_);
  if (pass) {
    // An empty input region: the pointer's events go to whatever is beneath.
    const XserverRegion empty = XFixesCreateRegion(display, nullptr, 0);
    XFixesSetWindowShapeRegion(display, window, ShapeInput, 0, 0, empty);
    XFixesDestroyRegion(display, empty);
  } else {
    // None restores the default input region, the whole window.
    XFixesSetWindowShapeRegion(display, window, ShapeInput, 0, 0, None);
  }
  XFlush(display);
  passing_ = pass;
}

bool Desktop::pointer(double& x, double& y) const {
  Display* display = glfwGetX11Display();
  const Window window = glfwGetX11Window(window_);
  if (!display || !window) return false;
  Window root = 0, child = 0;
  int root_x = 0, root_y = 0, window_x = 0, window_y = 0;
  unsigned int buttons = 0;
  if (!XQueryPointer(display, window, &root, &child, &root_x, &root_y, &window_x, &window_y, &buttons)) return false;
  x = root_x;
  y = root_y;
  return true;
}

}  // namespace p2lrt::viewer
