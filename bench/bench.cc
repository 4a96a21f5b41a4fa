// SPDX-License-Identifier: Apache-2.0
//
// The bench harness: generated code vs the generic runtime vs avro-c, plus
// the hand-written speed-of-light row, on the workloads of bench/workloads.
//
// Before anything is measured it refuses a build that would give wrong
// numbers (not Release, assertions on, sanitizers in the process) and proves
// that the rows agree: every write row of a workload must produce the same
// bytes, twice in a row, and every read row must decode those bytes back to
// the source records. Then it registers one Google Benchmark per row, with
// per-record counters: bytes, heap allocations (alloc_count.c), records.
//
//   avrogen_bench [google benchmark flags]     measure every row
//   avrogen_bench --list                       the row names
//   avrogen_bench --row order/write/gen --iters N
//       run one row N times inside bench_measured(), for
//       `valgrind --tool=callgrind --toggle-collect=bench_measured`
//
// What is not here: the table and the ratios (bench/run does that).

#include "bench.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <avro.h>
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <fstream>
#include <string>
#include <vector>

#include "avrogen/gencode.h"
#include "avrogen/schema.h"

namespace
{

const bench_workload *const workloads[] = {
        &bench_wl_order,  &bench_wl_strings, &bench_wl_strings_utf8, &bench_wl_unions,
        &bench_wl_arrays, &bench_wl_text,    &bench_wl_evolve,       &bench_wl_evolve_c};

struct Row {
    std::string name; // workload/dir/row
    const bench_workload *wl;
    const bench_row *row;
    void *state;
    const std::vector<uint8_t> *reference; // the workload's encoding, shared by its rows
    std::vector<uint8_t> *out;             // write rows: where they write
};

std::vector<Row> rows;
std::vector<std::vector<uint8_t>> references; // one per workload
std::vector<uint8_t> write_buffer;

[[noreturn]] void die(const std::string &msg)
{
    fprintf(stderr, "avrogen_bench: %s\n", msg.c_str());
    exit(1);
}

std::string cpu_name()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
            return line.substr(line.find(':') + 2);
    return "unknown";
}

// The file the code at `fn` was loaded from, symlinks resolved, or "".
std::string loaded_from(void *fn)
{
    Dl_info info;
    if (dladdr(fn, &info) == 0 || info.dli_fname == nullptr)
        return "";
    char real[PATH_MAX];
    return realpath(info.dli_fname, real) != nullptr ? real : info.dli_fname;
}

std::string realpath_of(const char *path)
{
    char real[PATH_MAX];
    return realpath(path, real) != nullptr ? real : path;
}

// Where the avro-c we run against was loaded from, and its version.
std::string avroc_loaded()
{
    std::string where = loaded_from(reinterpret_cast<void *>(&avro_value_write));
    return std::string(BENCH_AVROC_VERSION) + " (" + (where.empty() ? "unknown" : where) + ")";
}

// The avrogen runtime actually in use: the one this build made, or the
// numbers belong to another build.
std::string runtime_loaded()
{
    return loaded_from(reinterpret_cast<void *>(&avrogen_schema_parse));
}

// Why the process cannot give honest numbers, or "".
std::string build_problem()
{
    if (strcmp(BENCH_BUILD_TYPE, "Release") != 0)
        return std::string("build type is '") + BENCH_BUILD_TYPE + "', not Release";
#ifndef NDEBUG
    return "C++ compiled without NDEBUG";
#endif
#ifndef __OPTIMIZE__
    return "C++ compiled without optimization";
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return "C++ compiled with a sanitizer";
#endif
    if (BENCH_SANITIZE)
        return "configured with AVROGEN_SANITIZE";
    if (bench_c_build_problem[0] != '\0')
        return bench_c_build_problem;
    std::string runtime = runtime_loaded();
    std::string expected = BENCH_RUNTIME_SHARED ? realpath_of(BENCH_RUNTIME_FILE)
                                                : loaded_from(reinterpret_cast<void *>(&die));
    if (runtime != expected)
        return "the avrogen runtime was loaded from " + runtime + ", not from this build's " +
               expected;
    // Allocation counts must include what shared libraries allocate.
    uint64_t allocs_before = bench_alloc_calls();
    avro_schema_t probe = avro_schema_array(avro_schema_long());
    avro_schema_decref(probe);
    if (bench_alloc_calls() == allocs_before)
        return "the malloc counters do not see allocations made in libavro";
    static const char *const sanitizer_symbols[] = {"__asan_init", "__tsan_init", "__msan_init",
                                                    "__ubsan_handle_add_overflow",
                                                    "__lsan_do_leak_check"};
    for (const char *sym : sanitizer_symbols)
        if (dlsym(RTLD_DEFAULT, sym) != nullptr)
            return std::string("a sanitizer runtime is loaded (") + sym + ")";
    return "";
}

void print_banner()
{
    const std::pair<const char *, std::string> facts[] = {
            {"avrogen", BENCH_AVROGEN_VERSION},
            {"compiler", BENCH_C_COMPILER},
            {"build_type", BENCH_BUILD_TYPE},
            {"c_flags", BENCH_C_FLAGS},
            {"cpu", cpu_name()},
            {"runtime", runtime_loaded()},
            {"avro_c", avroc_loaded()},
    };
    for (const auto &f : facts) {
        printf("%-10s %s\n", f.first, f.second.c_str());
        benchmark::AddCustomContext(std::string("bench_") + f.first, f.second);
    }
    fflush(stdout);
}

// The rows of `wl`, the common ones first (unless it has only its own), with
// their state opened.
void open_rows(const bench_workload *wl, size_t wl_index)
{
    size_t n_common = wl->own_rows_only ? 0 : bench_n_common_rows;
    for (size_t i = 0; i < n_common + wl->n_rows; i++) {
        const bench_row *r = i < n_common ? &bench_common_rows[i] : &wl->rows[i - n_common];
        Row row;
        row.name = std::string(wl->name) + (r->dir == BENCH_WRITE ? "/write/" : "/read/") + r->name;
        row.wl = wl;
        row.row = r;
        row.state = r->open(wl);
        if (row.state == nullptr)
            die(row.name + ": setup failed");
        row.reference = &references[wl_index];
        row.out = &write_buffer;
        rows.push_back(row);
    }
}

void check_generated_schema(const bench_workload *wl)
{
    if (wl->generated_type == nullptr)
        return;
    const char *generated = avrogen_type_schema(wl->generated_type);
    if (generated == nullptr)
        die(std::string(wl->name) + ": no generated schema text");
    avrogen_schema *mine = nullptr, *derived = nullptr;
    if (avrogen_schema_parse(wl->schema_json, strlen(wl->schema_json), nullptr, &mine, nullptr) !=
                AVROGEN_OK ||
        avrogen_schema_parse(generated, strlen(generated), nullptr, &derived, nullptr) !=
                AVROGEN_OK)
        die(std::string(wl->name) + ": a schema does not parse");
    bool same = strcmp(avrogen_schema_canonical(mine), avrogen_schema_canonical(derived)) == 0;
    std::string msg = std::string(wl->name) + ": the generator derived\n  " +
                      avrogen_schema_canonical(derived) + "\nbut the bench expects\n  " +
                      avrogen_schema_canonical(mine);
    avrogen_schema_free(mine);
    avrogen_schema_free(derived);
    if (!same)
        die(msg);
}

// Every write row gives the same bytes, twice; every read row decodes them
// back to the source records, twice. The first write row is the reference.
void verify(size_t wl_index)
{
    const bench_workload *wl = workloads[wl_index];
    std::vector<uint8_t> &ref = references[wl_index];
    check_generated_schema(wl);
    for (Row &row : rows) {
        if (row.wl != wl || row.row->dir != BENCH_WRITE)
            continue;
        for (int pass = 0; pass < 2; pass++) {
            size_t n = row.row->write(row.state, write_buffer.data(), write_buffer.size(), true);
            if (n == 0)
                die(row.name + ": encoding failed");
            if (ref.empty())
                ref.assign(write_buffer.begin(), write_buffer.begin() + (ptrdiff_t)n);
            size_t diff = 0;
            while (diff < n && diff < ref.size() && write_buffer[diff] == ref[diff])
                diff++;
            if (n != ref.size() || diff != n)
                die(row.name + ": " + std::to_string(n) +
                    " bytes, differing from the first row's " + std::to_string(ref.size()) +
                    " at offset " + std::to_string(diff));
        }
    }
    if (ref.empty())
        die(std::string(wl->name) + ": no write row");
    for (Row &row : rows) {
        if (row.wl != wl || row.row->dir != BENCH_READ)
            continue;
        for (int pass = 0; pass < 2; pass++)
            if (row.row->read(row.state, ref.data(), ref.size(), true) != 0)
                die(row.name + ": decoding failed or differs from the source records");
    }
    printf("verified   %-8s %zu rows agree on %zu records, %.1f bytes per record\n", wl->name,
           (size_t)std::count_if(rows.begin(), rows.end(),
                                 [&](const Row &r) { return r.wl == wl; }),
           wl->n_records, (double)ref.size() / (double)wl->n_records);
    const char *note = wl->note != nullptr ? wl->note() : nullptr;
    if (note != nullptr && note[0] != '\0')
        printf("note       %-8s %s\n", wl->name, note);
}

inline bool run_once(const Row &row)
{
    if (row.row->dir == BENCH_WRITE)
        return row.row->write(row.state, row.out->data(), row.out->size(), false) ==
               row.reference->size();
    return row.row->read(row.state, row.reference->data(), row.reference->size(), false) == 0;
}

void run_row(benchmark::State &state, const Row *row)
{
    if (!run_once(*row)) { // warm-up: arenas and buffers reach their steady size
        state.SkipWithError("row failed");
        return;
    }
    uint64_t allocs_before = bench_alloc_calls();
    for (auto _ : state)
        if (!run_once(*row)) {
            state.SkipWithError("row failed");
            break;
        }
    uint64_t allocs = bench_alloc_calls() - allocs_before;
    double records = (double)state.iterations() * (double)row->wl->n_records;
    state.SetBytesProcessed((int64_t)(state.iterations() * row->reference->size()));
    state.SetItemsProcessed((int64_t)records);
    state.counters["records"] = (double)row->wl->n_records;
    state.counters["bytes_per_record"] =
            (double)row->reference->size() / (double)row->wl->n_records;
    state.counters["allocs_per_record"] = records > 0 ? (double)allocs / records : 0;
}

} // namespace

// The loop callgrind counts (--toggle-collect=bench_measured); never inlined.
extern "C" __attribute__((noinline)) int bench_measured(const Row *row, long iters);

extern "C" int bench_measured(const Row *row, long iters)
{
    for (long i = 0; i < iters; i++)
        if (!run_once(*row))
            return -1;
    return 0;
}

int main(int argc, char **argv)
{
    std::string only_row;
    long iters = 0;
    bool list = false;
    std::vector<char *> rest = {argv[0]};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--row") == 0 && i + 1 < argc)
            only_row = argv[++i];
        else if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc)
            iters = strtol(argv[++i], nullptr, 10);
        else if (strcmp(argv[i], "--list") == 0)
            list = true;
        else
            rest.push_back(argv[i]);
    }

    std::string problem = build_problem();
    if (!problem.empty())
        die("refusing to measure: " + problem +
            "; build with bench/run or "
            "-DCMAKE_BUILD_TYPE=Release and no sanitizers");
    if (!only_row.empty() && iters <= 0)
        die("--row needs --iters N with N > 0");

    write_buffer.resize(16u << 20);
    references.resize(sizeof workloads / sizeof workloads[0]);
    for (size_t w = 0; w < references.size(); w++) {
        if (!only_row.empty() && only_row.rfind(std::string(workloads[w]->name) + "/", 0) != 0)
            continue;
        if (workloads[w]->init() != 0)
            die(std::string(workloads[w]->name) + ": building the data set failed");
        open_rows(workloads[w], w);
    }
    if (list) {
        for (const Row &row : rows)
            printf("%s\n", row.name.c_str());
        return 0;
    }
    if (only_row.empty())
        print_banner();
    for (size_t w = 0; w < references.size(); w++)
        if (std::any_of(rows.begin(), rows.end(),
                        [&](const Row &r) { return r.wl == workloads[w]; }))
            verify(w);
    // Writers get room to spare: a row may check for its worst case first.
    size_t largest = 0;
    for (const auto &ref : references)
        largest = std::max(largest, ref.size());
    write_buffer.assign(2 * largest + 65536, 0);

    if (!only_row.empty()) {
        for (const Row &row : rows) {
            if (row.name != only_row)
                continue;
            if (!run_once(row))
                die(row.name + ": failed");
            if (bench_measured(&row, iters) != 0)
                die(row.name + ": failed");
            printf("row %s records %zu iterations %ld\n", row.name.c_str(),
                   row.wl->n_records * (size_t)iters, iters);
            return 0;
        }
        die("no row named '" + only_row + "' (see --list)");
    }

    for (const Row &row : rows)
        benchmark::RegisterBenchmark(row.name.c_str(), run_row, &row)->Unit(benchmark::kNanosecond);
    int rest_argc = (int)rest.size();
    benchmark::Initialize(&rest_argc, rest.data());
    if (benchmark::ReportUnrecognizedArguments(rest_argc, rest.data()))
        return 2;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    for (const Row &row : rows)
        row.row->close(row.state);
    for (const bench_workload *wl : workloads)
        wl->fini();
    bench_data_free_all();
    return 0;
}
