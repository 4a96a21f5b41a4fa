/* Included by shop/order.h: an edit here must regenerate order's code too. */
#ifndef MONEY_H
#define MONEY_H

#include <stdint.h>

typedef int64_t cents;

#endif /* MONEY_H */
