// The package's typings, checked by TypeScript (scripts/npm_package.sh --test): a program as a
// PixiJS v8 user of p2lrt/pixi writes it, against the installed package and pixi.js 8. The lines
// marked @ts-expect-error are misuses the typings must reject; if one type-checks, tsc fails.
import { Application, ColorMatrixFilter, Sprite, Texture } from 'pixi.js';
import { Runtime } from 'p2lrt';
import { Live2DModel, MotionPriority } from 'p2lrt/pixi';

async function main(canvas: HTMLCanvasElement): Promise<void> {
  const app = new Application();
  await app.init({ canvas, preference: 'webgl', backgroundAlpha: 0 });

  const haru: Live2DModel = await Live2DModel.from('haru/haru_greeter_t03.model3.json', { autoUpdate: true });
  const other = await Live2DModel.from('character.p2lrt', { runtime: await Runtime.load(), idleMotionGroup: null });
  app.stage.addChild(haru, new Sprite(Texture.WHITE), other);

  haru.position.set(100, 50);
  haru.scale.set(0.25);
  haru.anchor.set(0.5, 0.5);
  haru.filters = [new ColorMatrixFilter()];
  haru.on('hit', (areas: string[]) => {
    if (areas.includes('Body')) haru.motion('TapBody', 0, MotionPriority.FORCE);
  });
  const started: Promise<boolean> = haru.motion('Idle');
  haru.expression('smile');
  haru.expression();
  haru.focus(320, 240);
  haru.tap(320, 240);
  haru.setParameter('ParamAngleX', 20);
  const angle: number | undefined = haru.getParameter('ParamAngleX');
  const ids: string[] = haru.parameters.map((p) => p.id);
  haru.autoUpdate = false;
  haru.update(16.7);
  await haru.speak('voice.wav', { volume: 0.8, vowels: true });
  void started;
  void angle;
  void ids;

  // @ts-expect-error a motion group is named by a string
  haru.motion(3);
  // @ts-expect-error focus takes two numbers
  haru.focus('left');
  other.destroy();
}

void main;
