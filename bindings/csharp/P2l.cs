// The C# face of p2lrt: handles that free themselves and a Rig class with managed types, over
// the generated declarations in P2lNative.g.cs. Written for the C# that mono 6.8's mcs and Unity
// compile (no Span, no nuint, no unsafe code).
//
// What p2l.h promises, and what this file does with it:
//  - Strings and arrays that describe the file (ids, names, UVs, indices, texture bytes) live as
//    long as the handle; evaluation arrays (vertices, current values) are rewritten by the next
//    evaluate or update. Every method here copies into managed memory before returning, so
//    nothing returned points into the library.
//  - One rig is used by one thread at a time; distinct rigs may run on distinct threads. A Rig
//    object adds no locking of its own.
//  - A rig that fails inside the runtime behaves as a NULL handle from then on; Rig.Failure says
//    why. Render throws when the runtime refuses to draw.
using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.InteropServices;
using System.Text;
#if UNITY_5_3_OR_NEWER
using AOT;
#endif

namespace P2lRuntime
{
    /// <summary>A pointer to a P2lRig; releasing it calls p2l_rig_free.</summary>
    public sealed class P2lRig : SafeHandle
    {
        // The marshaller creates instances for the functions that return a rig ([Preserve]: so
        // that Unity's code stripping keeps this constructor, which only the marshaller calls).
        [Preserve]
        private P2lRig() : base(IntPtr.Zero, true) { }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        protected override bool ReleaseHandle()
        {
            P2lNative.p2l_rig_free(handle);
            return true;
        }
    }

    /// <summary>A pointer to a P2lModel; releasing it calls p2l_model_free. Rigs made from the
    /// model keep their own reference, so it may be released before them.</summary>
    public sealed class P2lModel : SafeHandle
    {
        [Preserve]
        private P2lModel() : base(IntPtr.Zero, true) { }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        protected override bool ReleaseHandle()
        {
            P2lNative.p2l_model_free(handle);
            return true;
        }
    }

    /// <summary>A load that failed, or a rig that the runtime marked failed.</summary>
    public class P2lException : Exception
    {
        public P2lException(string message) : base(message) { }
    }

    /// <summary>Unity's linker keeps members with an attribute of this name (any namespace).</summary>
    [AttributeUsage(AttributeTargets.Constructor | AttributeTargets.Method | AttributeTargets.Class)]
    internal sealed class PreserveAttribute : Attribute { }

    /// <summary>Marks a static method that native code calls back, for ahead-of-time compilers
    /// (IL2CPP, Xamarin) that look for an attribute of this name. Unity has its own in the AOT
    /// namespace, which is used there.</summary>
#if !UNITY_5_3_OR_NEWER
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class MonoPInvokeCallbackAttribute : Attribute
    {
        public MonoPInvokeCallbackAttribute(Type delegateType) { DelegateType = delegateType; }
        public Type DelegateType { get; private set; }
    }
#endif

    /// <summary>Library-wide calls and the text conversions the other classes use.</summary>
    public static class P2l
    {
        /// <summary>The library's version, "major.minor.patch".</summary>
        public static string Version { get { return Utf8(P2lNative.p2l_version()); } }

        /// <summary>The format versions and chunk versions the library reads.</summary>
        public static string FormatSupport { get { return Utf8(P2lNative.p2l_format_support()); } }

        /// <summary>The ABI the loaded library implements (major &lt;&lt; 16 | minor).</summary>
        public static uint AbiVersion { get { return P2lNative.p2l_abi_version(); } }

        /// <summary>Whether the loaded library implements the ABI these declarations come from.</summary>
        public static bool IsCompatible { get { return P2lNative.P2L_ABI_COMPATIBLE(AbiVersion); } }

        /// <summary>A NUL-terminated UTF-8 string of the library as a managed string; null for NULL.</summary>
        public static string Utf8(IntPtr text)
        {
            if (text == IntPtr.Zero) return null;
            int length = 0;
            while (Marshal.ReadByte(text, length) != 0) length++;
            if (length == 0) return string.Empty;
            byte[] bytes = new byte[length];
            Marshal.Copy(text, bytes, 0, length);
            return Encoding.UTF8.GetString(bytes);
        }

        /// <summary>[text] as NUL-terminated UTF-8, for the const char * arguments.</summary>
        public static byte[] Utf8z(string text)
        {
            if (text == null) throw new ArgumentNullException("text");
            int length = Encoding.UTF8.GetByteCount(text);
            byte[] bytes = new byte[length + 1];
            Encoding.UTF8.GetBytes(text, 0, text.Length, bytes, 0);
            return bytes;
        }

        /// <summary>The message the library wrote into an error buffer.</summary>
        internal static string ErrorText(byte[] buffer)
        {
            int end = Array.IndexOf(buffer, (byte)0);
            if (end < 0) end = buffer.Length;
            return end == 0 ? "unknown error" : Encoding.UTF8.GetString(buffer, 0, end);
        }

        internal const int ErrorCapacity = 1024;

        private static readonly object logLock = new object();
        private static Action<int, string> logHandler;
        // Kept in a static field: the library holds the function pointer for as long as it is set.
        private static readonly P2lLog logThunk = LogThunk;

        /// <summary>Routes the runtime's diagnostics (failed loads, failed rigs) to [handler], which
        /// receives P2L_LOG_ERROR or P2L_LOG_WARNING and the message; null switches them off. The
        /// handler runs on the thread where the failure happens, possibly several at once.</summary>
        public static void SetLog(Action<int, string> handler)
        {
            lock (logLock)
            {
                logHandler = handler;
                P2lNative.p2l_set_log(handler == null ? null : logThunk, IntPtr.Zero);
            }
        }

        [MonoPInvokeCallback(typeof(P2lLog))]
        private static void LogThunk(int level, IntPtr message, IntPtr user)
        {
            Action<int, string> handler = logHandler;
            if (handler == null) return;
            try
            {
                handler(level, Utf8(message));
            }
            catch (Exception)
            {
                // An exception must not unwind into the native caller.
            }
        }

        /// <summary>A Cubism import's report lines (p2l_cubism.h), copied; empty for none.</summary>
        internal static string[] ReportLines(uint count, Func<uint, IntPtr> line)
        {
            string[] lines = new string[count];
            for (uint i = 0; i < count; i++) lines[i] = Utf8(line(i));
            return lines;
        }

        /// <summary>The bytes of a file, for the Load(path) overloads.</summary>
        internal static byte[] ReadFile(string path)
        {
            if (path == null) throw new ArgumentNullException("path");
            return File.ReadAllBytes(path);
        }
    }

    /// <summary>A host's file reader as p2l_cubism.h's P2lReadFile. The callback is a static
    /// method that finds its reader through the user pointer, as IL2CPP (Unity's AOT) requires of
    /// callbacks from native code; the bytes it hands over stay pinned until the library asks
    /// for the next file or the import ends (Dispose).</summary>
    internal sealed class CubismReader : IDisposable
    {
        internal static readonly P2lReadFile Thunk = Read;
        private readonly Func<string, byte[]> readFile;
        private GCHandle self, pinned;
        internal string Failure;

        internal CubismReader(Func<string, byte[]> readFile)
        {
            this.readFile = readFile;
            self = GCHandle.Alloc(this);
        }

        internal IntPtr User { get { return GCHandle.ToIntPtr(self); } }

        [MonoPInvokeCallback(typeof(P2lReadFile))]
        private static bool Read(IntPtr name, IntPtr data, IntPtr size, IntPtr user)
        {
            CubismReader reader = (CubismReader)GCHandle.FromIntPtr(user).Target;
            reader.Release();
            byte[] bytes;
            try
            {
                bytes = reader.readFile(P2l.Utf8(name));
            }
            catch (Exception e)
            {
                // Nothing may be thrown through the C library: the import fails, and says why.
                if (reader.Failure == null) reader.Failure = e.Message;
                return false;
            }
            if (bytes == null) return false;
            reader.pinned = GCHandle.Alloc(bytes, GCHandleType.Pinned);
            Marshal.WriteIntPtr(data, bytes.Length == 0 ? IntPtr.Zero : reader.pinned.AddrOfPinnedObject());
            Marshal.WriteIntPtr(size, (IntPtr)bytes.Length);
            return true;
        }

        private void Release()
        {
            if (pinned.IsAllocated) pinned.Free();
        }

        public void Dispose()
        {
            Release();
            if (self.IsAllocated) self.Free();
        }
    }

    /// <summary>How ImportCubism reads a Cubism model (p2l_cubism.h's P2L_IMPORT_* flags); None is
    /// what `p2lrt import` does.</summary>
    [Flags]
    public enum ImportOptions : uint
    {
        /// <summary>Cubism's rules, motions played as Cubism's Framework plays them, textures embedded.</summary>
        None = 0,
        /// <summary>The format's own core rules instead of Cubism's (the report lists what they approximate).</summary>
        OriginalRules = P2lNative.P2L_IMPORT_ORIGINAL_RULES,
        /// <summary>Motions, expressions and the pose play by p2lrt's rules instead of the Framework's.</summary>
        P2lrtPlayback = P2lNative.P2L_IMPORT_P2LRT_PLAYBACK,
        /// <summary>Texture pages name their PNG files instead of holding their pixels (the
        /// software renderer then draws their meshes transparent).</summary>
        ExternalTextures = P2lNative.P2L_IMPORT_EXTERNAL_TEXTURES,
    }

    /// <summary>A loaded .p2lrt file that any number of rigs share (read-only, any thread).</summary>
    public sealed class Model : IDisposable
    {
        private readonly P2lModel handle;

        private Model(P2lModel handle) { this.handle = handle; }

        /// <summary>The underlying handle, for calls into P2lNative.</summary>
        public P2lModel Handle { get { return handle; } }

        /// <summary>Reads a .p2lrt file's bytes (copied; the array may be reused at once). Throws
        /// P2lException with the library's message when the file does not load.</summary>
        public static Model Load(byte[] bytes, bool verifyCrc = false)
        {
            if (bytes == null) throw new ArgumentNullException("bytes");
            byte[] error = new byte[P2l.ErrorCapacity];
            P2lModel handle = P2lNative.p2l_model_load(bytes, (UIntPtr)bytes.Length,
                verifyCrc ? P2lNative.P2L_LOAD_VERIFY_CRC : 0u, error, (UIntPtr)error.Length);
            if (handle.IsInvalid)
            {
                handle.Dispose();
                throw new P2lException(P2l.ErrorText(error));
            }
            return new Model(handle);
        }

        /// <summary>Reads a .p2lrt file from disk.</summary>
        public static Model Load(string path, bool verifyCrc = false)
        {
            return Load(P2l.ReadFile(path), verifyCrc);
        }

        /// <summary>Imports a Cubism model (a .model3.json with its moc3 and side files, or a bare
        /// .moc3) from disk, as `p2lrt import` does. Throws P2lException with the library's message
        /// (naming the file and the JSON path at fault) when it does not import.</summary>
        public static Model ImportCubism(string path, ImportOptions options = ImportOptions.None)
        {
            if (path == null) throw new ArgumentNullException("path");
            byte[] error = new byte[P2l.ErrorCapacity];
            P2lModel handle = P2lNative.p2l_model_import_cubism(P2l.Utf8z(path), (uint)options, error, (UIntPtr)error.Length);
            if (handle.IsInvalid)
            {
                handle.Dispose();
                throw new P2lException(P2l.ErrorText(error));
            }
            return new Model(handle);
        }

        /// <summary>What the import did not carry over exactly, one line each, in the words of
        /// `p2lrt import`; empty for a model that was loaded rather than imported.</summary>
        public string[] ImportReport()
        {
            return P2l.ReportLines(P2lNative.p2l_model_import_report_count(handle),
                                   i => P2lNative.p2l_model_import_report_line(handle, i));
        }

        /// <summary>A new rig on this model, at the default pose and evaluated once.</summary>
        public Rig CreateRig()
        {
            byte[] error = new byte[P2l.ErrorCapacity];
            P2lRig rig = P2lNative.p2l_rig_create(handle, error, (UIntPtr)error.Length);
            if (rig.IsInvalid)
            {
                rig.Dispose();
                throw new P2lException(P2l.ErrorText(error));
            }
            return new Rig(rig);
        }

        /// <summary>Releases this reference; rigs made from the model keep working.</summary>
        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>A parameter's description, copied out of the file.</summary>
    public struct RigParameter
    {
        public int Index;
        public string Id;
        public string Name;
        public float Min, Max, Default;
        /// <summary>P2L_PARAMETER_REPEAT, P2L_PARAMETER_BLEND_SHAPE.</summary>
        public uint Flags;
    }

    /// <summary>A clip's description, copied out of the file.</summary>
    public struct RigClip
    {
        public int Index;
        public string Id, Name, Group;
        public float Duration, Fps, FadeIn, FadeOut;
        public bool Looping;
    }

    /// <summary>One character: its parameters, clips, expressions, behaviors and physics, and the
    /// meshes of its last evaluation. Use it from one thread at a time; Dispose (or the garbage
    /// collector, later) frees it.</summary>
    public sealed class Rig : IDisposable
    {
        private readonly P2lRig handle;
        // Ids by index, copied once: they cannot change while the handle lives.
        private string[] parameterIds, clipIds, expressionIds, meshIds, partIds;

        internal Rig(P2lRig handle) { this.handle = handle; }

        /// <summary>The underlying handle, for calls into P2lNative that this class does not wrap.</summary>
        public P2lRig Handle { get { return handle; } }

        // ---- Loading ----------------------------------------------------------------------

        /// <summary>Loads a .p2lrt file's bytes (copied) into a rig at its default pose, already
        /// evaluated. Throws P2lException with the library's message when the file does not load.</summary>
        public static Rig Load(byte[] bytes, bool verifyCrc = false)
        {
            if (bytes == null) throw new ArgumentNullException("bytes");
            byte[] error = new byte[P2l.ErrorCapacity];
            P2lRig handle = P2lNative.p2l_rig_load_ex(bytes, (UIntPtr)bytes.Length,
                verifyCrc ? P2lNative.P2L_LOAD_VERIFY_CRC : 0u, error, (UIntPtr)error.Length);
            if (handle.IsInvalid)
            {
                handle.Dispose();
                throw new P2lException(P2l.ErrorText(error));
            }
            return new Rig(handle);
        }

        /// <summary>Loads a .p2lrt file from disk.</summary>
        public static Rig Load(string path, bool verifyCrc = false)
        {
            return Load(P2l.ReadFile(path), verifyCrc);
        }

        /// <summary>Imports a Cubism model (a .model3.json with its moc3 and side files, or a bare
        /// .moc3) from disk into a rig at its default pose, already evaluated: the same rig as
        /// Load of the .p2lrt that `p2lrt import` writes for it. Throws P2lException with the
        /// library's message (naming the file and the JSON path at fault) when it does not import.</summary>
        public static Rig ImportCubism(string path, ImportOptions options = ImportOptions.None)
        {
            if (path == null) throw new ArgumentNullException("path");
            byte[] error = new byte[P2l.ErrorCapacity];
            P2lRig handle = P2lNative.p2l_rig_import_cubism(P2l.Utf8z(path), (uint)options, error, (UIntPtr)error.Length);
            if (handle.IsInvalid)
            {
                handle.Dispose();
                throw new P2lException(P2l.ErrorText(error));
            }
            return new Rig(handle);
        }

        /// <summary>Imports a Cubism model whose files the host reads itself (an archive, app
        /// assets, a download): [readFile] gets each name ('/'-separated: [name] first, then each
        /// file its model3.json names, joined to [name]'s folder) and returns its bytes, or null
        /// when there is no such file (the import then fails, naming it). Otherwise as
        /// ImportCubism(path). An exception [readFile] throws fails the import with its message.</summary>
        public static Rig ImportCubism(string name, Func<string, byte[]> readFile, ImportOptions options = ImportOptions.None)
        {
            if (name == null) throw new ArgumentNullException("name");
            if (readFile == null) throw new ArgumentNullException("readFile");
            byte[] error = new byte[P2l.ErrorCapacity];
            using (CubismReader reader = new CubismReader(readFile))
            {
                P2lRig handle = P2lNative.p2l_rig_import_cubism_with(P2l.Utf8z(name), CubismReader.Thunk, reader.User, (uint)options,
                                                                      error, (UIntPtr)error.Length);
                if (handle.IsInvalid)
                {
                    handle.Dispose();
                    string message = P2l.ErrorText(error);
                    throw new P2lException(reader.Failure != null ? message + " (the reader failed: " + reader.Failure + ")" : message);
                }
                return new Rig(handle);
            }
        }

        /// <summary>What the import did not carry over exactly, one line each, in the words of
        /// `p2lrt import` ("haru.physics3.json: ..."); empty for a rig that was loaded from a
        /// .p2lrt rather than imported.</summary>
        public string[] ImportReport()
        {
            return P2l.ReportLines(P2lNative.p2l_import_report_count(handle), i => P2lNative.p2l_import_report_line(handle, i));
        }

        /// <summary>Frees the rig. Calls afterwards throw ObjectDisposedException.</summary>
        public void Dispose() { handle.Dispose(); }

        public bool IsDisposed { get { return handle.IsClosed; } }

        /// <summary>Why the rig failed inside the runtime (it then does nothing), or null while it works.</summary>
        public string Failure { get { return P2l.Utf8(P2lNative.p2l_rig_failure(handle)); } }

        // ---- Canvas -----------------------------------------------------------------------

        public float CanvasWidth { get { float w, h; P2lNative.p2l_canvas(handle, out w, out h); return w; } }
        public float CanvasHeight { get { float w, h; P2lNative.p2l_canvas(handle, out w, out h); return h; } }

        /// <summary>The canvas position of the model origin and the pixels per model unit (0 when unknown).</summary>
        public void CanvasOrigin(out float x, out float y, out float pixelsPerUnit)
        {
            P2lNative.p2l_canvas_origin(handle, out x, out y, out pixelsPerUnit);
        }

        /// <summary>The transform [a, b, c, d, tx, ty] that fits the whole canvas into a
        /// [width] x [height] image, centred and keeping its aspect, as `p2lrt render` frames a
        /// pose (p2l_framing). [flipY] puts the canvas top on the last image row, for engines whose
        /// textures start at the bottom (Unity's LoadRawTextureData); the renderer keeps culling
        /// right. [drawn]: what the last evaluation draws instead of the whole canvas, with
        /// [margin] around it (a fraction of its larger side; `p2lrt render --fit` takes 0.04).</summary>
        public float[] CanvasTransform(int width, int height, bool flipY = false, bool drawn = false, float margin = 0.04f)
        {
            if (width <= 0 || height <= 0) throw new ArgumentOutOfRangeException("width", "the image needs a size");
            float[] t = new float[6];
            uint flags = (flipY ? P2lNative.P2L_FRAME_FLIP_Y : 0u) | (drawn ? P2lNative.P2L_FRAME_DRAWN : 0u);
            if (!P2lNative.p2l_framing(handle, (uint)width, (uint)height, flags, margin, t))
                throw new P2lException(Failure ?? "the rig cannot be framed");
            return t;
        }

        // ---- Parameters -------------------------------------------------------------------

        public int ParameterCount { get { return (int)P2lNative.p2l_parameter_count(handle); } }

        public string ParameterId(int index) { return P2l.Utf8(P2lNative.p2l_parameter_id(handle, (uint)index)); }

        /// <summary>The index of the parameter with this id, or -1.</summary>
        public int ParameterIndex(string id) { return P2lNative.p2l_parameter_index(handle, P2l.Utf8z(id)); }

        /// <summary>The parameter's id, name, range, default and flags.</summary>
        public RigParameter Parameter(int index)
        {
            RigParameter info = new RigParameter();
            info.Index = index;
            info.Id = ParameterId(index);
            info.Name = P2l.Utf8(P2lNative.p2l_parameter_name(handle, (uint)index));
            if (!P2lNative.p2l_parameter_range(handle, (uint)index, out info.Min, out info.Max, out info.Default))
                throw new ArgumentOutOfRangeException("index", index, "no such parameter");
            info.Flags = P2lNative.p2l_parameter_flags(handle, (uint)index);
            return info;
        }

        public string[] ParameterIds() { return Ids(ref parameterIds, ParameterCount, P2lNative.p2l_parameter_id); }

        /// <summary>Sets one value of the host's pose, which the next Evaluate or Update starts from.</summary>
        public void SetParameter(int index, float value) { P2lNative.p2l_set_parameter(handle, (uint)index, value); }

        /// <summary>Sets the host's pose value of the parameter with this id; throws for an unknown id.</summary>
        public void SetParameter(string id, float value) { SetParameter(RequireParameter(id), value); }

        /// <summary>The host's pose value of a parameter (what SetParameter wrote, or the default).</summary>
        public float GetParameter(int index)
        {
            return ReadFloat(P2lNative.p2l_parameter_values(handle), index, ParameterCount);
        }

        public float GetParameter(string id) { return GetParameter(RequireParameter(id)); }

        /// <summary>The value the last evaluation used for a parameter, after clips, expressions,
        /// behaviors and physics.</summary>
        public float CurrentValue(int index)
        {
            return ReadFloat(P2lNative.p2l_parameter_current(handle), index, ParameterCount);
        }

        /// <summary>The values of every parameter at the last evaluation, in parameter order.</summary>
        public float[] CurrentValues()
        {
            float[] values = new float[ParameterCount];
            IntPtr data = P2lNative.p2l_parameter_current(handle);
            if (data != IntPtr.Zero && values.Length > 0) Marshal.Copy(data, values, 0, values.Length);
            return values;
        }

        /// <summary>The host's layer over clips and expressions: the parameter moves toward
        /// [value] by [weight] (0..1; 0 takes it off). False for no such parameter.</summary>
        public bool SetOverride(int index, float value, float weight)
        {
            return P2lNative.p2l_set_parameter_override(handle, (uint)index, value, weight);
        }

        public void ClearOverrides() { P2lNative.p2l_clear_parameter_overrides(handle); }

        // ---- Evaluation and animation ----------------------------------------------------

        /// <summary>Evaluates at the host's pose alone (no clips, expressions, behaviors or physics).</summary>
        public void Evaluate() { P2lNative.p2l_evaluate(handle); }

        /// <summary>Advances clips, expressions, behaviors, poses and physics by [seconds], then evaluates.</summary>
        public void Update(float seconds) { P2lNative.p2l_update(handle, seconds); }

        /// <summary>Update running only [stages] (P2L_STAGE_*).</summary>
        public void Update(float seconds, uint stages) { P2lNative.p2l_update_stages(handle, seconds, stages); }

        /// <summary>P2L_BLINK | P2L_BREATH | P2L_LOOK | P2L_LIP_SYNC (blink and breath start on).</summary>
        public void SetBehaviors(uint flags) { P2lNative.p2l_behaviors(handle, flags); }

        public void BehaviorSeed(uint seed) { P2lNative.p2l_behavior_seed(handle, seed); }

        /// <summary>Where the character looks, -1..1 on each axis (x right, y up).</summary>
        public void LookAt(float x, float y) { P2lNative.p2l_look_at(handle, x, y); }

        /// <summary>Mouth opening for lip sync, 0..1.</summary>
        public void LipSync(float level) { P2lNative.p2l_lip_sync(handle, level); }

        public void ResetPhysics() { P2lNative.p2l_physics_reset(handle); }

        /// <summary>The rig's own opacity, 0..1, applied from the next evaluation; reads the product
        /// the last evaluation used.</summary>
        public float Opacity
        {
            get { return P2lNative.p2l_opacity(handle); }
            set { P2lNative.p2l_set_opacity(handle, value); }
        }

        // ---- Clips ------------------------------------------------------------------------

        public int ClipCount { get { return (int)P2lNative.p2l_clip_count(handle); } }

        public string ClipId(int index) { return P2l.Utf8(P2lNative.p2l_clip_id(handle, (uint)index)); }

        public string[] ClipIds() { return Ids(ref clipIds, ClipCount, P2lNative.p2l_clip_id); }

        /// <summary>The index of the clip with this id, or -1.</summary>
        public int ClipIndex(string id) { return Array.IndexOf(ClipIds(), id); }

        public RigClip Clip(int index)
        {
            RigClip info = new RigClip();
            info.Index = index;
            if (!P2lNative.p2l_clip_info(handle, (uint)index, out info.Duration, out info.Fps, out info.Looping,
                    out info.FadeIn, out info.FadeOut))
                throw new ArgumentOutOfRangeException("index", index, "no such clip");
            info.Id = ClipId(index);
            info.Name = P2l.Utf8(P2lNative.p2l_clip_name(handle, (uint)index));
            info.Group = P2l.Utf8(P2lNative.p2l_clip_group(handle, (uint)index));
            return info;
        }

        /// <summary>Plays a clip on layer 0, fading out what played there; -1 fades the layer out.</summary>
        public void Play(int index) { P2lNative.p2l_play(handle, index); }

        /// <summary>Plays the clip with this id; throws for an unknown id.</summary>
        public void Play(string id)
        {
            int index = ClipIndex(id);
            if (index < 0) throw new ArgumentException("the rig has no clip \"" + id + "\"", "id");
            Play(index);
        }

        public void Stop() { P2lNative.p2l_play(handle, -1); }

        /// <summary>Layer 0's clip, or -1.</summary>
        public int ClipPlaying { get { return P2lNative.p2l_clip_playing(handle); } }

        /// <summary>Layer 0's clip time in seconds.</summary>
        public float ClipTime { get { return P2lNative.p2l_clip_time(handle); } }

        /// <summary>Whether layer 0 plays nothing or a one-shot past its end.</summary>
        public bool ClipFinished { get { return P2lNative.p2l_clip_finished(handle); } }

        public void Seek(float seconds) { P2lNative.p2l_clip_seek(handle, seconds); }

        /// <summary>Makes a clip loop or not from the next update; false for no such clip.</summary>
        public bool SetClipLooping(int index, bool looping) { return P2lNative.p2l_set_clip_looping(handle, (uint)index, looping); }

        // ---- Expressions ------------------------------------------------------------------

        public int ExpressionCount { get { return (int)P2lNative.p2l_expression_count(handle); } }

        public string ExpressionId(int index) { return P2l.Utf8(P2lNative.p2l_expression_id(handle, (uint)index)); }

        public string[] ExpressionIds() { return Ids(ref expressionIds, ExpressionCount, P2lNative.p2l_expression_id); }

        public int ExpressionIndex(string id) { return Array.IndexOf(ExpressionIds(), id); }

        /// <summary>Plays one expression, fading the others out; -1 fades them all out.</summary>
        public void SetExpression(int index) { P2lNative.p2l_expression(handle, index); }

        public void SetExpression(string id) { SetExpression(RequireExpression(id)); }

        /// <summary>Fades an expression in over those playing; false when it already plays.</summary>
        public bool AddExpression(string id) { return P2lNative.p2l_expression_add(handle, (uint)RequireExpression(id)); }

        /// <summary>Fades an expression out; false when it does not play.</summary>
        public bool RemoveExpression(string id) { return P2lNative.p2l_expression_remove(handle, (uint)RequireExpression(id)); }

        /// <summary>The expressions playing and not fading out, oldest first.</summary>
        public int[] ExpressionsPlaying()
        {
            return Indices(P2lNative.p2l_expressions_playing(handle, null, 0),
                           (buffer, capacity) => P2lNative.p2l_expressions_playing(handle, buffer, capacity));
        }

        // ---- Meshes -----------------------------------------------------------------------

        public int MeshCount { get { return (int)P2lNative.p2l_mesh_count(handle); } }

        public string MeshId(int index) { return P2l.Utf8(P2lNative.p2l_mesh_id(handle, (uint)index)); }

        public string[] MeshIds() { return Ids(ref meshIds, MeshCount, P2lNative.p2l_mesh_id); }

        public int MeshIndex(string id) { return Array.IndexOf(MeshIds(), id); }

        public int VertexCount(int mesh) { return (int)P2lNative.p2l_mesh_vertex_count(handle, (uint)mesh); }

        /// <summary>The mesh's vertices at the last evaluation, x and y per vertex in canvas
        /// pixels (y down), as a new array.</summary>
        public float[] Vertices(int mesh)
        {
            float[] values = new float[VertexCount(mesh) * 2];
            CopyVertices(mesh, values);
            return values;
        }

        /// <summary>Copies the mesh's vertices into [into] without allocating; returns how many
        /// floats the mesh has (2 per vertex), copying at most into.Length of them.</summary>
        public int CopyVertices(int mesh, float[] into)
        {
            if (into == null) throw new ArgumentNullException("into");
            int count = VertexCount(mesh) * 2;
            IntPtr data = P2lNative.p2l_mesh_vertices(handle, (uint)mesh);
            int n = Math.Min(count, into.Length);
            if (data != IntPtr.Zero && n > 0) Marshal.Copy(data, into, 0, n);
            return count;
        }

        /// <summary>Texture coordinates, u and v per vertex; empty for a mesh without geometry.</summary>
        public float[] Uvs(int mesh)
        {
            float[] values = new float[VertexCount(mesh) * 2];
            IntPtr data = P2lNative.p2l_mesh_uvs(handle, (uint)mesh);
            if (data != IntPtr.Zero && values.Length > 0) Marshal.Copy(data, values, 0, values.Length);
            return values;
        }

        /// <summary>Triangle vertex indices, three per triangle.</summary>
        public int[] Triangles(int mesh)
        {
            uint count;
            IntPtr data = P2lNative.p2l_mesh_indices(handle, (uint)mesh, out count);
            int[] values = new int[data == IntPtr.Zero ? 0 : (int)count];
            if (values.Length > 0) Marshal.Copy(data, values, 0, values.Length);  // uint32 as int32: indices are small
            return values;
        }

        /// <summary>The mesh's opacity at the last evaluation.</summary>
        public float MeshOpacity(int mesh) { return P2lNative.p2l_mesh_opacity(handle, (uint)mesh); }

        /// <summary>The mesh's texture page, or -1.</summary>
        public int MeshTexture(int mesh) { return P2lNative.p2l_mesh_texture(handle, (uint)mesh); }

        /// <summary>P2L_MESH_* bits of the last evaluation.</summary>
        public uint MeshChanges(int mesh) { return P2lNative.p2l_mesh_changes(handle, (uint)mesh); }

        /// <summary>The meshes to draw at the last evaluation, back to front.</summary>
        public int[] RenderOrder()
        {
            return Indices(P2lNative.p2l_render_order(handle, null, 0),
                           (buffer, capacity) => P2lNative.p2l_render_order(handle, buffer, capacity));
        }

        // ---- Parts, hit areas, textures, meta ---------------------------------------------

        public int PartCount { get { return (int)P2lNative.p2l_part_count(handle); } }

        public string PartId(int index) { return P2l.Utf8(P2lNative.p2l_part_id(handle, (uint)index)); }

        public int PartIndex(string id) { return Array.IndexOf(Ids(ref partIds, PartCount, P2lNative.p2l_part_id), id); }

        /// <summary>The host's opacity for a part (clamped to 0..1); false for no such part.</summary>
        public bool SetPartOpacity(int part, float opacity) { return P2lNative.p2l_set_part_opacity(handle, (uint)part, opacity); }

        public int HitAreaCount { get { return (int)P2lNative.p2l_hit_area_count(handle); } }

        public string HitAreaId(int index) { return P2l.Utf8(P2lNative.p2l_hit_area_id(handle, (uint)index)); }

        /// <summary>The first hit area with a visible triangle over canvas point (x, y), or -1.</summary>
        public int HitTest(float x, float y) { return P2lNative.p2l_hit_test(handle, x, y); }

        public int TextureCount { get { return (int)P2lNative.p2l_texture_count(handle); } }

        /// <summary>An embedded PNG page's bytes (null for another kind of page) and its size.</summary>
        public byte[] TexturePng(int page, out int width, out int height)
        {
            UIntPtr length;
            uint w, h;
            IntPtr data = P2lNative.p2l_texture_png(handle, (uint)page, out length, out w, out h);
            width = (int)w;
            height = (int)h;
            if (data == IntPtr.Zero) return null;
            byte[] bytes = new byte[(int)length.ToUInt64()];
            Marshal.Copy(data, bytes, 0, bytes.Length);
            return bytes;
        }

        /// <summary>The file's generator information, in file order.</summary>
        public KeyValuePair<string, string>[] Meta()
        {
            uint count = P2lNative.p2l_meta_count(handle);
            KeyValuePair<string, string>[] pairs = new KeyValuePair<string, string>[count];
            for (uint i = 0; i < count; i++)
                pairs[i] = new KeyValuePair<string, string>(P2l.Utf8(P2lNative.p2l_meta_key(handle, i)),
                                                            P2l.Utf8(P2lNative.p2l_meta_value(handle, i)));
            return pairs;
        }

        // ---- Software rendering -----------------------------------------------------------

        /// <summary>Draws the last evaluation into a new width x height RGBA8 image, rows top first
        /// (bottom first with a flipped transform). A null [transform] fits the canvas from the
        /// image's top left corner; see CanvasTransform. Straight alpha unless [premultiplied].</summary>
        public byte[] Render(int width, int height, float[] transform = null, bool premultiplied = false)
        {
            if (width <= 0 || height <= 0) throw new ArgumentOutOfRangeException("width", "the image needs a size");
            byte[] rgba = new byte[checked(width * height * 4)];
            RenderInto(rgba, width, height, transform, premultiplied ? 0u : P2lNative.P2L_RENDER_STRAIGHT);
            return rgba;
        }

        /// <summary>Draws into an existing image of at least width * height * 4 bytes, without
        /// allocating. [flags]: P2L_RENDER_STRAIGHT, P2L_RENDER_KEEP (draw over what it holds).</summary>
        public void RenderInto(byte[] rgba, int width, int height, float[] transform, uint flags)
        {
            if (rgba == null) throw new ArgumentNullException("rgba");
            if (width <= 0 || height <= 0 || (long)width * height * 4 > rgba.Length)
                throw new ArgumentException("the image needs at least width * height * 4 bytes", "rgba");
            if (transform != null && transform.Length < 6)
                throw new ArgumentException("a transform has six values: a, b, c, d, tx, ty", "transform");
            if (!P2lNative.p2l_render(handle, rgba, (uint)width, (uint)height, transform, flags))
            {
                string failure = Failure;
                throw new P2lException(failure != null ? "the rig failed: " + failure
                                                       : "the renderer refused a " + width + "x" + height + " image");
            }
        }

        // ---- Helpers ----------------------------------------------------------------------

        private delegate IntPtr IdGetter(P2lRig rig, uint index);
        private delegate uint IndexFiller(uint[] buffer, uint capacity);

        private string[] Ids(ref string[] cache, int count, IdGetter get)
        {
            if (cache == null || cache.Length != count)
            {
                string[] ids = new string[count];
                for (int i = 0; i < count; i++) ids[i] = P2l.Utf8(get(handle, (uint)i));
                cache = ids;
            }
            return cache;
        }

        private static int[] Indices(uint count, IndexFiller fill)
        {
            uint[] buffer = new uint[count];
            uint total = count == 0 ? 0 : fill(buffer, count);
            int[] result = new int[Math.Min(total, count)];
            for (int i = 0; i < result.Length; i++) result[i] = (int)buffer[i];
            return result;
        }

        private readonly float[] oneFloat = new float[1];

        private float ReadFloat(IntPtr data, int index, int count)
        {
            if (index < 0 || index >= count) throw new ArgumentOutOfRangeException("index", index, "no such parameter");
            if (data == IntPtr.Zero) return float.NaN;
            Marshal.Copy(IntPtr.Add(data, index * sizeof(float)), oneFloat, 0, 1);
            return oneFloat[0];
        }

        private int RequireParameter(string id)
        {
            int index = ParameterIndex(id);
            if (index < 0) throw new ArgumentException("the rig has no parameter \"" + id + "\"", "id");
            return index;
        }

        private int RequireExpression(string id)
        {
            int index = ExpressionIndex(id);
            if (index < 0) throw new ArgumentException("the rig has no expression \"" + id + "\"", "id");
            return index;
        }
    }
}
