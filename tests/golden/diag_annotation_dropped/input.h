/* Annotations that clang would drop with a warning, or take for something else
 * without a word: each is an error saying what was meant. */
#include <stdint.h>

#include <avrogen/annotate.h>

struct forward AVRO_RECORD();
struct forward { int32_t x; };

struct point { int32_t x; } AVRO_RECORDD();

struct line { int32_t x; } AVRO_RECORD;

AVRO_EXTERN_RECORDD(struct line);
