/* Recursion through a union branch (python3-avro's test_schema Lisp): a
 * branch that is a pointer to a record is that record, never NULL; the
 * pointer breaks the cycle of records held by value (Cons holds Lisp twice). */
#include <stdint.h>

#include <avrogen/annotate.h>

struct Cons;

enum lisp_kind { LISP_NIL, LISP_ATOM, LISP_CONS };

struct AVRO_RECORD() Lisp {
    enum lisp_kind kind;
    union {
        char nil AVRO_FIELD(type = "null");
        char *atom;
        struct Cons *cons;                /* the record Cons: decode allocates it */
    } value AVRO_UNION(kind);
};

struct AVRO_RECORD() Cons {
    struct Lisp car;
    struct Lisp cdr;
};
