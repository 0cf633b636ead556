/*
 * live2dcubismcore.js - p2lrt's open Cubism Core for the web: a drop-in for the official
 * live2dcubismcore.min.js. It declares the same global, Live2DCubismCore (Moc, Model, Version,
 * Logging, Utils, Memory, and the parameters, parts, drawables, offscreens and canvasinfo of a
 * model), over p2lrt's moc3 importer and evaluator compiled to WebAssembly (p2lcore.wasm, inside
 * this file). Unlike the official file it is ready as soon as it has run: no asynchronous start.
 *
 * Classic script:  <script src="live2dcubismcore.js"></script>   (then Live2DCubismCore.*)
 * Module:          import './live2dcubismcore.js'  (sets globalThis.Live2DCubismCore), or
 *                  const Live2DCubismCore = require('./live2dcubismcore.js')
 *
 * docs/CUBISM_CORE.md describes it. scripts/wasm.sh assembles this file (web/cubismcore/assemble.mjs) from
 * web/cubismcore/live2dcubismcore.src.js, fflate's inflate (MIT) and p2lcore.wasm.
 */
var Live2DCubismCore;
(function (Live2DCubismCore) {
  'use strict';

  // ---- The module ----

  // fflate (MIT, https://github.com/101arrowz/fflate), embedded as its UMD build; the shadowed
  // names keep it from touching this file's module or globals.
  var fflate = (function (module, exports, define, self) {
    /*@FFLATE@*/
    return self.fflate;
  })(undefined, undefined, undefined, {});
  var WASM_BASE64 = '@WASM_BASE64@';

  function fromBase64(text) {
    if (typeof atob === 'function') {
      var binary = atob(text), bytes = new Uint8Array(binary.length);
      for (var i = 0; i < binary.length; ++i) bytes[i] = binary.charCodeAt(i);
      return bytes;
    }
    return new Uint8Array(Buffer.from(text, 'base64'));
  }

  var E = new WebAssembly.Instance(new WebAssembly.Module(fflate.unzlibSync(fromBase64(WASM_BASE64))), {}).exports;
  WASM_BASE64 = null;
  var PAGE = 65536;
  var DEFAULT_MEMORY = 16 * 1024 * 1024;
  // The official Core's memory is fixed in size, so the typed arrays a Framework keeps stay valid;
  // this one starts at the same 16 MB and grows only when a model needs more (logged: arrays taken
  // before then must be taken again).
  var reserved = false;
  function reserve(bytes) {
    var pages = Math.ceil(bytes / PAGE) - E.memory.buffer.byteLength / PAGE;
    if (pages > 0) E.memory.grow(pages);
    reserved = true;
  }
  var grownFrom = 0;
  function heap() {
    if (!reserved) reserve(DEFAULT_MEMORY);
    return E.memory.buffer;
  }
  var decoder = typeof TextDecoder === 'function' ? new TextDecoder('utf-8') : null;

  function cString(address) {
    var bytes = new Uint8Array(heap()), end = address;
    while (bytes[end] !== 0) ++end;
    var view = bytes.subarray(address, end);
    if (decoder) return decoder.decode(view);
    var s = '';
    for (var i = 0; i < view.length; ++i) s += String.fromCharCode(view[i]);
    return decodeURIComponent(escape(s));
  }
  function strings(table, count) {
    var out = new Array(count);
    var pointers = new Uint32Array(heap(), table, count);
    for (var i = 0; i < count; ++i) out[i] = cString(pointers[i]);
    return out;
  }
  function view(Type, address, count) { return new Type(heap(), address, count); }
  // A table of pointers (const T**) as typed arrays, one per entry, of counts[i] items times [width].
  function views(Type, table, counts, width) {
    var out = new Array(counts.length);
    var pointers = new Uint32Array(heap(), table, counts.length);
    for (var i = 0; i < counts.length; ++i) out[i] = new Type(heap(), pointers[i], counts[i] * width);
    return out;
  }

  // Memory in the module for [size] bytes aligned to [alignment]; free with release(block).
  function allocate(size, alignment) {
    var length = size + alignment;
    var before = heap().byteLength;
    var base = E.p2l_alloc(length) >>> 0;
    if (E.memory.buffer.byteLength !== before) grownFrom = before;
    if (!base) return null;
    return { base: base, length: length, address: base + ((alignment - (base % alignment)) % alignment) };
  }
  function release(block) {
    if (block) E.p2l_dealloc(block.base, block.length);
  }
  function copyIn(buffer, alignment) {
    var bytes = buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer);
    var block = allocate(bytes.length, alignment);
    if (!block) return null;
    new Uint8Array(heap(), block.address, bytes.length).set(bytes);
    block.size = bytes.length;
    return block;
  }

  // ---- Constants, as the official file declares them on the namespace ----

  Live2DCubismCore.AlignofMoc = 64;
  Live2DCubismCore.AlignofModel = 16;
  ['Unknown', '30', '33', '40', '42', '50', '53'].forEach(function (name, i) { Live2DCubismCore['MocVersion_' + name] = i; });
  Live2DCubismCore.ParameterType_Normal = 0;
  Live2DCubismCore.ParameterType_BlendShape = 1;
  ['Normal', 'AddCompatible', 'MultiplyCompatible', 'Add', 'AddGlow', 'Darken', 'Multiply', 'ColorBurn', 'LinearBurn',
   'Lighten', 'Screen', 'ColorDodge', 'Overlay', 'SoftLight', 'HardLight', 'LinearLight', 'Hue', 'Color']
    .forEach(function (name, i) { Live2DCubismCore['ColorBlendType_' + name] = i; });
  ['Over', 'Atop', 'Out', 'ConjointOver', 'DisjointOver']
    .forEach(function (name, i) { Live2DCubismCore['AlphaBlendType_' + name] = i; });

  // ---- Logging ----

  var logFunction = null;
  // The module keeps what it logs until asked (it cannot call out); handed on after each call
  // that may log.
  function flushLog() {
    var text = cString(E.p2lcsm_take_log() >>> 0);
    if (grownFrom) {
      text += '[CSM] [W]Memory: the module grew beyond ' + grownFrom + ' bytes; typed arrays taken before now are ' +
              'detached (call Live2DCubismCore.Memory.initializeAmountOfMemory with more before loading)\n';
      grownFrom = 0;
    }
    if (!text || !logFunction) return;
    var lines = text.split('\n');
    for (var i = 0; i < lines.length; ++i)
      if (lines[i]) logFunction(lines[i]);
  }

  var Logging = (function () {
    function Logging() {}
    Logging.csmSetLogFunction = function (handler) { logFunction = handler; };
    Logging.csmGetLogFunction = function () { return logFunction; };
    // (the official file turns a handler into something its module can call; here the handler
    // is called from JavaScript, so it stays as it is)
    Logging.wrapLogFunction = function (handler) { return handler; };
    return Logging;
  })();
  Live2DCubismCore.Logging = Logging;

  // ---- Versions ----

  function mocVersionOf(buffer) {
    if (!buffer) return 0;
    var bytes = buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer);
    if (bytes.length < 64 || bytes[0] !== 0x4d || bytes[1] !== 0x4f || bytes[2] !== 0x43 || bytes[3] !== 0x33) return 0;
    return bytes[4];
  }

  var Version = (function () {
    function Version() {}
    Version.csmGetVersion = function () { return E.csmGetVersion() >>> 0; };
    Version.csmGetLatestMocVersion = function () { return E.csmGetLatestMocVersion() >>> 0; };
    // (moc, mocBytes) as Core 5 and 6 take it; a moc alone gives the version it was revived from.
    Version.csmGetMocVersion = function (moc, mocBytes) {
      if (mocBytes) return mocVersionOf(mocBytes);
      if (moc instanceof ArrayBuffer || ArrayBuffer.isView(moc)) return mocVersionOf(moc);
      return moc && moc._mocVersion !== undefined ? moc._mocVersion : 0;
    };
    return Version;
  })();
  Live2DCubismCore.Version = Version;

  // ---- Moc ----

  var Moc = (function () {
    function Moc(buffer) {
      var block = copyIn(buffer, 64);
      this._ptr = 0;
      if (!block) return;
      var ptr = E.csmReviveMocInPlace(block.address, block.size) >>> 0;
      flushLog();
      if (!ptr) {
        release(block);
        return;
      }
      this._ptr = ptr;
      this._block = block;
      this._mocVersion = mocVersionOf(buffer);
    }
    // 1 when the moc3 is complete and consistent, else 0 (callable on the prototype, as the
    // Framework does).
    Moc.prototype.hasMocConsistency = function (mocBytes) {
      var block = copyIn(mocBytes, 64);
      if (!block) return 0;
      var result = E.csmHasMocConsistency(block.address, block.size);
      release(block);
      flushLog();
      return result ? 1 : 0;
    };
    // A Moc, or null when the Core refuses the bytes (the log says why).
    Moc.fromArrayBuffer = function (buffer) {
      if (!buffer) return null;
      var moc = new Moc(buffer);
      return moc._ptr ? moc : null;
    };
    Moc.prototype._release = function () {
      if (!this._ptr) return;
      E.p2lcsm_release_moc(this._ptr);
      release(this._block);
      this._ptr = 0;
      this._block = null;
    };
    return Moc;
  })();
  Live2DCubismCore.Moc = Moc;

  // ---- Model ----

  var CanvasInfo = (function () {
    function CanvasInfo(modelPtr) {
      var scratch = allocate(20, 16);
      var a = scratch.address;
      E.csmReadCanvasInfo(modelPtr, a, a + 8, a + 16);
      var f = new Float32Array(heap(), a, 5);
      this.CanvasWidth = f[0];
      this.CanvasHeight = f[1];
      this.CanvasOriginX = f[2];
      this.CanvasOriginY = f[3];
      this.PixelsPerUnit = f[4];
      release(scratch);
    }
    return CanvasInfo;
  })();
  Live2DCubismCore.CanvasInfo = CanvasInfo;

  // Sets [target]'s arrays from the module's getters, each entry [property, getter, Type, width,
  // counts]: a view of width x n items, a table of views of counts[i] x width items each (counts
  // names a property set before), or the strings of a table of C strings (Type String).
  function attach(target, modelPtr, n, fields) {
    fields.forEach(function (f) {
      var address = E[f[1]](modelPtr) >>> 0;
      target[f[0]] = f[2] === String ? strings(address, n) : f[4] ? views(f[2], address, target[f[4]], f[3]) : view(f[2], address, f[3] * n);
    });
  }

  var Parameters = (function () {
    function Parameters(modelPtr) {
      var n = this.count = E.csmGetParameterCount(modelPtr);
      attach(this, modelPtr, n, [
        ['ids', 'csmGetParameterIds', String], ['minimumValues', 'csmGetParameterMinimumValues', Float32Array, 1],
        ['types', 'csmGetParameterTypes', Int32Array, 1], ['maximumValues', 'csmGetParameterMaximumValues', Float32Array, 1],
        ['defaultValues', 'csmGetParameterDefaultValues', Float32Array, 1], ['values', 'csmGetParameterValues', Float32Array, 1],
        ['repeats', 'csmGetParameterRepeats', Int32Array, 1], ['keyCounts', 'csmGetParameterKeyCounts', Int32Array, 1],
        ['keyValues', 'csmGetParameterKeyValues', Float32Array, 1, 'keyCounts']]);
    }
    return Parameters;
  })();
  Live2DCubismCore.Parameters = Parameters;

  var Parts = (function () {
    function Parts(modelPtr) {
      var n = this.count = E.csmGetPartCount(modelPtr);
      attach(this, modelPtr, n, [
        ['ids', 'csmGetPartIds', String], ['opacities', 'csmGetPartOpacities', Float32Array, 1],
        ['parentIndices', 'csmGetPartParentPartIndices', Int32Array, 1], ['offscreenIndices', 'csmGetPartOffscreenIndices', Int32Array, 1]]);
    }
    return Parts;
  })();
  Live2DCubismCore.Parts = Parts;

  var Drawables = (function () {
    function Drawables(modelPtr) {
      this._modelPtr = modelPtr;
      var n = this.count = E.csmGetDrawableCount(modelPtr);
      attach(this, modelPtr, n, [
        ['ids', 'csmGetDrawableIds', String], ['constantFlags', 'csmGetDrawableConstantFlags', Uint8Array, 1],
        ['dynamicFlags', 'csmGetDrawableDynamicFlags', Uint8Array, 1], ['blendModes', 'csmGetDrawableBlendModes', Int32Array, 1],
        ['textureIndices', 'csmGetDrawableTextureIndices', Int32Array, 1], ['drawOrders', 'csmGetDrawableDrawOrders', Int32Array, 1],
        ['renderOrders', 'csmGetDrawableRenderOrders', Int32Array, 1], ['opacities', 'csmGetDrawableOpacities', Float32Array, 1],
        ['maskCounts', 'csmGetDrawableMaskCounts', Int32Array, 1], ['masks', 'csmGetDrawableMasks', Int32Array, 1, 'maskCounts'],
        ['vertexCounts', 'csmGetDrawableVertexCounts', Int32Array, 1],
        ['vertexPositions', 'csmGetDrawableVertexPositions', Float32Array, 2, 'vertexCounts'],
        ['vertexUvs', 'csmGetDrawableVertexUvs', Float32Array, 2, 'vertexCounts'],
        ['indexCounts', 'csmGetDrawableIndexCounts', Int32Array, 1], ['indices', 'csmGetDrawableIndices', Uint16Array, 1, 'indexCounts'],
        ['multiplyColors', 'csmGetDrawableMultiplyColors', Float32Array, 4], ['screenColors', 'csmGetDrawableScreenColors', Float32Array, 4],
        ['parentPartIndices', 'csmGetDrawableParentPartIndices', Int32Array, 1]]);
    }
    Drawables.prototype.resetDynamicFlags = function () { E.csmResetDrawableDynamicFlags(this._modelPtr); };
    return Drawables;
  })();
  Live2DCubismCore.Drawables = Drawables;

  var Offscreens = (function () {
    function Offscreens(modelPtr) {
      var n = this.count = E.csmGetOffscreenCount(modelPtr);
      attach(this, modelPtr, n, [
        ['blendModes', 'csmGetOffscreenBlendModes', Int32Array, 1], ['opacities', 'csmGetOffscreenOpacities', Float32Array, 1],
        ['ownerIndices', 'csmGetOffscreenOwnerIndices', Int32Array, 1],
        ['multiplyColors', 'csmGetOffscreenMultiplyColors', Float32Array, 4], ['screenColors', 'csmGetOffscreenScreenColors', Float32Array, 4],
        ['maskCounts', 'csmGetOffscreenMaskCounts', Int32Array, 1], ['masks', 'csmGetOffscreenMasks', Int32Array, 1, 'maskCounts'],
        ['constantFlags', 'csmGetOffscreenConstantFlags', Uint8Array, 1]]);
    }
    return Offscreens;
  })();
  Live2DCubismCore.Offscreens = Offscreens;

  var Model = (function () {
    function Model(moc) {
      this._ptr = 0;
      var size = E.csmGetSizeofModel(moc._ptr) >>> 0;
      flushLog();
      if (!size) return;
      var block = allocate(size, 16);
      if (!block) return;
      var ptr = E.csmInitializeModelInPlace(moc._ptr, block.address, size) >>> 0;
      flushLog();
      if (!ptr) {
        release(block);
        return;
      }
      this._ptr = ptr;
      this._block = block;
      this.parameters = new Parameters(ptr);
      this.parts = new Parts(ptr);
      this.drawables = new Drawables(ptr);
      this.canvasinfo = new CanvasInfo(ptr);
      this.offscreens = new Offscreens(ptr);
      // The drawables' render places, then the offscreens' (Core 6: also getRenderOrders()).
      this.renderOrders = view(Int32Array, E.csmGetRenderOrders(ptr) >>> 0, this.drawables.count + this.offscreens.count);
    }
    // A Model, or null when it cannot be made (the log says why).
    Model.fromMoc = function (moc) {
      if (!moc || !moc._ptr) return null;
      var model = new Model(moc);
      return model._ptr ? model : null;
    };
    Model.prototype.update = function () { E.csmUpdateModel(this._ptr); };
    // The drawables' render places, then the offscreens' (Core 6).
    Model.prototype.getRenderOrders = function () { return this.renderOrders; };
    Model.prototype.release = function () {
      if (!this._ptr) return;
      E.p2lcsm_release_model(this._ptr);
      release(this._block);
      this._ptr = 0;
      this._block = null;
    };
    return Model;
  })();
  Live2DCubismCore.Model = Model;

  // ---- Utils, Memory ----

  var Utils = (function () {
    function Utils() {}
    function bit(mask) { return function (flags) { return (flags & mask) === mask; }; }
    Utils.hasBlendAdditiveBit = bit(1);
    Utils.hasBlendMultiplicativeBit = bit(2);
    Utils.hasIsDoubleSidedBit = bit(4);
    Utils.hasIsInvertedMaskBit = bit(8);
    Utils.hasIsVisibleBit = bit(1);
    Utils.hasVisibilityDidChangeBit = bit(2);
    Utils.hasOpacityDidChangeBit = bit(4);
    Utils.hasDrawOrderDidChangeBit = bit(8);
    Utils.hasRenderOrderDidChangeBit = bit(16);
    Utils.hasVertexPositionsDidChangeBit = bit(32);
    Utils.hasBlendColorDidChangeBit = bit(64);
    return Utils;
  })();
  Live2DCubismCore.Utils = Utils;

  var Memory = (function () {
    function Memory() {}
    // The memory the module reserves before it loads anything (at least 16 MB, as the official
    // Core takes it); later calls can only add to it.
    Memory.initializeAmountOfMemory = function (size) {
      reserve(Math.max(Number(size) || 0, DEFAULT_MEMORY));
    };
    return Memory;
  })();
  Live2DCubismCore.Memory = Memory;
})(Live2DCubismCore || (Live2DCubismCore = {}));
if (typeof globalThis !== 'undefined' && !globalThis.Live2DCubismCore) globalThis.Live2DCubismCore = Live2DCubismCore;
if (typeof module === 'object' && module && module.exports) module.exports = Live2DCubismCore;
