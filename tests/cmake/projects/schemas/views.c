/* SPDX-License-Identifier: Apache-2.0 */
/* The Order schema generated with VIEWS: strings are avrogen_str views into
 * the input. */
#include <stdio.h>
#include <string.h>

#include "schemas/order.avro.h"

int main(void)
{
    struct Order o;
    memset(&o, 0, sizeof o);
    o.customer.ptr = "Ada";
    o.customer.len = 3;
    o.payment_kind = ORDER_PAYMENT_STRING;
    o.payment.string.ptr = "card";
    o.payment.string.len = 4;
    avrogen_writer w;
    avrogen_writer_init_growable(&w, NULL);
    if (Order_avro_encode(&w, &o) != AVROGEN_OK)
        return 1;
    avrogen_reader r;
    avrogen_reader_init(&r, avrogen_writer_data(&w), avrogen_writer_len(&w));
    avrogen_arena a;
    avrogen_arena_init(&a, NULL);
    struct Order back;
    int bad = Order_avro_decode(&r, &back, &a) != AVROGEN_OK || back.customer.len != 3 ||
              memcmp(back.customer.ptr, "Ada", 3) != 0 || back.payment.string.len != 4;
    avrogen_arena_fini(&a);
    avrogen_writer_fini(&w);
    if (!bad)
        printf("== views ok\n");
    return bad;
}
