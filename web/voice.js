// voice.js: lip sync from what a browser plays or hears, through WebAudio into a p2l.js Speech.
//
//   import { listen } from './voice.js';
//   const voice = await listen(runtime, audioElement, { vowels: true });   // or a MediaStream, an AudioBuffer
//   every frame:  voice.speech.update(dt); rig.speak(voice.speech); rig.update(dt);
//   voice.stop();
//
// An AudioWorklet copies the samples the audio graph renders, as it renders them, to the page,
// which pushes them into the speech: the mouth follows what is heard, and the speech's clock,
// which never runs ahead of the audio pushed, stays with it. An <audio> or <video> element still
// plays through the speakers; a MediaStream (a microphone) is listened to, not played back.
// Pushed PCM needs none of this: runtime.speech(rate, channels).push(samples).

// The worklet: forwards each render quantum (128 frames) of its first input, channels
// interleaved, to the page. A Blob URL, so that no file has to be served beside this one.
const WORKLET = `
registerProcessor('p2l-voice-tap', class extends AudioWorkletProcessor {
  process(inputs) {
    const input = inputs[0];
    if (input && input.length) {
      const frames = input[0].length, channels = input.length;
      const out = new Float32Array(frames * channels);
      for (let c = 0; c < channels; ++c) for (let i = 0; i < frames; ++i) out[i * channels + c] = input[c][i];
      this.port.postMessage({ channels, samples: out }, [out.buffer]);
    }
    return true;
  }
});`;

const contexts = new WeakMap();

async function tapNode(context) {
  if (!contexts.has(context)) {
    const url = URL.createObjectURL(new Blob([WORKLET], { type: 'text/javascript' }));
    contexts.set(context, context.audioWorklet.addModule(url).finally(() => URL.revokeObjectURL(url)));
  }
  await contexts.get(context);
  // Mono or stereo as the source gives; the speech is made for the first block's channel count.
  return new AudioWorkletNode(context, 'p2l-voice-tap', { numberOfInputs: 1, numberOfOutputs: 0, channelCountMode: 'max' });
}

/** Listens to [source] (an HTMLMediaElement, a MediaStream or an AudioBuffer) and returns
 *  { speech, context, stop() }. Options: vowels (estimate vowels), context (an AudioContext to
 *  use; else one is made), channels (1 or 2: mixed down to mono by default). An AudioBuffer is
 *  played through the context as it is pushed. */
export async function listen(runtime, source, { vowels = false, context = null, channels = 1 } = {}) {
  const ctx = context ?? new AudioContext();
  if (ctx.state === 'suspended') await ctx.resume().catch(() => {});
  const tap = await tapNode(ctx);
  tap.channelCount = channels;
  tap.channelCountMode = 'explicit';
  tap.channelInterpretation = 'speakers';
  const speech = runtime.speech(ctx.sampleRate, channels, { vowels });
  tap.port.onmessage = ({ data }) => {
    try {
      speech.push(data.samples);
    } catch (e) {
      console.warn(e.message);
    }
  };
  let node, played = null;
  if (typeof HTMLMediaElement !== 'undefined' && source instanceof HTMLMediaElement) {
    node = ctx.createMediaElementSource(source);
    node.connect(ctx.destination);
  } else if (typeof MediaStream !== 'undefined' && source instanceof MediaStream) {
    node = ctx.createMediaStreamSource(source);
  } else if (source instanceof AudioBuffer) {
    node = played = ctx.createBufferSource();
    played.buffer = source;
    played.connect(ctx.destination);
    played.onended = () => setTimeout(() => speech.end(), 50);
  } else {
    speech.free();
    throw new Error('p2l voice: listen() takes an <audio>/<video> element, a MediaStream or an AudioBuffer');
  }
  node.connect(tap);
  if (played) played.start();
  return {
    speech,
    context: ctx,
    stop() {
      played?.stop();
      node.disconnect();
      tap.disconnect();
      tap.port.onmessage = null;
      speech.free();
      if (!context) ctx.close();
    },
  };
}

/** An audio file's bytes decoded by the browser (any format it plays) into an AudioBuffer. */
export async function decodeAudio(bytes, context = new OfflineAudioContext(1, 1, 48000)) {
  return context.decodeAudioData(bytes instanceof ArrayBuffer ? bytes : new Uint8Array(bytes).slice().buffer);
}

/** Pushes a decoded AudioBuffer into a new speech at once (for offline use: the speech then
 *  plays as fast as update(dt) is called), its end marked. */
export function speechFromBuffer(runtime, buffer, { vowels = false } = {}) {
  const channels = buffer.numberOfChannels;
  const frames = buffer.length;
  const interleaved = new Float32Array(frames * channels);
  for (let c = 0; c < channels; ++c) {
    const data = buffer.getChannelData(c);
    for (let i = 0; i < frames; ++i) interleaved[i * channels + c] = data[i];
  }
  const speech = runtime.speech(buffer.sampleRate, channels, { vowels });
  speech.push(interleaved);
  speech.end();
  return speech;
}
