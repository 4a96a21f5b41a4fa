/* Records nesting records (issue 12): each record's schema text holds the
 * definitions of the records below it, so the generated code writes a nested
 * definition of 1 KiB or more once, as a part that the texts of the records
 * above refer to (avrogen_text), instead of again in every text. The chain
 * stage0..stage7 crosses that size at stage4, in a namespace, so that the
 * nested parts (no "namespace") differ from the records' own texts. audit
 * holds stage7 twice: the second is a reference by name. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct AVRO_RECORD(namespace = "pipeline") stage0 {
    int64_t started_at;
    int64_t finished_at;
    char *worker;
};

struct AVRO_RECORD(namespace = "pipeline") stage1 {
    int32_t attempt;
    char *host;
    struct stage0 *previous AVRO_NULLABLE;
};

struct AVRO_RECORD(namespace = "pipeline") stage2 {
    int32_t attempt;
    char *host;
    struct stage1 *previous AVRO_NULLABLE;
};

struct AVRO_RECORD(namespace = "pipeline") stage3 {
    int32_t attempt;
    char *host;
    struct stage2 *previous AVRO_NULLABLE;
};

struct AVRO_RECORD(namespace = "pipeline") stage4 {
    int32_t attempt;
    char *host;
    struct stage3 *previous AVRO_NULLABLE;
};

struct AVRO_RECORD(namespace = "pipeline") stage5 {
    int32_t attempt;
    char *host;
    struct stage4 *previous AVRO_NULLABLE;
};

struct AVRO_RECORD(namespace = "pipeline") stage6 {
    int32_t attempt;
    char *host;
    struct stage5 *previous AVRO_NULLABLE;
};

struct AVRO_RECORD(namespace = "pipeline") stage7 {
    int32_t attempt;
    char *host;
    struct stage6 *previous AVRO_NULLABLE;
};

struct AVRO_RECORD(namespace = "pipeline") audit {
    struct stage7 *first AVRO_NULLABLE;
    struct stage7 *last AVRO_NULLABLE;
};
