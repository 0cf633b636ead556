// Motions as pixi-live2d-display plays them (groups, priorities, a random idle motion when
// nothing plays, start and finish events), on the rig's clip layer 0 by the runtime's rules.

/** Motion priorities, as pixi-live2d-display's MotionPriority. */
export const MotionPriority = Object.freeze({ NONE: 0, IDLE: 1, NORMAL: 2, FORCE: 3 });

// "motion/haru_g_m07.motion3.json" -> "haru_g_m07", as the importer names clips
// (src/import/cubism/import_cubism.cpp, clip_id).
function clipId(file) {
  const name = file.slice(file.lastIndexOf('/') + 1);
  for (const suffix of ['.motion3.json', '.json'])
    if (name.length > suffix.length && name.toLowerCase().endsWith(suffix)) return name.slice(0, -suffix.length);
  return name;
}

/** { group: [{ clip, sound }] }: the model3.json's groups, else the clips' (a clip without one
 *  is a group of its own, by its id). */
export function motionGroups(rig, model3) {
  const groups = {};
  const motions = model3?.FileReferences?.Motions;
  if (motions && typeof motions === 'object') {
    for (const [group, entries] of Object.entries(motions)) {
      groups[group] = (Array.isArray(entries) ? entries : []).map((entry) => ({
        clip: typeof entry?.File === 'string' ? rig.clips.indexOf(clipId(entry.File)) : -1,
        sound: typeof entry?.Sound === 'string' && entry.Sound ? entry.Sound : null,
      }));
    }
    return groups;
  }
  rig.clips.forEach((id, clip) => {
    const group = rig.clipInfo(clip)?.group || id;
    (groups[group] ??= []).push({ clip, sound: null });
  });
  return groups;
}

export class Motions {
  /** [emit](type, ...args) reports the events; [speak](sound) plays a motion's Sound. */
  constructor(rig, groups, idleGroup, emit, speak) {
    this.rig = rig;
    this.groups = groups;
    this.idleGroup = idleGroup;
    this.emit = emit;
    this.speak = speak;
    this.current = null;  // { group, index, priority, clip }
  }

  /** Layer 0's clip (-1 for none) and whether it finished. */
  layer() {
    const rig = this.rig, api = rig.api;
    return rig.runtime.scratch(16, (at) => {
      api.p2l_layer_state(rig.handle, 0, at, at + 4, at + 8, at + 12);
      return { clip: new Int32Array(api.memory.buffer, at, 1)[0], finished: new Uint8Array(api.memory.buffer, at + 12, 1)[0] !== 0 };
    });
  }

  start(group, index, priority = MotionPriority.NORMAL) {
    const entry = this.groups[group]?.[index];
    if (!entry || entry.clip < 0 || priority <= MotionPriority.NONE) return false;
    const current = this.current;
    if (current) {
      if (priority === MotionPriority.IDLE) return false;
      if (priority < MotionPriority.FORCE && priority <= current.priority) return false;
    }
    if (!this.rig.api.p2l_play_layer(this.rig.handle, 0, entry.clip, priority)) return false;
    this.current = { group, index, priority, clip: entry.clip };
    const audio = entry.sound ? this.speak(entry.sound) : undefined;
    this.emit('motionStart', group, index, audio);
    return true;
  }

  random(group, priority) {
    const entries = this.groups[group] ?? [];
    const free = entries.map((e, i) => i).filter((i) => entries[i].clip >= 0 &&
      !(this.current && this.current.group === group && this.current.index === i));
    if (!free.length) return false;
    return this.start(group, free[Math.floor(Math.random() * free.length)], priority);
  }

  /** Before each update: a motion that ended is reported; an idle one starts if nothing plays. */
  update() {
    const current = this.current;
    if (current) {
      const { clip, finished } = this.layer();
      if (clip !== current.clip || finished) {
        this.current = null;
        this.emit('motionFinish', current.group, current.index);
      }
    }
    if (!this.current && this.idleGroup && this.groups[this.idleGroup]?.length) this.random(this.idleGroup, MotionPriority.IDLE);
  }

  stopAll() {
    this.rig.api.p2l_play_layer(this.rig.handle, 0, -1, MotionPriority.FORCE);
    this.current = null;
  }
}
