/* Misspelled and misplaced annotations that clang reports as syntax errors get a
 * note saying what was meant. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD() reading {
    int64_t id;
    char *note AVRO_NULLABEL;
    char *label AVRO_NULABLE;
    int64_t *samples AVRO_ARAY(n_samples);
    uint32_t n_samples;
    int64_t y AVRO_FEILD(name = "z");
    char *city
        AVRO_NULLABEL;
};

struct tag AVRO_RECORD(name = "Tag") {
    int32_t x;
};

enum mode AVRO_ENUM() { MODE_A, MODE_B };

enum AVRO_ENUMM() color { RED, GREEN };

struct AVRO_RECORDS() point { int32_t x; };

struct AVRO_RECORD line { int32_t x; };
