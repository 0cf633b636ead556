// window.p2lPlayer: what web/test/browser.mjs and browser_speech.mjs drive in test mode
// (?test=1). Plain values only, since they cross into the test through Playwright.
import { speechControls } from './speech_controls.js';

function base64(bytes) {
  let text = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) text += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(text);
}

/** Exposes [player] to tests. */
export function exposeForTests(player) {
  window.p2lPlayer = {
    /** 'loading', 'ready' or 'error' (the page's state; the message is in error()). */
    state: () => document.body.dataset.state ?? 'loading',
    error: () => document.body.dataset.error ?? '',
    info: () => {
      const rig = player.rig;
      return rig && {
        width: rig.width, height: rig.height, meshes: rig.meshes.length, parameters: rig.parameters.map((p) => p.id),
        hitAreas: rig.hitAreas, drawing: [player.width, player.height], test: player.test,
      };
    },
    setParameter: (id, value) => player.setParameter(player.rig.parameterIndex(id), value),
    /** Evaluates and draws now; the times in milliseconds. */
    renderFrame: () => player.renderFrame(),
    /** The canvas after a fresh frame: { width, height, rgba: base64 premultiplied RGBA8, top row first }. */
    pixels: () => {
      const { width, height, rgba } = player.pixels();
      return { width, height, rgba: base64(rgba) };
    },
    canvasToClient: (x, y) => player.canvasToClient(x, y),
    /** The hit the last click reported ({ id, name, x, y }), or null. */
    lastHit: () => player.lastHit,
    /** Hit-tests canvas point (x, y) as a click there would, reporting it on the page. */
    hit: (x, y) => player.hit(x, y),
    timing: () => ({ ...player.timing }),

    // Speech (web/test/browser_speech.mjs), through the Speak controls' own paths.
    /** Speaks mono [samples] at [rate] as an AudioBuffer through listen() (played on the page's
     *  audio context); resolves once listening. */
    speakBuffer: async (samples, rate, { vowels = false } = {}) => {
      const buffer = new AudioBuffer({ length: samples.length, sampleRate: rate, numberOfChannels: 1 });
      buffer.copyToChannel(Float32Array.from(samples), 0);
      return !!(await speechControls(player).speaker.speak(buffer, { vowels }));
    },
    /** Opens [url] in the Speak controls' <audio> element, which plays it and is listened to. */
    speakElement: (url) => { speechControls(player).openAudio(url); },
    /** The Speak controls' microphone switch; resolves to whether it is on. */
    microphone: (on) => speechControls(player).microphone(on),
    stopSpeech: () => speechControls(player).speaker.stop(),
    /** The levels speechFromBuffer (web/voice.js) measures offline in [samples] at [rate], one
     *  per update: at the clock [times] (seconds) given, else every 1/60 s to the end. */
    offlineLevels: async (samples, rate, times = null) => {
      const { speechFromBuffer } = await import('../voice.js');
      const buffer = new AudioBuffer({ length: samples.length, sampleRate: rate, numberOfChannels: 1 });
      buffer.copyToChannel(Float32Array.from(samples), 0);
      const speech = speechFromBuffer(player.runtime, buffer);
      const levels = [];
      for (let k = 0; times ? k < times.length : !speech.finished; k++) {
        speech.update(times ? times[k] - speech.time : 1 / 60);
        levels.push(speech.level);
      }
      speech.free();
      return levels;
    },
    /** Starts recording, at every frame: { t (ms), speaking, time (the speech's clock), level,
     *  vowel, mouth (the LipSync role's current value), shown (the level as the page shows it) };
     *  takeRecord() returns and clears them. */
    record: () => {
      if (player.speechRecord) return;
      player.speechRecord = [];
      player.addEventListener('frame', ({ detail: { rig } }) => {
        const speech = speechControls(player)?.speaker.speech;
        const mouth = rig.roleParameters('LipSync')[0];
        player.speechRecord.push({
          t: performance.now(), speaking: !!speech, time: speech?.time ?? 0, level: speech?.level ?? 0, vowel: speech ? speech.vowel : null,
          mouth: mouth === undefined ? null : rig.current()[mouth], shown: document.getElementById('speak-level').textContent,
        });
      });
    },
    takeRecord: () => player.speechRecord.splice(0),
  };
}
