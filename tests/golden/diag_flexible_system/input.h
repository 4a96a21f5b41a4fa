/* struct inotify_event ends in `char name[]`, len bytes after the struct. Its
 * AVRO_STRING needs the room the program allocates, and the fix is written in
 * the user's own header (AVRO_EXTERN_FIELD), never in <sys/inotify.h>. */
#include <sys/inotify.h>

#include <avrogen/annotate.h>

AVRO_EXTERN_RECORD(struct inotify_event, name = "InotifyEvent");
AVRO_EXTERN_FIELD(struct inotify_event, name, AVRO_STRING(len));
