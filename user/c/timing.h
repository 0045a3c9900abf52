/* timing.h: what the timer and restart test programs share: the monotonic
 * clock in milliseconds, and "yes"/"no" for a condition. Their output is
 * compared with qemu-ppc's, which runs in host time, so they print
 * conditions on times ("slept >= 100 ms: yes"), never the times.
 */
#ifndef TIMING_H
#define TIMING_H

#include <time.h>

static inline const char *yes(int c)
{
	return c ? "yes" : "no";
}

static inline long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

#endif
