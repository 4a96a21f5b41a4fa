#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compile every usage example of the public headers (docs/STYLE.md §7) as a
user would paste it, with -Wall -Wextra -Werror: an example that does not
compile, or makes the compiler warn (a dropped AVROGEN_NODISCARD status), fails.

    header_examples.py --prelude-dir DIR --cc CC [--cxx CXX] [--parsing-cc CLANG]
                       HEADER... -- FLAGS...

An example is a block of comment lines indented four spaces past ` * ` (` *     `)
that follows a blank ` *` line. A block that opens with `#include`, an
AVRO_EXTERN_* line, `typedef` or a struct / union / enum definition is
compiled at file scope; any other inside `int example(void) { ... return 0; }`.
Each is compiled after DIR/<header stem>.h, the prelude that includes the
header and declares what its examples take as given (`path`, `orders`,
`use()`, `fail()`, ...). With --cxx, each is compiled as C++20 too (the
headers promise C++ compatibility; C++20 is the first with C's designated
initializers). With --parsing-cc, each file-scope example
is compiled by clang with AVROGEN_PARSING defined too: the annotations as the
generator sees them. FLAGS are the include flags.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

FILE_SCOPE = re.compile(r"^(#\s*include\b|AVRO_EXTERN_|typedef\b|(struct|union|enum)\b[^;]*\{)")


def blocks(path):
    """The examples of a header: (first line number, lines) each."""
    out, cur, start, prev = [], None, 0, ""
    for no, line in enumerate(open(path).read().split("\n"), 1):
        starts = re.match(r"^ \*     \S", line) and prev.strip() == "*"
        if starts or (cur is not None and re.match(r"^ \*     ", line)):
            if cur is None:
                cur, start = [], no
            cur.append(line[7:])
        else:
            if cur:
                out.append((start, cur))
            cur = None
        prev = line
    return out


def source(prelude, lines):
    if FILE_SCOPE.match(lines[0]):
        return "#include \"%s\"\n%s\n" % (prelude, "\n".join(lines)), "file scope"
    body = "\n".join("    " + line for line in lines)
    return ("#include \"%s\"\nint example(void);\nint example(void)\n{\n%s\n    return 0;\n}\n"
            % (prelude, body), "function")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prelude-dir", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--cxx")
    ap.add_argument("--parsing-cc")
    ap.add_argument("headers", nargs="+")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args, flags = ap.parse_args(argv[:cut]), argv[cut + 1:]
    compilers = [(args.cc, "c", ["-std=c11"], False)]
    if args.cxx:
        # C's designated initializers are C++20's, where g++ 12 warns on
        # every member left out: C's idiom for options structs, not a fault.
        compilers.append((args.cxx, "cc", ["-std=c++20", "-Wno-missing-field-initializers"],
                          False))
    if args.parsing_cc:
        compilers.append((args.parsing_cc, "c", ["-std=c11", "-DAVROGEN_PARSING=1"], True))
    failed = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for header in args.headers:
            stem = os.path.splitext(os.path.basename(header))[0]
            prelude = os.path.abspath(os.path.join(args.prelude_dir, stem + ".h"))
            found = blocks(header)
            if not found:
                print("%s: no examples" % header)
            for start, lines in found:
                total += 1
                code, scope = source(prelude, lines)
                where = "%s:%d" % (header, start)
                for cc, ext, std, file_scope_only in compilers:
                    if file_scope_only and scope != "file scope":
                        continue
                    src = os.path.join(tmp, "%s_%d.%s" % (stem, start, ext))
                    with open(src, "w") as f:
                        f.write(code)
                    p = subprocess.run([cc] + std + ["-Wall", "-Wextra", "-Werror", "-c", src,
                                                     "-o", os.devnull] + flags,
                                       capture_output=True, text=True)
                    ok = p.returncode == 0
                    print("%s (%s, %s): %s" % (where, scope, " ".join([os.path.basename(cc)] + std),
                                                "ok" if ok else "FAILED"))
                    if not ok:
                        failed += 1
                        print(code + p.stderr)
    if total == 0:
        print("no examples found")
        return 1
    print("%d compilations of %d examples failed" % (failed, total) if failed else
          "all %d examples compile" % total)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
