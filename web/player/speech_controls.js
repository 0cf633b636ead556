// The Speak controls: an audio file (chosen, or dropped anywhere on the page) played through an
// <audio> element, or the microphone, heard through WebAudio (web/voice.js listen()) into a
// Speech that the player feeds to the rig's mouth every frame; the level and the vowel shown
// while it speaks. One speech at a time. web/voice.js is imported when speech first starts, so
// that a page served without it still plays rigs (the error then says so).
import { clearError, showError } from './messages.js';

const byId = (id) => document.getElementById(id);
const bound = new WeakMap();
let voiceModule = null;

function loadVoice() {
  voiceModule ??= import('../voice.js').catch((error) => {
    voiceModule = null;
    throw new Error(`Speech needs web/voice.js next to p2l.js, which did not load: ${error.message ?? error}`);
  });
  return voiceModule;
}

const MEDIA_ERRORS = {
  1: 'loading was aborted',
  2: 'a network error stopped it',
  3: 'its audio could not be decoded',
  4: 'this browser cannot play this format, or it is not audio',
};

function microphoneMessage(error) {
  switch (error?.name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'The microphone was not allowed: the browser or its settings said no to this page. Allow it (the icon in the address bar) and try again.';
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'No microphone was found.';
    case 'NotReadableError':
      return 'The microphone is in use by another program or could not be opened.';
    default:
      return `The microphone could not be opened: ${error?.message ?? error}`;
  }
}

/** One speech at a time for [player]: speak(source) listens to an <audio>/<video> element, a
 *  MediaStream or an AudioBuffer (web/voice.js) and hands the speech to the player; stop()
 *  restores the behaviors and the mouth ([restLevel]()) and frees the speech. A speech whose
 *  audio has ended (an AudioBuffer's) stops by itself. */
class Speaker extends EventTarget {
  constructor(player, restLevel) {
    super();
    this.player = player;
    this.restLevel = restLevel;
    this.voice = null;
    this.source = null;
    this.vowels = false;
    this.context = null;
    this.generation = 0;
    player.addEventListener('frame', () => {
      if (this.voice?.speech.finished) this.stop();
    });
  }

  get speech() { return this.voice?.speech ?? null; }

  /** Resolves to the voice, or null when stop() or another speak() came first. */
  async speak(source, { vowels = false } = {}) {
    this.stop();
    this.source = source;
    this.vowels = vowels;
    const generation = this.generation;
    const { listen } = await loadVoice().catch((error) => {
      if (generation === this.generation) this.source = null;
      throw error;
    });
    // One context for the page (made at the first speech, from a user's gesture in the page).
    this.context ??= new AudioContext();
    let voice;
    try {
      voice = await listen(this.player.runtime, source, { vowels, context: this.context });
    } catch (error) {
      if (generation === this.generation) this.source = null;
      throw error;
    }
    if (generation !== this.generation) {
      voice.stop();
      return null;
    }
    this.voice = voice;
    this.player.setSpeech(voice.speech);
    this.dispatchEvent(new CustomEvent('start', { detail: { source } }));
    return voice;
  }

  stop() {
    this.generation++;
    this.source = null;
    const voice = this.voice;
    if (!voice) return;
    this.voice = null;
    this.player.setSpeech(null, this.restLevel());
    voice.stop();
    this.dispatchEvent(new CustomEvent('stop'));
  }
}

/** The Speak controls of [player] once bound (web/player/test_hooks.js drives them). */
export function speechControls(player) { return bound.get(player) ?? null; }

/** Wires the Speak controls to [player]: { speaker, openAudio(url, name), microphone(on) }. */
export function bindSpeech(player) {
  const lipSync = byId('lip-sync'), vowels = byId('speak-vowels'), mic = byId('speak-mic');
  const slot = byId('speak-audio'), level = byId('speak-level'), meter = byId('speak-meter');
  const speaker = new Speaker(player, () => Number(lipSync.value));
  let audio = null, audioUrl = null, audioName = '', ownedUrl = null, stream = null, micPending = false;

  const showState = () => {
    const speaking = speaker.speech !== null;
    document.body.classList.toggle('speaking', speaking);
    byId('lip-sync-row').classList.toggle('overridden', speaking);
    if (!speaking) {
      level.textContent = '—';
      meter.value = 0;
    }
    mic.setAttribute('aria-pressed', String(stream !== null));
  };
  speaker.addEventListener('start', showState);
  speaker.addEventListener('stop', showState);
  player.addEventListener('frame', () => {
    const speech = speaker.speech;
    if (!speech) return;
    meter.value = speech.level;
    const vowel = speaker.vowels ? `${speech.vowel === 'silence' ? '–' : speech.vowel} ` : '';
    level.textContent = `${vowel}${speech.level.toFixed(2)}`;
  });

  const start = async (source) => {
    try {
      return await speaker.speak(source, { vowels: vowels.checked });
    } catch (error) {
      showError(`Speech could not start: ${error.message ?? error}`);
      return null;
    }
  };

  // An <audio> element per file, listened to when it starts playing (the user's press, or
  // autoplay). An element stays bound to the audio graph that listened to it, so once its speech
  // stops (the end, or the microphone taking over) a fresh one takes its place for the next play.
  const mountAudio = () => {
    const element = Object.assign(document.createElement('audio'), { controls: true, preload: 'auto', src: audioUrl });
    element.title = audioName;
    element.listened = false;
    element.addEventListener('play', () => {
      if (element.listened || element !== audio) return;
      element.listened = true;
      stopMicrophone();
      start(element);
    });
    element.addEventListener('ended', () => {
      if (element === audio) retireAudio();
    });
    element.addEventListener('error', () => {
      if (element !== audio) return;
      const error = element.error;
      showError(`${audioName}: ${MEDIA_ERRORS[error?.code] ?? 'it could not be played'}${error?.message ? ` (${error.message})` : ''}.`);
      closeAudio();
    });
    audio?.pause();
    slot.replaceChildren(element);
    byId('speak-file-row').hidden = false;
    audio = element;
    return element;
  };
  // The file's speech stopped and freed; the element paused, and renewed if it was listened to.
  const retireAudio = () => {
    if (!audio) return;
    audio.pause();
    if (speaker.source === audio) speaker.stop();
    if (audio.listened) mountAudio();
  };
  const closeAudio = () => {
    if (audio && speaker.source === audio) speaker.stop();
    audio?.pause();
    audio = null;
    if (ownedUrl) URL.revokeObjectURL(ownedUrl);
    ownedUrl = null;
    slot.replaceChildren();
    byId('speak-file-row').hidden = true;
    byId('speak-file-name').textContent = '';
  };

  /** Plays [url] through an <audio> element and speaks it; [owned]: an object URL to revoke. */
  const openAudio = (url, name = url, { owned = false } = {}) => {
    clearError();
    stopMicrophone();
    closeAudio();
    audioUrl = url;
    audioName = name;
    if (owned) ownedUrl = url;
    byId('speak-file-name').textContent = name;
    const element = mountAudio();
    element.play().catch((error) => {
      // Autoplay refused (NotAllowedError): the user presses play on the controls.
      if (!['NotAllowedError', 'AbortError', 'NotSupportedError'].includes(error.name) && element === audio)
        showError(`${name}: ${error.message ?? error}`);
    });
    return element;
  };
  const openFile = (file) => openAudio(URL.createObjectURL(file), file.name, { owned: true });

  function stopMicrophone() {
    if (!stream) return;
    const tracks = stream.getTracks();
    if (speaker.source === stream) speaker.stop();
    stream = null;
    for (const track of tracks) track.stop();
    showState();
  }
  /** The microphone on (listened to, not played back) or off; resolves to whether it is on. */
  const microphone = async (on) => {
    if (!on) {
      stopMicrophone();
      return false;
    }
    if (stream || micPending) return !!stream;
    if (!navigator.mediaDevices?.getUserMedia) {
      showError('The microphone is not available here: browsers give it only to secure pages (https, or http://localhost).');
      return false;
    }
    micPending = true;
    mic.disabled = true;
    try {
      const got = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: false, noiseSuppression: false } });
      retireAudio();
      stream = got;
      for (const track of got.getAudioTracks()) track.addEventListener('ended', () => { if (stream === got) stopMicrophone(); });
      clearError();
      if (!(await start(got))) stopMicrophone();
    } catch (error) {
      showError(microphoneMessage(error));
    } finally {
      micPending = false;
      mic.disabled = false;
      showState();
    }
    return !!stream;
  };

  mic.addEventListener('click', () => microphone(!stream));
  byId('speak-file').addEventListener('change', (event) => {
    const file = event.target.files[0];
    if (file) openFile(file);
    event.target.value = '';
  });
  byId('speak-close').addEventListener('click', closeAudio);
  // An audio or video file dropped anywhere is spoken; the rig loader (loader.js) takes every
  // other file. It is then handed an empty drop, which hides its overlay and loads nothing.
  window.addEventListener('drop', (event) => {
    const file = event.dataTransfer?.files[0];
    if (!file || !/^(audio|video)\//.test(file.type)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    window.dispatchEvent(new DragEvent('drop'));
    openFile(file);
  }, { capture: true });

  showState();
  const controls = { speaker, openAudio, microphone, get audio() { return audio; } };
  bound.set(player, controls);
  return controls;
}
