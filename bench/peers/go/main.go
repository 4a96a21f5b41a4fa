// SPDX-License-Identifier: Apache-2.0

// Command peer-go: hamba/avro on the bench Order records, for bench/peers/run.
// It loads the records from the input container file (not timed), then times
// encoding all of them into one buffer, decoding them all from it, and for
// each codec asked for, writing a container file of them and reading it back.
// One JSON line a phase on stdout; the protocol is in bench/peers/README.md.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/ocf"
)

type Line struct {
	Sku      int64   `avro:"sku"`
	Name     string  `avro:"name"`
	Quantity int32   `avro:"quantity"`
	Price    float64 `avro:"price"`
}

type Order struct {
	ID       int64            `avro:"id"`
	Customer string           `avro:"customer"`
	Total    float64          `avro:"total"`
	Priority int32            `avro:"priority"`
	Paid     bool             `avro:"paid"`
	Note     *string          `avro:"note"`
	Lines    []Line           `avro:"lines"`
	Counters []int64          `avro:"counters"`
	Tags     map[string]int64 `avro:"tags"`
}

// digest: what every peer sums over the records it decoded (mod 2^64).
func digest(o *Order) uint64 {
	d := uint64(o.ID) + uint64(o.Counters[len(o.Counters)-1]) +
		uint64(o.Lines[len(o.Lines)-1].Quantity) + uint64(len(o.Customer))
	if o.Note != nil {
		d++
	}
	return d
}

type clock struct {
	wall time.Time
	cpu  time.Duration
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		die("getrusage", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func now() clock { return clock{time.Now(), cpuNow()} }

func report(t0 clock, fields map[string]any) {
	fields["wall_ms"] = float64(time.Since(t0.wall).Nanoseconds()) / 1e6
	fields["cpu_ms"] = float64((cpuNow() - t0.cpu).Nanoseconds()) / 1e6
	emit(fields)
}

func emit(fields map[string]any) {
	b, _ := json.Marshal(fields)
	fmt.Println(string(b))
}

func die(what string, err error) {
	fmt.Fprintf(os.Stderr, "peer-go: %s: %v\n", what, err)
	os.Exit(1)
}

func main() {
	input := flag.String("input", "", "the input container file (null codec)")
	schemaPath := flag.String("schema", "", "bench/workloads/order.avsc")
	out := flag.String("out", "", "folder for the files written")
	codecs := flag.String("codecs", "null,deflate,snappy,zstandard", "codecs to write and read")
	dump := flag.Bool("dump", false, "write the encoded datums to OUT/go.enc")
	warm := flag.Int("warmup", 50000, "records encoded and decoded before timing")
	blockSize := flag.Int("block-size", 65536, "container block size in bytes")
	flag.Parse()

	schemaText, err := os.ReadFile(*schemaPath)
	if err != nil {
		die("schema", err)
	}
	schema, err := avro.Parse(string(schemaText))
	if err != nil {
		die("schema", err)
	}
	version := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == "github.com/hamba/avro/v2" {
				version = m.Version
			}
		}
	}

	// Load (not timed).
	f, err := os.Open(*input)
	if err != nil {
		die("input", err)
	}
	dec, err := ocf.NewDecoder(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		die("input", err)
	}
	var records []Order
	for dec.HasNext() {
		var o Order
		if err := dec.Decode(&o); err != nil {
			die("input", err)
		}
		records = append(records, o)
	}
	if err := dec.Error(); err != nil {
		die("input", err)
	}
	f.Close()
	emit(map[string]any{"kind": "info", "peer": "hamba/avro", "version": "hamba/avro " + version + ", " + goruntime.Version(), "records": len(records)})

	// Warm-up (not timed).
	var buf bytes.Buffer
	enc := avro.NewEncoderForSchema(schema, &buf)
	w := *warm
	if w > len(records) {
		w = len(records)
	}
	for i := 0; i < w; i++ {
		if err := enc.Encode(&records[i]); err != nil {
			die("encode", err)
		}
	}
	rd := avro.NewDecoderForSchema(schema, bytes.NewReader(buf.Bytes()))
	for i := 0; i < w; i++ {
		var o Order
		if err := rd.Decode(&o); err != nil {
			die("decode", err)
		}
	}

	// Encode all.
	buf.Reset()
	buf.Grow(1 << 20)
	t := now()
	enc = avro.NewEncoderForSchema(schema, &buf)
	for i := range records {
		if err := enc.Encode(&records[i]); err != nil {
			die("encode", err)
		}
	}
	report(t, map[string]any{"kind": "time", "op": "encode", "bytes": buf.Len()})
	if *dump {
		if err := os.WriteFile(filepath.Join(*out, "go.enc"), buf.Bytes(), 0o644); err != nil {
			die("dump", err)
		}
	}

	// Decode all.
	t = now()
	rd = avro.NewDecoderForSchema(schema, bytes.NewReader(buf.Bytes()))
	var sum uint64
	n := 0
	for i := 0; i < len(records); i++ {
		var o Order
		if err := rd.Decode(&o); err != nil {
			die("decode", err)
		}
		sum += digest(&o)
		n++
	}
	report(t, map[string]any{"kind": "time", "op": "decode", "count": n, "digest": fmt.Sprint(sum)})
	buf = bytes.Buffer{}

	for _, codec := range strings.Split(*codecs, ",") {
		path := filepath.Join(*out, "go."+codec+".avro")
		t = now()
		f, err := os.Create(path)
		if err != nil {
			die("write", err)
		}
		bw := bufio.NewWriterSize(f, 1<<16)
		e, err := ocf.NewEncoderWithSchema(schema, bw, ocf.WithCodec(ocf.CodecName(codec)),
			ocf.WithBlockSize(*blockSize), ocf.WithBlockLength(1<<30))
		if err != nil {
			die("write "+codec, err)
		}
		for i := range records {
			if err := e.Encode(&records[i]); err != nil {
				die("write "+codec, err)
			}
		}
		if err := e.Close(); err != nil {
			die("write "+codec, err)
		}
		if err := bw.Flush(); err != nil {
			die("write "+codec, err)
		}
		if err := f.Close(); err != nil {
			die("write "+codec, err)
		}
		report(t, map[string]any{"kind": "time", "op": "write", "codec": codec, "file": path})

		t = now()
		f, err = os.Open(path)
		if err != nil {
			die("read", err)
		}
		d, err := ocf.NewDecoder(bufio.NewReaderSize(f, 1<<16))
		if err != nil {
			die("read "+codec, err)
		}
		sum, n = 0, 0
		for d.HasNext() {
			var o Order
			if err := d.Decode(&o); err != nil {
				die("read "+codec, err)
			}
			sum += digest(&o)
			n++
		}
		if err := d.Error(); err != nil {
			die("read "+codec, err)
		}
		f.Close()
		report(t, map[string]any{"kind": "time", "op": "read", "codec": codec, "count": n, "digest": fmt.Sprint(sum)})
	}
}
