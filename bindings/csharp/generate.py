#!/usr/bin/env python3
"""Writes bindings/csharp/P2lNative.g.cs, the C# P/Invoke declarations of the C API that libp2l
exports: include/p2l/p2l.h and include/p2l/p2l_cubism.h (the Cubism import).

    python3 bindings/csharp/generate.py            # rewrite P2lNative.g.cs from the headers
    python3 bindings/csharp/generate.py --check    # exit 1, with a diff, when it is out of date
    python3 bindings/csharp/generate.py --header H [--header H2] --out F   # other paths (e.g. a
                                                   # modified copy), read in the order given

Standard library only. Each header is read as a list of statements, and every one of them must be
understood: a P2L_API function, a typedef of an opaque handle or of a callback, an integer #define,
one of the function-like macros whose translation is written out below, or one of the few things
that carry nothing for C# (include guard, includes, conditionals, extern "C"). Anything else stops
the generator with exit code 2 and the header line it could not translate, so a new kind of
declaration is never left out without someone noticing.

How C types become C# types (the rules the header's documentation allows):
  bool                      bool, marshalled as one byte ([MarshalAs(UnmanagedType.I1)])
  int32_t, uint32_t, float  int, uint, float (and the other <stdint.h> types likewise)
  size_t                    UIntPtr (mcs of mono 6.8 has no nuint)
  P2lRig *, P2lModel *      the SafeHandle classes P2lRig and P2lModel of P2l.cs, except as the
                            argument of a *_free function, which takes the raw IntPtr (that is what
                            the SafeHandle's ReleaseHandle passes)
  callback typedefs         a delegate of the same name, [UnmanagedFunctionPointer(Cdecl)]; its
                            pointer arguments are IntPtr, a bool result is one byte
  const char * argument     byte[]: NUL-terminated UTF-8 (P2l.Utf8z makes one)
  char *x + size_t x_capacity   byte[] that receives a NUL-terminated message
  const T * argument        T[] read by the function (may be null where the header allows NULL)
  T * argument              T[] when a capacity argument follows it or its name is in
                            ARRAY_ARGUMENTS (fixed-size arrays the header describes); IntPtr when
                            named in POINTER_ARGUMENTS; otherwise "out T", one value written back
  T ** argument             out IntPtr
  void * argument           IntPtr
  any pointer returned      IntPtr (the memory belongs to the library; see p2l.h's "Lifetimes")
"""

import argparse
import ast
import difflib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
# Every header whose functions libp2l.so exports (tests/capi/check_exports.cmake checks the same
# set), in this order: p2l_cubism.h builds on p2l.h's handles.
DEFAULT_HEADERS = [os.path.join(ROOT, "include", "p2l", name) for name in ("p2l.h", "p2l_cubism.h")]
DEFAULT_OUT = os.path.join(HERE, "P2lNative.g.cs")
REGENERATE = "/usr/bin/python3 bindings/csharp/generate.py"

# Opaque handle typedefs and the SafeHandle class (in P2l.cs) that stands for a pointer to each.
HANDLES = {"P2lRig": "P2lRig", "P2lModel": "P2lModel"}

SCALARS = {
    "int8_t": "sbyte", "uint8_t": "byte", "int16_t": "short", "uint16_t": "ushort",
    "int32_t": "int", "uint32_t": "uint", "int64_t": "long", "uint64_t": "ulong",
    "float": "float", "double": "double", "size_t": "UIntPtr", "bool": "bool",
}

# Non-const pointer arguments that are arrays although no capacity argument follows them; the
# header gives their sizes: p2l_bone_transform's out (6 floats), the colour triples, images.
ARRAY_ARGUMENTS = {"out", "multiply", "screen", "rgba"}
# Non-const pointer arguments passed through as raw addresses (p2l_dealloc's block).
POINTER_ARGUMENTS = {"pointer"}

# Function-like macros: the header's definition (whitespace removed) and its C# translation. A
# macro missing here, or whose definition changed, stops the generator.
MACROS = {
    "P2L_ABI_COMPATIBLE": (
        "(v)", "(((v)>>16)==P2L_ABI_VERSION_MAJOR&&((v)&0xffffu)>=P2L_ABI_VERSION_MINOR)",
        "public static bool P2L_ABI_COMPATIBLE(uint v) { return (v >> 16) == P2L_ABI_VERSION_MAJOR && (v & 0xffffu) >= P2L_ABI_VERSION_MINOR; }"),
    "P2L_RENDER_BEGIN_GROUP": (
        "(part)", "(-2-(int32_t)(part))",
        "public static int P2L_RENDER_BEGIN_GROUP(uint part) { return -2 - (int)part; }"),
    "P2L_RENDER_IS_GROUP": (
        "(command)", "((command)<=-2)",
        "public static bool P2L_RENDER_IS_GROUP(int command) { return command <= -2; }"),
    "P2L_RENDER_GROUP_PART": (
        "(command)", "((uint32_t)(-2-(command)))",
        "public static uint P2L_RENDER_GROUP_PART(int command) { return (uint)(-2 - command); }"),
}

CSHARP_KEYWORDS = set("""abstract as base bool break byte case catch char checked class const continue
decimal default delegate do double else enum event explicit extern false finally fixed float for
foreach goto if implicit in int interface internal is lock long namespace new null object operator
out override params private protected public readonly ref return sbyte sealed short sizeof
stackalloc static string struct switch this throw true try typeof uint ulong unchecked unsafe ushort
using virtual void volatile while""".split())


class Untranslatable(Exception):
    def __init__(self, line, message, path=None):
        super().__init__(message)
        self.line = line
        self.path = path  # the header; set by read_headers


# ---------------------------------------------------------------------------------------------
# Reading the header


def strip_comments(text):
    """The text with every comment replaced by spaces (newlines kept, so line numbers hold)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise Untranslatable(text.count("\n", 0, i) + 1, "unterminated comment")
            out.append(re.sub(r"[^\n]", " ", text[i:end + 2]))
            i = end + 2
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def statements(text):
    """(line, kind, text) for each preprocessor directive ('#') and C statement ('c')."""
    lines = strip_comments(text).split("\n")
    result, pending, pending_line = [], [], 0
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.strip().startswith("#"):
            start = i
            directive = line
            while directive.endswith("\\") and i + 1 < len(lines):
                i += 1
                directive = directive[:-1] + " " + lines[i]
            result.append((start + 1, "#", directive.strip()[1:].strip()))
            i += 1
            continue
        # C text: split after ';', '{' and '}'.
        for ch in line:
            if not ch.isspace() and not "".join(pending).strip():
                pending_line = i + 1
            pending.append(ch)
            if ch in ";{}":
                result.append((pending_line, "c", " ".join("".join(pending).split())))
                pending = []
        pending.append(" ")
        i += 1
    if "".join(pending).strip():
        raise Untranslatable(pending_line, "unterminated declaration: " + " ".join("".join(pending).split()))
    return result


class CType:
    """A C type as the header spells it: base name, const-ness of the pointee and pointer depth."""

    def __init__(self, base, const, pointers, text):
        self.base, self.const, self.pointers, self.text = base, const, pointers, text


def parse_type_and_name(text, line, want_name=True):
    text = text.strip()
    tokens = re.findall(r"[A-Za-z_][A-Za-z_0-9]*|\*|\S", text)
    if any(t not in ("*",) and not re.match(r"[A-Za-z_]", t) for t in tokens):
        raise Untranslatable(line, "unexpected characters in '%s'" % text)
    name = None
    if want_name:
        if len(tokens) < 2 or tokens[-1] == "*" or tokens[-1] == "const":
            raise Untranslatable(line, "an argument without a name: '%s'" % text)
        name = tokens.pop()
    const = False
    words = []
    pointers = 0
    for t in tokens:
        if t == "*":
            pointers += 1
        elif t == "const":
            if pointers:
                raise Untranslatable(line, "a const pointer ('* const') in '%s'" % text)
            const = True
        elif pointers:
            raise Untranslatable(line, "a type name after '*' in '%s'" % text)
        else:
            words.append(t)
    if words in (["unsigned"], ["signed"], ["unsigned", "int"], ["int"], ["long"], ["short"], ["char", "signed"]):
        raise Untranslatable(line, "a type without a fixed size ('%s'); the header uses <stdint.h> types" % text)
    if len(words) != 1:
        raise Untranslatable(line, "cannot read the type of '%s'" % text)
    return CType(words[0], const, pointers, " ".join(text.split())), name


def split_arguments(text, line):
    text = text.strip()
    if text == "void":
        return []
    if not text:
        raise Untranslatable(line, "an empty argument list (write (void))")
    if "(" in text or ")" in text or "[" in text or "..." in text:
        raise Untranslatable(line, "a function pointer, array or variadic argument in '(%s)'; use a typedef" % text)
    return [parse_type_and_name(a, line) for a in text.split(",")]


# ---------------------------------------------------------------------------------------------
# Translating


def csharp_name(name):
    return "@" + name if name in CSHARP_KEYWORDS else name


class Header:
    def __init__(self):
        self.constants = []   # (name, csharp type, value, C text)
        self.values = {}      # name -> (value, unsigned)
        self.macros = []      # (name, C definition, C# text)
        self.handles = []     # C typedef names
        self.delegates = []   # (name, C text, C# text)
        self.functions = []   # (name, C text, C# text)


def evaluate_constant(name, body, known, line):
    """Value and unsignedness of an integer constant expression, or Untranslatable."""
    unsigned = False
    python = []
    for token in re.findall(r"0[xX][0-9A-Fa-f]+[uUlL]*|\d+[uUlL]*|[A-Za-z_]\w*|<<|>>|\S", body):
        literal = re.match(r"(0[xX][0-9A-Fa-f]+|\d+)([uUlL]*)$", token)
        if literal:
            if "l" in literal.group(2).lower():
                raise Untranslatable(line, "#define %s: a long literal (%s)" % (name, token))
            unsigned |= "u" in literal.group(2).lower()
            python.append(str(int(literal.group(1), 0)))
        elif re.match(r"[A-Za-z_]", token):
            if token not in known:
                raise Untranslatable(line, "#define %s %s: '%s' is not an integer constant defined before it" % (name, body, token))
            value, is_unsigned = known[token]
            unsigned |= is_unsigned
            python.append(str(value))
        elif token in ("(", ")", "<<", ">>", "|", "&", "^", "~", "+", "-", "*"):
            python.append(token)
        else:
            raise Untranslatable(line, "#define %s %s: '%s' is not an integer constant expression" % (name, body, token))
    expression = " ".join(python)
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        raise Untranslatable(line, "#define %s %s: cannot read it as an integer expression" % (name, body))
    allowed = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.LShift, ast.RShift, ast.BitOr,
               ast.BitAnd, ast.BitXor, ast.Invert, ast.USub, ast.UAdd, ast.Add, ast.Sub, ast.Mult)
    for node in ast.walk(tree):
        if not isinstance(node, allowed):
            raise Untranslatable(line, "#define %s %s: unsupported operation" % (name, body))
    value = eval(compile(tree, "<constant>", "eval"), {"__builtins__": {}})
    if unsigned:
        if not 0 <= value <= 0xFFFFFFFF:
            raise Untranslatable(line, "#define %s: %d does not fit a 32-bit unsigned integer" % (name, value))
    elif not -2**31 <= value < 2**31:
        raise Untranslatable(line, "#define %s: %d does not fit a 32-bit integer" % (name, value))
    return value, unsigned


def parse_define(header, line, text, previous):
    m = re.match(r"define\s+([A-Za-z_]\w*)(\([^)]*\))?\s*(.*)$", text)
    if not m:
        raise Untranslatable(line, "cannot read '#%s'" % text)
    name, params, body = m.group(1), m.group(2), m.group(3).strip()
    if params is not None:
        if name not in MACROS:
            raise Untranslatable(line, "function-like macro %s%s %s has no C# translation; add one to MACROS in generate.py"
                                 % (name, params, body))
        want_params, want_body, csharp = MACROS[name]
        if re.sub(r"\s", "", params) != want_params or re.sub(r"\s", "", body) != want_body:
            raise Untranslatable(line, "the definition of %s changed (now %s %s); update its translation in MACROS in generate.py"
                                 % (name, params, body))
        header.macros.append((name, "#define %s%s %s" % (name, params, body), csharp))
        return
    if name == "P2L_API":
        return  # the export marker, in each of its platform variants
    if not body:
        if previous == ("ifndef", name):
            return  # the include guard
        raise Untranslatable(line, "#define %s without a value" % name)
    value, unsigned = evaluate_constant(name, body, header.values, line)
    header.values[name] = (value, unsigned)
    header.constants.append((name, "uint" if unsigned else "int", value, body))


def argument_csharp(arg, following, function, line):
    """The C# text of one argument of a P2L_API function."""
    t, name = arg
    cs = csharp_name(name)
    if t.base in HANDLES:
        if t.pointers != 1:
            raise Untranslatable(line, "%s: argument %s is a %s, not a pointer to one" % (function, name, t.text))
        if function.endswith("_free"):
            return "IntPtr " + cs
        return "%s %s" % (HANDLES[t.base], cs)
    if t.base in HEADER_DELEGATES:
        if t.pointers:
            raise Untranslatable(line, "%s: argument %s is a pointer to a callback" % (function, name))
        return "%s %s" % (t.base, cs)
    if t.base == "void":
        if t.pointers == 1:
            return "IntPtr " + cs
        if t.pointers == 2:
            return "out IntPtr " + cs
        raise Untranslatable(line, "%s: argument %s of type %s" % (function, name, t.text))
    if t.base == "char":
        if t.pointers == 2:
            return "out IntPtr " + cs
        if t.pointers != 1:
            raise Untranslatable(line, "%s: argument %s of type %s" % (function, name, t.text))
        if t.const:
            return "byte[] " + cs
        nxt = following[0] if following else None
        if nxt and nxt[1] == name + "_capacity" and nxt[0].base == "size_t" and nxt[0].pointers == 0:
            return "[Out] byte[] " + cs
        raise Untranslatable(line, "%s: writable char *%s without a following size_t %s_capacity" % (function, name, name))
    if t.base not in SCALARS:
        raise Untranslatable(line, "%s: argument %s has the unknown type %s" % (function, name, t.text))
    scalar = SCALARS[t.base]
    bool_attribute = "[MarshalAs(UnmanagedType.I1)] " if t.base == "bool" else ""
    if t.pointers == 0:
        return "%s%s %s" % (bool_attribute, scalar, cs)
    if t.pointers == 2:
        return "out IntPtr " + cs
    if t.pointers != 1:
        raise Untranslatable(line, "%s: argument %s of type %s" % (function, name, t.text))
    if t.base == "bool" and (t.const or name in ARRAY_ARGUMENTS):
        raise Untranslatable(line, "%s: argument %s is an array of bool, which has no safe marshalling here" % (function, name))
    if t.const:
        return "%s[] %s" % (scalar, cs)
    capacity = following and following[0][0].pointers == 0 and (
        following[0][1] == "capacity" or following[0][1] == name + "_capacity")
    if capacity or name in ARRAY_ARGUMENTS:
        return "[In, Out] %s[] %s" % (scalar, cs)
    if name in POINTER_ARGUMENTS:
        return "IntPtr " + cs
    return "%sout %s %s" % (bool_attribute, scalar, cs)


def return_csharp(t, function, line):
    """(attribute line or None, C# type) of a P2L_API function's result."""
    if t.pointers:
        if t.base in HANDLES and t.pointers == 1:
            return None, HANDLES[t.base]
        if t.base in HEADER_DELEGATES:
            raise Untranslatable(line, "%s returns a pointer to a callback" % function)
        if t.base not in SCALARS and t.base not in ("void", "char") and t.base not in HANDLES:
            raise Untranslatable(line, "%s returns the unknown type %s" % (function, t.text))
        return None, "IntPtr"
    if t.base == "void":
        return None, "void"
    if t.base == "bool":
        return "[return: MarshalAs(UnmanagedType.I1)]", "bool"
    if t.base in SCALARS:
        return None, SCALARS[t.base]
    raise Untranslatable(line, "%s returns %s by value, which has no translation" % (function, t.text))


def callback_csharp(t, line, what, result=False):
    if t.pointers:
        return "IntPtr"
    if t.base == "void":
        return "void"
    # A bool result is marshalled as one byte by the delegate's [return: MarshalAs] (bool
    # arguments would need the same per argument; none exists, so they stay refused).
    if t.base in SCALARS and (t.base != "bool" or result):
        return SCALARS[t.base]
    raise Untranslatable(line, "%s of type %s in a callback has no translation" % (what, t.text))


HEADER_DELEGATES = set()


def parse_statement(header, line, text):
    if text in ('extern "C" {', "}"):
        return
    m = re.match(r"typedef struct ([A-Za-z_]\w*) ([A-Za-z_]\w*);$", text)
    if m:
        if m.group(1) != m.group(2):
            raise Untranslatable(line, "typedef struct %s %s: the two names differ" % (m.group(1), m.group(2)))
        if m.group(1) not in HANDLES:
            raise Untranslatable(line, "opaque type %s has no SafeHandle class; add it to HANDLES in generate.py and to P2l.cs"
                                 % m.group(1))
        header.handles.append(m.group(1))
        return
    m = re.match(r"typedef (.+?)\(\s*\*\s*([A-Za-z_]\w*)\s*\)\s*\((.*)\);$", text)
    if m:
        result, name, args = m.group(1), m.group(2), m.group(3)
        result_type, _ = parse_type_and_name(result, line, want_name=False)
        params = []
        for t, pname in split_arguments(args, line):
            params.append("%s %s" % (callback_csharp(t, line, "argument " + pname), csharp_name(pname)))
        HEADER_DELEGATES.add(name)
        returns = ("\n    [return: MarshalAs(UnmanagedType.I1)]"
                   if result_type.base == "bool" and not result_type.pointers else "")
        csharp = ("[UnmanagedFunctionPointer(CallingConvention.Cdecl)]%s\n    public delegate %s %s(%s);"
                  % (returns, callback_csharp(result_type, line, "the result", result=True), name, ", ".join(params)))
        header.delegates.append((name, text, csharp))
        return
    if text.startswith("typedef"):
        raise Untranslatable(line, "a typedef other than an opaque struct or a callback: %s" % text)
    if text.startswith("P2L_API "):
        m = re.match(r"P2L_API (.+?)\b([A-Za-z_]\w*)\s*\((.*)\);$", text)
        if not m:
            raise Untranslatable(line, "cannot read the declaration %s" % text)
        result, name, args = m.group(1), m.group(2), m.group(3)
        if not name.startswith("p2l_"):
            raise Untranslatable(line, "exported function %s lacks the p2l_ prefix" % name)
        result_type, _ = parse_type_and_name(result, line, want_name=False)
        arguments = split_arguments(args, line)
        names = [a[1] for a in arguments]
        if len(set(names)) != len(names):
            raise Untranslatable(line, "%s: two arguments share a name" % name)
        attribute, cs_result = return_csharp(result_type, name, line)
        cs_args = [argument_csharp(a, arguments[i + 1:], name, line) for i, a in enumerate(arguments)]
        lines = ["[DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]"]
        if attribute:
            lines.append(attribute)
        lines.append("public static extern %s %s(%s);" % (cs_result, name, ", ".join(cs_args)))
        if any(f[0] == name for f in header.functions):
            raise Untranslatable(line, "%s is declared twice" % name)
        header.functions.append((name, text, lines))
        return
    if "P2L_API" in text:
        raise Untranslatable(line, "P2L_API in an unexpected place: %s" % text)
    raise Untranslatable(line, "a declaration this generator does not know: %s" % text)


def read_one(header, text):
    """Adds one header's declarations to [header]."""
    functions_before = len(header.functions)
    previous = None
    for line, kind, body in statements(text):
        if kind == "#":
            word = body.split()[0] if body.split() else ""
            if word == "define":
                parse_define(header, line, body, previous)
            elif word in ("if", "ifdef", "ifndef", "elif", "else", "endif", "include"):
                pass  # only the export marker and extern "C" depend on conditions here
            else:
                raise Untranslatable(line, "a preprocessor directive this generator does not know: #%s" % body)
            parts = body.split()
            previous = (parts[0], parts[1]) if len(parts) > 1 else (word, None)
        else:
            parse_statement(header, line, body)
            previous = None
    translated = len(header.functions) - functions_before
    if not translated:
        raise Untranslatable(0, "no P2L_API function found")
    # Every P2L_API outside a #define must have become a function.
    code = "\n".join(b for _, k, b in statements(text) if k == "c")
    if code.count("P2L_API") != translated:
        raise Untranslatable(0, "found %d P2L_API markers but translated %d functions" % (code.count("P2L_API"), translated))


def read_headers(sources):
    """The declarations of [sources], (path, text) pairs read in order into one Header: a later
    header uses the handles, callbacks and constants of the earlier ones."""
    HEADER_DELEGATES.clear()
    header = Header()
    for path, text in sources:
        try:
            read_one(header, text)
        except Untranslatable as e:
            e.path = path
            raise
    for name in HANDLES:
        if name not in header.handles:
            raise Untranslatable(0, "the headers no longer declare %s; remove it from HANDLES and P2l.cs" % name,
                                 ", ".join(path for path, _ in sources))
    return header


def shown(path):
    """A header's name in the generated file: relative to the repository when inside it."""
    relative = os.path.relpath(os.path.abspath(path), ROOT)
    return os.path.basename(path) if relative.startswith("..") else relative.replace(os.sep, "/")


# ---------------------------------------------------------------------------------------------
# Writing


def render(header, paths):
    names = " and ".join(shown(p) for p in paths)
    files = " and ".join(os.path.basename(p) for p in paths)
    major = header.values.get("P2L_ABI_VERSION_MAJOR", (None,))[0]
    minor = header.values.get("P2L_ABI_VERSION_MINOR", (None,))[0]
    out = []
    w = out.append
    w("// <auto-generated>")
    w("// P/Invoke declarations of %s (ABI %s.%s)," % (names, major, minor))
    w("// written by bindings/csharp/generate.py.")
    w("// Do not edit: change the headers, then regenerate from the repository root with")
    w("//     %s" % REGENERATE)
    w("// and commit both; `%s --check` (run by bindings/csharp/test.sh) fails while they differ." % REGENERATE)
    w("// The rules that turn C types into C# types are described at the top of generate.py.")
    w("// </auto-generated>")
    w("using System;")
    w("using System.Runtime.InteropServices;")
    w("")
    w("namespace P2lRuntime")
    w("{")
    for name, c_text, csharp in header.delegates:
        w("    // %s" % c_text)
        w("    " + csharp)
        w("")
    w("    /// <summary>The C functions and constants of %s, one to one. P2l.cs builds the friendly API on them.</summary>" % files)
    w("    public static class P2lNative")
    w("    {")
    w("        /// <summary>The native library: libp2l.so, p2l.dll or libp2l.dylib; statically linked on iOS.</summary>")
    w("#if UNITY_IOS && !UNITY_EDITOR")
    w("        public const string Library = \"__Internal\";")
    w("#else")
    w("        public const string Library = \"p2l\";")
    w("#endif")
    w("")
    w("        /// <summary>How many functions %s declare (and this class imports).</summary>" % files)
    w("        public const int FunctionCount = %d;" % len(header.functions))
    w("")
    for name, cs_type, value, body in header.constants:
        comment = "" if re.fullmatch(r"\(?-?\d+u?\)?", body) else "  // %s" % body
        w("        public const %s %s = %d;%s" % (cs_type, name, value, comment))
    w("")
    for name, c_text, csharp in header.macros:
        w("        // %s" % c_text)
        w("        " + csharp)
    for name, c_text, lines in header.functions:
        w("")
        w("        // %s" % c_text)
        for text in lines:
            w("        " + text)
    w("    }")
    w("}")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description="Generate the C# P/Invoke declarations of p2l.h and p2l_cubism.h.")
    parser.add_argument("--header", action="append",
                        help="a C header, repeated for several, read in order (default: include/p2l/p2l.h, "
                             "include/p2l/p2l_cubism.h)")
    parser.add_argument("--out", default=DEFAULT_OUT, help="the C# file (default: bindings/csharp/P2lNative.g.cs)")
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 when the file differs from the headers")
    args = parser.parse_args()
    paths = args.header or DEFAULT_HEADERS

    sources = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            sources.append((path, f.read()))
    try:
        header = read_headers(sources)
    except Untranslatable as e:
        where = "%s:%d" % (e.path, e.line) if e.line else e.path
        print("generate.py: %s: cannot translate: %s" % (where, e), file=sys.stderr)
        return 2
    generated = render(header, paths)
    headers_text = ", ".join(os.path.relpath(p) for p in paths)

    if args.check:
        try:
            with open(args.out, encoding="utf-8", newline="") as f:
                committed = f.read()
        except FileNotFoundError:
            print("generate.py --check: %s does not exist; run %s" % (args.out, REGENERATE), file=sys.stderr)
            return 1
        if committed == generated:
            print("generate.py --check: %s matches %s (%d functions, %d constants)"
                  % (os.path.relpath(args.out), headers_text, len(header.functions), len(header.constants)))
            return 0
        diff = list(difflib.unified_diff(committed.splitlines(), generated.splitlines(),
                                         "%s (committed)" % args.out, "%s (from %s)" % (args.out, headers_text), lineterm=""))
        print("generate.py --check: %s is out of date with %s:" % (args.out, headers_text), file=sys.stderr)
        shown = diff[:80]
        for line in shown:
            print("  " + line, file=sys.stderr)
        if len(diff) > len(shown):
            print("  ... %d more diff lines" % (len(diff) - len(shown)), file=sys.stderr)
        print("generate.py --check: FAILED; regenerate with %s and commit the result" % REGENERATE, file=sys.stderr)
        return 1

    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        f.write(generated)
    print("generate.py: wrote %s (%d functions, %d constants, %d callbacks)"
          % (args.out, len(header.functions), len(header.constants), len(header.delegates)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
