#include "core/jsfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A double below 1e21 has at most 1074 fraction digits, so this prints its
 * exact decimal value; rounding is then done on the digits. */
#define EXACT_DIGITS 1100

static void special(double x, char out[JSFMT_MAX])
{
    if (isnan(x))
        strcpy(out, "NaN");
    else
        strcpy(out, x < 0 ? "-Infinity" : "Infinity");
}

char *js_to_fixed(double x, int digits, char out[JSFMT_MAX])
{
    if (!isfinite(x)) {
        special(x, out);
        return out;
    }
    if (fabs(x) >= 1e21)
        return js_number_string(x, out);
    const int negative = x < 0; /* -0 prints as 0, as in JavaScript */
    char exact[EXACT_DIGITS + 32];
    snprintf(exact, sizeof exact, "%.*f", EXACT_DIGITS, fabs(x));
    char *dot = strchr(exact, '.');
    const size_t int_len = (size_t)(dot - exact);
    /* digits kept: integer part then `digits` fraction digits, no dot */
    char kept[JSFMT_MAX + 2];
    kept[0] = '0'; /* room for a carry */
    memcpy(kept + 1, exact, int_len);
    memcpy(kept + 1 + int_len, dot + 1, (size_t)digits);
    size_t len = 1 + int_len + (size_t)digits;
    if (dot[1 + digits] >= '5') {
        size_t i = len;
        while (i-- > 0) {
            if (kept[i] == '9') {
                kept[i] = '0';
            } else {
                kept[i]++;
                break;
            }
        }
    }
    const char *start = kept[0] == '0' ? kept + 1 : kept;
    const size_t whole = (size_t)(kept + 1 + int_len - start);
    char *o = out;
    if (negative)
        *o++ = '-';
    memcpy(o, start, whole);
    o += whole;
    if (digits > 0) {
        *o++ = '.';
        memcpy(o, kept + 1 + int_len, (size_t)digits);
        o += digits;
    }
    *o = '\0';
    return out;
}

char *js_number_string(double x, char out[JSFMT_MAX])
{
    if (!isfinite(x)) {
        special(x, out);
        return out;
    }
    if (x == 0) {
        strcpy(out, "0");
        return out;
    }
    /* Shortest digit string that reads back as x. */
    char sci[40];
    int precision = 1;
    for (; precision <= 17; precision++) {
        snprintf(sci, sizeof sci, "%.*e", precision - 1, x);
        if (strtod(sci, NULL) == x)
            break;
    }
    char digits[24];
    int k = 0;
    const char *p = sci;
    const int negative = *p == '-';
    if (negative)
        p++;
    for (; *p && *p != 'e'; p++)
        if (*p != '.')
            digits[k++] = *p;
    while (k > 1 && digits[k - 1] == '0')
        k--;
    digits[k] = '\0';
    const int n = atoi(p + 1) + 1; /* decimal point position */
    char *o = out;
    if (negative)
        *o++ = '-';
    if (k <= n && n <= 21) {
        memcpy(o, digits, (size_t)k);
        o += k;
        for (int i = k; i < n; i++)
            *o++ = '0';
    } else if (0 < n && n <= 21) {
        memcpy(o, digits, (size_t)n);
        o += n;
        *o++ = '.';
        memcpy(o, digits + n, (size_t)(k - n));
        o += k - n;
    } else if (-6 < n && n <= 0) {
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -n; i++)
            *o++ = '0';
        memcpy(o, digits, (size_t)k);
        o += k;
    } else {
        *o++ = digits[0];
        if (k > 1) {
            *o++ = '.';
            memcpy(o, digits + 1, (size_t)(k - 1));
            o += k - 1;
        }
        o += sprintf(o, "e%c%d", n - 1 < 0 ? '-' : '+', abs(n - 1));
    }
    *o = '\0';
    return out;
}
