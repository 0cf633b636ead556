// The part of the drop-in harness that both pixi_frames.mjs (node) and pixi_screenshot.mjs (the
// page in Chromium) run, so that both drive pixi-live2d-display the same way: a classic script
// (no modules: the page loads it with a <script> tag, node with vm.runInThisContext) that
// defines globalThis.P2lDropin. Nothing here reimplements the library: motions, expressions,
// physics, pose, eye blink and breath are all pixi-live2d-display's (and the Cubism Web
// Framework it bundles); this only decides *when* the library's public calls happen and with
// which clock and random numbers.
//
//  - installRandom(seed): Math.random becomes a seeded PRNG (mulberry32). The library draws from
//    it for the eye blink interval and for picking a random Idle motion.
//  - installClock(): performance.now() returns a fixed, harness-driven clock (milliseconds); the
//    library reads it when a Live2DModel is created and when a motion or expression starts.
//  - prepareSettings(json, url): the model3.json as the library gets it (a settings object, one
//    of Live2DModel.from's documented sources). npm's Haru (haru_greeter_t03) has neither a
//    TapBody group nor expressions: the harness adds, in memory only, a TapBody group naming one
//    of the model's own non-Idle motions, and one expression (EXPRESSION below, made up here,
//    not taken from any model) served from a virtual file. A model that has both keeps them.
//  - configure(live2d): the library's config (PIXI.live2d.config): no sound, warnings only.
//  - schedule(fps): what happens when (frame numbers).
//  - run(ctx): the frame loop.
(function (global) {
  'use strict';

  function mulberry32(seed) {
    let a = seed >>> 0;
    return function random() {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  function installRandom(seed) {
    Math.random = mulberry32(seed);
  }

  const clock = { ms: 0 };
  function installClock() {
    const perf = global.performance;
    // An own property shadows Performance.prototype.now (node and Chromium both allow it).
    Object.defineProperty(perf, 'now', { value: () => clock.ms, configurable: true, writable: true });
    return clock;
  }

  // The virtual expression (a file that exists only in the harness): one of each blend the
  // Framework's CubismExpressionMotion knows, on standard Cubism parameter ids.
  const EXPRESSION_FILE = 'p2lrt-dropin-expression.exp3.json';
  const EXPRESSION = {
    Type: 'Live2D Expression',
    FadeInTime: 0.5,
    FadeOutTime: 0.5,
    Parameters: [
      { Id: 'ParamEyeLSmile', Value: 0.8, Blend: 'Add' },
      { Id: 'ParamEyeRSmile', Value: 0.8, Blend: 'Add' },
      { Id: 'ParamEyeLOpen', Value: 0.7, Blend: 'Multiply' },
      { Id: 'ParamEyeROpen', Value: 0.7, Blend: 'Multiply' },
      { Id: 'ParamMouthForm', Value: 1, Blend: 'Overwrite' },
      { Id: 'ParamBrowLY', Value: 0.5, Blend: 'Add' },
      { Id: 'ParamBrowRY', Value: 0.5, Blend: 'Add' },
    ],
  };

  function prepareSettings(json, url) {
    const settings = JSON.parse(JSON.stringify(json));
    settings.url = url;
    const refs = settings.FileReferences;
    const notes = [];
    const virtualFiles = {};
    refs.Motions = refs.Motions || {};
    if (!refs.Motions.TapBody || !refs.Motions.TapBody.length) {
      const idle = new Set((refs.Motions.Idle || []).map((m) => m.File));
      let pick;
      for (const [group, motions] of Object.entries(refs.Motions)) {
        if (group === 'Idle') continue;
        pick = motions.find((m) => !idle.has(m.File)) || motions[0];
        if (pick) { notes.push(`TapBody: added in memory as [${pick.File}] (from group ${group})`); break; }
      }
      if (!pick) throw new Error('prepareSettings: the model has no motion outside Idle to use as TapBody');
      refs.Motions.TapBody = [{ File: pick.File }];
    }
    if (!refs.Expressions || !refs.Expressions.length) {
      refs.Expressions = [{ Name: 'p2lrt-dropin', File: EXPRESSION_FILE }];
      virtualFiles[EXPRESSION_FILE] = EXPRESSION;
      notes.push(`Expressions: added in memory: ${EXPRESSION_FILE} (made up by the harness)`);
    }
    return { settings, virtualFiles, notes };
  }

  // The library's global settings (PIXI.live2d.config): warnings and errors only, and no sound
  // (a motion's Sound file would be played with HTMLAudioElement in the page and fail in node).
  function configure(live2d) {
    live2d.config.logLevel = live2d.config.LOG_LEVEL_WARNING;
    live2d.config.sound = false;
  }

  // Frame numbers of the events, at [fps]. Times in seconds of the recording. The library runs
  // its eye blink only on frames where no motion updated the model (Cubism4InternalModel.update)
  // and restarts an Idle motion as soon as none plays; so from 6 s to 8 s the motion manager's
  // idle group (MotionManager.groups.idle, what the idleMotionGroup option sets) names no group
  // and all motions are stopped: two seconds of eye blink, breath, physics, pose and the
  // expression alone.
  function schedule(fps) {
    const at = (seconds) => Math.round(seconds * fps);
    return [
      { frame: 0, what: 'motion Idle[0] (priority IDLE)', run: (m, L) => m.motion('Idle', 0, L.MotionPriority.IDLE) },
      { frame: at(2.0), what: 'motion TapBody[0] (priority NORMAL)', run: (m, L) => m.motion('TapBody', 0, L.MotionPriority.NORMAL) },
      { frame: at(3.5), what: 'expression 0', run: (m) => m.expression(0) },
      { frame: at(5.0), what: 'focus (0.6, -0.4)', run: (m) => m.internalModel.focusController.focus(0.6, -0.4) },
      { frame: at(6.0), what: 'no idle group, stop all motions', run: (m) => {
        m.internalModel.motionManager.groups.idle = 'p2lrt-dropin-no-idle';
        m.internalModel.motionManager.stopAllMotions();
      } },
      { frame: at(7.5), what: 'focus (0, 0)', run: (m) => m.internalModel.focusController.focus(0, 0) },
      { frame: at(8.0), what: 'idle group Idle again, motion Idle[1] (priority IDLE)', run: (m, L) => {
        m.internalModel.motionManager.groups.idle = 'Idle';
        return m.motion('Idle', 1, L.MotionPriority.IDLE);
      } },
      { frame: at(8.5), what: 'expression 1 (or reset the expression)', run: (m) => (m.internalModel.settings.expressions.length > 1
        ? m.expression(1) : m.internalModel.motionManager.expressionManager.resetExpression()) },
    ];
  }

  // The frame loop. ctx: { model (a Live2DModel), live2d (PIXI.live2d), fps, frames,
  // advance() (makes the library update the model once: node calls what Live2DModel._render
  // calls, the page renders the stage), settle() (lets pending loads finish), onFrame(f) }.
  // Per frame: the events of that frame (awaited: a motion or expression starts when its file
  // has loaded), then Live2DModel.update(dt) (what the ticker calls), then advance().
  async function run(ctx) {
    const dtMs = 1000 / ctx.fps;
    const events = schedule(ctx.fps);
    const log = [];
    for (let f = 0; f < ctx.frames; f++) {
      for (const e of events) {
        if (e.frame !== f) continue;
        const result = await e.run(ctx.model, ctx.live2d);
        log.push({ frame: f, what: e.what, result: result === undefined ? null : result });
      }
      ctx.model.update(dtMs);
      clock.ms = ctx.model.elapsedTime;
      await ctx.advance(f);
      await ctx.settle();
      if (ctx.onFrame) await ctx.onFrame(f);
    }
    return log;
  }

  global.P2lDropin = { mulberry32, installRandom, configure, installClock, clock, prepareSettings, schedule, run, EXPRESSION_FILE };
})(typeof globalThis !== 'undefined' ? globalThis : this);
