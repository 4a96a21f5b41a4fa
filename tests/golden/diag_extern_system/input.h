/* Types from system headers: unannotated uses say how to annotate them out of
 * line, markers naming no complete type or no member are errors at the marker,
 * and a record annotated out of line says where its members' fixes go. */
#include <grp.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <vendor/gps.h>

#include <avrogen/annotate.h>

AVRO_EXTERN_RECORD(struct vendor_fix, name = "Fix");
AVRO_EXTERN_RECORD(struct group);
AVRO_EXTERN_FIELD(struct group, gr_nmae, AVRO_FIELD(name = "name"));
AVRO_EXTERN_RECORD(struct gruop);

struct AVRO_RECORD() report {
    struct passwd user;
    FILE *log;
    struct vendor_fix fix;
};
