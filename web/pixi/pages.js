// Texture pages, decoded as the model loads (no GL context is known yet) and uploaded to the
// context that first draws it, as web/player/textures.js makes them (straight RGBA8, byte for byte).

const KIND_PNG = 0, KIND_KTX2 = 1, KIND_FILE = 2;

async function decode(bytes) {
  const blob = new Blob([bytes], { type: 'image/png' });
  return createImageBitmap(blob, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
}

/** Every page of [rig] as an ImageBitmap, or null for one that cannot be drawn ([warn] hears why);
 *  a page stored as a file next to a .p2lrt is fetched relative to [baseUrl]. */
export function decodePages(rig, baseUrl, warn) {
  return Promise.all(rig.textures().map(async (page, index) => {
    try {
      if (page.kind === KIND_PNG) return await decode(rig.texturePng(index));
      if (page.kind === KIND_FILE) {
        if (!baseUrl) throw new Error(`it is the file "${page.uri}" next to the rig, and the rig has no URL`);
        const url = new URL(page.uri, baseUrl);
        const response = await fetch(url);
        if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
        return await decode(new Uint8Array(await response.arrayBuffer()));
      }
      if (page.kind === KIND_KTX2) throw new Error('KTX2 pages are not decoded by this plugin');
      throw new Error('no such page');
    } catch (error) {
      warn(`Texture page ${index} is not drawn: ${error.message ?? error}`);
      return null;
    }
  }));
}

/** [bitmaps] as textures of [gl] (closed after); UNPACK_COLORSPACE_CONVERSION_WEBGL is put back. */
export function uploadPages(gl, bitmaps) {
  const conversion = gl.getParameter(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL);
  const max = gl.getParameter(gl.MAX_TEXTURE_SIZE);
  gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
  gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, gl.NONE);
  gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
  const textures = bitmaps.map((bitmap, index) => {
    if (!bitmap) return null;
    if (bitmap.width > max || bitmap.height > max) {
      console.warn(`p2lrt/pixi: texture page ${index} (${bitmap.width}x${bitmap.height}) is larger than this GPU's ${max}-texel limit`);
      bitmap.close();
      return null;
    }
    const texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, bitmap);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    bitmap.close();
    return texture;
  });
  gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, conversion);
  return textures;
}
