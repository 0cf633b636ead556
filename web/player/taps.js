// Tapping a hit area plays one of the clips grouped under its name, as Cubism's samples do:
// a tap on "HitAreaHead" (named "Head") picks from the group "TapHead".

/** Plays a tap clip on each hit [player] reports, outside test mode. */
export function bindTaps(player) {
  player.addEventListener('hit', ({ detail }) => {
    const rig = player.rig;
    if (player.test || !rig || !detail.id) return;
    const names = new Set([`Tap${detail.name}`, `Tap${detail.id.replace(/^HitArea/, '')}`].map((n) => n.toLowerCase()));
    const clips = rig.clips.map((_, i) => i).filter((i) => names.has((rig.clipInfo(i)?.group ?? '').toLowerCase()));
    if (clips.length) rig.play(clips[Math.floor(Math.random() * clips.length)]);
  });
}
