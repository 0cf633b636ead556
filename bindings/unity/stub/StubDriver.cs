// Drives P2lCharacter under mono against the Unity stub (compiled with -define:P2L_STUB_DRIVER):
// calls Start, Update and OnDestroy as Unity would, through reflection, and checks what reaches
// the texture. This exercises the component's own code, not Unity: nothing here shows that it
// behaves inside the editor or a player.
//
//   mono StubDriver.exe RIG.p2lrt [MODEL.model3.json]
//
// With a Cubism model (the npm Haru; never in the repository), its folder is copied into a
// temporary StreamingAssets folder and the component imports it from there by relative path.
// Prints "N passed, M failed" last; exit code 1 when anything failed.
using System;
using System.IO;
using System.Reflection;
using P2lRuntime;
using UnityEngine;
using UnityEngine.UI;

static class StubDriver
{
    static int passed, failed;

    static void Check(bool ok, string what, string detail = null)
    {
        if (ok) passed++;
        else failed++;
        Console.WriteLine((ok ? "ok    " : "FAIL  ") + what + (!ok && detail != null ? ": " + detail : ""));
    }

    static void Set(object target, string field, object value)
    {
        FieldInfo f = target.GetType().GetField(field, BindingFlags.Instance | BindingFlags.NonPublic | BindingFlags.Public);
        if (f == null) throw new MissingFieldException(target.GetType().Name, field);
        f.SetValue(target, value);
    }

    static void Call(object target, string method)
    {
        MethodInfo m = target.GetType().GetMethod(method, BindingFlags.Instance | BindingFlags.NonPublic | BindingFlags.Public);
        if (m == null) throw new MissingMethodException(target.GetType().Name, method);
        m.Invoke(target, null);
    }

    static int Main(string[] args)
    {
        if (args.Length != 1 && args.Length != 2)
        {
            Console.Error.WriteLine("usage: mono StubDriver.exe RIG.p2lrt [MODEL.model3.json]");
            return 2;
        }
        string rigPath = System.IO.Path.GetFullPath(args[0]);
        const int size = 128;
        try
        {
            // A character at the default pose: no clip, no behaviors, no time passing.
            var character = new P2lCharacter();
            var image = new RawImage();
            Set(character, "rigPath", rigPath);
            Set(character, "clip", "");
            Set(character, "behaviors", false);
            Set(character, "width", size);
            Set(character, "height", size);
            Set(character, "targetImage", image);
            Call(character, "Start");
            Check(character.enabled && character.Rig != null, "Start loads the rig");
            Texture2D texture = character.CharacterTexture;
            Check(texture != null && image.texture == texture && texture.width == size && texture.height == size,
                  "Start gives the RawImage a " + size + "x" + size + " texture");

            Time.deltaTime = 0f;
            Call(character, "Update");
            byte[] raw = texture.GetRawTextureData();
            Check(texture.StubApplied >= 2, "Update uploads the texture (Apply called " + texture.StubApplied + " times)");

            using (Rig reference = Rig.Load(rigPath)) CheckPicture(raw, reference, size);

            // Animating changes the picture.
            Time.deltaTime = 1f / 60f;
            character.Play("wave");
            for (int frame = 0; frame < 30; frame++) Call(character, "Update");
            byte[] waved = texture.GetRawTextureData();
            int changed = 0;
            for (int i = 0; i < raw.Length; i++)
                if (raw[i] != waved[i]) changed++;
            Check(changed > 100, "playing \"wave\" for 30 frames changes the texture (" + changed + " channels)");

            Call(character, "OnDestroy");
            Check(character.Rig == null && texture.StubDestroyed, "OnDestroy frees the rig and destroys the texture");

            // A missing file: an error in the console and the component switched off.
            var broken = new P2lCharacter();
            Set(broken, "rigPath", rigPath + ".missing");
            int errors = UnityEngine.Debug.StubErrors;
            Call(broken, "Start");
            Check(!broken.enabled && UnityEngine.Debug.StubErrors == errors + 1, "a missing rig logs an error and disables the component");
        }
        catch (Exception e)
        {
            if (e is TargetInvocationException && e.InnerException != null) e = e.InnerException;
            Check(false, "driver", e.GetType().Name + ": " + e.Message);
        }
        if (args.Length == 2) Cubism(Path.GetFullPath(args[1]), size);
        else Console.WriteLine("skip  a Cubism model from StreamingAssets: no model3.json given");
        Console.WriteLine(passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }

    // The texture holds the canvas bottom row first: turned over, it is [reference]'s plain render
    // at its default pose.
    static void CheckPicture(byte[] raw, Rig reference, int size)
    {
        reference.SetBehaviors(0);
        reference.Update(0f);
        byte[] expected = reference.Render(size, size, reference.CanvasTransform(size, size));
        int differing = 0, drawn = 0;
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size * 4; x++)
            {
                byte got = raw[(size - 1 - y) * size * 4 + x];
                if (Math.Abs(got - expected[y * size * 4 + x]) > 1) differing++;
                if (x % 4 == 3 && got != 0) drawn++;
            }
        Check(drawn > size * size / 16, "the texture shows the character (" + drawn + " pixels drawn)");
        Check(differing <= expected.Length / 100, "the texture is the render upside down, as Unity's rows go ("
              + differing + " channels differ)", differing + " channels differ");
    }

    // A Cubism model's folder in a temporary StreamingAssets, given to the component as a relative
    // .model3.json path: it imports it, logs the import report, and draws it.
    static void Cubism(string model3, int size)
    {
        string streaming = Path.Combine(Path.GetTempPath(), "p2l-stub-" + Guid.NewGuid().ToString("N"), "StreamingAssets");
        try
        {
            CopyFolder(Path.GetDirectoryName(model3), Path.Combine(streaming, "model"));
            Application.streamingAssetsPath = streaming;
            var character = new P2lCharacter();
            Set(character, "rigPath", "model/" + Path.GetFileName(model3));
            Set(character, "clip", "");
            Set(character, "behaviors", false);
            Set(character, "width", size);
            Set(character, "height", size);
            Set(character, "targetImage", new RawImage());
            int logs = UnityEngine.Debug.StubLogs.Count, errors = UnityEngine.Debug.StubErrors;
            Call(character, "Start");
            Check(character.enabled && character.Rig != null && UnityEngine.Debug.StubErrors == errors,
                  "Start imports " + Path.GetFileName(model3) + " from StreamingAssets");
            if (character.Rig == null) return;

            using (Rig reference = Rig.ImportCubism(model3))
            {
                string[] report = reference.ImportReport();
                var logged = UnityEngine.Debug.StubLogs.GetRange(logs, UnityEngine.Debug.StubLogs.Count - logs);
                int missing = 0;
                foreach (string line in report)
                    if (!logged.Contains("P2lCharacter: " + line)) missing++;
                Check(report.Length > 0 && missing == 0 && character.Rig.MeshCount == reference.MeshCount,
                      "the import report's " + report.Length + " lines reach Debug.Log",
                      missing + " lines not logged, " + character.Rig.MeshCount + " meshes against " + reference.MeshCount);
                Time.deltaTime = 0f;
                Call(character, "Update");
                CheckPicture(character.CharacterTexture.GetRawTextureData(), reference, size);
            }
            Call(character, "OnDestroy");

            // A model3.json that is not there: the library's message in the console, the component off.
            var broken = new P2lCharacter();
            Set(broken, "rigPath", "model/missing.model3.json");
            errors = UnityEngine.Debug.StubErrors;
            Call(broken, "Start");
            Check(!broken.enabled && UnityEngine.Debug.StubErrors == errors + 1, "a missing model3.json logs an error and disables the component");
        }
        catch (Exception e)
        {
            if (e is TargetInvocationException && e.InnerException != null) e = e.InnerException;
            Check(false, "a Cubism model from StreamingAssets", e.GetType().Name + ": " + e.Message);
        }
        finally
        {
            Application.streamingAssetsPath = "StreamingAssets";
            if (Directory.Exists(Path.GetDirectoryName(streaming))) Directory.Delete(Path.GetDirectoryName(streaming), true);
        }
    }

    static void CopyFolder(string from, string to)
    {
        Directory.CreateDirectory(to);
        foreach (string file in Directory.GetFiles(from)) File.Copy(file, Path.Combine(to, Path.GetFileName(file)));
        foreach (string folder in Directory.GetDirectories(from)) CopyFolder(folder, Path.Combine(to, Path.GetFileName(folder)));
    }
}
