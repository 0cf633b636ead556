#include <CLI/CLI.hpp>

#include "p2lrt/view/view_command.hpp"

namespace p2lrt {

void ViewOptions::add_to(CLI::App* command) {
  command->add_option("MODEL", input, "A .p2lrt, a Cubism .model3.json (with its files) or a .moc3, a Cubism 2 .model.json or .moc")->required();
  command->add_flag("--mascot", mascot,
                    "The character alone on the desktop: no border, transparent, always on top; clicks pass "
                    "through where it is transparent; drag it to move it; right click for a menu");
  command->add_option("--size", size, "The window's size, WxH (default 1100x800; in mascot mode half the screen's height)");
  command->add_option("--seed", seed, "Seed for blinking and for the choice among a group's motions (default 1)");
  command->add_flag("--no-panel", no_panel, "Start with the panel hidden (Tab shows it)");
  command->add_flag("--trace", trace, "Print the pointer, the gaze and what plays, twice a second");
}

}  // namespace p2lrt
