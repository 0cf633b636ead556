// A Unity component that plays a .p2lrt character, or a Cubism model imported from its
// .model3.json, and shows it through a texture drawn by the runtime's software renderer
// (p2l_render), on a Renderer's material or a UI RawImage.
//
// Needs bindings/csharp/P2lNative.g.cs and bindings/csharp/P2l.cs in the project, and the native
// library for each platform under Assets/Plugins (see README.md). This file has been compiled
// against a stub of the Unity API (stub/UnityEngine.cs) and driven under mono with that stub; it
// has not been run inside the Unity editor or a Unity player.
using System;
using System.IO;
using P2lRuntime;
using UnityEngine;
using UnityEngine.UI;

[AddComponentMenu("p2lrt/P2l Character")]
[DisallowMultipleComponent]
public sealed class P2lCharacter : MonoBehaviour
{
    [Tooltip("The .p2lrt file, renamed to end in .bytes so that Unity imports it as a TextAsset.")]
    [SerializeField] private TextAsset rigFile = null;

    [Tooltip("Used when no TextAsset is set: a path under StreamingAssets (or an absolute path) to a .p2lrt file, " +
             "or to a Cubism model's .model3.json (imported at start, with its moc3 and side files beside it).")]
    [SerializeField] private string rigPath = "";

    [Tooltip("Clip id to play at start (empty: none).")]
    [SerializeField] private string clip = "idle";

    [Tooltip("Blinking and breathing.")]
    [SerializeField] private bool behaviors = true;

    [Tooltip("Size of the texture the character is drawn into.")]
    [SerializeField] private int width = 512;
    [SerializeField] private int height = 512;

    [Tooltip("Redraw at most this many times a second (0: every frame). Drawing runs on the CPU, " +
             "on the main thread; its cost grows with the texture size.")]
    [SerializeField] private float drawsPerSecond = 0f;

    [Tooltip("Where to show the texture; when both are empty, the Renderer or RawImage on this object.")]
    [SerializeField] private Renderer targetRenderer = null;
    [SerializeField] private RawImage targetImage = null;

    private Rig rig;
    private Texture2D texture;
    private byte[] pixels;
    private float[] transformToTexture;
    private bool reportedFailure;
    private float sinceDraw;

    /// <summary>The playing rig, for scripts that set parameters, expressions or gaze (null
    /// before Start and after OnDestroy).</summary>
    public Rig Rig { get { return rig; } }

    /// <summary>The texture the character is drawn into.</summary>
    public Texture2D CharacterTexture { get { return texture; } }

    private void Start()
    {
        try
        {
            rig = rigFile != null ? Rig.Load(rigFile.bytes) : LoadPath(ResolvePath(rigPath));
        }
        catch (Exception e)
        {
            Debug.LogError("P2lCharacter: cannot load the rig: " + e.Message, this);
            enabled = false;
            return;
        }
        if (!P2l.IsCompatible)
            Debug.LogWarning("P2lCharacter: the native library implements ABI " + (P2l.AbiVersion >> 16) + "." +
                             (P2l.AbiVersion & 0xffff) + ", older than these bindings", this);

        rig.SetBehaviors(behaviors ? P2lNative.P2L_BLINK | P2lNative.P2L_BREATH : 0u);
        if (!string.IsNullOrEmpty(clip))
        {
            if (rig.ClipIndex(clip) >= 0) rig.Play(clip);
            else Debug.LogWarning("P2lCharacter: the rig has no clip \"" + clip + "\"", this);
        }

        width = Math.Max(1, width);
        height = Math.Max(1, height);
        texture = new Texture2D(width, height, TextureFormat.RGBA32, false);
        texture.wrapMode = TextureWrapMode.Clamp;
        texture.filterMode = FilterMode.Bilinear;
        pixels = new byte[width * height * 4];
        // Unity's raw texture data starts with the bottom row: draw the canvas upside down.
        transformToTexture = rig.CanvasTransform(width, height, true);

        if (targetRenderer == null && targetImage == null)
        {
            targetRenderer = GetComponent<Renderer>();
            if (targetRenderer == null) targetImage = GetComponent<RawImage>();
        }
        if (targetRenderer != null) targetRenderer.material.mainTexture = texture;
        if (targetImage != null) targetImage.texture = texture;
        if (targetRenderer == null && targetImage == null)
            Debug.LogWarning("P2lCharacter: no Renderer or RawImage to show the texture on; read P2lCharacter.CharacterTexture", this);

        Draw();
    }

    private void Update()
    {
        if (rig == null) return;
        float dt = Time.deltaTime;
        rig.Update(dt);
        sinceDraw += dt;
        if (drawsPerSecond > 0f && sinceDraw < 1f / drawsPerSecond) return;
        sinceDraw = 0f;
        Draw();
    }

    private void Draw()
    {
        string failure = rig.Failure;
        if (failure != null)
        {
            if (!reportedFailure) Debug.LogError("P2lCharacter: the rig failed: " + failure, this);
            reportedFailure = true;
            return;
        }
        // Straight alpha, as Unity's transparent shaders blend it.
        rig.RenderInto(pixels, width, height, transformToTexture, P2lNative.P2L_RENDER_STRAIGHT);
        texture.LoadRawTextureData(pixels);
        texture.Apply(false);
    }

    private void OnDestroy()
    {
        if (rig != null) rig.Dispose();
        rig = null;
        if (texture != null) Destroy(texture);
        texture = null;
    }

    /// <summary>Plays a clip by id (an unknown id throws ArgumentException).</summary>
    public void Play(string clipId)
    {
        if (rig != null) rig.Play(clipId);
    }

    /// <summary>Sets a parameter of the host's pose by id (an unknown id throws ArgumentException).</summary>
    public void SetParameter(string parameterId, float value)
    {
        if (rig != null) rig.SetParameter(parameterId, value);
    }

    // A .p2lrt is read here; a Cubism model is imported by the library, which reads the
    // model3.json's side files from its folder itself (a plain folder: not Android's or WebGL's
    // StreamingAssets). What the import did not carry over exactly goes to the console.
    private Rig LoadPath(string path)
    {
        if (!path.EndsWith(".model3.json", StringComparison.OrdinalIgnoreCase)) return Rig.Load(path);
        Rig imported = Rig.ImportCubism(path);
        string[] report = imported.ImportReport();
        if (report.Length > 0)
            Debug.Log("P2lCharacter: imported " + Path.GetFileName(path) + "; " + report.Length +
                      " things not carried over exactly:", this);
        foreach (string line in report) Debug.Log("P2lCharacter: " + line, this);
        return imported;
    }

    private static string ResolvePath(string path)
    {
        if (string.IsNullOrEmpty(path)) throw new ArgumentException("neither a TextAsset nor a path is set");
        return Path.IsPathRooted(path) ? path : Path.Combine(Application.streamingAssetsPath, path);
    }
}
