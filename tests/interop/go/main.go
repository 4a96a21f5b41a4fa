// SPDX-License-Identifier: Apache-2.0

// goavro 2.10.1 (Debian's golang-github-linkedin-goavro-dev) as a peer of
// the interop tests: tests/interop/go_peer.py builds it offline against
// /usr/share/gocode and runs it once per test run. It reads tasks, one per
// line, tab-separated, from the file named by its first argument and writes
// one result line per task to the file named by its second, in order:
//
//	read IN.avro REF.frames          STATUS CODEC COUNT MISMATCH DETAIL: goavro's
//	                                 OCFReader read COUNT datums, the first MISMATCH
//	                                 of them (-1: none) differs from the datum of
//	                                 REF.frames at its index, decoded with IN's
//	                                 schema; STATUS is ok, or error when reading
//	                                 stopped early (DETAIL says why)
//	write SCHEMA REF.frames CODEC N OUT.avro   ok COUNT: the datums of REF.frames
//	                                 (decoded with SCHEMA) in a container file,
//	                                 N datums per block
//	canon SCHEMA                     ok PCF CRC64: goavro's canonical form and
//	                                 Rabin fingerprint (little-endian hex)
//	json SCHEMA IN.frames OUT        ok COUNT: every datum of IN.frames (decoded
//	                                 with SCHEMA) in goavro's Avro JSON encoding
//	                                 (TextualFromNative), a line each, in OUT.jsonl,
//	                                 and encoded again (BinaryFromNative) in OUT.frames
//	dump IN.avro OUT                 ok CODEC COUNT: the same for every datum of IN
//
// A task that cannot start prints "error MESSAGE". Frames are a 4-byte big-endian
// length and the datum's bytes. Values compare strictly: floats by their
// bits (NaN equals NaN, -0 differs from 0), maps by key whatever their order,
// logical types (time.Time, *big.Rat) by value.
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"os"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/linkedin/goavro/v2"
)

func readFrames(path string) ([][]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for len(data) > 0 {
		if len(data) < 4 {
			return nil, fmt.Errorf("%s: truncated frame header", path)
		}
		n := binary.BigEndian.Uint32(data)
		if uint64(len(data)-4) < uint64(n) {
			return nil, fmt.Errorf("%s: truncated frame", path)
		}
		out = append(out, data[4:4+n])
		data = data[4+n:]
	}
	return out, nil
}

func decodeAll(codec *goavro.Codec, frames [][]byte) ([]interface{}, error) {
	out := make([]interface{}, 0, len(frames))
	for i, f := range frames {
		v, rest, err := codec.NativeFromBinary(f)
		if err != nil {
			return nil, fmt.Errorf("reference datum %d: %v", i, err)
		}
		if len(rest) != 0 {
			return nil, fmt.Errorf("reference datum %d: %d bytes left over", i, len(rest))
		}
		out = append(out, v)
	}
	return out, nil
}

// equal is reflect.DeepEqual with floats compared by bits and logical types by value.
func equal(a, b interface{}) bool {
	switch x := a.(type) {
	case float32:
		y, ok := b.(float32)
		return ok && math.Float32bits(x) == math.Float32bits(y)
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case time.Time:
		y, ok := b.(time.Time)
		return ok && x.Equal(y)
	case *big.Rat:
		y, ok := b.(*big.Rat)
		return ok && x.Cmp(y) == 0
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	case []interface{}:
		y, ok := b.([]interface{})
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]interface{}:
		y, ok := b.(map[string]interface{})
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, found := y[k]
			if !found || !equal(v, w) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

func clip(v interface{}) string {
	s := fmt.Sprintf("%#v", v)
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

func read(in, ref string) (string, error) {
	f, err := os.Open(in)
	if err != nil {
		return "", err
	}
	defer f.Close()
	r, err := goavro.NewOCFReader(bufio.NewReader(f))
	if err != nil {
		return "", err
	}
	frames, err := readFrames(ref)
	if err != nil {
		return "", err
	}
	want, err := decodeAll(r.Codec(), frames)
	if err != nil {
		return "", err
	}
	n, mismatch, detail := 0, -1, ""
	for r.Scan() {
		v, err := r.Read()
		if err != nil {
			return result("error", r, n, mismatch, fmt.Sprintf("datum %d: %v", n, err)), nil
		}
		if mismatch < 0 && (n >= len(want) || !equal(v, want[n])) {
			mismatch = n
			if n < len(want) {
				detail = fmt.Sprintf("datum %d: read %s, the reference is %s", n, clip(v), clip(want[n]))
			}
		}
		n++
	}
	if err := r.Err(); err != nil {
		return result("error", r, n, mismatch, err.Error()), nil
	}
	return result("ok", r, n, mismatch, detail), nil
}

// result is "STATUS CODEC COUNT MISMATCH DETAIL": COUNT datums read, the first
// MISMATCH of them differs from the reference (-1: none, or the reference
// ended), DETAIL says how, or why reading stopped.
func result(status string, r *goavro.OCFReader, n, mismatch int, detail string) string {
	return fmt.Sprintf("%s\t%s\t%d\t%d\t%s", status, r.CompressionName(), n, mismatch,
		strings.ReplaceAll(detail, "\n", " "))
}

func codecOf(schemaPath string) (*goavro.Codec, error) {
	schema, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, err
	}
	return goavro.NewCodec(string(schema))
}

func write(schemaPath, ref, compression string, perBlock int, out string) (string, error) {
	codec, err := codecOf(schemaPath)
	if err != nil {
		return "", err
	}
	frames, err := readFrames(ref)
	if err != nil {
		return "", err
	}
	values, err := decodeAll(codec, frames)
	if err != nil {
		return "", err
	}
	f, err := os.Create(out)
	if err != nil {
		return "", err
	}
	w, err := goavro.NewOCFWriter(goavro.OCFConfig{W: f, Codec: codec, CompressionName: compression})
	if err == nil {
		for i := 0; i < len(values) && err == nil; i += perBlock {
			err = w.Append(values[i:min(i+perBlock, len(values))])
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("ok\t%d", len(values)), nil
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// dumper writes each datum as goavro's JSON line and its bytes again.
type dumper struct {
	codec        *goavro.Codec
	json, frames []byte
	count        int
}

func (d *dumper) put(v interface{}) error {
	text, err := d.codec.TextualFromNative(nil, v)
	if err != nil {
		return fmt.Errorf("datum %d: TextualFromNative: %v", d.count, err)
	}
	bin, err := d.codec.BinaryFromNative(nil, v)
	if err != nil {
		return fmt.Errorf("datum %d: BinaryFromNative: %v", d.count, err)
	}
	d.json = append(append(d.json, text...), '\n')
	d.frames = binary.BigEndian.AppendUint32(d.frames, uint32(len(bin)))
	d.frames = append(d.frames, bin...)
	d.count++
	return nil
}

func (d *dumper) save(out string) error {
	if err := os.WriteFile(out+".jsonl", d.json, 0o644); err != nil {
		return err
	}
	return os.WriteFile(out+".frames", d.frames, 0o644)
}

func jsonOf(schemaPath, in, out string) (string, error) {
	codec, err := codecOf(schemaPath)
	if err != nil {
		return "", err
	}
	frames, err := readFrames(in)
	if err != nil {
		return "", err
	}
	values, err := decodeAll(codec, frames)
	if err != nil {
		return "", err
	}
	d := dumper{codec: codec}
	for _, v := range values {
		if err := d.put(v); err != nil {
			return "", err
		}
	}
	if err := d.save(out); err != nil {
		return "", err
	}
	return fmt.Sprintf("ok\t%d", d.count), nil
}

func dump(in, out string) (string, error) {
	f, err := os.Open(in)
	if err != nil {
		return "", err
	}
	defer f.Close()
	r, err := goavro.NewOCFReader(bufio.NewReader(f))
	if err != nil {
		return "", err
	}
	d := dumper{codec: r.Codec()}
	for r.Scan() {
		v, err := r.Read()
		if err != nil {
			return "", fmt.Errorf("datum %d: %v", d.count, err)
		}
		if err := d.put(v); err != nil {
			return "", err
		}
	}
	if err := r.Err(); err != nil {
		return "", err
	}
	if err := d.save(out); err != nil {
		return "", err
	}
	return fmt.Sprintf("ok\t%s\t%d", r.CompressionName(), d.count), nil
}

func canon(schemaPath string) (string, error) {
	codec, err := codecOf(schemaPath)
	if err != nil {
		return "", err
	}
	var fp [8]byte
	binary.LittleEndian.PutUint64(fp[:], codec.Rabin)
	return "ok\t" + codec.CanonicalSchema() + "\t" + hex.EncodeToString(fp[:]), nil
}

func run(t []string) (string, error) {
	switch {
	case t[0] == "read" && len(t) == 3:
		return read(t[1], t[2])
	case t[0] == "write" && len(t) == 6:
		n, err := strconv.Atoi(t[4])
		if err != nil || n <= 0 {
			return "", fmt.Errorf("bad block length %q", t[4])
		}
		return write(t[1], t[2], t[3], n, t[5])
	case t[0] == "canon" && len(t) == 2:
		return canon(t[1])
	case t[0] == "json" && len(t) == 4:
		return jsonOf(t[1], t[2], t[3])
	case t[0] == "dump" && len(t) == 3:
		return dump(t[1], t[2])
	}
	return "", fmt.Errorf("bad task %q", strings.Join(t, " "))
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gopeer TASKS RESULTS")
		os.Exit(2)
	}
	tasks, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(string(tasks), "\n"), "\n") {
		if line == "" {
			continue
		}
		res, err := run(strings.Split(line, "\t"))
		if err != nil {
			res = "error\t" + strings.SplitN(err.Error(), "\n", 2)[0]
		}
		out.WriteString(res + "\n")
	}
	if err := os.WriteFile(os.Args[2], []byte(out.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
