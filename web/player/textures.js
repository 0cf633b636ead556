// Texture pages for WebGL: the runtime hands over each embedded page's PNG bytes
// (p2l_texture_png) and the browser decodes them; a page stored as a file next to the rig is
// fetched relative to the rig's URL. Pages are uploaded as straight RGBA8, byte for byte as
// the PNG holds them (no premultiplication, no colour-space conversion): the shader
// premultiplies each texel itself, as the drawing rules do.
//
// Two steps, so that a host that knows its GL context only later (p2lrt/pixi) can decode while
// it loads and upload at its first draw: decodePages, then uploadPages; loadPages does both.

const KIND_PNG = 0;
const KIND_KTX2 = 1;
const KIND_FILE = 2;

async function decode(bytes) {
  const blob = new Blob([bytes], { type: 'image/png' });
  return createImageBitmap(blob, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
}

/** Every page of [rig] as an ImageBitmap, or null for a page that cannot be drawn; [warn]
 *  hears why (such a page's meshes draw nothing and mask nothing, as in p2l_render). A page
 *  stored as a file next to the rig is fetched relative to [baseUrl]. */
export function decodePages(rig, baseUrl, warn) {
  return Promise.all(rig.textures().map(async (page, index) => {
    try {
      if (page.kind === KIND_PNG) return await decode(rig.texturePng(index));
      if (page.kind === KIND_FILE) {
        if (!baseUrl) throw new Error(`it is the file "${page.uri}" next to the rig, and the rig has no folder to fetch it from`);
        const url = new URL(page.uri, baseUrl);
        const response = await fetch(url);
        if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
        return await decode(new Uint8Array(await response.arrayBuffer()));
      }
      if (page.kind === KIND_KTX2) throw new Error('KTX2 pages are not decoded here');
      throw new Error('no such page');
    } catch (error) {
      warn(`Texture page ${index} is not drawn: ${error.message ?? error}`);
      return null;
    }
  }));
}

/** [bitmaps] (closed after) as textures of [gl], null where a bitmap is null or larger than the
 *  GPU takes ([warn] hears why). The unpack state it sets is put back. */
export function uploadPages(gl, bitmaps, warn) {
  const conversion = gl.getParameter(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL);
  const premultiply = gl.getParameter(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL);
  const flip = gl.getParameter(gl.UNPACK_FLIP_Y_WEBGL);
  const max = gl.getParameter(gl.MAX_TEXTURE_SIZE);
  gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
  gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, gl.NONE);
  gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
  const textures = bitmaps.map((bitmap, index) => {
    if (!bitmap) return null;
    if (bitmap.width > max || bitmap.height > max) {
      warn(`Texture page ${index} is not drawn: ${bitmap.width}x${bitmap.height} is larger than this GPU's ${max}-texel limit`);
      bitmap.close();
      return null;
    }
    const texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, bitmap);
    // Sampled with texelFetch only; the filter settings keep the texture complete.
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    bitmap.close();
    return texture;
  });
  gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, conversion);
  gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, premultiply);
  gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, flip);
  return textures;
}

/** Every page of [rig] as a WebGL texture of [gl], or null for a page that cannot be drawn. */
export async function loadPages(gl, rig, baseUrl, warn) {
  return uploadPages(gl, await decodePages(rig, baseUrl, warn), warn);
}
