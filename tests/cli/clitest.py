# SPDX-License-Identifier: Apache-2.0
"""What the command-line tests share: checks that count, running avrogen,
the one-error-line contract, and files written by python3-avro."""

import io
import json
import lzma
import os
import subprocess
import sys

import avro.codecs
import avro.datafile
import avro.io
import avro.schema

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interop"))
from python_peer import avro_json  # noqa: E402,F401

AVROGEN = None
failures = 0
checks = 0


def check(cond, what):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print("FAIL:", what)
    return cond


def run(args, stdin=None, **kw):
    return subprocess.run([AVROGEN] + args, input=stdin, capture_output=True, **kw)


def run_watched(args, stdin=None, tty=True, pause=1.2, slow_reader=True):
    """Run avrogen for longer than a second with stderr on a terminal (a pty; tty) or a pipe:
    stdin fed in two halves `pause` seconds apart, stdout read only after the pause when
    `slow_reader` (so a run with more than a pipe's worth of output lasts that long). Exit
    status, stdout, and what stderr showed (text)."""
    import pty
    import threading
    import time
    if tty:
        master, err_target = pty.openpty()
    else:
        master, err_target = os.pipe()
    p = subprocess.Popen([AVROGEN] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=err_target)
    os.close(err_target)
    shown = []

    def drain():
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO on a pty once the last writer has gone
                return
            if not chunk:
                return
            shown.append(chunk)

    def feed():
        try:
            if stdin is not None:
                half = len(stdin) // 2
                p.stdin.write(stdin[:half])
                p.stdin.flush()
                time.sleep(pause)
                p.stdin.write(stdin[half:])
            p.stdin.close()
        except BrokenPipeError:
            pass

    threads = [threading.Thread(target=drain), threading.Thread(target=feed)]
    for t in threads:
        t.start()
    if slow_reader:
        time.sleep(pause)
    out = p.stdout.read()
    p.wait()
    for t in threads:
        t.join()
    os.close(master)
    return p.returncode, out, b"".join(shown).decode("utf-8", "replace")


def one_error_line(p, what):
    """Exit 1 and exactly one 'avrogen: error: ' line on stderr; that line."""
    lines = p.stderr.decode().splitlines()
    check(p.returncode == 1, f"{what}: exit 1, got {p.returncode}")
    check(len(lines) == 1 and lines[0].startswith("avrogen: error: "),
          f"{what}: one 'avrogen: error:' line, got {lines!r}")
    return lines[0] if lines else ""


class XZCodec(avro.codecs.Codec):
    """The spec's "xz" codec, which python3-avro 1.11.1 lacks: an .xz stream per block (what
    Java's XZCodec writes), through Python's lzma module."""

    @staticmethod
    def compress(data):
        packed = lzma.compress(data, format=lzma.FORMAT_XZ)
        return packed, len(packed)

    @staticmethod
    def decompress(readers_decoder):
        length = readers_decoder.read_long()
        data = lzma.decompress(readers_decoder.read(length), format=lzma.FORMAT_XZ)
        return avro.io.BinaryDecoder(io.BytesIO(data))


avro.codecs.KNOWN_CODECS.setdefault("xz", XZCodec)


def python_codecs():
    """The codecs python3-avro can write here (xz through XZCodec above)."""
    codecs = ["null", "deflate", "bzip2", "xz"]
    for codec, module in (("snappy", "snappy"), ("zstandard", "zstandard")):
        try:
            __import__(module)
            codecs.append(codec)
        except ImportError:
            pass
    return codecs


OUR_CODECS = ["null", "deflate", "snappy", "zstandard", "xz", "bzip2"]


def python_write(path, schema, datums, codec="null", flush_every=0, meta=None):
    """A container file written by Python's DataFileWriter, a block every flush_every datums."""
    with avro.datafile.DataFileWriter(open(path, "wb"), avro.io.DatumWriter(), schema,
                                      codec=codec) as w:
        for k, v in (meta or {}).items():
            w.set_meta(k, v)
        for i, d in enumerate(datums):
            w.append(d)
            if flush_every and (i + 1) % flush_every == 0:
                w.flush()


def python_read(path):
    with avro.datafile.DataFileReader(open(path, "rb"), avro.io.DatumReader()) as r:
        return list(r)


def blocks_of(path):
    """(offset, count, end) of every block, parsed here from the spec's framing."""
    with open(path, "rb") as f:
        r = avro.datafile.DataFileReader(f, avro.io.DatumReader())
        data = open(path, "rb").read()
        pos = f.tell()
        sync = r.sync_marker
        out = []
        while pos < len(data):
            dec = avro.io.BinaryDecoder(io.BytesIO(data[pos:pos + 20]))
            count = dec.read_long()
            size = dec.read_long()
            end = pos + dec.reader.tell() + size + 16
            assert data[end - 16:end] == sync, f"{path}: block at {pos} is not framed"
            out.append((pos, count, end))
            pos = end
        return out


def damaged_copy(path, out, cut=None, flip=None):
    """Write path's bytes to out, cut at byte `cut` and/or with byte `flip` xor 1."""
    data = bytearray(open(path, "rb").read())
    if flip is not None:
        data[flip] ^= 1
    with open(out, "wb") as f:
        f.write(data[:cut] if cut is not None else data)
    return out


def json_lines(schema, datums, indent=None):
    return "".join(json.dumps(avro_json(schema, d), indent=indent) + "\n" for d in datums)


def summary(name):
    print(f"{name}: {checks - failures} passed, {failures} failed")
    return 1 if failures else 0
