#!/usr/bin/env python3
"""Shows that each reader-rule test can fail: removes one rule from the library at a time,
rebuilds the test binary, runs that rule's tests and expects them to fail, then restores
the source. Not part of CI (it rebuilds once per rule).

    scripts/check_rule_tests.py [BUILD_DIR]     # default build-test (tests enabled)
"""
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# (file, the rule's code, the same code with the rule removed, the tests that must fail)
CASES = [
    ("src/format/container.cpp", "if (e.offset % 16 != 0) {", "if (false) {", "*Unaligned*"),
    ("src/format/container.cpp", "if (info.chunks[i].tag == info.chunks[j].tag && canonical_tag(info.chunks[i].tag)) {",
     "if ((void)canonical_tag, false) {", "*Duplicate*"),
    ("src/format/load.cpp", "if (br.ok() && !br.at_end()) {", "if (false) {", "*UnderRead*"),
    ("src/format/validate.cpp", "if (d.parent < -1 || (d.parent >= 0 && static_cast<std::size_t>(d.parent) >= index))",
     "if (d.parent < -1)", "*ParentAfterChild*"),
    ("src/format/container.cpp", "if (options.verify_crc && e.has_crc()) {", "if (false) {", "*CrcMismatch*"),
    ("src/format/load.cpp", "if (format::kChunkSpecs[i].must_exist && !known[i]) {", "if (false) {", "*MissingRequired*"),
    ("src/format/container.cpp", "      default:\n        error = table_error(ErrorCode::BadCompression",
     "      default: break;\n        error = table_error(ErrorCode::BadCompression", "*ReservedCompression*"),
    ("src/format/compression.cpp", "  if (out.used() != raw_length)\n    return why = \"decompresses to \"",
     "  if (false)\n    return why = \"decompresses to \"", "*RawLengthMismatch*"),
    ("src/format/byte_reader.hpp", "    if (!std::isfinite(v)) {", "    if (false) {", "*NonFinite*"),
    ("src/format/container.cpp", "  if (!is_padding(end, file.size())) {", "  if (false) {", "*DataAfterTheLastChunk*"),
    ("src/format/validate.cpp", "        check(p.size() == points, chunk, record,", "        check(true, chunk, record,",
     "*KeyformSizeMismatch*"),
    ("src/format/validate.cpp", "      if (ok() && !g.indices.empty() && g.indices.max_value() >= vertices)", "      if (false)",
     "*MeshIndexOutOfRange*"),
    ("src/format/load.cpp", "bool readable = id && c.entry.version >= 1 && c.entry.version <= format::spec(*id).newest_version;",
     "bool readable = id && c.entry.version >= 1;", "*KnownTagAtNewerVersion*"),
    ("src/format/container.cpp",
     "    if (e.offset < table_end || e.offset > kNoFileEnds || e.length > kNoFileEnds - e.offset) {",
     "    if ((void)kNoFileEnds, false) {", "*ChunkOutsideTheFile*"),
    ("src/format/container.cpp", "  if (cut != nullptr) {", "  if (false) {", "*CutInsideItsDataArea*"),
    ("src/format/container.cpp", "    if (e.offset < end) {", "    if (false) {", "*Overlapping*"),
]


def main():
    root = Path(__file__).resolve().parent.parent
    build = root / (sys.argv[1] if len(sys.argv) > 1 else "build-test")
    binary = build / "tests" / "p2l_tests"
    caught = 0
    for path, rule, removed, tests in CASES:
        source = root / path
        text = source.read_text()
        if rule not in text:
            print(f"{tests:30s} SKIPPED: the rule's code was not found in {path}")
            continue
        backup = Path(tempfile.mkstemp()[1])
        shutil.copy(source, backup)
        try:
            source.write_text(text.replace(rule, removed, 1))
            built = subprocess.run(["cmake", "--build", str(build), "--target", "p2l_tests"], capture_output=True, text=True)
            if built.returncode != 0:
                print(f"{tests:30s} BUILD FAILED\n{built.stdout[-2000:]}")
                continue
            run = subprocess.run([str(binary), f"--gtest_filter={tests}"], capture_output=True, text=True)
            failed = run.returncode != 0  # a failed assertion or a crash
            caught += failed
            print(f"{tests:30s} rule removed -> tests {'FAIL (good)' if failed else 'PASS (the test misses the rule!)'}",
                  flush=True)
        finally:
            shutil.copy(backup, source)
            backup.unlink()
    subprocess.run(["cmake", "--build", str(build), "--target", "p2l_tests"], capture_output=True)
    print(f"{caught} of {len(CASES)} rules caught")
    return 0 if caught == len(CASES) else 1


if __name__ == "__main__":
    sys.exit(main())
