// p2lrt/pixi: Cubism models and p2lrt rigs in PixiJS v8 (peer dependency 'pixi.js'); web/pixi.d.ts
// documents it. Import it before making the renderer (it registers a WebGL system).
export { Live2DModel, MotionPriority } from './live2d_model.js';
export { Behavior } from '../p2l.js';
