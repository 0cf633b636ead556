// One vertex array per mesh: its UVs and triangle indices, which never change, and its
// canvas-pixel positions, rewritten before each frame straight from the runtime's memory.
import { ATTRIBUTE_POSITION, ATTRIBUTE_UV } from './gl_programs.js';

export class MeshBuffers {
  constructor(gl, rig) {
    this.gl = gl;
    this.meshes = rig.meshes.map((info, m) => {
      if (info.vertexCount === 0) return null;
      const indices = rig.indices(m);
      if (indices.length < 3) return null;
      const vao = gl.createVertexArray();
      gl.bindVertexArray(vao);
      const positions = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, positions);
      gl.bufferData(gl.ARRAY_BUFFER, info.vertexCount * 8, gl.DYNAMIC_DRAW);
      gl.enableVertexAttribArray(ATTRIBUTE_POSITION);
      gl.vertexAttribPointer(ATTRIBUTE_POSITION, 2, gl.FLOAT, false, 0, 0);
      const uvs = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, uvs);
      gl.bufferData(gl.ARRAY_BUFFER, rig.uvs(m), gl.STATIC_DRAW);
      gl.enableVertexAttribArray(ATTRIBUTE_UV);
      gl.vertexAttribPointer(ATTRIBUTE_UV, 2, gl.FLOAT, false, 0, 0);
      const elements = gl.createBuffer();
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, elements);
      // Indices are checked against the vertex count here, as the software renderer skips a
      // triangle with an index past the vertices (WebGL would refuse the whole draw).
      const kept = indices.length - (indices.length % 3);
      const valid = [];
      for (let t = 0; t < kept; t += 3)
        if (indices[t] < info.vertexCount && indices[t + 1] < info.vertexCount && indices[t + 2] < info.vertexCount)
          valid.push(indices[t], indices[t + 1], indices[t + 2]);
      gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, new Uint32Array(valid), gl.STATIC_DRAW);
      gl.bindVertexArray(null);
      return { vao, positions, uvs, elements, count: valid.length };
    }).map((entry) => (entry && entry.count > 0 ? entry : null));
  }

  /** Uploads every mesh's vertices of the rig's last evaluation. */
  upload(rig) {
    const gl = this.gl;
    for (let m = 0; m < this.meshes.length; m++) {
      const mesh = this.meshes[m];
      if (!mesh) continue;
      gl.bindBuffer(gl.ARRAY_BUFFER, mesh.positions);
      gl.bufferSubData(gl.ARRAY_BUFFER, 0, rig.vertices(m));
    }
  }

  /** Draws mesh [m]'s triangles with whatever program and state are set. */
  draw(m) {
    const mesh = this.meshes[m];
    if (!mesh) return;
    const gl = this.gl;
    gl.bindVertexArray(mesh.vao);
    gl.drawElements(gl.TRIANGLES, mesh.count, gl.UNSIGNED_INT, 0);
  }

  has(m) { return !!this.meshes[m]; }

  release() {
    const gl = this.gl;
    for (const mesh of this.meshes) {
      if (!mesh) continue;
      gl.deleteVertexArray(mesh.vao);
      gl.deleteBuffer(mesh.positions);
      gl.deleteBuffer(mesh.uvs);
      gl.deleteBuffer(mesh.elements);
    }
    this.meshes = [];
  }
}
