#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""avro_generate(), the installed package and the telemetry example, built for
real by CMake, the way a user builds them.

usage: cmake_test.py COMMAND --work DIR [options]

  install      cmake --install the project's build tree into --prefix (the
               fixture the other commands share) and check the layout
  package      the installed package without CMake: only avrogen_* symbols
               exported, pkg-config builds (avrogen shared with a run path,
               avrogen-static) from the prefix and a relocated copy, an installed
               avrogen parses with the annotate.h installed next to it
  installed    examples/telemetry against the installed package
  containers   examples/containers against the installed package: 100,000
               orders written to a zstandard container file through
               avrogen_ocf_writer_put and read back through
               avrogen_ocf_reader_get, every one checked; python3-avro reads
               the same file
  subdir       examples/telemetry inside a superproject that adds the avrogen
               source tree (--via subdir: add_subdirectory, fetchcontent)
  incremental  on a copy of the example and of the package: header edits,
               edits of an included header, a changed avrogen and a re-run of
               cmake each redo exactly what they must, a no-op build nothing
  error        an annotation error fails the build with file:line:col: error:
  flags        every avro_generate() option and AVROGEN_EXECUTABLE, on a
               header that parses only with the target's own flags
               (tests/cmake/projects/flags)
  misuse       wrong calls stop configuring with a clear FATAL_ERROR
  system       structs of installed headers (cJSON's node from libcjson-dev,
               glibc's struct group, struct inotify_event and struct iphdr,
               whose ihl and version are bit-fields, beside a struct timespec)
               annotated out of line (tests/cmake/projects/system): real values
               encoded by the generated code decode in python3-avro to what
               Python's own json and grp modules (and host_dump) say, and
               encode again to the same bytes
  compat       COMPAT_WITH (tests/cmake/projects/compat): compatible changes
               build, breaking ones fail in exactly the modes python3-avro's
               checker says, with the error at the member in order.h; edited,
               added and removed earlier schemas and a new COMPAT re-run avrogen
  runtime_only AVROGEN_BUILD_GENERATOR=OFF from source, without libclang:
               the installed package and CLI (verbs that parse no C work,
               the generator's exit 2 saying so), a CMake consumer of the
               runtime, and avro_generate()'s configure error
               (tests/cmake/projects/runtime_only)
  schemas      SCHEMAS (tests/cmake/projects/schemas): headers written from
               .avsc files, then code, next to HEADERS; the derived schema is
               the .avsc's; edits rerun exactly that schema, no-op builds do
               nothing, a dropped attribute warns, a schema with no C
               representation fails the build naming the field and the reason
  plain        the installed package without CMake (tests/cmake/projects/plain):
               GNU Make through avrogen.mk and Meson through a custom_target,
               both found by pkg-config (variables avrogen and makefile): a
               first build, a no-op build that does nothing, a comment edit
               that reruns avrogen once (and not on the next build), an edit
               of an included header that regenerates, a generated file deleted
               by hand that comes back, an annotation error as
               file:line:col: error:, and a parallel build running avrogen once

Each command starts from an empty --work folder and prints what it runs, so
that `ctest --output-on-failure` shows the whole story of a failure.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

GENERATORS = {"ninja": "Ninja", "make": "Unix Makefiles"}
HERE = os.path.dirname(os.path.abspath(__file__))
PROJECTS = os.path.join(HERE, "projects")


class Failure(Exception):
    pass


def env():
    e = dict(os.environ)
    # A build that runs these tests must not leak its job server or generator.
    for var in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "CMAKE_GENERATOR", "DESTDIR"):
        e.pop(var, None)
    return e


def run(cmd, cwd=None, fail=False, extra_env=None):
    """Run cmd; return its output (stdout and stderr interleaved). Raise
    Failure when it fails and fail is False, or succeeds and fail is True."""
    print("$ " + " ".join(cmd), flush=True)
    e = env()
    if extra_env:
        e.update(extra_env)
    p = subprocess.run(cmd, cwd=cwd, env=e, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    print(p.stdout, end="" if p.stdout.endswith("\n") or not p.stdout else "\n", flush=True)
    if (p.returncode != 0) != fail:
        raise Failure("%s %s (exit %d)" % (cmd[0], "succeeded" if fail else "failed",
                                          p.returncode))
    return p.stdout


def check(cond, what):
    if not cond:
        raise Failure(what)


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def configure(args, src, build, *defs):
    cmd = [args.cmake, "-S", src, "-B", build, "-G", GENERATORS[args.generator]]
    if args.c_compiler:
        cmd.append("-DCMAKE_C_COMPILER=" + args.c_compiler)
    return run(cmd + list(defs))


def build(args, build_dir, fail=False):
    return run([args.cmake, "--build", build_dir, "-j", str(args.jobs)], fail=fail)


def snapshot(root):
    """Every file under root with its size and mtime: the source tree must not change."""
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            st = os.stat(os.path.join(d, f))
            out[os.path.relpath(os.path.join(d, f), root)] = (st.st_size, st.st_mtime_ns)
    return out


def check_gateway(exe):
    return check_gateway_out(run([exe]))


def check_gateway_out(out):
    check("== round trip ok" in out, "telemetry_gateway did not report a good round trip")
    check('"name": "Batch"' in out and '"namespace": "com.example.telemetry"' in out,
          "telemetry_gateway did not print the derived schema")
    check('"gateway": "gw-eu-central"' in out, "avro-c's JSON of the batch is missing")
    return out


def needed_libs(exe):
    if not shutil.which("readelf"):
        return None
    out = subprocess.run(["readelf", "-d", exe], stdout=subprocess.PIPE, text=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def libdir(prefix):
    for cand in ("lib", "lib64") + tuple(
            os.path.join("lib", d) for d in sorted(os.listdir(os.path.join(prefix, "lib")))):
        if os.path.exists(os.path.join(prefix, cand, "cmake", "AvroGen", "AvroGenConfig.cmake")):
            return os.path.join(prefix, cand)
    raise Failure("no lib*/cmake/AvroGen/AvroGenConfig.cmake under " + prefix)


def pkgconfig_builds(args, work, lib, tag):
    """Build pkgconfig_consumer.c with pkg-config from the package in lib (its
    PKG_CONFIG_PATH the only hint) the three documented ways, and run each
    without LD_LIBRARY_PATH: avrogen (shared, found through its run path),
    avrogen with --static (still shared), avrogen-static (libavrogen.a)."""
    prog = os.path.join(HERE, "pkgconfig_consumer.c")
    pc_env = {"PKG_CONFIG_PATH": os.path.join(lib, "pkgconfig"), "LD_LIBRARY_PATH": ""}
    cc = args.c_compiler or "cc"
    for name, module, flags in (("shared", "avrogen", []),
                                ("static_flag", "avrogen", ["--static"]),
                                ("static", "avrogen-static", [])):
        pc = run(["pkg-config", "--cflags", "--libs"] + flags + [module], extra_env=pc_env)
        exe = os.path.join(work, "pc_" + name + tag)
        run([cc, "-std=c11", "-Wall", "-Werror", prog, "-o", exe] + pc.split())
        check("pkg-config consumer: fingerprint" in run([exe], extra_env={"LD_LIBRARY_PATH": ""}),
              "the pkg-config (%s) program did not run" % name)
        needed = needed_libs(exe)
        if needed is None:
            continue
        shared = any(n.startswith("libavrogen.so") for n in needed)
        check(shared == (module == "avrogen"),
              "%s: NEEDED %s after pkg-config %s" % (exe, needed, " ".join(flags + [module])))
        if shared:
            check(os.path.realpath(lib) in [os.path.realpath(p) for p in run_path(exe)],
                  "%s: no run path to %s" % (exe, lib))


def run_path(exe):
    out = subprocess.run(["readelf", "-d", exe], stdout=subprocess.PIPE, text=True).stdout
    m = re.search(r"\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[([^\]]*)\]", out)
    return m.group(1).split(":") if m else []


# ---- commands ---------------------------------------------------------------

def cmd_install(args):
    shutil.rmtree(args.prefix, ignore_errors=True)
    cmd = [args.cmake, "--install", args.build_dir, "--prefix", args.prefix]
    if args.config:
        cmd += ["--config", args.config]
    run(cmd)
    lib = libdir(args.prefix)
    for f in ("bin/avrogen", "share/man/man1/avrogen.1", "include/avrogen/annotate.h", "include/avrogen/gencode.h",
              "include/avrogen/status.h"):
        check(os.path.isfile(os.path.join(args.prefix, f)), f + " is not installed")
    for f in ("libavrogen.a", "libavrogen.so", "avrogen/avrogen-generator.so", "pkgconfig/avrogen.pc",
              "pkgconfig/avrogen-static.pc", "cmake/AvroGen/AvroGenConfig.cmake", "cmake/AvroGen/AvroGenConfigVersion.cmake",
              "cmake/AvroGen/AvroGenTargets.cmake", "cmake/AvroGen/AvroGen.cmake"):
        check(os.path.exists(os.path.join(lib, f)), os.path.join(lib, f) + " is not installed")
    internal = [f for _, _, fs in os.walk(os.path.join(args.prefix, "include"))
                for f in fs if f.endswith("_internal.h")]
    check(not internal, "internal headers installed: %s" % internal)
    out = run([os.path.join(args.prefix, "bin", "avrogen"), "--version"])
    check(out.startswith("avrogen "), "installed avrogen --version")


def cmd_package(args):
    work = fresh(args.work)
    lib = libdir(args.prefix)
    so = os.path.join(lib, "libavrogen.so")

    # Symbol visibility: the shared runtime exports its API and nothing else.
    if shutil.which("nm"):
        out = run(["nm", "-D", "--defined-only", so])
        syms = [l.split()[-1] for l in out.splitlines() if len(l.split()) == 3]
        check(any(s == "avrogen_writer_init_fixed" for s in syms),
              "libavrogen.so does not export avrogen_writer_init_fixed")
        stray = [s for s in syms if not s.startswith("avrogen_")]
        check(not stray, "libavrogen.so exports non-API symbols: %s" % stray[:10])

    # pkg-config, shared and static, from the prefix and from a relocated copy
    # of it: the programs run without LD_LIBRARY_PATH.
    moved = os.path.join(work, "moved")
    shutil.copytree(args.prefix, moved, symlinks=True)
    for prefix, tag in ((args.prefix, ""), (moved, "_moved")):
        pkgconfig_builds(args, work, libdir(prefix), tag)

    # An installed avrogen parses with the annotate.h installed with it (found
    # relative to the executable), not the one of the tree it was built from:
    # in the relocated copy of the package, poison that annotate.h.
    with open(os.path.join(moved, "include", "avrogen", "annotate.h"), "w") as f:
        f.write('#error "the relocated package\'s annotate.h"\n')
    header = os.path.join(args.source, "examples", "telemetry", "include", "telemetry.h")
    out = run([os.path.join(moved, "bin", "avrogen"), "schema", header], fail=True)
    check("the relocated package's annotate.h" in out,
          "a relocated avrogen did not use the annotate.h installed next to it")

    # libclang is the generator module's dependency, not the binary's
    # (tests/cli/startup_test.py checks what each verb maps); a relocated
    # avrogen loads the module relocated with it.
    module = os.path.join(libdir(moved), "avrogen", "avrogen-generator.so")
    for f, wants in ((os.path.join(moved, "bin", "avrogen"), False), (module, True)):
        needed = needed_libs(f)
        if needed is not None:
            check(any("clang" in n for n in needed) == wants,
                  "%s: NEEDED %s" % (f, needed))
    os.rename(module, module + ".away")
    out = run([os.path.join(moved, "bin", "avrogen"), "schema", header], fail=True)
    check("needs the generator module (libclang), which is not installed: no " in out and
          module in out,
          "a relocated avrogen without its module: " + out)
    os.rename(module + ".away", module)


def cmd_installed(args):
    work = fresh(args.work)
    example = os.path.join(args.source, "examples", "telemetry")
    before = snapshot(example)
    b = os.path.join(work, "build")
    configure(args, example, b, "-DCMAKE_PREFIX_PATH=" + args.prefix)
    out = build(args, b)
    check(re.search(r"avrogen telemetry\.h", out), "the build did not run avrogen")
    check_gateway(os.path.join(b, "telemetry_gateway"))
    for f in ("telemetry.avro.h", "telemetry.avro.c", "telemetry.avsc.list",
              "schemas/com.example.telemetry.Batch.avsc"):
        check(os.path.isfile(os.path.join(b, "avrogen", "telemetry_gateway", f)),
              f + " is not in the build tree")
    check(snapshot(example) == before, "building the example changed its source folder")
    installed_program_starts(args, work, example, b)


def cmd_containers(args):
    work = fresh(args.work)
    example = os.path.join(args.source, "examples", "containers")
    before = snapshot(example)
    b = os.path.join(work, "build")
    configure(args, example, b, "-DCMAKE_PREFIX_PATH=" + args.prefix)
    out = build(args, b)
    check(re.search(r"avrogen orders\.h", out), "the build did not run avrogen")
    data = os.path.join(work, "orders.avro")
    out = run([os.path.join(b, "containers"), data])
    check("wrote and read back 100000 orders" in out, "containers did not report its round trip")
    check(snapshot(example) == before, "building the example changed its source folder")
    # Another implementation reads what the example wrote, codec and all.
    script = ("import sys\nfrom avro.datafile import DataFileReader\n"
              "from avro.io import DatumReader\n"
              "r = DataFileReader(open(sys.argv[1], 'rb'), DatumReader())\n"
              "print(r.meta['avro.codec'].decode(), sum(1 for _ in r))\n")
    out = run([sys.executable, "-c", script, data])
    check(out.split() == ["zstandard", "100000"], "python3-avro read: " + out)


def run_clean(exe):
    """Run exe as a user's shell would: no LD_LIBRARY_PATH, no loader hints."""
    e = env()
    for var in ("LD_LIBRARY_PATH", "LD_PRELOAD", "LD_RUN_PATH"):
        e.pop(var, None)
    print("$ " + exe, flush=True)
    p = subprocess.run([exe], env=e, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(p.stdout, end="", flush=True)
    check(p.returncode == 0, "%s exited %d: %s" % (exe, p.returncode, p.stdout.strip()[-300:]))
    return p.stdout


def installed_program_starts(args, work, example, b):
    """The gateway, installed with `cmake --install`, starts from a prefix of
    its own that has moved (run path to the installed avrogen), and from a
    prefix it shares with avrogen after both moved together ($ORIGIN)."""
    app = os.path.join(work, "app")
    run([args.cmake, "--install", b, "--prefix", app])
    moved_app = os.path.join(work, "app-moved")
    shutil.move(app, moved_app)
    check_gateway_out(run_clean(os.path.join(moved_app, "bin", "telemetry_gateway")))

    # One prefix holding avrogen and the program, then moved whole: the
    # absolute run path to where avrogen was no longer exists.
    both = os.path.join(work, "both")
    shutil.copytree(args.prefix, both, symlinks=True)
    b2 = os.path.join(work, "build-both")
    configure(args, example, b2, "-DCMAKE_PREFIX_PATH=" + both)
    build(args, b2)
    run([args.cmake, "--install", b2, "--prefix", both])
    moved_both = os.path.join(work, "both-moved")
    shutil.move(both, moved_both)
    check(not os.path.exists(both), "the shared prefix did not move")
    check_gateway_out(run_clean(os.path.join(moved_both, "bin", "telemetry_gateway")))


def cmd_subdir(args):
    work = fresh(args.work)
    example = os.path.join(args.source, "examples", "telemetry")
    before = snapshot(example)
    b = os.path.join(work, "build")
    configure(args, os.path.join(PROJECTS, "subdir"), b, "-DAVROGEN_SOURCE_DIR=" + args.source,
              "-DAVROGEN_VIA=" + args.via, "-DCMAKE_BUILD_TYPE=Debug")
    out = build(args, b)
    check(re.search(r"avrogen telemetry\.h", out), "the build did not run avrogen")
    check_gateway(os.path.join(b, "telemetry", "telemetry_gateway"))
    check(snapshot(example) == before, "building the example changed its source folder")


def edit(path, old, new):
    with open(path) as f:
        text = f.read()
    check(old in text, "%s no longer contains %r: update the test" % (path, old))
    with open(path, "w") as f:
        f.write(text.replace(old, new, 1))


def bump(path):
    """A new mtime, clearly after every output the last build wrote."""
    t = time.time_ns()
    os.utime(path, ns=(t, t))


class Incremental:
    """What one build step did, from its log."""

    def __init__(self, args, build_dir):
        self.args, self.b = args, build_dir
        self.gen = os.path.join(build_dir, "avrogen", "telemetry_gateway")

    def step(self, what):
        print("---- %s" % what, flush=True)
        time.sleep(0.05)  # distinct mtimes even on coarse file systems
        out = build(self.args, self.b)
        return {
            "avrogen": bool(re.search(r"avrogen telemetry\.h", out)),
            "avro.c.o": bool(re.search(r"Building C object \S*telemetry\.avro\.c\.o", out)),
            "main.c.o": bool(re.search(r"Building C object \S*main\.c\.o", out)),
            "link": bool(re.search(r"Linking C executable", out)),
        }

    def expect(self, what, did, **want):
        for key, value in want.items():
            check(did[key] == value, "%s: expected %s %s, the build log says otherwise (%s)"
                  % (what, key, "to run" if value else "not to run", did))

    def noop(self, what):
        did = self.step("no-op build after: " + what)
        check(not any(did.values()), "no-op build after %s did work: %s" % (what, did))
        if self.args.generator == "ninja":
            ninja = shutil.which("ninja") or "ninja"
            out = run([ninja, "-C", self.b, "-n", "-d", "explain"])
            check("ninja: no work to do." in out and "explain:" not in out,
                  "ninja -n -d explain after %s: not up to date" % what)

    def mtimes(self):
        return {f: os.stat(os.path.join(self.gen, f)).st_mtime_ns
                for f in ("telemetry.avro.h", "telemetry.avro.c")}

    def read(self, name):
        with open(os.path.join(self.gen, name)) as f:
            return f.read()


def cmd_incremental(args):
    work = fresh(args.work)
    src = os.path.join(work, "src")
    shutil.copytree(os.path.join(args.source, "examples", "telemetry"), src)
    # A private, relocated copy of the package: this test touches its avrogen.
    prefix = os.path.join(work, "prefix")
    shutil.copytree(args.prefix, prefix, symlinks=True)
    b = os.path.join(work, "build")
    configure(args, src, b, "-DCMAKE_PREFIX_PATH=" + prefix)
    t = Incremental(args, b)
    did = t.step("first build")
    t.expect("first build", did, avrogen=True, link=True)
    t.noop("the first build")

    # The schema is in telemetry.avro.c, but past 4095 bytes as a char array, not
    # a string one could search: a regenerated file is a changed one.
    code = t.read("telemetry.avro.c")
    header = os.path.join(src, "include", "telemetry.h")
    edit(header, "/** What the gateway ships upstream. */",
         "/** What the gateway ships upstream (edited in telemetry.h). */")
    did = t.step("a doc comment in telemetry.h changed")
    t.expect("telemetry.h edited", did, avrogen=True, **{"avro.c.o": True}, link=True)
    check(t.read("telemetry.avro.c") != code,
          "telemetry.avro.c was not regenerated after telemetry.h changed")
    check("edited in telemetry.h" in run([os.path.join(b, "telemetry_gateway")]),
          "the rebuilt program does not print the new schema")
    t.noop("editing telemetry.h")

    code = t.read("telemetry.avro.c")
    edit(os.path.join(src, "include", "geo.h"), "/** A WGS 84 position. */",
         "/** A WGS 84 position (edited in geo.h). */")
    did = t.step("a doc comment in geo.h, which telemetry.h includes, changed")
    t.expect("geo.h edited", did, avrogen=True, **{"avro.c.o": True}, link=True)
    check(t.read("telemetry.avro.c") != code,
          "telemetry.avro.c was not regenerated after geo.h (included) changed")
    check("edited in geo.h" in run([os.path.join(b, "telemetry_gateway")]),
          "the rebuilt program does not print the schema with geo.h's new doc")
    t.noop("editing geo.h")

    before = t.mtimes()
    bump(os.path.join(prefix, "bin", "avrogen"))
    did = t.step("avrogen changed (same output)")
    t.expect("avrogen changed", did, avrogen=True, **{"avro.c.o": False, "main.c.o": False},
             link=False)
    check(t.mtimes() == before, "unchanged outputs got new timestamps after avrogen changed")
    t.noop("avrogen changed")

    # The generator is in the module avrogen loads for generate: a new one reruns it too.
    bump(os.path.join(libdir(prefix), "avrogen", "avrogen-generator.so"))
    did = t.step("the generator module changed (same output)")
    t.expect("the module changed", did, avrogen=True, **{"avro.c.o": False, "main.c.o": False},
             link=False)
    check(t.mtimes() == before, "unchanged outputs got new timestamps after the module changed")
    t.noop("the generator module changed")

    edit(header, "#endif /* TELEMETRY_H */", "/* a comment avrogen ignores */\n"
         "#endif /* TELEMETRY_H */")
    did = t.step("telemetry.h changed, not its schema")
    t.expect("comment added", did, avrogen=True)
    check(t.mtimes() == before, "unchanged outputs got new timestamps after a comment edit")
    t.noop("a comment edit")

    run([args.cmake, b])
    t.noop("re-running cmake")


def cmd_error(args):
    work = fresh(args.work)
    src = os.path.join(work, "src")
    shutil.copytree(os.path.join(args.source, "examples", "telemetry"), src)
    header = os.path.join(src, "include", "telemetry.h")
    edit(header, "    uint32_t seq; ", "    long double seq;")
    b = os.path.join(work, "build")
    configure(args, src, b, "-DCMAKE_PREFIX_PATH=" + args.prefix)
    out = build(args, b, fail=True)
    m = re.search(r"^(\S*telemetry\.h):(\d+):(\d+): error: (.*)$", out, re.M)
    check(m, "no compiler-style 'telemetry.h:LINE:COL: error:' line in the build log")
    check(os.path.samefile(m.group(1), header), "the error names %s, not %s"
          % (m.group(1), header))
    with open(header) as f:
        line = f.read().splitlines()[int(m.group(2)) - 1]
    check("long double seq" in line, "the error points at line %s, %r, not the bad field"
          % (m.group(2), line))
    check("seq" in m.group(4), "the message does not name the field: " + m.group(4))
    check(not os.path.exists(os.path.join(b, "avrogen", "telemetry_gateway",
                                          "telemetry.avro.c")),
          "avrogen wrote code for a header with errors")
    edit(header, "    long double seq;", "    uint32_t seq; ")

    # The mistake examples/telemetry/README.md shows, with the lines it shows.
    with open(os.path.join(args.source, "examples", "telemetry", "README.md")) as f:
        shown = [l[len("/path/to/telemetry/"):] for l in f.read().splitlines()
                 if l.startswith("/path/to/telemetry/")]
    check(len(shown) >= 2, "examples/telemetry/README.md shows no error lines")
    edit(header, "*reports AVRO_ARRAY(n_reports);", "*reports;")
    out = build(args, b, fail=True)
    for line in shown:
        check(os.path.join(src, line) in out.splitlines(),
              "examples/telemetry/README.md shows a line the build does not print: %s\n%s"
              % (line, out))
    edit(header, "*reports;", "*reports AVRO_ARRAY(n_reports);")
    build(args, b)
    check_gateway(os.path.join(b, "telemetry_gateway"))


def cmd_flags(args):
    work = fresh(args.work)
    # A cross build's host avrogen (AVROGEN_EXECUTABLE): here a wrapper that
    # leaves a trace, then runs the installed one.
    host = os.path.join(work, "host-avrogen")
    trace = os.path.join(work, "host-avrogen.log")
    with open(host, "w") as f:
        f.write('#!/bin/sh\necho "$@" >> "%s"\nexec "%s" "$@"\n'
                % (trace, os.path.join(args.prefix, "bin", "avrogen")))
    os.chmod(host, 0o755)
    b = os.path.join(work, "build")
    configure(args, os.path.join(PROJECTS, "flags"), b, "-DCMAKE_PREFIX_PATH=" + args.prefix,
              "-DAVROGEN_EXECUTABLE=" + host)
    build(args, b)
    check(os.path.exists(trace), "AVROGEN_EXECUTABLE: the build did not run " + host)
    check("probe ok" in run([os.path.join(b, "probe")]), "the probe program failed")
    check(os.path.isfile(os.path.join(b, "generated", "models", "probe.avro.h")),
          "BASE_DIR / OUTPUT_DIR: generated/models/probe.avro.h missing")
    with open(os.path.join(b, "manifests.txt")) as f:
        manifests = f.read().split()
    check(len(manifests) == 1, "SCHEMAS_VAR: %s" % manifests)
    with open(manifests[0]) as f:
        schemas = f.read().split()
    want = os.path.join(b, "schemas", "probe.probe.avsc")
    check(schemas == [want], "SCHEMA_DIR: the manifest lists %s, not %s" % (schemas, want))
    with open(want) as f:
        avsc = f.read()
    # "two words" and its NUL: the definition reached avrogen with its quotes.
    check(re.search(r'"size": 10\b', avsc), "the fixed field is not 10 bytes:\n" + avsc)
    needed = needed_libs(os.path.join(b, "probe"))
    check(needed is None or not any(n.startswith("libavrogen") for n in needed),
          "RUNTIME AvroGen::runtime_static: the probe needs %s" % needed)


MISUSE = [
    ("no_headers", r"avro_generate\(app\): no HEADERS or SCHEMAS given"),
    ("missing_schema", r"avro_generate\(app\): schema '.*no_such\.avsc' does not exist"),
    ("views_without_schemas", r"avro_generate\(app\): VIEWS applies to SCHEMAS"),
    ("schema_same_output", r"avro_generate\(app\): two headers or schemas would both generate "
                           r"'.*s/x\.avro\.h'"),
    ("no_target", r"avro_generate: 'no_such_target' is not a target"),
    ("interface_target", r"avro_generate: 'iface' cannot take the generated sources"),
    ("missing_header", r"avro_generate\(app\): header '.*no_such_header\.h' does not exist"),
    ("unknown_keyword", r"avro_generate: unexpected arguments: HEADER"),
    ("source_tree_output", r"avro_generate\(app\): '.*/generated' is in the source tree"),
    ("outside_base_dir", r"avro_generate\(app\): header '.*probe\.h' is outside BASE_DIR"),
    ("same_output", r"avro_generate\(app\): two headers or schemas would both generate "
                    r"'.*app\.avro\.h'"),
    ("compat_without_with", r"avro_generate\(app\): COMPAT needs COMPAT_WITH"),
    ("compat_unknown_mode", r"avro_generate\(app\): COMPAT 'sideways' is not one of"),
    ("compat_with_missing", r"avro_generate\(app\): COMPAT_WITH '.*no_such\.avsc' does not exist"),
    ("compat_with_empty", r"avro_generate\(app\): COMPAT_WITH needs a value"),
]


def cmd_misuse(args):
    work = fresh(args.work)
    b = os.path.join(work, "build")
    src = os.path.join(PROJECTS, "misuse")
    configure(args, src, b, "-DCMAKE_PREFIX_PATH=" + args.prefix, "-DCASE=ok")
    for case, pattern in MISUSE:
        out = configure_fail(args, src, b, case)
        check(re.search(r"CMake Error at .*\(message\):", out), case + ": not a FATAL_ERROR")
        check(re.search(pattern, " ".join(out.split())),
              "%s: the error does not match /%s/" % (case, pattern))
    check(not os.path.exists(os.path.join(src, "generated")), "source_tree_output wrote there")


# What cmd_compat does to a copy of tests/cmake/projects/compat/include/order.h:
# (what, old text, new text, programs whose build must fail, text of the line
# the first error must point at, word the error must name). order_default is
# checked in the default mode, backward.
COMPAT_BREAKS = [
    ("a field changes from int32_t to char *", "    int32_t quantity;", "    char *quantity;",
     {"backward", "forward", "full", "default"}, "char *quantity", "quantity"),
    ("a field without a default is added", "    int32_t priority",
     "    int32_t weight;\n    int32_t priority", {"backward", "full", "default"},
     "int32_t weight", "weight"),
    ("a field without a default in v1 is removed", "    int32_t quantity;\n", "",
     {"forward", "full"}, "struct AVRO_RECORD", "quantity"),
    ("an enum symbol is removed", ", ORDER_SHIPPED }", " }", {"backward", "full", "default"},
     "enum order_status status", "status"),
]
COMPAT_TARGETS = ("backward", "forward", "full", "none", "default")


class Compat:
    """Builds of the compat project's programs, one at a time."""

    def __init__(self, args, src, build_dir):
        self.args, self.src, self.b = args, src, build_dir
        self.header = os.path.join(src, "include", "order.h")
        self.v1 = os.path.join(src, "schemas", "com.acme.shop.Order.v1.avsc")

    def build(self, target, fail=False):
        time.sleep(0.05)  # distinct mtimes even on coarse file systems
        print("---- order_%s (expect %s)" % (target, "failure" if fail else "success"),
              flush=True)
        return run([self.args.cmake, "--build", self.b, "-j", str(self.args.jobs), "--target",
                    "order_" + target], fail=fail)

    def reran(self, out):
        return bool(re.search(r"avrogen order\.h", out))

    def errors(self, out):
        return re.findall(r"^(\S*order\.h):(\d+):(\d+): error: (.*)$", out, re.M)

    def check_error(self, out, what, line_text, word, modes, schema):
        errs = self.errors(out)
        check(errs, "%s: no 'order.h:LINE:COL: error:' line in the build log" % what)
        path, line, _, msg = errs[0]
        check(os.path.samefile(path, self.header), "%s: the error names %s" % (what, path))
        with open(self.header) as f:
            text = f.read().splitlines()[int(line) - 1]
        check(line_text in text, "%s: the error points at line %s, %r, not at %r"
              % (what, line, text, line_text))
        check(word in msg, "%s: the message does not name %r: %s" % (what, word, msg))
        check(any("%s compatibility" % m in msg for m in modes),
              "%s: the message does not say %s compatibility: %s" % (what, "/".join(modes), msg))
        check(schema in msg, "%s: the message does not name %s: %s" % (what, schema, msg))


def python_verdicts(args, header, earlier):
    """Which directions python3-avro's checker rejects for the schema derived
    from `header` against `earlier`: a subset of {"backward", "forward"}."""
    derived = run([os.path.join(args.prefix, "bin", "avrogen"), "schema", header])
    import avro.compatibility as compat
    import avro.schema
    new = avro.schema.parse(derived)
    with open(earlier) as f:
        old = avro.schema.parse(f.read())
    checker = compat.ReaderWriterCompatibilityChecker()
    broken = set()
    for name, reader, writer in (("backward", new, old), ("forward", old, new)):
        result = checker.get_compatibility(reader, writer)
        if result.compatibility is not compat.SchemaCompatibilityType.compatible:
            broken.add(name)
    return broken


def modes_failing(broken):
    """The programs of the compat project a set of broken directions fails."""
    fails = set(broken)
    if broken:
        fails.add("full")
    if "backward" in broken:
        fails.add("default")
    return fails


def cmd_compat(args):
    work = fresh(args.work)
    src = os.path.join(work, "src")
    shutil.copytree(os.path.join(PROJECTS, "compat"), src)
    b = os.path.join(work, "build")
    configure(args, src, b, "-DCMAKE_PREFIX_PATH=" + args.prefix)
    t = Compat(args, src, b)
    schema = "com.acme.shop.Order.v1.avsc"

    # (a) A compatible evolution builds in every mode, and python3-avro agrees.
    check(not python_verdicts(args, t.header, t.v1),
          "python3-avro finds order.h incompatible with v1: fix the test project")
    out = build(args, b)
    check(len(re.findall(r"avrogen order\.h", out)) == len(COMPAT_TARGETS),
          "the first build did not run avrogen once per program")
    check("order ok" in run([os.path.join(b, "order_full")]), "order_full did not run")

    # (b) Each break fails exactly the programs whose mode it breaks.
    with open(t.header) as f:
        original = f.read()
    # The verdicts do not depend on the generator: Make gets one break, to
    # show its builds fail and pass the same way, and keep the test short.
    breaks = COMPAT_BREAKS if args.generator == "ninja" else COMPAT_BREAKS[:1]
    for what, old, new, fails, line_text, word in breaks:
        print("==== " + what, flush=True)
        edit(t.header, old, new)
        broken = python_verdicts(args, t.header, t.v1)
        check(modes_failing(broken) == fails, "%s: python3-avro breaks %s, the test expects "
              "failures of %s" % (what, sorted(broken), sorted(fails)))
        for target in COMPAT_TARGETS:
            out = t.build(target, fail=target in fails)
            if target in fails:
                modes = sorted(broken) if target == "full" else [
                    "backward" if target == "default" else target]
                t.check_error(out, "%s (order_%s)" % (what, target), line_text, word, modes,
                              schema)
        with open(t.header, "w") as f:
            f.write(original)
    out = build(args, b)
    check(not t.errors(out), "the restored order.h does not build cleanly")

    # (c) The earlier schemas are inputs of the build.
    did = t.build("full")
    check(not t.reran(did), "a no-op build re-ran avrogen")
    with open(t.v1) as f:
        v1_text = f.read()
    edit(t.v1, '"default": ""\n    }\n', '"default": ""\n    },\n'
         '    {\n      "name": "channel",\n      "type": "string"\n    }\n')
    out = t.build("backward")
    check(t.reran(out), "editing %s did not re-run avrogen" % schema)
    t.check_error(t.build("forward", fail=True), "v1 gained a field without a default",
                  "struct AVRO_RECORD", "channel", ["forward"], schema)
    with open(t.v1, "w") as f:
        f.write(v1_text)
    check(t.reran(t.build("forward")), "restoring %s did not re-run avrogen" % schema)
    build(args, b)

    # A schema added to the directory: before v1, quantity was a long, which
    # the new int cannot read (backward) but may be written as (forward).
    v0 = os.path.join(src, "schemas", "com.acme.shop.Order.v0.avsc")
    with open(t.v1) as f:
        text = f.read().replace('"type": "int"', '"type": "long"')
    with open(v0, "w") as f:
        f.write(text)
    t.check_error(t.build("backward", fail=True), "v0 (long quantity) added",
                  "int32_t quantity", "quantity", ["backward"], "com.acme.shop.Order.v0.avsc")
    check(t.reran(t.build("forward")), "adding v0 did not re-run avrogen for order_forward")
    check(not t.reran(t.build("default")),
          "adding v0 re-ran avrogen for order_default, which names only v1")
    os.remove(v0)
    check(t.reran(t.build("forward")), "removing v0 did not re-run avrogen")
    check(not t.reran(t.build("forward")), "a no-op build after removing v0 re-ran avrogen")
    t.build("backward")

    # A new COMPAT re-runs avrogen with the new mode.
    edit(t.header, "    int32_t quantity;\n", "")
    check(t.reran(t.build("default")), "order.h edited, avrogen did not re-run")
    configure(args, src, b, "-DORDER_DEFAULT_MODE=forward")
    t.check_error(t.build("default", fail=True), "COMPAT changed to forward",
                  "struct AVRO_RECORD", "quantity", ["forward"], schema)
    configure(args, src, b, "-DORDER_DEFAULT_MODE=backward")
    check(t.reran(t.build("default")), "COMPAT changed to backward, avrogen did not re-run")


# cJSON's item types (cJSON.h), as Python's json module tells them apart.
CJSON_FALSE, CJSON_TRUE, CJSON_NULL, CJSON_NUMBER = 1 << 0, 1 << 1, 1 << 2, 1 << 3
CJSON_STRING, CJSON_ARRAY, CJSON_OBJECT = 1 << 4, 1 << 5, 1 << 6


def cjson_node(value, key=None, next_node=None):
    """The JsonNode datum of the cJSON item cJSON_Parse makes of value."""
    node = {"next": next_node, "child": None, "type": 0, "valuestring": None, "valueint": 0,
            "valuedouble": 0.0, "key": key}
    if isinstance(value, bool):
        node["type"] = CJSON_TRUE if value else CJSON_FALSE
        node["valueint"] = int(value)  # cJSON's parser sets it for true
    elif value is None:
        node["type"] = CJSON_NULL
    elif isinstance(value, (int, float)):
        node["type"] = CJSON_NUMBER
        node["valuedouble"] = float(value)
        node["valueint"] = max(-2**31, min(2**31 - 1, int(value)))
    elif isinstance(value, str):
        node["type"] = CJSON_STRING
        node["valuestring"] = value
    else:
        items = list(value.items()) if isinstance(value, dict) else [(None, v) for v in value]
        node["type"] = CJSON_OBJECT if isinstance(value, dict) else CJSON_ARRAY
        child = None
        for k, v in reversed(items):
            child = cjson_node(v, k, child)
        node["child"] = child
    return node


def cmd_system(args):
    import avro.io
    import avro.schema
    import grp
    import io
    import json

    work = fresh(args.work)
    src = os.path.join(PROJECTS, "system")
    b = os.path.join(work, "build")
    configure(args, src, b, "-DCMAKE_PREFIX_PATH=" + args.prefix)
    build(args, b)
    datums = os.path.join(work, "datums.jsonl")
    config = os.path.join(src, "config.json")
    run([os.path.join(b, "host_dump"), config, fresh(os.path.join(work, "scratch")), datums])

    with open(config) as f:
        tree = cjson_node(json.load(f))
    g = grp.getgrgid(os.getegid())
    group = {"gr_name": g.gr_name, "gr_passwd": g.gr_passwd, "gr_gid": g.gr_gid}
    schema_dir = os.path.join(b, "avrogen", "host_dump", "schemas")
    with open(datums) as f:
        lines = [json.loads(line) for line in f]
    check([d["schema"] for d in lines] == ["org.cjson.JsonNode", "posix.Group",
                                           "linux.InotifyEvent", "linux.InotifyEvent",
                                           "com.example.host.HostReport",
                                           "com.example.host.PacketSeen"],
          "host_dump wrote other datums: %s" % [d["schema"] for d in lines])
    events = lines[-2]["events"]
    check(events[0]["mask"] & 0x100 and events[1]["mask"] & 0x200,
          "inotify reported %s, not IN_CREATE then IN_DELETE" % events)
    expected = {"org.cjson.JsonNode": tree, "posix.Group": group,
                "com.example.host.HostReport": {"owner": group, "config": tree,
                                                "events": events},
                "com.example.host.PacketSeen": lines[-1].get("packet")}
    for d in lines:
        with open(os.path.join(schema_dir, d["schema"] + ".avsc")) as f:
            schema = avro.schema.parse(f.read())
        data = bytes.fromhex(d["hex"])
        decoder = avro.io.BinaryDecoder(io.BytesIO(data))
        got = avro.io.DatumReader(schema).read(decoder)
        want = expected.get(d["schema"], d["events"][0] if d["events"] else None)
        check(got == want, "python3-avro decodes %s to\n%s\nexpected\n%s"
              % (d["schema"], got, want))
        out = io.BytesIO()
        avro.io.DatumWriter(schema).write(got, avro.io.BinaryEncoder(out))
        check(out.getvalue() == data, "python3-avro encodes %s to other bytes" % d["schema"])
    print("python3-avro: %d datums decode to the expected values and encode alike" % len(lines))


def canonical(args, text):
    return run([os.path.join(args.prefix, "bin", "avrogen"), "canonical", text]).strip()


def cmd_schemas(args):
    """SCHEMAS: headers written from .avsc files at build time, then code."""
    work = fresh(args.work)
    src = os.path.join(work, "src")
    shutil.copytree(os.path.join(PROJECTS, "schemas"), src)
    b = os.path.join(work, "build")
    configure(args, src, b, "-DCMAKE_PREFIX_PATH=" + args.prefix)
    before = snapshot(src)
    gen = os.path.join(b, "avrogen", "orders")

    def step(what, fail=False):
        print("---- %s" % what, flush=True)
        time.sleep(0.05)
        out = build(args, b, fail=fail)
        return out, {
            "order": bool(re.search(r"avrogen schemas/order\.avsc", out)),
            "event": bool(re.search(r"avrogen schemas/events/event\.avsc", out)),
            "audit": bool(re.search(r"avrogen include/audit\.h", out)),
            "order.avro.c.o": bool(re.search(r"Building C object \S*orders\.dir\S*order\.avro\.c\.o",
                                             out)),
            "link": bool(re.search(r"Linking C executable", out)),
        }

    def noop(what):
        out, did = step("no-op build after: " + what)
        check(not any(did.values()), "no-op build after %s did work: %s" % (what, did))
        if args.generator == "ninja":
            out = run([shutil.which("ninja") or "ninja", "-C", b, "-n", "-d", "explain"])
            check("ninja: no work to do." in out and "explain:" not in out,
                  "ninja -n -d explain after %s: not up to date" % what)

    out, did = step("first build")
    check(did["order"] and did["event"] and did["audit"], "the first build did not run avrogen "
          "on both schemas and the header: %s" % did)
    for f in ("schemas/order.h", "schemas/order.avro.h", "schemas/order.avro.c",
              "schemas/events/event.h", "schemas/events/event.avro.c", "include/audit.avro.c",
              "schemas/com.acme.shop.Order.avsc"):
        check(os.path.isfile(os.path.join(gen, f)), f + " is not in the build tree")
    with open(os.path.join(gen, "schemas", "com.acme.shop.Order.avsc")) as f:
        derived = f.read()
    with open(os.path.join(src, "schemas", "order.avsc")) as f:
        given = f.read()
    check(canonical(args, derived) == canonical(args, given),
          "the schema derived from the written header is not the .avsc's")
    out = run([os.path.join(b, "orders")])
    check("== schemas ok" in out, "orders did not round-trip")
    check("== views ok" in run([os.path.join(b, "order_views")]), "order_views failed")
    with open(os.path.join(b, "avrogen", "order_views", "schemas", "order.h")) as f:
        check("avrogen_str customer;" in f.read(), "VIEWS did not give avrogen_str strings")
    noop("the first build")

    order = os.path.join(src, "schemas", "order.avsc")
    edit(order, "An order, as the shop's schema registry has it.", "An order (edited).")
    out, did = step("order.avsc: the record's doc changed")
    check(did["order"] and not did["event"] and not did["audit"] and did["order.avro.c.o"] and
          did["link"], "after editing order.avsc: %s" % did)
    check("An order (edited)." in run([os.path.join(b, "orders")]),
          "the program does not print the edited schema")
    noop("editing order.avsc")

    mtimes = {f: os.stat(os.path.join(gen, "schemas", f)).st_mtime_ns
              for f in ("order.h", "order.avro.h", "order.avro.c")}
    edit(order, '"name": "Order",', '"name": "Order", "x-owner": "shop",')
    out, did = step("order.avsc: an attribute no header carries")
    check(did["order"] and not did["order.avro.c.o"], "after an unknown attribute: %s" % did)
    check(re.search(r'warning: \S*order\.avsc: schema: attribute "x-owner": "shop" is not '
                    r"carried into the header", out), "no warning names the dropped attribute")
    check(mtimes == {f: os.stat(os.path.join(gen, "schemas", f)).st_mtime_ns for f in mtimes},
          "unchanged outputs got new timestamps")
    noop("an unknown attribute")

    edit(order, '["string", "long", "Line"]', '[]')
    out, _ = step("order.avsc: a union no C type holds", fail=True)
    check(re.search(r"avrogen: error: \S*order\.avsc: com\.acme\.shop\.Order\.payment: an empty "
                    r"union has no values", out),
          "the build log does not name the schema, the field and the reason")
    with open(os.path.join(gen, "schemas", "order.h")) as f:
        check("AVRO_DECIMAL(12, 2)" in f.read(), "a failed run changed the written header")
    edit(order, '[]', '["string", "long", "Line"]')
    out, did = step("order.avsc fixed again")
    check("== schemas ok" in run([os.path.join(b, "orders")]), "orders did not round-trip")
    check(set(snapshot(src)) == set(before), "building wrote into the source folder")


def cmd_runtime_only(args):
    """AVROGEN_BUILD_GENERATOR=OFF, from source: configured with libclang's paths pointing
    nowhere (a build that looked for it or linked it would fail), built and installed; the
    package has no generator module and nothing that needs libclang; the CLI's other verbs
    work, the generator's exit 2 saying the build has none; a CMake consumer links the
    runtime, shared and static, and avro_generate() stops configuring with a clear error."""
    work = fresh(args.work)
    b, prefix = os.path.join(work, "build"), os.path.join(work, "prefix")
    out = configure(args, args.source, b, "-DAVROGEN_BUILD_GENERATOR=OFF",
                    "-DAVROGEN_BUILD_TESTS=OFF", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                    "-DLIBCLANG_LIBRARY=/nonexistent/libclang.so",
                    "-DLIBCLANG_INCLUDE_DIR=/nonexistent/include", "-DCMAKE_INSTALL_PREFIX=" + prefix)
    check("avrogen: libclang" not in out and
          re.search(r"not used by the project:\s+LIBCLANG_INCLUDE_DIR\s+LIBCLANG_LIBRARY", out),
          "configuring looked for libclang")
    build(args, b)
    run([args.cmake, "--install", b])
    lib = libdir(prefix)
    for f in ("bin/avrogen", "share/man/man1/avrogen.1", "include/avrogen/gencode.h"):
        check(os.path.isfile(os.path.join(prefix, f)), f + " is not installed")
    for f in ("libavrogen.so", "libavrogen.a", "pkgconfig/avrogen.pc",
              "cmake/AvroGen/AvroGenConfig.cmake"):
        check(os.path.exists(os.path.join(lib, f)), os.path.join(lib, f) + " is not installed")
    # lib/avrogen may hold the registry module (a build with libcurl), never the generator's.
    module = os.path.join(lib, "avrogen", "avrogen-generator.so")
    check(not os.path.exists(module), module + ", the generator module, is installed")
    exe = os.path.join(prefix, "bin", "avrogen")
    needed = needed_libs(exe)
    check(needed is None or not any("clang" in n for n in needed), "avrogen: NEEDED %s" % needed)

    # A verb that parses no C works; the three that do say this build has none.
    check(run([exe, "canonical", '{"type": "record", "name": "P", "fields": '
                                 '[{"name": "x", "type": "int"}]}']).strip()
          == '{"name":"P","type":"record","fields":[{"name":"x","type":"int"}]}',
          "avrogen canonical in a build without the generator")
    p = subprocess.run([exe, "fromjson", "--schema", '"long"'], input="1\n-1\n",
                       capture_output=True, text=True, env=env())
    check(p.returncode == 0 and p.stdout == "\x02\x01", "fromjson: %r %r" % (p.stdout, p.stderr))
    header = os.path.join(work, "app.h")
    with open(header, "w") as f:
        f.write("struct AVRO_RECORD() point { int x; };\n")
    for verb in (["schema", header], ["generate", header, "-o", os.path.join(work, "gen")],
                 ["header", '{"type": "record", "name": "P", "fields": []}']):
        p = subprocess.run([exe] + verb, capture_output=True, text=True, env=env())
        lines = p.stderr.splitlines()
        check(p.returncode == 2 and p.stdout == "" and len(lines) == 1 and
              lines[0] == "avrogen: error: %s needs the generator, and this avrogen was built "
                          "without it (AVROGEN_BUILD_GENERATOR=OFF, no libclang): use an "
                          "avrogen built with it" % verb[0],
              "avrogen %s: exit %d, %r" % (verb[0], p.returncode, p.stderr))
    check(not os.path.exists(os.path.join(work, "gen")), "generate made its output folder")

    # The CMake package: the runtime links; avro_generate() is a clear configure error.
    src = os.path.join(PROJECTS, "runtime_only")
    cb = os.path.join(work, "consumer")
    consumer = "-DCONSUMER_SOURCE=" + os.path.join(HERE, "pkgconfig_consumer.c")
    configure(args, src, cb, "-DCMAKE_PREFIX_PATH=" + prefix, consumer, "-DCASE=runtime")
    build(args, cb)
    for prog in ("consumer", "consumer_static"):
        check("pkg-config consumer: fingerprint" in run([os.path.join(cb, prog)]),
              prog + " did not run")
    out = run([args.cmake, "-S", src, "-B", os.path.join(work, "consumer_generate"),
               "-DCMAKE_PREFIX_PATH=" + prefix, consumer, "-DCASE=generate"], fail=True)
    check(re.search(r"avro_generate\(consumer\): this avrogen was built without its generator "
                    r"\(AVROGEN_BUILD_GENERATOR=OFF\), so it cannot parse C", " ".join(out.split())),
          "avro_generate() with a package without the generator: not the expected error")


def cmd_plain(args):
    """GNU Make (avrogen.mk) and Meson on the installed package, by pkg-config."""
    work = fresh(args.work)
    pc = {"PKG_CONFIG_PATH": os.path.join(libdir(args.prefix), "pkgconfig")}
    mk = run(["pkg-config", "--variable=makefile", "avrogen"], extra_env=pc).strip()
    tool = run(["pkg-config", "--variable=avrogen", "avrogen"], extra_env=pc).strip()
    check(os.path.isfile(mk) and mk.endswith("/avrogen/avrogen.mk"),
          "pkg-config --variable=makefile: %r" % mk)
    check(os.path.samefile(tool, os.path.join(args.prefix, "bin", "avrogen")),
          "pkg-config --variable=avrogen: %r" % tool)

    make = shutil.which("make") or shutil.which("gmake")
    meson = shutil.which("meson")
    ninja = shutil.which("ninja")
    check(make and meson and ninja, "make, meson and ninja are needed (scripts/bootstrap "
          "installs them): make=%s meson=%s ninja=%s" % (make, meson, ninja))

    def runs_of_avrogen(out):
        return len(re.findall(r"avrogen generate |Generating order\.avro", out))

    builds = [("make", os.path.join(work, "make"), [make, "-j8"], "./shop")]
    builds.append(("meson", os.path.join(work, "meson"), [ninja, "-C", "b"], "b/shop"))
    for name, tree, cmd, prog in builds:
        print("==== " + name, flush=True)
        shutil.copytree(os.path.join(PROJECTS, "plain"), tree)
        order_h = os.path.join(tree, "include", "shop", "order.h")
        money_h = os.path.join(tree, "include", "money.h")
        if name == "meson":
            run([meson, "setup", "b"], cwd=tree, extra_env=pc)

        def build_once(fail=False):
            time.sleep(0.05)  # distinct mtimes even on coarse file systems
            return run(cmd, cwd=tree, extra_env=pc, fail=fail)

        out = build_once()
        check(runs_of_avrogen(out) == 1, "%s: the first build ran avrogen %d times"
              % (name, runs_of_avrogen(out)))
        shown = run([os.path.join(tree, prog)], cwd=tree)
        check("order ok" in shown and '"type": "long"' in shown, name + ": the program")

        out = build_once()
        check(runs_of_avrogen(out) == 0 and not re.search(r"\bcc\b|Compiling|Linking", out),
              "%s: the no-op build did something:\n%s" % (name, out))

        with open(order_h, "a") as f:
            f.write("/* a comment changes no output */\n")
        out = build_once()
        check(runs_of_avrogen(out) == 1, name + ": a comment edit did not rerun avrogen once")
        out = build_once()
        check(runs_of_avrogen(out) == 0, name + ": avrogen reran after a comment edit, again")

        with open(money_h) as f:
            text = f.read()
        with open(money_h, "w") as f:
            f.write(text.replace("typedef int64_t cents;", "typedef int32_t cents;"))
        out = build_once()
        check(runs_of_avrogen(out) == 1, name + ": an edit of an included header did not "
              "regenerate")
        shown = run([os.path.join(tree, prog)], cwd=tree)
        check('"name": "total",\n      "type": "int"' in shown,
              name + ": the program does not have the edited type:\n" + shown)

        if name == "make":
            os.unlink(os.path.join(tree, "gen", "shop", "order.avro.c"))
            build_once()
            check(os.path.isfile(os.path.join(tree, "gen", "shop", "order.avro.c")),
                  "make: a deleted order.avro.c did not come back")
            run([make, "clean"], cwd=tree, extra_env=pc)
            out = build_once()
            check(runs_of_avrogen(out) == 1, "make -j8 from clean ran avrogen %d times"
                  % runs_of_avrogen(out))

        with open(order_h) as f:
            text = f.read()
        with open(order_h, "w") as f:
            f.write(text.replace("AVRO_NULLABLE", "AVRO_NULLABEL"))
        out = build_once(fail=True)
        check(re.search(r"include/shop/order\.h:\d+:\d+: error: ", out),
              name + ": an annotation error is not file:line:col: error:\n" + out)


def configure_fail(args, src, b, case):
    print("---- CASE=" + case, flush=True)
    return run([args.cmake, "-S", src, "-B", b, "-DCASE=" + case], fail=True)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("command", choices=["install", "package", "installed", "containers", "subdir",
                                       "incremental", "error", "flags", "misuse", "compat",
                                       "system", "schemas", "runtime_only", "plain"])
    p.add_argument("--work", help="scratch folder, emptied first")
    p.add_argument("--prefix", help="the install prefix (the fixture)")
    p.add_argument("--build-dir", help="install: the project's build tree")
    p.add_argument("--config", default="", help="install: the configuration to install")
    p.add_argument("--source", help="the avrogen source tree")
    p.add_argument("--generator", choices=sorted(GENERATORS), default="ninja")
    p.add_argument("--via", choices=["subdir", "fetchcontent"], default="subdir")
    p.add_argument("--cmake", default="cmake")
    p.add_argument("--c-compiler", default="")
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args()
    for name in ("prefix", "source", "work", "build_dir"):
        if getattr(args, name):
            setattr(args, name, os.path.abspath(getattr(args, name)))
    start = time.time()
    try:
        globals()["cmd_" + args.command](args)
    except Failure as e:
        print("FAIL: %s" % e, flush=True)
        return 1
    print("ok: %s (%.1fs)" % (args.command, time.time() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
