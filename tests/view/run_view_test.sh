#!/usr/bin/env bash
# `p2lrt view` tried as a new user would, on Haru (the Cubism Core npm package's model, which
# scripts/fetch_cubism_core.sh caches; skipped (77) without it or without the X tools):
#  1. without a display, and with Mesa held to OpenGL 3.0, it exits with a message that says so;
#     a bare .moc3 opens and says it has no textures; on the example character Down shows an
#     expression and Up takes it away; a Cubism 2 model.json (npm shizuku) opens, turns her head to
#     the pointer and plays the next motion on Right;
#  2. in a window under Xvfb: the pointer at the top right, then at the bottom left, turns the head
#     that way (the trace's AngleX and AngleY); a click on her body plays a motion and names it;
#     the Right key plays the next motion; Esc closes the window, exit code 0;
#  3. --mascot over another window (xlogo), with a window manager (openbox) and a compositor
#     (xcompmgr): no border, alpha, kept above (xprop); with xlogo raised and focused, a click where
#     the mascot is transparent reaches xlogo (xev sees it) and a click on her body reaches the
#     mascot; a drag moves the window by the drag.
# Screenshots of each step go to OUT_DIR (window_*.png, panel.png, mascot_*.png).
#   run_view_test.sh P2LRT X_SCREENSHOT OUT_DIR
set -euo pipefail
p2lrt=$1 shot=$2 out=$3
core=${P2L_CUBISM_CORE:-$HOME/.cache/p2lrt/live2dcubismcore-1.0.2}
model=$core/package/characters/haru_greeter_pro_jp/runtime/haru_greeter_t03.model3.json

fail() { echo "run_view_test: FAILED: $*" >&2; exit 1; }
last_trace() { grep '^trace' "$1" | tail -n 1; }
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<< "$1"; }
hit_point() { sed -n "s/.* $2@\([0-9-]*\),\([0-9-]*\).*/\1 \2/p" <<< "$1"; }
# Waits (up to 30 s) for the viewer's trace to report frames drawn.
wait_frames() {
  for _ in $(seq 60); do
    [[ $(field "$(last_trace "$1")" fps) =~ ^[1-9] ]] && return 0
    sleep 0.5
  done
  fail "no frames in $1: $(cat "${1%.out}.err")"
}
# Waits (up to 30 s) until the viewer has drawn for [2] seconds with the pointer at [3] (x,y),
# by the trace's own clock: a slow machine takes longer, the gaze has as long.
settle() {
  local since=""
  for _ in $(seq 60); do
    local line
    line=$(last_trace "$1")
    if [[ $(field "$line" pointer) == "$3" ]]; then
      [[ -n $since ]] || since=$(field "$line" t)
      awk -v t="$(field "$line" t)" -v s="$since" -v d="$2" 'BEGIN { exit !(t >= s + d) }' && return 0
    fi
    sleep 0.5
  done
  fail "the viewer did not show the pointer at $3 for $2 s: $(last_trace "$1")"
}
# Runs its arguments (a command) twice a second until it succeeds, for up to 30 s.
wait_until() {
  for _ in $(seq 60); do "$@" && return 0; sleep 0.5; done
  return 1
}
motion_is_not() { [[ $(field "$(last_trace "$1")" motion) != "$2" ]]; }
# a > b + margin, in floats.
greater() { awk -v a="$1" -v b="$2" -v m="$3" 'BEGIN { exit !(a > b + m) }'; }

if [[ "${4:-}" != --in-xvfb ]]; then
  [[ -f $model ]] || { echo "run_view_test: Haru not fetched (scripts/fetch_cubism_core.sh): $model"; exit 77; }
  for tool in xvfb-run xdotool xcompmgr xlogo xev xprop xwininfo openbox; do
    command -v $tool > /dev/null || { echo "run_view_test: no $tool (scripts/setup.sh --gl)"; exit 77; }
  done
  mkdir -p "$out"
  rm -f "$out"/*.png "$out"/*.out "$out"/*.err
  # 1a. No display.
  if env -u DISPLAY -u WAYLAND_DISPLAY "$p2lrt" view "$model" > /dev/null 2> "$out/no_display.err"; then
    fail "it ran without a display"
  fi
  grep -q "no display to open a window on" "$out/no_display.err" || fail "no display: $(cat "$out/no_display.err")"
  echo "run_view_test: without a display: $(cat "$out/no_display.err")"
  exec xvfb-run -a -s "-screen 0 1280x900x24" "$0" "$p2lrt" "$shot" "$out" --in-xvfb
fi

# 1b. OpenGL 3.0 only.
if MESA_GL_VERSION_OVERRIDE=3.0 "$p2lrt" view "$model" > /dev/null 2> "$out/gl30.err"; then fail "it ran on OpenGL 3.0"; fi
grep -q "no OpenGL 3.3" "$out/gl30.err" || fail "OpenGL 3.0: $(cat "$out/gl30.err")"
echo "run_view_test: on OpenGL 3.0: $(grep "OpenGL" "$out/gl30.err")"

# 1c. A bare .moc3 carries no textures: the viewer opens and says so (the terminal and the window).
moc3=$(ls "$(dirname "$model")"/*.moc3 | head -n 1)
"$p2lrt" view "$moc3" --no-panel > /dev/null 2> "$out/moc3.err" &
viewer=$!
window=$(timeout 30 xdotool search --sync --name "p2lrt view" | head -n 1)
xdotool key --window "$window" Escape 2> /dev/null || true
wait "$viewer" || fail "the bare moc3's viewer exited with $?: $(cat "$out/moc3.err")"
grep -q "has no textures" "$out/moc3.err" || fail "a bare moc3 without a word about its textures: $(cat "$out/moc3.err")"
echo "run_view_test: a bare moc3: $(cat "$out/moc3.err")"

# 1d. Keys through expressions, on the example character (Haru has none): Down shows the first,
# Up goes back to none.
"$p2lrt" view "$(dirname "$0")/../../examples/character/character.p2lrt" --trace --no-panel > "$out/expressions.out" 2> "$out/expressions.err" &
viewer=$!
window=$(timeout 30 xdotool search --sync --name "p2lrt view" | head -n 1)
wait_frames "$out/expressions.out"
expression_is_not() { [[ $(field "$(last_trace "$out/expressions.out")" expression) != "$1" ]]; }
xdotool key --window "$window" Down
wait_until expression_is_not none || fail "Down showed no expression: $(last_trace "$out/expressions.out")"
shown=$(field "$(last_trace "$out/expressions.out")" expression)
xdotool key --window "$window" Up
wait_until expression_is_not "$shown" || fail "Up did not leave $shown"
echo "run_view_test: expressions: Down -> $shown, Up -> $(field "$(last_trace "$out/expressions.out")" expression)"
xdotool key --window "$window" Escape 2> /dev/null || true
wait "$viewer" || fail "the example character's viewer exited with $?: $(cat "$out/expressions.err")"

# 1e. A Cubism 2 model.json (npm live2d-widget-model-shizuku, fetched into the cache; skipped
# when it cannot be): it opens with its textures, the pointer at the top right turns her head and
# her hair physics swings, and Right plays another motion.
root=$(cd "$(dirname "$0")/../.." && pwd)
shizuku=$HOME/.cache/p2lrt/live2d-widget-model-shizuku-1.0.5/package/assets/shizuku.model.json
if (cd "$root" && bash scripts/cubism2_models.sh > /dev/null 2>&1) && [[ -f $shizuku ]]; then
  "$p2lrt" view "$shizuku" --trace --size 900x700 > "$out/cubism2.out" 2> "$out/cubism2.err" &
  viewer=$!
  window=$(timeout 30 xdotool search --sync --name "p2lrt view" | head -n 1)
  wait_frames "$out/cubism2.out"
  xdotool mousemove 890 10
  settle "$out/cubism2.out" 2 890,10
  turned=$(last_trace "$out/cubism2.out")
  "$shot" "$out/cubism2_look_up_right.png" 0 0 900 700
  greater "$(field "$turned" AngleX)" 0 10 || fail "a Cubism 2 model's head does not follow the pointer: $turned"
  grep -q "has no textures" "$out/cubism2.err" && fail "a Cubism 2 model.json opened without its textures: $(cat "$out/cubism2.err")"
  before=$(field "$turned" motion)
  xdotool key --window "$window" Right
  wait_until motion_is_not "$out/cubism2.out" "$before" || fail "Right did not change the Cubism 2 model's motion ($before)"
  echo "run_view_test: Cubism 2 (shizuku): AngleX $(field "$turned" AngleX) at the top right; Right: $before -> $(field "$(last_trace "$out/cubism2.out")" motion)"
  xdotool key --window "$window" Escape 2> /dev/null || true
  wait "$viewer" || fail "the Cubism 2 model's viewer exited with $?: $(cat "$out/cubism2.err")"
else
  echo "run_view_test: SKIPPED 1e: the npm Cubism 2 models could not be fetched"
fi

# 2. The window.
"$p2lrt" view "$model" --trace --size 1100x800 > "$out/window.out" 2> "$out/window.err" &
viewer=$!
window=$(timeout 30 xdotool search --sync --name "p2lrt view" | head -n 1)
wait_frames "$out/window.out"
xdotool mousemove 740 400
settle "$out/window.out" 1.5 740,400
"$shot" "$out/window_start.png" 0 0 1100 800
xdotool mousemove 1090 10
settle "$out/window.out" 2 1090,10
right=$(last_trace "$out/window.out")
"$shot" "$out/window_look_up_right.png" 0 0 1100 800
xdotool mousemove 390 790
settle "$out/window.out" 2 390,790
left=$(last_trace "$out/window.out")
"$shot" "$out/window_look_down_left.png" 0 0 1100 800
echo "run_view_test: pointer top right: $(field "$right" AngleX), $(field "$right" AngleY); bottom left: $(field "$left" AngleX), $(field "$left" AngleY) (AngleX, AngleY)"
greater "$(field "$right" AngleX)" "$(field "$left" AngleX)" 20 || fail "the head does not turn right then left: $right / $left"
greater "$(field "$right" AngleY)" "$(field "$left" AngleY)" 10 || fail "the head does not turn up then down: $right / $left"

read -r bx by <<< "$(hit_point "$left" Body)"
[[ -n ${bx:-} ]] || fail "no Body hit area in the trace: $left"
before=$(field "$(last_trace "$out/window.out")" motion)
xdotool mousemove "$bx" "$by" click 1
wait_until grep -q "^tap" "$out/window.out" || fail "a click on her body at $bx,$by printed no tap"
wait_until motion_is_not "$out/window.out" "$before" || fail "the click at $bx,$by did not change the motion ($before)"
after=$(field "$(last_trace "$out/window.out")" motion)
grep -q "^tap Body: plays $after" "$out/window.out" || fail "a click on her body at $bx,$by (motion $before, then $after): $(grep '^tap' "$out/window.out" || echo 'no tap')"
[[ $after != Idle/* ]] || fail "the click played an idle motion: $after"
echo "run_view_test: click at $bx,$by: $(grep '^tap' "$out/window.out")"
"$shot" "$out/window_after_click.png" 0 0 1100 800
"$shot" "$out/panel.png" 0 0 380 800 > /dev/null
xdotool key --window "$window" Right
wait_until motion_is_not "$out/window.out" "$after" || true
next=$(field "$(last_trace "$out/window.out")" motion)
[[ $next != "$after" ]] || fail "Right did not change the motion ($after)"
echo "run_view_test: Right: $after -> $next"
# The window may be gone before xdotool sends the key's release: its complaint is no failure.
xdotool key --window "$window" Escape 2> /dev/null || true
wait "$viewer" || fail "the viewer exited with $? after Esc: $(cat "$out/window.err")"

# 3. Mascot mode over xlogo, with a window manager (openbox: decorations, stacking, "always on
# top") and a compositor for the transparency.
openbox --sm-disable > "$out/openbox.log" 2>&1 & window_manager=$!
window_manager_up() { xprop -root _NET_SUPPORTING_WM_CHECK 2> /dev/null | grep -q "window id"; }
wait_until window_manager_up || fail "openbox did not start: $(cat "$out/openbox.log")"
xcompmgr -n & compositor=$!
xlogo -geometry 700x600+500+250 & logo=$!
logo_window=$(timeout 30 xdotool search --sync --name xlogo | head -n 1)
xev -id "$logo_window" -event button > "$out/xlogo_clicks.out" &
xev=$!
"$p2lrt" view "$model" --mascot --trace > "$out/mascot.out" 2> "$out/mascot.err" &
viewer=$!
window=$(timeout 30 xdotool search --sync --name "p2lrt view" | head -n 1)
wait_frames "$out/mascot.out"
sleep 1
eval "$(xdotool getwindowgeometry --shell "$window")"
echo "run_view_test: mascot at $X,$Y, ${WIDTH}x$HEIGHT"
(( HEIGHT > WIDTH )) || fail "the mascot window is not her shape: ${WIDTH}x$HEIGHT"
# No border, a framebuffer with alpha, always on top; xlogo raised and given the focus stays
# beneath (the clicks below show it: the one on her body must reach her).
props=$(xprop -id "$window" _NET_WM_STATE _MOTIF_WM_HINTS)
grep -q "_NET_WM_STATE_ABOVE" <<< "$props" || fail "the mascot is not kept above other windows: $props"
grep -q "_MOTIF_WM_HINTS(_MOTIF_WM_HINTS) = 0x2, 0x0," <<< "$props" || fail "the mascot has a border: $props"
xwininfo -id "$window" | grep -q "Depth: 32" || fail "the mascot's window has no alpha: $(xwininfo -id "$window" | grep Depth)"
echo "run_view_test: mascot: $(tr '\n' ' ' <<< "$props")"
xdotool windowactivate "$logo_window" 2> /dev/null || true
xdotool windowraise "$logo_window"
sleep 0.5
"$shot" "$out/mascot_over_xlogo.png"
# The viewer must have drawn a frame with the pointer there to know it is over a transparent pixel.
xdotool mousemove $((X + 3)) $((Y + HEIGHT / 2))
settle "$out/mascot.out" 0.5 "3,$((HEIGHT / 2))"
xdotool click 1
clicks_on_xlogo() { (( $(grep -c ButtonPress "$out/xlogo_clicks.out" || true) >= 1 )); }
wait_until clicks_on_xlogo || true
passed=$(grep -c ButtonPress "$out/xlogo_clicks.out" || true)
(( passed == 1 )) || fail "a click on the mascot's transparent edge did not reach xlogo ($passed presses there)"
read -r bx by <<< "$(hit_point "$(last_trace "$out/mascot.out")" Body)"
xdotool mousemove $((X + bx)) $((Y + by))
settle "$out/mascot.out" 0.5 "$bx,$by"
xdotool click 1
wait_until grep -q "^tap Body: plays" "$out/mascot.out" || fail "a click on the mascot's body played nothing"
passed=$(grep -c ButtonPress "$out/xlogo_clicks.out" || true)
(( passed == 1 )) || fail "a click on her body went through to xlogo"
echo "run_view_test: mascot: the click on the transparent edge reached xlogo, the one on her body: $(grep '^tap' "$out/mascot.out")"
xdotool mousedown 1
for _ in 1 2 3; do xdotool mousemove_relative -- -100 -30; sleep 0.2; done
xdotool mouseup 1
moved_x=$X moved_y=$Y
window_moved() {
  eval "$(xdotool getwindowgeometry --shell "$window")"
  (( X == moved_x - 300 && Y == moved_y - 90 ))
}
wait_until window_moved || true
echo "run_view_test: dragged by -300,-90: the window went from $moved_x,$moved_y to $X,$Y"
(( X == moved_x - 300 && Y == moved_y - 90 )) || fail "the drag did not move the window by -300,-90"
"$shot" "$out/mascot_dragged.png"
# The window may be gone before xdotool sends the key's release: its complaint is no failure.
xdotool key --window "$window" Escape 2> /dev/null || true
wait "$viewer" || fail "the mascot exited with $? after Esc: $(cat "$out/mascot.err")"
kill "$xev" "$logo" "$compositor" "$window_manager" 2> /dev/null || true
echo "run_view_test: screenshots in $out"
