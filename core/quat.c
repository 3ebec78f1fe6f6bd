#include "core/quat.h"

#include <math.h>

#include "core/jsmath.h"

/* Every expression below keeps the study's operand order: floating-point
 * addition is not associative and the figures must agree to the last bit. */

void quat_from_euler_deg(double x, double y, double z, double out[4])
{
    const double cx = cos(x * DEG_TO_RAD / 2), sx = sin(x * DEG_TO_RAD / 2);
    const double cy = cos(y * DEG_TO_RAD / 2), sy = sin(y * DEG_TO_RAD / 2);
    const double cz = cos(z * DEG_TO_RAD / 2), sz = sin(z * DEG_TO_RAD / 2);
    out[0] = sx * cy * cz + cx * sy * sz;
    out[1] = cx * sy * cz - sx * cy * sz;
    out[2] = cx * cy * sz + sx * sy * cz;
    out[3] = cx * cy * cz - sx * sy * sz;
}

void quat_mul(const double a[4], const double b[4], double out[4])
{
    const double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    const double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    const double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    const double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    out[0] = x;
    out[1] = y;
    out[2] = z;
    out[3] = w;
}

void quat_rotate(const double q[4], const double v[3], double out[3])
{
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    const double a = v[0], b = v[1], c = v[2];
    const double ix = w * a + y * c - z * b, iy = w * b + z * a - x * c;
    const double iz = w * c + x * b - y * a, iw = -x * a - y * b - z * c;
    out[0] = ix * w + iw * -x + iy * -z - iz * -y;
    out[1] = iy * w + iw * -y + iz * -x - ix * -z;
    out[2] = iz * w + iw * -z + ix * -y - iy * -x;
}

void quat_normalize(const double q[4], double out[4])
{
    double len = js_hypot4(q[0], q[1], q[2], q[3]);
    if (len == 0.0 || isnan(len))
        len = 1.0; /* the study's `|| 1` */
    out[0] = q[0] / len;
    out[1] = q[1] / len;
    out[2] = q[2] / len;
    out[3] = q[3] / len;
}

double quat_dot(const double a[4], const double b[4])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

double quat_angle_deg(const double a[4], const double b[4])
{
    const double d = fabs(quat_dot(a, b));
    return 2 * acos(d < 1 ? d : 1) * RAD_TO_DEG;
}
