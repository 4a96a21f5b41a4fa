/* Record and field options, AVRO_SKIP, and doc comments in every form. */
#include <stdint.h>

#include <avrogen/annotate.h>

/**
 * A user account.
 *
 * Kept for seven years.
 */
struct AVRO_RECORD(name = "Account", namespace = "com.acme.iam", aliases = ["User", "org.old.Account"],
                   c_prefix = "acct") account {
    /** Primary key. */
    int64_t id AVRO_FIELD(order = "descending");
    /// Display name,
    /// two lines.
    char *display AVRO_FIELD(name = "displayName", aliases = ["name", "title"]);
    char *email AVRO_FIELD(doc = "overrides the comment", order = "ignore"); ///< not this one
    int32_t karma AVRO_FIELD(default = -1);
    double score AVRO_FIELD(default = 0.5, order = "ascending");
    char *tier AVRO_FIELD(default = "free");
    void *session AVRO_SKIP;                   /* not serialized, any type */
    void (*on_change)(void) AVRO_SKIP;
    unsigned flags : 3 AVRO_SKIP;
    int8_t level AVRO_FIELD(default = 127);
    char *motto AVRO_FIELD(doc = "with \"quotes\", a \\ and \u00e9");
};
