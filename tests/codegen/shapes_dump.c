/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Prints the known answers of shapes_cases.c for shapes_python.py, one JSON
 * object a line: the record's schema, the bytes generated code writes for the
 * struct (hex), and the datum they must decode to (Avro JSON encoding).
 */
#include <stdio.h>
#include <stdlib.h>

#include "shapes_cases.h"

/* s as a JSON string (the schema text: printable ASCII, newlines). */
static void put_json_string(const char *s)
{
    putchar('"');
    for (; *s != '\0'; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if (*s == '\n')
            printf("\\n");
        else
            putchar(*s);
    }
    putchar('"');
}

int main(void)
{
    for (size_t i = 0; i < n_shape_answers; i++) {
        const shape_answer *k = &shape_answers[i];
        void *v = calloc(1, k->c.type->size);
        if (v == NULL)
            return 1;
        k->fill(v);
        avrogen_writer w;
        avrogen_writer_init_growable(&w, NULL);
        if (k->c.encode(&w, v) != AVROGEN_OK) {
            fprintf(stderr, "shapes_dump: %s: encode fails\n", k->label);
            return 1;
        }
        printf("{\"label\": ");
        put_json_string(k->label);
        printf(", \"schema\": ");
        put_json_string(avrogen_type_schema(k->c.type));
        printf(", \"hex\": \"");
        for (size_t b = 0; b < avrogen_writer_len(&w); b++)
            printf("%02x", avrogen_writer_data(&w)[b]);
        printf("\", \"datum\": %s}\n", k->json);
        avrogen_writer_fini(&w);
        free(v);
    }
    return 0;
}
