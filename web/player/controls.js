// The playback controls: clip and expression pickers, lip sync (the slider, and speech from a
// file or the microphone: speech_controls.js), the behaviors and physics switches, and the
// advanced-mode switch (shown only for a file that carries advanced features,
// p2l_advanced_available).
import { Behavior } from '../p2l.js';
import { bindSpeech } from './speech_controls.js';

const FEATURES = [[1, 'skinning'], [2, 'exact links'], [4, 'simulation'], [8, 'collision']];
const byId = (id) => document.getElementById(id);

function describeFeatures(bits) {
  const names = FEATURES.filter(([bit]) => bits & bit).map(([, name]) => name);
  return names.length ? names.join(', ') : 'off';
}

function option(value, text) {
  return Object.assign(document.createElement('option'), { value, textContent: text });
}

/** Wires the controls to [player] once; they follow each rig it loads. */
export function bindControls(player) {
  const clip = byId('clip'), expression = byId('expression'), lipSync = byId('lip-sync');
  clip.addEventListener('change', () => {
    if (!player.rig) return;
    player.rig.play(clip.value === '' ? null : Number(clip.value));
  });
  byId('replay').addEventListener('click', () => {
    if (player.rig && clip.value !== '') player.rig.play(Number(clip.value));
  });
  expression.addEventListener('change', () => {
    if (player.rig) player.rig.expression(expression.value === '' ? null : Number(expression.value));
  });
  lipSync.addEventListener('input', () => {
    player.rig?.lipSync(Number(lipSync.value));
    byId('lip-sync-value').textContent = Number(lipSync.value).toFixed(2);
    player.touch();
  });
  bindSpeech(player);
  const toggles = { blink: Behavior.BLINK, breath: Behavior.BREATH };
  for (const [id, flag] of Object.entries(toggles)) {
    const box = byId(id);
    box.checked = (player.behaviors & flag) !== 0;
    box.addEventListener('change', () => player.setBehavior(flag, box.checked));
  }
  const gaze = byId('gaze'), physics = byId('physics');
  gaze.checked = player.gaze;
  gaze.addEventListener('change', () => player.setGaze(gaze.checked));
  physics.checked = player.physics;
  physics.addEventListener('change', () => player.setPhysics(physics.checked));
  const advanced = byId('advanced');
  advanced.addEventListener('change', () => {
    if (!player.rig) return;
    const on = player.rig.setAdvanced(advanced.checked ? player.rig.advancedAvailable() : 0);
    byId('advanced-state').textContent = describeFeatures(on);
    player.touch();
  });

  const clear = () => {
    clip.replaceChildren(option('', '— none —'));
    expression.replaceChildren(option('', '— none —'));
  };
  clear();
  player.addEventListener('rig', ({ detail: { rig } }) => {
    clear();
    if (!rig) return;
    // Clips under their groups ("Idle", "TapBody"...), in file order within each.
    const groups = new Map();
    rig.clips.forEach((id, index) => {
      const info = rig.clipInfo(index);
      const group = info?.group || 'Clips';
      if (!groups.has(group)) groups.set(group, Object.assign(document.createElement('optgroup'), { label: group }));
      const seconds = info ? ` · ${info.duration.toFixed(1)} s${info.looping ? ' ⟳' : ''}` : '';
      groups.get(group).append(option(index, `${info?.name || id}${seconds}`));
    });
    clip.append(...groups.values());
    clip.disabled = rig.clips.length === 0;
    rig.expressions.forEach((id, index) => expression.append(option(index, rig.expressionName(index) || id)));
    expression.disabled = rig.expressions.length === 0;
    const mouth = rig.roleParameters('LipSync').length > 0;
    lipSync.disabled = !mouth;
    lipSync.value = 0;
    byId('lip-sync-value').textContent = mouth ? '0.00' : 'no LipSync parameter';
    const available = rig.advancedAvailable();
    byId('advanced-row').hidden = available === 0;
    advanced.checked = false;
    byId('advanced-state').textContent = 'off';
    byId('advanced-row').title = `This file carries: ${describeFeatures(available)}`;
  });
  // A clip that ends or is replaced by a tap shows in the picker.
  player.addEventListener('frame', ({ detail: { rig } }) => {
    const playing = rig.clipPlaying();
    const shown = clip.value === '' ? -1 : Number(clip.value);
    if (playing !== shown && document.activeElement !== clip) clip.value = playing < 0 ? '' : String(playing);
  });
}
