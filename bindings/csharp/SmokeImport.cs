// The smoke test's Cubism import checks (Smoke.cs runs them with --cubism ...): Rig.ImportCubism
// and Model.ImportCubism through libp2l's p2l_cubism.h functions, against what `p2lrt import`
// wrote and printed for the same model.
using System;
using System.Collections.Generic;
using System.IO;
using P2lRuntime;

static partial class Smoke
{
    // (d) Rig.ImportCubism of a model3.json gives the rig that loading `p2lrt import`'s .p2lrt of
    // it gives: the same meshes, every vertex the same bits at the default pose and through 60
    // frames of a clip; its report is p2lrt's, line for line; failures throw P2lException.
    static void CubismImport(string model3, string importedPath, string importLog)
    {
        string[] expectedReport = ReportOfLog(File.ReadAllLines(importLog));
        using (Rig imported = Rig.ImportCubism(model3))
        using (Rig reference = Rig.Load(importedPath))
        {
            Check(imported.MeshCount == reference.MeshCount && imported.MeshCount > 0 && imported.ClipCount == reference.ClipCount,
                  "Rig.ImportCubism: " + imported.MeshCount + " meshes, " + imported.ClipCount + " clips, as the imported .p2lrt",
                  "the .p2lrt has " + reference.MeshCount + " meshes, " + reference.ClipCount + " clips");
            string where = FirstDifference(imported, reference);
            Check(where == null, "every vertex equals the imported .p2lrt's to the bit at the default pose", where);
            imported.BehaviorSeed(1);
            reference.BehaviorSeed(1);
            imported.Play(0);
            reference.Play(0);
            string later = null;
            for (int frame = 0; frame < 60 && later == null; frame++)
            {
                imported.Update(1f / 60f);
                reference.Update(1f / 60f);
                later = FirstDifference(imported, reference);
                if (later != null) later = "frame " + frame + ": " + later;
            }
            Check(later == null, "and through 60 frames of clip \"" + imported.ClipId(0) + "\"", later);

            string[] report = imported.ImportReport();
            int mismatch = 0;
            while (mismatch < Math.Min(report.Length, expectedReport.Length) && report[mismatch] == expectedReport[mismatch]) mismatch++;
            Check(report.Length > 0 && report.Length == expectedReport.Length && mismatch == report.Length,
                  "ImportReport: " + report.Length + " lines, those `p2lrt import` printed",
                  report.Length + " lines, p2lrt printed " + expectedReport.Length
                  + (mismatch < Math.Min(report.Length, expectedReport.Length)
                     ? "; line " + mismatch + " is \"" + report[mismatch] + "\", p2lrt's \"" + expectedReport[mismatch] + "\"" : ""));
            Check(reference.ImportReport().Length == 0, "a rig loaded from a .p2lrt has no import report");
        }

        // Through a model shared by rigs: the same rig, the same report.
        using (Model model = Model.ImportCubism(model3))
        using (Rig a = model.CreateRig())
        using (Rig reference = Rig.Load(importedPath))
        {
            Check(FirstDifference(a, reference) == null && model.ImportReport().Length == expectedReport.Length
                  && a.ImportReport().Length == expectedReport.Length,
                  "Model.ImportCubism: its rigs draw the same vertices and carry the report");
        }

        // Through the host's own reader (an archive, app assets): every file from memory under a
        // prefix of its own, the same rig and report.
        string folder = Path.GetDirectoryName(Path.GetFullPath(model3));
        var files = new Dictionary<string, byte[]>();
        foreach (string file in Directory.GetFiles(folder, "*", SearchOption.AllDirectories))
            files["pack/" + file.Substring(folder.Length + 1).Replace(Path.DirectorySeparatorChar, '/')] = File.ReadAllBytes(file);
        var asked = new List<string>();
        Func<string, byte[]> fromMemory = name => { asked.Add(name); byte[] b; return files.TryGetValue(name, out b) ? b : null; };
        using (Rig imported = Rig.ImportCubism("pack/" + Path.GetFileName(model3), fromMemory))
        using (Rig reference = Rig.Load(importedPath))
        {
            Check(FirstDifference(imported, reference) == null && imported.ImportReport().Length == expectedReport.Length
                  && asked.Count > 2 && asked.TrueForAll(n => n.StartsWith("pack/", StringComparison.Ordinal)),
                  "Rig.ImportCubism through a reader: " + asked.Count + " files asked for under the model's folder, the same rig and report");
        }
        try
        {
            files.Remove("pack/" + Path.GetFileName(model3).Replace(".model3.json", ".moc3"));
            Rig.ImportCubism("pack/" + Path.GetFileName(model3), fromMemory).Dispose();
            Check(false, "Rig.ImportCubism through a reader without the moc3 throws", "it imported");
        }
        catch (P2lException e)
        {
            Check(e.Message.Contains(".moc3: no such file"), "a file the reader does not have: P2lException naming it: " + e.Message);
        }
        try
        {
            Rig.ImportCubism("pack/x.model3.json", name => { throw new IOException("the archive is damaged"); }).Dispose();
            Check(false, "Rig.ImportCubism through a failing reader throws", "it imported");
        }
        catch (P2lException e)
        {
            Check(e.Message.Contains("x.model3.json") && e.Message.Contains("the archive is damaged"),
                  "a reader that throws: P2lException with the file and the reader's message: " + e.Message);
        }

        // A missing model3.json: the library's message names it.
        string missing = Path.Combine(Path.GetTempPath(), "p2l-smoke-no-such-model.model3.json");
        try
        {
            Rig.ImportCubism(missing).Dispose();
            Check(false, "Rig.ImportCubism of a missing model3.json throws", "it imported");
        }
        catch (P2lException e)
        {
            Check(e.Message.Contains("p2l-smoke-no-such-model.model3.json"),
                  "Rig.ImportCubism of a missing model3.json throws P2lException: " + e.Message);
        }
        // Options the library does not know are refused by it, not ignored.
        try
        {
            Rig.ImportCubism(model3, (ImportOptions)128).Dispose();
            Check(false, "Rig.ImportCubism with unknown options throws", "it imported");
        }
        catch (P2lException e)
        {
            Check(e.Message.Contains("128"), "Rig.ImportCubism with unknown options throws P2lException: " + e.Message);
        }
    }

    // The report lines of `p2lrt import`'s output: those indented under "import report: ...".
    static string[] ReportOfLog(string[] log)
    {
        var lines = new List<string>();
        bool inReport = false;
        foreach (string line in log)
        {
            if (line.StartsWith("import report:", StringComparison.Ordinal)) { inReport = true; continue; }
            if (inReport && line.StartsWith("  ", StringComparison.Ordinal)) lines.Add(line.Substring(2));
            else inReport = false;
        }
        return lines.ToArray();
    }

    // Where two rigs' last evaluations first differ in a vertex's bits, or null when they do not.
    static string FirstDifference(Rig a, Rig b)
    {
        if (a.MeshCount != b.MeshCount) return a.MeshCount + " meshes against " + b.MeshCount;
        for (int m = 0; m < a.MeshCount; m++)
        {
            float[] va = a.Vertices(m), vb = b.Vertices(m);
            if (va.Length != vb.Length) return "mesh " + a.MeshId(m) + ": " + va.Length + " values against " + vb.Length;
            for (int i = 0; i < va.Length; i++)
                if (BitConverter.ToInt32(BitConverter.GetBytes(va[i]), 0) != BitConverter.ToInt32(BitConverter.GetBytes(vb[i]), 0))
                    return "mesh " + a.MeshId(m) + ", value " + i + ": " + va[i].ToString("R") + " against " + vb[i].ToString("R");
        }
        return null;
    }
}
