// Texture pages for WebGL: the runtime hands over each embedded page's PNG bytes
// (p2l_texture_png) and the browser decodes them; a page stored as a file next to the rig is
// fetched relative to the rig's URL. Pages are uploaded as straight RGBA8, byte for byte as
// the PNG holds them (no premultiplication, no colour-space conversion): the shader
// premultiplies each texel itself, as the drawing rules do.

const KIND_PNG = 0;
const KIND_KTX2 = 1;
const KIND_FILE = 2;

async function decode(bytes, gl) {
  const blob = new Blob([bytes], { type: 'image/png' });
  const bitmap = await createImageBitmap(blob, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
  const max = gl.getParameter(gl.MAX_TEXTURE_SIZE);
  if (bitmap.width > max || bitmap.height > max) {
    bitmap.close();
    throw new Error(`${bitmap.width}x${bitmap.height} is larger than this GPU's ${max}-texel limit`);
  }
  const texture = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
  gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, gl.NONE);
  gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, bitmap);
  // Sampled with texelFetch only; the filter settings keep the texture complete.
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  bitmap.close();
  return texture;
}

/** Every page of [rig] as a WebGL texture, or null for a page that cannot be drawn; [warn]
 *  hears why (such a page's meshes draw nothing and mask nothing, as in p2l_render). */
export async function loadPages(gl, rig, baseUrl, warn) {
  const pages = rig.textures();
  return Promise.all(pages.map(async (page, index) => {
    try {
      if (page.kind === KIND_PNG) return await decode(rig.texturePng(index), gl);
      if (page.kind === KIND_FILE) {
        if (!baseUrl) throw new Error(`it is the file "${page.uri}" next to the rig, and a dropped rig has no folder`);
        const url = new URL(page.uri, baseUrl);
        const response = await fetch(url);
        if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
        return await decode(new Uint8Array(await response.arrayBuffer()), gl);
      }
      if (page.kind === KIND_KTX2) throw new Error('KTX2 pages are not decoded by this player');
      throw new Error('no such page');
    } catch (error) {
      warn(`Texture page ${index} is not drawn: ${error.message ?? error}`);
      return null;
    }
  }));
}
