/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The table of avrogen's subcommands: what main() dispatches on, and the one
 * source of their documentation. `avrogen --help`, `avrogen help CMD`,
 * `avrogen CMD --help` and the man page avrogen(1) (`avrogen help --man`,
 * written at build time and installed) are all rendered from it here, so the
 * page and the binary cannot say different things.
 *
 * Text conventions: descriptions are paragraphs separated by blank lines
 * ("\n\n") and wrapped when printed; examples are command lines, one per line,
 * printed as they are. Metavariables are upper case (FILE, N, S).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "generator.h"
#include "registry_verbs.h"

/* The readers' --max-depth (cli_parse_max_depth). */
#define MAX_DEPTH_DOC                                                                          \
    "how deep records that contain themselves may nest in a datum, 1 to 10000 (default 1000, " \
    "the library's AVROGEN_DEFAULT_MAX_DEPTH); deeper data is an error naming the limit"

/* The container commands' -j/--jobs (main.c takes it out of argv: cli_jobs). */
#define JOBS_DOC                                                                                 \
    {                                                                                            \
        "-j, --jobs N", "compress or decompress blocks on N threads, 1 to 1024 (default: every " \
                        "online core); encoding, decoding and output stay in order on one, "     \
                        "and the file written is byte for byte the same whatever N"              \
    }

/* cat's and tojson's --pretty: AVROGEN_JSON_PRETTY. */
#define PRETTY_DOC                                                                          \
    {                                                                                       \
        "--pretty", "indent the JSON, two spaces a level, as Python's json.dumps(indent=2)" \
    }

static const cli_option_doc fingerprint_options[] = {
        {"--algo ALGO", "crc64 (the default: CRC-64-AVRO, little-endian), md5 or sha256"},
        {NULL, NULL},
};

static const cli_option_doc tojson_options[] = {
        {"--schema S", "the schema of the datums, or the one to print them as (required)"},
        {"--writer-schema W", "the datums were written with W: resolve each into S"},
        PRETTY_DOC,
        {"--max-depth N", MAX_DEPTH_DOC},
        JOBS_DOC,
        PROGRESS_DOC,
        {NULL, NULL},
};

/* The JSON side of --max-depth: what jansson parses bounds it too. */
#define JSON_MAX_DEPTH_DOC                                                                     \
    MAX_DEPTH_DOC "; JSON text nests at most 2048 arrays and objects (jansson's parser), two " \
                  "for each such record, so about 1024 of them whatever N"

static const cli_option_doc fromjson_options[] = {
        {"--schema S", "the schema of the values (required)"},
        {"--max-depth N", JSON_MAX_DEPTH_DOC},
        PROGRESS_DOC,
        {NULL, NULL},
};

static const cli_option_doc cat_options[] = {
        {"--schema S", "print the records shaped like S, resolved from each file's schema "
                       "(spec: Schema Resolution)"},
        {"--offset N", "pass over the first N records (whole blocks unread)"},
        {"--limit N", "print at most N records"},
        {"--sample RATE", "print each record with probability RATE (above 0, at most 1)"},
        {"--seed K", "the seed of --sample's choices (default 1): the same seed picks the same "
                     "records"},
        PRETTY_DOC,
        {"--max-depth N", MAX_DEPTH_DOC},
        JOBS_DOC,
        PROGRESS_DOC,
        {NULL, NULL},
};

static const cli_option_doc head_options[] = {
        {"-n, --limit N", "how many records (default 10)"},
        {"--schema S, --offset N, --sample RATE, --seed K, --pretty, --max-depth N", "as for cat"},
        JOBS_DOC,
        PROGRESS_DOC,
        {NULL, NULL},
};

static const cli_option_doc getmeta_options[] = {
        {"--key K", "print only the value of metadata key K, as stored, and a newline"},
        {NULL, NULL},
};

static const cli_option_doc write_options[] = {
        {"--schema S", "the schema of the records (required), a file or JSON text; stored in the "
                       "file as written"},
        {"--codec C", "null (default), deflate, snappy, zstandard, xz or bzip2"},
        {"--max-depth N", JSON_MAX_DEPTH_DOC},
        JOBS_DOC,
        PROGRESS_DOC,
        {NULL, NULL},
};

static const cli_option_doc compat_options[] = {
        {"--reader R", "the schema that reads (required)"},
        {"--writer W", "the schema the data was written with (required)"},
        {"--mode MODE", "backward (default: R reads W's data), forward (W reads R's data) or "
                        "full (both)"},
        {NULL, NULL},
};

static const cli_option_doc concat_options[] = {
        {"--codec C", "the output's codec (default: the first file's); blocks in another codec "
                      "are recompressed"},
        {"--max-depth N", "as for cat: the depth to which the datums are walked"},
        JOBS_DOC,
        PROGRESS_DOC,
        {NULL, NULL},
};

static const cli_option_doc recodec_options[] = {
        {"--codec C", "null, deflate, snappy, zstandard, xz or bzip2 (default: IN's codec)"},
        {"--level L", "the compression level: deflate, xz and bzip2 1 to 9, zstandard -131072 "
                      "to 22 (default: the codec's own)"},
        {"--block-size N", "uncompressed bytes after which a block ends (default 64000, what "
                           "Java and Python use)"},
        {"--max-depth N", "as for cat: the depth to which the datums are walked"},
        JOBS_DOC,
        PROGRESS_DOC,
        {NULL, NULL},
};

static const cli_option_doc validate_options[] = {
        {"--schema S", "also check that S can read every record (spec: Schema Resolution): "
                       "the schemas resolve, and no record uses a symbol or branch S lacks"},
        {"--max-depth N", "as for cat"},
        JOBS_DOC,
        PROGRESS_DOC,
        {NULL, NULL},
};

static const cli_option_doc repair_options[] = {
        {"--max-depth N", "as for cat: a datum nested deeper is damage"},
        JOBS_DOC,
        PROGRESS_DOC,
        {NULL, NULL},
};

static const cli_option_doc random_options[] = {
        {"--schema S", "the schema of the records (required)"},
        {"--count N", "how many records (required)"},
        {"--seed K", "the seed: the same seed, schema and options make the same data "
                     "(default: a random one)"},
        {"--format F", "container (default: an object container file), datums (binary "
                       "encodings back to back, as tojson reads) or json (JSON lines)"},
        {"--codec C", "the container file's codec (default null)"},
        {"--max-length N", "at most N characters, bytes or items in a string, bytes, array or "
                           "map (default 10)"},
        JOBS_DOC,
        PROGRESS_DOC,
        {NULL, NULL},
};

static const cli_option_doc count_options[] = {
        JOBS_DOC,
        PROGRESS_DOC,
        {NULL, NULL},
};

static const cli_option_doc no_options[] = {{NULL, NULL}};

const cli_command cli_commands[] = {
        {"schema", cli_run_generator, "HEADER... [-o DIR] [--compat-with PATH] [-- CLANG_ARGS]",
         "the .avsc schemas derived from annotated C structs",
         "Parse each HEADER with libclang, as the compiler would with CLANG_ARGS (with no -std "
         "among them, as plain cc does: gnu17), and print the Avro schema of every annotated "
         "record (AVRO_RECORD) it defines, or write one .avsc file "
         "per record into DIR. Annotation mistakes are errors at the member, "
         "file:line:col: error: ..., and nothing is written.",
         cli_schema_options, "avrogen schema include/order.h -- -Iinclude -std=c11"},
        {"generate", cli_run_generator,
         "HEADER... -o DIR [--depfile F] [--compat-with PATH] [-- CLANG_ARGS]",
         "C encoders and decoders for annotated structs",
         "Write HEADER.avro.h and HEADER.avro.c (encode, size, decode and the type descriptor of "
         "every annotated record) and the derived .avsc schemas into DIR. Outputs whose bytes "
         "did not change are left untouched. This is what avro_generate() runs in a CMake build.",
         cli_generate_options, "avrogen generate include/order.h -o build/gen -- -Iinclude"},
        {"header", cli_run_generator, "SCHEMA.avsc... [-o DIR] [--views] [--from-file FILE.avro]",
         "annotated C structs for an existing record schema",
         "Write the annotated C header of each record SCHEMA (a file, - for standard input, or "
         "the JSON text): structs, enums and unions whose avrogen schema is SCHEMA again, "
         "Parsing Canonical Form, docs, aliases, defaults, orders and logical types included. "
         "avrogen runs its own generator on each header and compares before writing anything."
         "\n\n"
         "Attributes no annotation can carry (unknown properties, logical types the "
         "specification ignores) are dropped with a warning each. A schema with no C "
         "representation (a root that is not a record, an array inside a union, ...) is an error "
         "naming the place in the schema and why, and no header is "
         "written.",
         cli_header_options,
         "avrogen header schemas/order.avsc -o include\n"
         "avrogen header --from-file events.avro --views -o gen"},
        {"canonical", cmd_canonical, "SCHEMA", "Parsing Canonical Form of a schema",
         "Print the Parsing Canonical Form of SCHEMA (spec: Parsing Canonical Form for Schemas). "
         "A SCHEMA argument is a file, - for standard input, or the JSON text itself, of 16 MiB "
         "at most.",
         no_options, "avrogen canonical order.avsc\navrogen canonical '{\"type\": \"long\"}'"},
        {"fingerprint", cmd_fingerprint, "SCHEMA [--algo crc64|md5|sha256]",
         "fingerprint of a schema's canonical form",
         "Print the fingerprint of SCHEMA's Parsing Canonical Form in lowercase hex: the 8 bytes "
         "of CRC-64-AVRO in little-endian order (the single-object encoding's order), or the MD5 "
         "or SHA-256 digest.",
         fingerprint_options, "avrogen fingerprint order.avsc --algo sha256"},
        {"tojson", cmd_tojson, "--schema S [--writer-schema W] [--pretty] [--max-depth N] [FILE|-]",
         "binary datums to JSON lines",
         "Read binary-encoded datums written back to back from FILE (default: standard input) and "
         "print each in the Avro JSON encoding, one per line, the way Python's json.dumps prints "
         "it. With --writer-schema, each datum is resolved from W into S (spec: Schema "
         "Resolution); schemas that cannot be resolved are an error before any output.\n\n"
         "A datum input holds at least one datum: an empty input is an error (no datum in "
         "input), except for a schema whose datums take zero bytes (null, fixed(0), records of "
         "those), where it is exactly one datum, as Python's and Java's readers read it, and "
         "any byte is an error.",
         tojson_options, "avrogen tojson --schema order.avsc orders.bin"},
        {"fromjson", cmd_fromjson, "--schema S [--max-depth N] [FILE|-]",
         "JSON lines to binary datums",
         "Read one Avro JSON-encoded value per line from FILE (default: standard input; blank "
         "lines are skipped) and write their binary encodings back to back on standard output. "
         "Every record field must be present. A bad line is an error naming FILE:LINE, after the "
         "datums of the lines before it. A line longer than the per-datum budget (256 MiB), "
         "or whose JSON needs more memory than that to parse, is an error that also names the "
         "byte the line starts at; no more of it is read. An input without a value is an error, "
         "and so is a second value of a schema whose datums take "
         "zero bytes (the output could not tell them apart).",
         fromjson_options, "avrogen fromjson --schema order.avsc orders.jsonl > orders.bin"},
        {"cat", cmd_cat, "[OPTIONS] FILE...", "container files to JSON lines",
         "Print the records of object container files (- reads standard input) as JSON, one "
         "record a line, the way Python's json.dumps prints them. The files are taken in order "
         "as one sequence of records: --offset, --limit and --sample count across them. Records "
         "are picked first by --offset, then by --sample, and --limit counts what is printed.\n\n"
         "A damaged file prints its records up to the damage, then one error line with the "
         "file and the block's byte offset; the other files are printed, and the exit status "
         "is 1. Memory stays bounded by a block. A record's JSON text is held until the "
         "record is whole (past 64 KiB in a temporary file in $TMPDIR, else /tmp), so nothing "
         "of a record that fails is printed; a record's text is at most 512 MiB.",
         cat_options,
         "avrogen cat orders.avro\navrogen cat --offset 1000 --limit 10 --pretty orders.avro\n"
         "avrogen cat --sample 0.01 --seed 7 day1.avro day2.avro\n"
         "avrogen cat --schema order-v2.avsc - < orders.avro"},
        {"head", cmd_head, "[-n N] [OPTIONS] FILE...", "the first records of container files",
         "Print the first N records (default 10) of the files taken in order, as cat prints "
         "them; cat's options apply.",
         head_options, "avrogen head orders.avro\navrogen head -n 3 --pretty orders.avro"},
        {"count", cmd_count, "FILE...", "records in container files, from block headers",
         "Print the number of records in each file, read from its block headers alone: payloads "
         "are seeked over unread (read through on a pipe), sync markers checked, nothing "
         "decompressed or decoded. One FILE prints the number alone; several print NUMBER<tab>FILE "
         "lines and a NUMBER<tab>total line. A damaged file is an error line with its byte "
         "offset (exit 1); validate checks the records themselves.",
         count_options, "avrogen count orders.avro\navrogen count day*.avro"},
        {"getschema", cmd_getschema, "FILE", "the schema of a container file",
         "Print the schema stored in FILE's header (avro.schema) as written; - reads standard "
         "input.",
         no_options, "avrogen getschema orders.avro > order.avsc"},
        {"getmeta", cmd_getmeta, "[--key K] FILE", "codec, sync marker, blocks and metadata",
         "Print a container file's codec, sync marker (hex), number of blocks and records (from "
         "the block headers, as count reads them) and every metadata entry, avro.schema and "
         "avro.codec included, as KEY: VALUE lines; control characters and bytes that are not "
         "UTF-8 are escaped (\\n, \\xff). The schema, avro.schema, is printed indented, as "
         "getschema's JSON would be by Python's json.dumps(indent=2), its lines after the first "
         "two spaces in. With --key, only that entry's value, byte for byte.",
         getmeta_options,
         "avrogen getmeta orders.avro\navrogen getmeta --key avro.codec orders.avro"},
        {"write", cmd_write, "--schema S [--codec C] [--max-depth N] IN.jsonl OUT.avro",
         "JSON lines to a container file",
         "Write the JSON lines of IN (- for standard input) as an object container file OUT with "
         "schema S (- writes standard output). Lines are read as by fromjson, with its "
         "per-datum budget.\n\n"
         "Like every command that writes a file, write makes OUT.tmp-XXXXXX beside OUT and "
         "renames it into place at the end, so a failed or interrupted run (SIGINT, SIGTERM, "
         "SIGHUP, SIGPIPE, or any signal that ends the process) leaves any existing OUT as it "
         "was and no partial file. OUT keeps the mode of the file it replaces; a new one gets "
         "0666 less the umask. A symbolic link is followed (the file it names is replaced), a "
         "FIFO or a character device is written as it is, a directory or a socket is refused.",
         write_options,
         "avrogen write --schema order.avsc --codec zstandard orders.jsonl "
         "orders.avro"},
        {"concat", cmd_concat, "[--codec C] [--max-depth N] IN... OUT", "container files into one",
         "Write the records of every IN (- reads standard input), in order, into one container "
         "file OUT with the first file's schema, user metadata and codec. The blocks of a file "
         "with the output's codec are copied as they are stored, not recompressed (each is "
         "decompressed and its datums walked first, so nothing broken is passed on); the "
         "others are recompressed.\n\n"
         "Every IN must have the same schema: the same types, names, fields (and their sort "
         "order), symbols, sizes and "
         "logical types (docs, defaults and aliases may differ). Otherwise concat stops with an "
         "error naming the first difference (Event.score: double in a.avro, float in b.avro) "
         "and writes nothing.",
         concat_options, "avrogen concat day1.avro day2.avro day3.avro week.avro"},
        {"recodec", cmd_recodec, "[--codec C] [--level L] [--block-size N] [--max-depth N] IN OUT",
         "the same records, another codec or block size",
         "Copy every record of IN (- reads standard input) into OUT, with IN's schema and user "
         "metadata, in blocks of another codec, level or size.",
         recodec_options, "avrogen recodec --codec zstandard --level 19 orders.avro small.avro"},
        {"repair", cmd_repair, "[--max-depth N] IN OUT", "the intact blocks of a damaged file",
         "Copy every intact block of IN into OUT, as stored, and report what was dropped. A "
         "block is intact when its framing holds (count, size, sync marker), its payload "
         "decompresses and every datum in it decodes (UTF-8 included). After a damaged block "
         "every later position is tried in turn, and reading resumes at the first where a block "
         "frames and decodes (its codec's checks passing) or frames right after a copy of the "
         "sync marker; so junk, a stray marker or a few bytes between two blocks lose neither "
         "(spec: Object Container Files).\n\n"
         "The report, on standard output (standard error when OUT is -), has one line per "
         "dropped range, dropped bytes FROM-TO (N records claimed): WHY, and a summary: kept B "
         "blocks (R records); dropped D damaged blocks (N records claimed, X bytes). The "
         "counts of damaged blocks are what their headers claim; at least N when a header was "
         "unreadable or the claims add up past 2^64-1. A header that cannot be "
         "read is an error: without the schema and sync marker nothing can be recovered.",
         repair_options, "avrogen repair damaged.avro recovered.avro"},
        {"validate", cmd_validate, "[--schema S] [--max-depth N] FILE...",
         "check every block and record",
         "Read every block and decode every record of each FILE (- reads standard input), as "
         "a reader would: framing, decompression, every datum against the schema, UTF-8, no "
         "bytes left over. Prints FILE: ok, N records in B blocks for each sound file, and for "
         "each other one error line with its first problem and byte offset; exits 1 if any "
         "file has one.",
         validate_options,
         "avrogen validate orders.avro\navrogen validate --schema order-v2.avsc "
         "*.avro"},
        {"random", cmd_random, "--schema S --count N [--seed K] [--format F] [--codec C] OUT",
         "random valid records for a schema",
         "Write N random records of schema S to OUT (- writes standard output), valid by "
         "construction: every union branch and enum symbol is picked with equal chance, "
         "strings (UTF-8, ASCII mostly, also escapes, accents, CJK and emoji), bytes, arrays and "
         "maps have at most --max-length elements (map keys are distinct), numbers cover small "
         "values, extremes and the whole range (floats and doubles include NaN, the infinities "
         "and -0.0), and logical types stay in their ranges: dates and timestamps in the years "
         "1900 to 2099, times within a day, decimals within their precision, uuids as RFC 4122 "
         "text.\n\n"
         "Recursive types end: past a few levels arrays and maps are empty and unions take the "
         "branch that ends soonest. A schema with no finite datum (a record that always "
         "contains itself) is an error.",
         random_options,
         "avrogen random --schema order.avsc --count 1000 --seed 7 orders.avro\n"
         "avrogen random --schema order.avsc --count 5 --format json -"},
        {"compat", cmd_compat, "--reader R --writer W [--mode backward|forward|full]",
         "can one schema read data written with another",
         "Check whether R can read data written with W (spec: Schema Resolution). Prints "
         "compatible and exits 0, or prints every incompatibility as READER_PATH: KIND: MESSAGE "
         "(with a backward: or forward: prefix in forward and full mode) and exits 1.",
         compat_options,
         "avrogen compat --reader order-v2.avsc --writer order-v1.avsc --mode full"},
        {"registry", cli_run_registry,
         "register|get|latest|check|subjects|versions [--url URL] [--config FILE] "
         "[-X KEY=VALUE] ARGS",
         "a Confluent Schema Registry: register, get, check schemas",
         "Talk to a Confluent Schema Registry (REST API v1; Apicurio's and Karapace's "
         "compatible APIs too):\n\n"
         "register SUBJECT SCHEMA registers SCHEMA under SUBJECT and prints its id. get ID "
         "prints the schema with that id, latest SUBJECT the subject's latest schema, as the "
         "registry holds them. check SUBJECT SCHEMA prints compatible when SCHEMA could be "
         "registered under SUBJECT (the subject's compatibility level against its latest "
         "version), else exits 1 with the registry's reasons. subjects lists the subjects, "
         "versions SUBJECT a subject's versions, one a line.\n\n"
         "An error answer is exit 1 and one line with what went wrong and the registry's own "
         "message and error code (not found, incompatible, invalid schema, not authorised, "
         "server error). A registry that cannot be reached is exit 1 and one line naming the "
         "URL, after retrying each URL in turn with back-off, all within request.timeout.ms "
         "(default 10000). The client lives in avrogen-registry.so, which only this command "
         "loads (with libcurl); a build without libcurl has no registry command (exit 2).",
         cli_registry_options,
         "avrogen registry register --url http://localhost:8081 orders-value order.avsc\n"
         "avrogen registry get --url http://localhost:8081 42\n"
         "avrogen registry check --config client.properties orders-value order-v2.avsc\n"
         "avrogen registry subjects --url https://sr:8081 -X basic.auth.user.info=u:p "
         "-X ssl.ca.location=ca.pem"},
};

const size_t cli_n_commands = sizeof cli_commands / sizeof *cli_commands;

const cli_command *cli_find_command(const char *name)
{
    for (size_t i = 0; i < cli_n_commands; i++)
        if (strcmp(cli_commands[i].name, name) == 0)
            return &cli_commands[i];
    return NULL;
}

/* ---- plain text ------------------------------------------------------------------ */

#define TEXT_WIDTH 79

/*
 * Print `text` wrapped at TEXT_WIDTH with later lines indented by `indent`;
 * the cursor is at column `col` (0: the first line is indented too).
 */
static void wrap(FILE *out, const char *text, size_t col, size_t indent)
{
    bool space = false; /* a word is on the line: the next one needs a blank */
    const char *p = text;
    while (*p != '\0') {
        if (*p == '\n' || *p == ' ') {
            if (*p == '\n' && col != 0) {
                fputc('\n', out);
                col = 0;
                space = false;
            }
            p++;
            continue;
        }
        size_t len = strcspn(p, " \n");
        if (space && col + 1 + len > TEXT_WIDTH) {
            fputc('\n', out);
            col = 0;
            space = false;
        }
        if (col == 0) {
            fprintf(out, "%*s", (int)indent, "");
            col = indent;
        }
        if (space) {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, len, out);
        col += len;
        space = true;
        p += len;
    }
    if (col != 0)
        fputc('\n', out);
}

void cli_print_usage(FILE *out)
{
    fprintf(out, "usage: avrogen COMMAND [ARGS]\n"
                 "       avrogen help COMMAND     (or avrogen COMMAND --help)\n\ncommands:\n");
    for (size_t i = 0; i < cli_n_commands; i++)
        fprintf(out, "  %-12s %s\n", cli_commands[i].name, cli_commands[i].summary);
    fputs("\nExit status: 0 success, 1 bad input (one 'avrogen: error:' line), 2 bad usage.\n"
          "The manual: man avrogen.\n",
          out);
}

void cli_print_help(FILE *out, const cli_command *c)
{
    fprintf(out, "usage: avrogen %s %s\n\n", c->name, c->synopsis);
    for (const char *p = c->description; *p != '\0';) {
        const char *end = strstr(p, "\n\n");
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        char para[2048];
        snprintf(para, sizeof para, "%.*s", (int)len, p);
        wrap(out, para, 0, 0);
        p += len;
        if (*p != '\0') {
            fputc('\n', out);
            p += 2;
        }
    }
    if (c->options[0].spelling != NULL) {
        fputs("\noptions:\n", out);
        for (const cli_option_doc *o = c->options; o->spelling != NULL; o++) {
            size_t n = strlen(o->spelling);
            fprintf(out, "  %s", o->spelling);
            if (n + 2 < 22) {
                fprintf(out, "%*s", (int)(22 - n - 2), "");
                wrap(out, o->text, 22, 22);
            } else {
                fputc('\n', out);
                wrap(out, o->text, 0, 22);
            }
        }
    }
    fputs("\nexample:\n", out);
    for (const char *p = c->example; *p != '\0';) {
        size_t len = strcspn(p, "\n");
        fprintf(out, "  %.*s\n", (int)len, p);
        p += len + (p[len] != '\0');
    }
}

/* ---- man page (troff, man macros) ------------------------------------------------- */

/* `text` with troff's special characters escaped: backslash, minus signs, a leading . or '. */
static void roff(FILE *out, const char *text)
{
    bool line_start = true;
    for (const char *p = text; *p != '\0'; p++) {
        if (line_start && (*p == '.' || *p == '\''))
            fputs("\\&", out);
        line_start = *p == '\n';
        if (*p == '\\')
            fputs("\\e", out);
        else if (*p == '-')
            fputs("\\-", out);
        else
            fputc(*p, out);
    }
}

static void man_paragraphs(FILE *out, const char *text)
{
    for (const char *p = text; *p != '\0';) {
        const char *end = strstr(p, "\n\n");
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        char para[2048];
        snprintf(para, sizeof para, "%.*s", (int)len, p);
        fputs(".PP\n", out);
        roff(out, para);
        fputc('\n', out);
        p += len;
        if (*p != '\0')
            p += 2;
    }
}

void cli_print_man(FILE *out)
{
    fprintf(out,
            ".\\\" Generated by 'avrogen help --man' from cli/commands.c. Do not edit.\n"
            ".TH AVROGEN 1 \"\" \"avrogen %s\" \"User Commands\"\n"
            ".nh\n.ad l\n"
            ".SH NAME\navrogen \\- struct\\-first Apache Avro for C: schemas and code from C "
            "structs, and tools for Avro data\n"
            ".SH SYNOPSIS\n.B avrogen\n.I COMMAND\n.RI [ ARGS ]\n.br\n"
            ".B avrogen help\n.I COMMAND\n.br\n.B avrogen\n.I COMMAND\n.B \\-\\-help\n"
            ".SH DESCRIPTION\n",
            AVROGEN_VERSION);
    man_paragraphs(out,
                   "avrogen derives Avro schemas from annotated C structs and generates C code "
                   "that encodes and decodes those structs directly (schema, generate). Its other "
                   "commands work on Avro data with schemas known only at run time: schemas "
                   "(canonical, fingerprint, compat), binary datums and their JSON encoding "
                   "(tojson, fromjson) and object container files.\n\n"
                   "A SCHEMA, S, R or W argument is a file, - for standard input, or the JSON "
                   "text itself (an argument starting with {, [ or \" that names no file), on "
                   "every command. A schema is at most 16 MiB (16777216 bytes, the default "
                   "header limit of a container file): no more of a longer one is read, and it "
                   "is an error.\n\n"
                   "Every file read whole has that bound: schemas, response files (@FILE), "
                   "--compat-with schemas, and the headers and -include and -imacros files "
                   "libclang reads. Each is read only when it is a regular file or a pipe "
                   "named on the command line (or - for standard input): a device such as "
                   "/dev/zero or a directory is refused, and so is anything but a regular file "
                   "among a --compat-with folder's *.avsc files. Headers and -include and "
                   "-imacros files must be regular files, since libclang reads them itself.");
    fputs(".SH COMMANDS\n", out);
    for (size_t i = 0; i < cli_n_commands; i++) {
        const cli_command *c = &cli_commands[i];
        fputs(".SS \"", out);
        roff(out, c->name);
        fputs(" \\(em ", out);
        roff(out, c->summary);
        fputs("\"\n.B avrogen ", out);
        roff(out, c->name);
        fputc(' ', out);
        roff(out, c->synopsis);
        fputc('\n', out);
        man_paragraphs(out, c->description);
        for (const cli_option_doc *o = c->options; o->spelling != NULL; o++) {
            fputs(".TP\n.B ", out);
            roff(out, o->spelling);
            fputc('\n', out);
            roff(out, o->text);
            fputc('\n', out);
        }
        fputs(".PP\nExample:\n.PP\n.RS\n.nf\n", out);
        roff(out, c->example);
        fputs("\n.fi\n.RE\n", out);
    }
    fputs(".SH EXIT STATUS\n.TP\n.B 0\nsuccess\n.TP\n.B 1\nbad input: one line "
          "\\(lqavrogen: error: ...\\(rq on standard error, naming the file and the line or "
          "byte offset; also a container file named by path (such files are read mapped) that "
          "another process truncates while avrogen reads it: \\(lqavrogen: error: FILE: the file "
          "was truncated while being read\\(rq, with no partial output file left\n.TP\n.B 2\nbad "
          "usage (unknown command or option, missing argument), or "
          "for schema, generate and header, a generator module that is missing or does not load "
          "(see FILES)\n"
          ".SH FILES\n.TP\n.I LIBDIR/avrogen/avrogen\\-generator.so\n"
          "The generator and libclang, which only schema, generate and header load (every "
          "other command starts without them). It is found relative to the avrogen executable: "
          "beside it (a build tree), else where the package installs it, so a moved "
          "installation keeps working.\n"
          ".SH SEE ALSO\nThe Apache Avro specification, https://avro.apache.org/docs/; "
          "the avrogen README and docs/DESIGN.md.\n",
          out);
}
