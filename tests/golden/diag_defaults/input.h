/* A default must match the field's type (a union's: its first branch). */
#include <stdbool.h>
#include <stdint.h>

#include <avrogen/annotate.h>

enum AVRO_ENUM(strip_prefix = "MODE_") mode { MODE_A, MODE_B };

struct AVRO_RECORD() config {
    int32_t a AVRO_FIELD(default = "zero");
    uint8_t b AVRO_FIELD(default = 300);
    int32_t c AVRO_FIELD(default = 1.5);
    char *d AVRO_FIELD(default = null);
    enum mode e AVRO_FIELD(default = "MODE_A");
    uint8_t f[2] AVRO_FIELD(default = "abc");
    double *g AVRO_NULLABLE AVRO_FIELD(default = "x");
    bool h AVRO_FIELD(default = 0);
};
