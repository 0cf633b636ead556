// Compiles the renderer's programs (shaders.js) and finds their uniforms. The attribute
// locations are fixed so that one vertex array per mesh serves every program.

export const ATTRIBUTE_POSITION = 0;
export const ATTRIBUTE_UV = 1;

function compile(gl, type, source, name) {
  const shader = gl.createShader(type);
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS) && !gl.isContextLost()) {
    const log = gl.getShaderInfoLog(shader);
    gl.deleteShader(shader);
    throw new Error(`WebGL: the ${name} shader does not compile: ${log}`);
  }
  return shader;
}

/** A linked program with .uniforms[name] for every active uniform. */
function link(gl, name, { vertex, fragment }) {
  const program = gl.createProgram();
  const vs = compile(gl, gl.VERTEX_SHADER, vertex, `${name} vertex`);
  const fs = compile(gl, gl.FRAGMENT_SHADER, fragment, `${name} fragment`);
  gl.attachShader(program, vs);
  gl.attachShader(program, fs);
  gl.bindAttribLocation(program, ATTRIBUTE_POSITION, 'aPosition');
  gl.bindAttribLocation(program, ATTRIBUTE_UV, 'aUv');
  gl.linkProgram(program);
  gl.deleteShader(vs);
  gl.deleteShader(fs);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS) && !gl.isContextLost())
    throw new Error(`WebGL: the ${name} program does not link: ${gl.getProgramInfoLog(program)}`);
  const uniforms = {};
  const count = gl.getProgramParameter(program, gl.ACTIVE_UNIFORMS);
  for (let i = 0; i < count; i++) {
    const info = gl.getActiveUniform(program, i);
    uniforms[info.name] = gl.getUniformLocation(program, info.name);
  }
  return { program, uniforms };
}

/** Every program of [sources] ({ name: { vertex, fragment } }), linked, by name. */
export function linkPrograms(gl, sources) {
  const programs = {};
  for (const [name, source] of Object.entries(sources)) programs[name] = link(gl, name, source);
  return programs;
}
