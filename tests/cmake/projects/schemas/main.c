/* SPDX-License-Identifier: Apache-2.0 */
/* Round-trips one Order and one Event through the code generated from the
 * .avsc files, and an audit record from the annotated header. */
#include <stdio.h>
#include <string.h>

#include "include/audit.avro.h"
#include "schemas/events/event.avro.h"
#include "schemas/order.avro.h"

static int fail(const char *what)
{
    fprintf(stderr, "orders: %s\n", what);
    return 1;
}

int main(void)
{
    struct Line lines[2] = {{42, 3, 1999}, {7, 1, -250}};
    struct Order_tags_entry tags[1] = {{(char *)"channel", (char *)"web"}};
    int64_t paid_at = 1700000000000;
    struct Order o;
    memset(&o, 0, sizeof o);
    o.id = 1001;
    o.customer = (char *)"Ada";
    o.status = STATUS_PAID;
    o.lines = lines;
    o.n_lines = 2;
    o.tags = tags;
    o.n_tags = 1;
    o.paid_at = &paid_at;
    o.payment_kind = ORDER_PAYMENT_INT64;
    o.payment.int64 = 77;
    memcpy(o.id_bytes, "0123456789abcdef", 16);

    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    if (Order_avro_encode(&w, &o) != AVROGEN_OK || avrogen_writer_len(&w) != Order_avro_size(&o))
        return fail("encode");
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    struct Order back;
    if (Order_avro_decode(&r, &back, &a) != AVROGEN_OK)
        return fail("decode");
    if (back.id != 1001 || strcmp(back.customer, "Ada") != 0 || back.status != STATUS_PAID ||
        back.n_lines != 2 || back.lines[1].price != -250 || back.n_tags != 1 ||
        strcmp(back.tags[0].value, "web") != 0 || back.note != NULL || !back.paid_at ||
        *back.paid_at != paid_at || back.payment_kind != ORDER_PAYMENT_INT64 ||
        back.payment.int64 != 77 || memcmp(back.id_bytes, "0123456789abcdef", 16) != 0)
        return fail("the decoded order differs");

    struct Event e;
    memset(&e, 0, sizeof e);
    e.at = 5;
    e.kind = KIND_DELETED;
    e.detail_kind = EVENT_DETAIL_MOVED;
    e.detail.Moved.from = (char *)"a";
    e.detail.Moved.to = (char *)"b";
    avrogen_writer_fini(&w);
    avrogen_writer_init_growable(&w, NULL);
    struct audit au = {1001, (char *)"clerk"};
    if (Event_avro_encode(&w, &e) != AVROGEN_OK || audit_avro_encode(&w, &au) != AVROGEN_OK)
        return fail("encode event and audit");
    avrogen_writer_fini(&w);
    avrogen_arena_fini(&a);
    printf("%s\n== schemas ok\n", avrogen_type_schema(&Order_avro_type));
    return 0;
}
