// x_screenshot OUT.png [X Y W H]: the X display's screen (or a rectangle of it) as it is shown,
// into a PNG, for the viewer's test and the people reading it to look at (xwd writes a format
// nothing here reads). Prints the share of its pixels that differ from its top right one (the
// background, where the test points it) by more than 8 in a channel.
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <stb/stb_image_write.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 2 && argc != 6) {
    std::fprintf(stderr, "usage: %s OUT.png [X Y W H]\n", argv[0]);
    return 2;
  }
  Display* display = XOpenDisplay(nullptr);
  if (!display) {
    std::fprintf(stderr, "x_screenshot: no display\n");
    return 1;
  }
  const Window root = DefaultRootWindow(display);
  XWindowAttributes attributes;
  XGetWindowAttributes(display, root, &attributes);
  int x = 0, y = 0, w = attributes.width, h = attributes.height;
  if (argc == 6) x = std::atoi(argv[2]), y = std::atoi(argv[3]), w = std::atoi(argv[4]), h = std::atoi(argv[5]);
  XImage* image = w > 0 && h > 0 ? XGetImage(display, root, x, y, static_cast<unsigned>(w), static_cast<unsigned>(h), AllPlanes, ZPixmap) : nullptr;
  if (!image) {
    std::fprintf(stderr, "x_screenshot: cannot read %dx%d at %d,%d\n", w, h, x, y);
    return 1;
  }
  std::vector<unsigned char> rgb(static_cast<size_t>(w) * static_cast<size_t>(h) * 3);
  const unsigned long corner = XGetPixel(image, w - 1, 0);
  size_t differ = 0;
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i) {
      const unsigned long p = XGetPixel(image, i, j);
      unsigned char* o = &rgb[(static_cast<size_t>(j) * static_cast<size_t>(w) + static_cast<size_t>(i)) * 3];
      o[0] = static_cast<unsigned char>((p & image->red_mask) >> 16);
      o[1] = static_cast<unsigned char>((p & image->green_mask) >> 8);
      o[2] = static_cast<unsigned char>(p & image->blue_mask);
      bool far = false;
      for (const int shift : {16, 8, 0})
        far |= std::abs(static_cast<int>((p >> shift) & 255) - static_cast<int>((corner >> shift) & 255)) > 8;
      differ += far;
    }
  XDestroyImage(image);
  XCloseDisplay(display);
  if (!stbi_write_png(argv[1], w, h, 3, rgb.data(), w * 3)) {
    std::fprintf(stderr, "x_screenshot: cannot write %s\n", argv[1]);
    return 1;
  }
  std::printf("%s: %dx%d, %.1f%% differs from the top right pixel\n", argv[1], w, h,
              100.0 * static_cast<double>(differ) / (static_cast<double>(w) * static_cast<double>(h)));
  return 0;
}
