/* Quaternions stored as double[4] in (x, y, z, w) order, as in the study. */
#ifndef ANIMBENCH_QUAT_H
#define ANIMBENCH_QUAT_H

#define ANIM_PI 3.141592653589793
#define DEG_TO_RAD (ANIM_PI / 180.0)
#define RAD_TO_DEG (180.0 / ANIM_PI)

/* Degrees, XYZ intrinsic, exactly the study's euler(). */
void quat_from_euler_deg(double x_deg, double y_deg, double z_deg, double out[4]);
void quat_mul(const double a[4], const double b[4], double out[4]);
void quat_rotate(const double q[4], const double v[3], double out[3]);
/* Divides by the Kahan hypot length; a zero quaternion is left as it is. */
void quat_normalize(const double q[4], double out[4]);
double quat_dot(const double a[4], const double b[4]);
/* Angle of the relative rotation, in degrees: 2 acos(min(1, |a.b|)). */
double quat_angle_deg(const double a[4], const double b[4]);

#endif
