// A compile-time stand-in for the parts of the Unity API that P2lCharacter.cs uses. It is NOT
// Unity and does nothing Unity does: it lets CI compile the component with mono's mcs (and drive
// it a little, see StubDriver.cs) on a machine without Unity. Each member has the name and the
// signature of the Unity member it stands for, so that code compiling here compiles in Unity.
// The few members Unity does not have (bookkeeping the driver reads, and a setter for
// Time.deltaTime) exist only when P2L_STUB_DRIVER is defined; test.sh compiles the component
// against the stub without it.
//
// Compile: mcs -target:library -out:UnityEngine.dll bindings/unity/stub/UnityEngine.cs
using System;

namespace UnityEngine
{
    public class Object
    {
        public static void Destroy(Object obj)
        {
            if (obj != null) obj.destroyed = true;
        }

        internal bool destroyed;
#if P2L_STUB_DRIVER
        public bool StubDestroyed { get { return destroyed; } }
#endif
    }

    public class Component : Object
    {
        // Unity looks on the component's GameObject; this stand-in has none.
        public T GetComponent<T>() { return default(T); }
    }

    public class Behaviour : Component
    {
        private bool isEnabled = true;
        public bool enabled { get { return isEnabled; } set { isEnabled = value; } }
    }

    public class MonoBehaviour : Behaviour { }

    public class TextAsset : Object
    {
        private byte[] data = new byte[0];
        public byte[] bytes { get { return data; } }
    }

    public enum TextureFormat { RGBA32 = 4 }
    public enum TextureWrapMode { Repeat = 0, Clamp = 1 }
    public enum FilterMode { Point = 0, Bilinear = 1, Trilinear = 2 }

    public class Texture : Object
    {
        public TextureWrapMode wrapMode { get; set; }
        public FilterMode filterMode { get; set; }
    }

    public class Texture2D : Texture
    {
        private readonly int w, h;
        private byte[] raw;

        public Texture2D(int width, int height, TextureFormat textureFormat, bool mipChain)
        {
            w = width;
            h = height;
            raw = new byte[width * height * 4];
        }

        public int width { get { return w; } }
        public int height { get { return h; } }

        public void LoadRawTextureData(byte[] data)
        {
            if (data == null || data.Length < raw.Length) throw new ArgumentException("not enough data for the texture");
            Buffer.BlockCopy(data, 0, raw, 0, raw.Length);
        }

        public void Apply(bool updateMipmaps) { applied++; }

        public byte[] GetRawTextureData() { return (byte[])raw.Clone(); }

        internal int applied;
#if P2L_STUB_DRIVER
        public int StubApplied { get { return applied; } }
#endif
    }

    public class Material : Object
    {
        public Texture mainTexture { get; set; }
    }

    public class Renderer : Component
    {
        private Material shared = new Material();
        public Material material { get { return shared; } set { shared = value; } }
    }

    public static class Time
    {
#if P2L_STUB_DRIVER
        public static float deltaTime { get; set; }  // read-only in Unity
#else
        public static float deltaTime { get { return 1f / 60f; } }
#endif
    }

    public static class Application
    {
#if P2L_STUB_DRIVER
        // The driver points it at a temporary folder; read-only in Unity.
        private static string streamingAssets = "StreamingAssets";
        public static string streamingAssetsPath { get { return streamingAssets; } set { streamingAssets = value; } }
#else
        public static string streamingAssetsPath { get { return "StreamingAssets"; } }
#endif
    }

    public static class Debug
    {
        internal static int errors, warnings;
        internal static readonly System.Collections.Generic.List<string> logs = new System.Collections.Generic.List<string>();
#if P2L_STUB_DRIVER
        public static int StubErrors { get { return errors; } }
        public static int StubWarnings { get { return warnings; } }
        public static System.Collections.Generic.List<string> StubLogs { get { return logs; } }
#endif

        public static void Log(object message, Object context)
        {
            logs.Add(message == null ? "Null" : message.ToString());
            Console.WriteLine("[Unity stub] log: " + message);
        }

        public static void LogError(object message, Object context)
        {
            errors++;
            Console.WriteLine("[Unity stub] error: " + message);
        }

        public static void LogWarning(object message, Object context)
        {
            warnings++;
            Console.WriteLine("[Unity stub] warning: " + message);
        }
    }

    [AttributeUsage(AttributeTargets.Field)]
    public sealed class SerializeField : Attribute { }

    [AttributeUsage(AttributeTargets.Field)]
    public sealed class TooltipAttribute : Attribute
    {
        public TooltipAttribute(string tooltip) { this.tooltip = tooltip; }
        public readonly string tooltip;
    }

    [AttributeUsage(AttributeTargets.Class)]
    public sealed class AddComponentMenu : Attribute
    {
        public AddComponentMenu(string menuName) { componentMenu = menuName; }
        public string componentMenu { get; private set; }
    }

    [AttributeUsage(AttributeTargets.Class)]
    public sealed class DisallowMultipleComponent : Attribute { }
}

namespace UnityEngine.UI
{
    // In Unity: RawImage : MaskableGraphic : Graphic : UIBehaviour : MonoBehaviour.
    public class RawImage : MonoBehaviour
    {
        public Texture texture { get; set; }
    }
}

namespace AOT
{
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class MonoPInvokeCallbackAttribute : Attribute
    {
        public MonoPInvokeCallbackAttribute(Type type) { }
    }
}
