// Smoke test of the C# bindings against a built libp2l: every entry point resolves, the example
// character loads with the counts `p2lrt info` prints, animates, and renders as its golden images;
// a Cubism model imports as `p2lrt import` imports it.
//
//   mono Smoke.exe --rig examples/character/character.p2lrt --info info.txt \
//                  --golden examples/character/golden [--lib DIR] \
//                  [--cubism MODEL.model3.json --cubism-p2lrt IMPORTED.p2lrt --cubism-log IMPORT.log]
//
// --info is the output of `p2lrt info` on the same rig: the expected counts come from the C++
// tool, not from this program. --lib names the directory libp2l must be loaded from (checked in
// /proc/self/maps on Linux). --cubism names a model3.json (the npm Haru, never in the repository),
// --cubism-p2lrt what `p2lrt import` wrote for it and --cubism-log what it printed; without them
// the import checks are skipped, saying so. The last line printed is "N passed, M failed"; the exit
// code is 1 when anything failed, 2 for bad arguments.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.IO.Compression;
using System.Linq;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Text.RegularExpressions;
using P2lRuntime;

// The Cubism import checks are in SmokeImport.cs.
static partial class Smoke
{
    static int passed, failed;

    static void Check(bool ok, string what, string detail = null)
    {
        if (ok)
        {
            passed++;
            Console.WriteLine("ok    " + what);
        }
        else
        {
            failed++;
            Console.WriteLine("FAIL  " + what + (detail != null ? ": " + detail : ""));
        }
    }

    // Runs one group of checks; an exception fails the group instead of ending the program.
    static void Group(string name, Action body)
    {
        try
        {
            body();
        }
        catch (Exception e)
        {
            Check(false, name, e.GetType().Name + ": " + e.Message);
        }
    }

    static int Main(string[] args)
    {
        var options = new Dictionary<string, string>();
        for (int i = 0; i + 1 < args.Length; i += 2)
        {
            if (!args[i].StartsWith("--")) break;
            options[args[i].Substring(2)] = args[i + 1];
        }
        if (args.Length % 2 != 0 || !options.ContainsKey("rig") || !options.ContainsKey("info") || !options.ContainsKey("golden"))
        {
            Console.Error.WriteLine("usage: mono Smoke.exe --rig FILE.p2lrt --info P2LRT_INFO.txt --golden DIR [--lib DIR] "
                                    + "[--cubism MODEL3_JSON --cubism-p2lrt IMPORTED.p2lrt --cubism-log IMPORT_LOG]");
            return 2;
        }
        string rigPath = options["rig"], goldenDir = options["golden"];
        Info info = Info.Parse(File.ReadAllLines(options["info"]));

        Group("entry points", EntryPoints);
        Group("library", () => Library(options.ContainsKey("lib") ? options["lib"] : null));
        Group("load failure", LoadFailure);
        Group("counts", () => Counts(rigPath, info));
        Group("parameters", () => Parameters(rigPath));
        Group("clips", () => Clips(rigPath));
        Group("expressions", () => Expressions(rigPath));
        Group("render order", () => RenderOrder(rigPath));
        Group("handles", () => Handles(rigPath));
        Group("golden", () => Golden(rigPath, goldenDir));
        if (options.ContainsKey("cubism") && options.ContainsKey("cubism-p2lrt") && options.ContainsKey("cubism-log"))
            Group("cubism import", () => CubismImport(options["cubism"], options["cubism-p2lrt"], options["cubism-log"]));
        else
            Console.WriteLine("skip  cubism import: no --cubism, --cubism-p2lrt and --cubism-log");

        Console.WriteLine(passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }

    // (a) Every DllImport of P2lNative binds to a symbol of the loaded library.
    static void EntryPoints()
    {
        var methods = typeof(P2lNative).GetMethods(BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static)
            .Where(m => (m.Attributes & MethodAttributes.PinvokeImpl) != 0).OrderBy(m => m.Name).ToList();
        var missing = new List<string>();
        foreach (MethodInfo method in methods)
        {
            try
            {
                Marshal.Prelink(method);
            }
            catch (Exception e)
            {
                missing.Add(method.Name + " (" + e.GetType().Name + ")");
            }
        }
        Check(methods.Count == P2lNative.FunctionCount, "P2lNative imports every function of p2l.h and p2l_cubism.h",
              methods.Count + " imports, the header declares " + P2lNative.FunctionCount);
        Check(missing.Count == 0, methods.Count - missing.Count + " of " + methods.Count + " entry points resolve",
              "unresolved: " + string.Join(", ", missing));
    }

    static void Library(string expectedDir)
    {
        uint abi = P2l.AbiVersion;
        Check(P2l.IsCompatible, "ABI " + (abi >> 16) + "." + (abi & 0xffff) + " is compatible with "
              + P2lNative.P2L_ABI_VERSION_MAJOR + "." + P2lNative.P2L_ABI_VERSION_MINOR);
        string version = P2l.Version;
        Check(version != null && Regex.IsMatch(version, @"^\d+\.\d+\.\d+"), "p2l_version: " + version);
        string support = P2l.FormatSupport;
        Check(support != null && support.Contains("MESH/"), "p2l_format_support lists chunks", support);
        if (expectedDir == null) return;
        string mapped = null;
        if (File.Exists("/proc/self/maps"))
            foreach (string line in File.ReadAllLines("/proc/self/maps"))
            {
                int slash = line.IndexOf('/');
                if (slash >= 0 && Path.GetFileName(line.Substring(slash)).StartsWith("libp2l.so")) mapped = line.Substring(slash);
            }
        string want = Path.GetFullPath(expectedDir).TrimEnd('/');
        Check(mapped != null && Path.GetDirectoryName(mapped) == want, "libp2l loaded from " + want,
              mapped == null ? "no libp2l.so in /proc/self/maps" : "loaded " + mapped);
    }

    static void LoadFailure()
    {
        var heard = new List<string>();
        P2l.SetLog((level, message) => { lock (heard) heard.Add(level + " " + message); });
        try
        {
            Rig.Load(new byte[] { 1, 2, 3, 4, 5, 6, 7, 8 }).Dispose();
            Check(false, "Rig.Load of garbage throws P2lException", "it loaded");
        }
        catch (P2lException e)
        {
            Check(e.Message.Length > 0 && e.Message != "unknown error", "Rig.Load of garbage throws P2lException: " + e.Message);
        }
        finally
        {
            P2l.SetLog(null);
        }
        lock (heard)
            Check(heard.Count > 0 && heard[0].StartsWith(P2lNative.P2L_LOG_ERROR + " "), "the log callback hears the failed load",
                  heard.Count + " messages");
        try
        {
            Rig.Load(Path.Combine(Path.GetTempPath(), "p2l-smoke-no-such-file.p2lrt"));
            Check(false, "Rig.Load of a missing file throws");
        }
        catch (IOException)
        {
            Check(true, "Rig.Load of a missing file throws an IOException");
        }
    }

    // (b) The counts of the example, as `p2lrt info` printed them.
    static void Counts(string rigPath, Info info)
    {
        using (Rig rig = Rig.Load(rigPath, true))
        {
            CheckCount(info, "meshes", rig.MeshCount);
            CheckCount(info, "parameters", rig.ParameterCount);
            CheckCount(info, "parts", rig.PartCount);
            CheckCount(info, "clips", rig.ClipCount);
            CheckCount(info, "expressions", rig.ExpressionCount);
            CheckCount(info, "hit areas", rig.HitAreaCount);
            CheckCount(info, "textures", rig.TextureCount);
            CheckCount(info, "pose groups", (int)P2lNative.p2l_pose_group_count(rig.Handle));
            int vertices = 0, triangles = 0;
            for (int m = 0; m < rig.MeshCount; m++)
            {
                vertices += rig.VertexCount(m);
                triangles += rig.Triangles(m).Length / 3;
            }
            CheckCount(info, "vertices", vertices);
            CheckCount(info, "triangles", triangles);

            Match canvas = info.Field("canvas", @"^(\d+) x (\d+) px, origin \((-?[\d.]+), (-?[\d.]+)\), ([\d.]+) px/unit");
            if (canvas != null)
            {
                float x, y, ppu;
                rig.CanvasOrigin(out x, out y, out ppu);
                string got = rig.CanvasWidth + " x " + rig.CanvasHeight + ", origin (" + x + ", " + y + "), " + ppu + " px/unit";
                Check(rig.CanvasWidth == F(canvas.Groups[1].Value) && rig.CanvasHeight == F(canvas.Groups[2].Value)
                      && x == F(canvas.Groups[3].Value) && y == F(canvas.Groups[4].Value) && ppu == F(canvas.Groups[5].Value),
                      "canvas " + got, "p2lrt info: " + canvas.Value);
            }
            Match page = info.Field("textures", @"^\d+ \(PNG (\d+)x(\d+)\)");
            if (page != null)
            {
                int w, h;
                byte[] png = rig.TexturePng(0, out w, out h);
                Check(png != null && png.Length > 8 && png[1] == 'P' && w == int.Parse(page.Groups[1].Value)
                      && h == int.Parse(page.Groups[2].Value), "texture page 0 is an embedded " + w + "x" + h + " PNG");
            }
            var meta = rig.Meta();
            bool same = meta.Length == info.Meta.Count;
            for (int i = 0; same && i < meta.Length; i++)
                same = meta[i].Key == info.Meta[i].Key && meta[i].Value == info.Meta[i].Value;
            Check(same && meta.Length > 0, "meta: " + meta.Length + " pairs as p2lrt info prints them",
                  string.Join("; ", meta.Select(p => p.Key + "=" + p.Value)));
            Check(rig.Failure == null, "no failure after loading");
        }
    }

    static void CheckCount(Info info, string field, int got)
    {
        int want;
        if (!info.Count(field, out want))
        {
            Check(false, field, "p2lrt info printed no '" + field + "' count");
            return;
        }
        Check(got == want, field + ": " + got, "p2lrt info says " + want);
    }

    static void Parameters(string rigPath)
    {
        using (Rig rig = Rig.Load(rigPath))
        {
            int angle = rig.ParameterIndex("ParamAngleX");
            Check(angle >= 0 && rig.ParameterId(angle) == "ParamAngleX", "ParameterIndex(\"ParamAngleX\") = " + angle);
            RigParameter p = rig.Parameter(angle);
            Check(p.Min < p.Max && p.Min <= p.Default && p.Default <= p.Max,
                  "ParamAngleX range " + p.Min + ".." + p.Max + ", default " + p.Default);
            Check(rig.ParameterIndex("NoSuchParameter") == -1, "an unknown id gives -1");
            bool threw = false;
            try { rig.SetParameter("NoSuchParameter", 1f); }
            catch (ArgumentException) { threw = true; }
            Check(threw, "SetParameter with an unknown id throws ArgumentException");

            float[][] before = AllVertices(rig);
            rig.SetParameter("ParamAngleX", 25f);
            rig.Evaluate();
            Check(rig.GetParameter("ParamAngleX") == 25f && rig.CurrentValue(angle) == 25f, "SetParameter by id reaches the pose",
                  rig.GetParameter(angle) + ", current " + rig.CurrentValue(angle));
            float moved = MaxDistance(before, AllVertices(rig));
            Check(moved > 1f, "turning the head moves vertices (up to " + moved.ToString("0.0") + " px)");
            Check(rig.ParameterIds().Length == rig.ParameterCount && rig.ParameterIds()[angle] == "ParamAngleX", "ParameterIds");
        }
    }

    // Plays a clip for 60 frames at 1/60 s: vertices move and stay finite, events fire.
    static void Clips(string rigPath)
    {
        using (Rig rig = Rig.Load(rigPath))
        {
            rig.BehaviorSeed(1);
            foreach (string clip in new[] { "wave", "sway" })
            {
                int index = rig.ClipIndex(clip);
                Check(index >= 0, "clip \"" + clip + "\" found: " + index);
                if (index < 0) continue;
                RigClip info = rig.Clip(index);
                rig.Play(clip);
                float[][] start = AllVertices(rig);
                bool finite = true, playing = true;
                var events = new List<string>();
                for (int frame = 0; frame < 60; frame++)
                {
                    rig.Update(1f / 60f);
                    playing &= rig.ClipPlaying == index || info.Duration < 1f;
                    foreach (float[] v in AllVertices(rig))
                        foreach (float f in v)
                            finite &= !float.IsNaN(f) && !float.IsInfinity(f);
                    uint count = P2lNative.p2l_event_count(rig.Handle);
                    for (uint e = 0; e < count; e++)
                    {
                        uint layer;
                        int from;
                        float time;
                        events.Add(P2l.Utf8(P2lNative.p2l_event(rig.Handle, e, out layer, out from, out time)));
                    }
                }
                float moved = MaxDistance(start, AllVertices(rig));
                Check(playing, clip + " plays on layer 0 (" + info.Duration + " s, " + info.Fps + " fps, group " + info.Group + ")",
                      "ClipPlaying " + rig.ClipPlaying);
                Check(moved > 1f, clip + ": 60 updates move vertices (up to " + moved.ToString("0.0") + " px), clip time "
                      + rig.ClipTime.ToString("0.000"));
                Check(finite, clip + ": every vertex stays finite");
                if (clip == "wave")
                    Check(events.Contains("wave"), "wave fires its event", "events: " + string.Join(", ", events));
            }
            bool threw = false;
            try { rig.Play("no_such_clip"); }
            catch (ArgumentException) { threw = true; }
            Check(threw, "Play with an unknown id throws ArgumentException");
            Check(rig.Failure == null, "no failure after animating");
        }
    }

    static void Expressions(string rigPath)
    {
        using (Rig rig = Rig.Load(rigPath))
        {
            int smile = rig.ExpressionIndex("smile");
            int param = rig.ParameterIndex("ParamSmile");
            Check(smile >= 0 && param >= 0, "expression \"smile\" and ParamSmile found");
            rig.SetBehaviors(0);
            rig.SetExpression("smile");
            for (int frame = 0; frame < 90; frame++) rig.Update(1f / 60f);
            int[] playing = rig.ExpressionsPlaying();
            Check(playing.Length == 1 && playing[0] == smile, "ExpressionsPlaying = [" + string.Join(", ", playing) + "]");
            Check(rig.CurrentValue(param) > 0.9f, "smile drives ParamSmile to " + rig.CurrentValue(param));
            Check(rig.GetParameter(param) == 0f, "the host's pose is left alone", "ParamSmile pose " + rig.GetParameter(param));
            Check(!rig.AddExpression("smile"), "AddExpression of one playing is false");
        }
    }

    static void RenderOrder(string rigPath)
    {
        using (Rig rig = Rig.Load(rigPath))
        {
            int[] order = rig.RenderOrder();
            bool valid = order.All(m => m >= 0 && m < rig.MeshCount) && order.Distinct().Count() == order.Length;
            Check(order.Length > 0 && order.Length <= rig.MeshCount && valid,
                  "render order: " + order.Length + " distinct meshes of " + rig.MeshCount);
            int[] commands = new int[P2lNative.p2l_render_commands(rig.Handle, null, 0)];
            P2lNative.p2l_render_commands(rig.Handle, commands, (uint)commands.Length);
            int groups = commands.Count(c => P2lNative.P2L_RENDER_IS_GROUP(c));
            Check(commands.Count(c => c >= 0) == order.Length && groups == commands.Count(c => c == P2lNative.P2L_RENDER_END_GROUP),
                  "render commands: the same meshes, " + groups + " isolated group(s) opened and closed");
        }
    }

    static void Handles(string rigPath)
    {
        Rig rig = Rig.Load(rigPath);
        int meshes = rig.MeshCount;
        rig.Dispose();
        rig.Dispose();
        bool threw = false;
        try { meshes = rig.MeshCount; }
        catch (ObjectDisposedException) { threw = true; }
        Check(threw && rig.IsDisposed, "a disposed rig throws ObjectDisposedException (and Dispose twice is fine)");

        Model model = Model.Load(File.ReadAllBytes(rigPath));
        Rig a = model.CreateRig(), b = model.CreateRig();
        model.Dispose();
        a.SetParameter("ParamAngleX", 30f);
        a.Evaluate();
        b.Evaluate();
        Check(a.MeshCount == meshes && b.MeshCount == meshes && MaxDistance(AllVertices(a), AllVertices(b)) > 1f,
              "two rigs of one model outlive it and keep their own poses");
        a.Dispose();
        b.Dispose();

        // Rigs that nobody disposes are freed by their SafeHandle's finalizer.
        for (int i = 0; i < 8; i++) Rig.Load(rigPath);
        GC.Collect();
        GC.WaitForPendingFinalizers();
        Check(true, "finalizing undisposed rigs");
    }

    // (c) 256x256 renders equal the goldens `p2lrt render --size 256x256` made (within 1/255).
    static void Golden(string rigPath, string goldenDir)
    {
        var poses = new[]
        {
            new { File = "default.png", Params = new Dictionary<string, float>() },
            new { File = "turned.png", Params = new Dictionary<string, float> { { "ParamAngleX", 25f }, { "ParamAngleY", -15f } } },
            new { File = "happy.png", Params = new Dictionary<string, float> {
                { "ParamEyeLOpen", 0f }, { "ParamEyeROpen", 0f }, { "ParamMouthOpenY", 1f }, { "ParamSmile", 1f } } },
        };
        byte[] rigBytes = File.ReadAllBytes(rigPath);
        foreach (var pose in poses)
        {
            int width, height;
            byte[] golden = Png.DecodeRgba(File.ReadAllBytes(Path.Combine(goldenDir, pose.File)), out width, out height);
            using (Rig rig = Rig.Load(rigBytes))
            {
                foreach (var p in pose.Params) rig.SetParameter(p.Key, p.Value);
                if (pose.Params.Count > 0) rig.Evaluate();
                // As `p2lrt render` draws: straight alpha over a transparent image, the canvas fitted.
                byte[] image = new byte[width * height * 4];
                rig.RenderInto(image, width, height, rig.CanvasTransform(width, height),
                               P2lNative.P2L_RENDER_STRAIGHT | P2lNative.P2L_RENDER_KEEP);
                int worst, differing, drawn;
                Compare(image, golden, out worst, out differing, out drawn);
                Check(worst <= 1 && drawn > width * height / 16, pose.File + ": the " + width + "x" + height
                      + " render matches within 1/255 (worst " + worst + ", " + differing + " channels differ, "
                      + drawn + " pixels drawn)");
                if (pose.File != "default.png") continue;

                byte[] fitted = rig.Render(width, height);
                int w2, d2, n2;
                Compare(fitted, image, out w2, out d2, out n2);
                Check(w2 == 0, "a null transform fits the square canvas the same way", d2 + " channels differ");

                // The flipped transform (bottom row first, for Unity) is the same picture upside down.
                byte[] flipped = rig.Render(width, height, rig.CanvasTransform(width, height, true));
                byte[] unflipped = new byte[flipped.Length];
                for (int y = 0; y < height; y++)
                    Buffer.BlockCopy(flipped, (height - 1 - y) * width * 4, unflipped, y * width * 4, width * 4);
                Compare(unflipped, golden, out w2, out d2, out n2);
                Check(d2 <= golden.Length / 200, "the flipped transform draws the golden upside down (at most 0.5% of the "
                      + "channels differ, at triangle edges: " + d2 + ")");
            }
        }
    }

    static void Compare(byte[] a, byte[] b, out int worst, out int differing, out int drawn)
    {
        worst = differing = drawn = 0;
        if (a.Length != b.Length)
        {
            worst = 255;
            differing = Math.Max(a.Length, b.Length);
            return;
        }
        for (int i = 0; i < a.Length; i++)
        {
            int d = Math.Abs(a[i] - b[i]);
            if (d > worst) worst = d;
            if (d != 0) differing++;
            if (i % 4 == 3 && a[i] != 0) drawn++;
        }
    }

    static float[][] AllVertices(Rig rig)
    {
        var all = new float[rig.MeshCount][];
        for (int m = 0; m < all.Length; m++) all[m] = rig.Vertices(m);
        return all;
    }

    static float MaxDistance(float[][] a, float[][] b)
    {
        float worst = 0;
        for (int m = 0; m < a.Length && m < b.Length; m++)
            for (int i = 0; i + 1 < a[m].Length && i + 1 < b[m].Length; i += 2)
            {
                float dx = a[m][i] - b[m][i], dy = a[m][i + 1] - b[m][i + 1];
                worst = Math.Max(worst, (float)Math.Sqrt(dx * dx + dy * dy));
            }
        return worst;
    }

    static float F(string text) { return float.Parse(text, CultureInfo.InvariantCulture); }

    // What `p2lrt info` printed: the "rig" section's fields and the meta lines.
    sealed class Info
    {
        readonly Dictionary<string, string> fields = new Dictionary<string, string>();
        public readonly List<KeyValuePair<string, string>> Meta = new List<KeyValuePair<string, string>>();

        public static Info Parse(string[] lines)
        {
            var info = new Info();
            bool inRig = false;
            foreach (string line in lines)
            {
                if (line == "rig") { inRig = true; continue; }
                Match meta = Regex.Match(line, @"^meta\s+(\S+) = (.*)$");
                if (meta.Success)
                {
                    info.Meta.Add(new KeyValuePair<string, string>(meta.Groups[1].Value, meta.Groups[2].Value));
                    continue;
                }
                if (!line.StartsWith("  ")) { inRig = false; continue; }
                Match field = Regex.Match(line, @"^  ([a-z][a-z ]*?)\s{2,}(\S.*)$");
                if (inRig && field.Success) info.fields[field.Groups[1].Value] = field.Groups[2].Value;
            }
            // "meshes 38 (1932 vertices, 2866 triangles)" also gives the vertex and triangle totals.
            string meshes;
            if (info.fields.TryGetValue("meshes", out meshes))
            {
                Match m = Regex.Match(meshes, @"\((\d+) vertices, (\d+) triangles\)");
                if (m.Success)
                {
                    info.fields["vertices"] = m.Groups[1].Value;
                    info.fields["triangles"] = m.Groups[2].Value;
                }
            }
            return info;
        }

        public bool Count(string name, out int value)
        {
            value = 0;
            string text;
            if (!fields.TryGetValue(name, out text)) return false;
            Match m = Regex.Match(text, @"^(\d+)");
            return m.Success && int.TryParse(m.Groups[1].Value, out value);
        }

        public Match Field(string name, string pattern)
        {
            string text;
            Match m = fields.TryGetValue(name, out text) ? Regex.Match(text, pattern) : null;
            if (m == null || !m.Success)
            {
                Check(false, name, "p2lrt info printed no '" + name + "' line of the expected form");
                return null;
            }
            return m;
        }
    }

    // Just enough PNG to read the goldens: 8-bit RGBA or RGB, not interlaced.
    static class Png
    {
        public static byte[] DecodeRgba(byte[] file, out int width, out int height)
        {
            byte[] signature = { 137, 80, 78, 71, 13, 10, 26, 10 };
            if (file.Length < 8 || !file.Take(8).SequenceEqual(signature)) throw new InvalidDataException("not a PNG");
            width = height = 0;
            int colorType = -1;
            var idat = new MemoryStream();
            for (int at = 8; at + 8 <= file.Length;)
            {
                int length = BigEndian(file, at);
                string type = System.Text.Encoding.ASCII.GetString(file, at + 4, 4);
                int data = at + 8;
                if (length < 0 || data + length + 4 > file.Length) throw new InvalidDataException("truncated " + type + " chunk");
                if (type == "IHDR")
                {
                    width = BigEndian(file, data);
                    height = BigEndian(file, data + 4);
                    colorType = file[data + 9];
                    if (file[data + 8] != 8 || (colorType != 6 && colorType != 2) || file[data + 12] != 0)
                        throw new InvalidDataException("only 8-bit RGBA/RGB non-interlaced PNGs are supported");
                }
                else if (type == "IDAT")
                    idat.Write(file, data, length);
                else if (type == "IEND")
                    break;
                at = data + length + 4;
            }
            int channels = colorType == 6 ? 4 : 3, stride = width * channels;
            byte[] raw = new byte[(stride + 1) * height];
            idat.Position = 2;  // the zlib header; DeflateStream reads the raw deflate data after it
            using (var inflate = new DeflateStream(idat, CompressionMode.Decompress))
                for (int got = 0, n; got < raw.Length; got += n)
                    if ((n = inflate.Read(raw, got, raw.Length - got)) == 0) throw new InvalidDataException("short image data");
            byte[] pixels = new byte[stride * height];
            for (int y = 0; y < height; y++)
            {
                int filter = raw[y * (stride + 1)], src = y * (stride + 1) + 1, row = y * stride;
                for (int x = 0; x < stride; x++)
                {
                    int a = x >= channels ? pixels[row + x - channels] : 0;
                    int b = y > 0 ? pixels[row - stride + x] : 0;
                    int c = x >= channels && y > 0 ? pixels[row - stride + x - channels] : 0;
                    int predictor;
                    switch (filter)
                    {
                        case 0: predictor = 0; break;
                        case 1: predictor = a; break;
                        case 2: predictor = b; break;
                        case 3: predictor = (a + b) / 2; break;
                        case 4:
                            int p = a + b - c, pa = Math.Abs(p - a), pb = Math.Abs(p - b), pc = Math.Abs(p - c);
                            predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
                            break;
                        default: throw new InvalidDataException("bad PNG filter " + filter);
                    }
                    pixels[row + x] = (byte)(raw[src + x] + predictor);
                }
            }
            if (channels == 4) return pixels;
            byte[] rgba = new byte[width * height * 4];
            for (int i = 0, j = 0; i < pixels.Length; i += 3, j += 4)
            {
                rgba[j] = pixels[i];
                rgba[j + 1] = pixels[i + 1];
                rgba[j + 2] = pixels[i + 2];
                rgba[j + 3] = 255;
            }
            return rgba;
        }

        static int BigEndian(byte[] b, int at) { return b[at] << 24 | b[at + 1] << 16 | b[at + 2] << 8 | b[at + 3]; }
    }
}
