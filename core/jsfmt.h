/* Number formatting as the study's JavaScript prints it.
 *
 * toFixed rounds the exact decimal value of the double, an exact half up
 * (2505 / 2 = 1252.5 prints 1253; printf's "%.0f" gives 1252).  String(x)
 * prints the shortest decimal that reads back as x (0.1, 0.25, 50). */
#ifndef ANIMBENCH_JSFMT_H
#define ANIMBENCH_JSFMT_H

#include <stddef.h>

#define JSFMT_MAX 64

/* Number.prototype.toFixed(digits), digits 0..20.  Returns out. */
char *js_to_fixed(double x, int digits, char out[JSFMT_MAX]);
/* String(x) for a Number. Returns out. */
char *js_number_string(double x, char out[JSFMT_MAX]);

#endif
