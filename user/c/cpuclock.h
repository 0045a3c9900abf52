/* cpuclock.h: what the CPU-clock test programs share: Linux's encoding of
 * the clock ids of other processes and threads (include/linux/
 * posix-timers.h, what clock_getcpuclockid and pthread_getcpuclockid
 * make), and a clock's reading in ns, or -errno.
 */
#ifndef CPUCLOCK_H
#define CPUCLOCK_H

#include <errno.h>
#include <time.h>

#define CPUCLOCK_PROF 0
#define CPUCLOCK_VIRT 1
#define CPUCLOCK_SCHED 2
#define PROCESS_CLOCK(pid, which) ((~(clockid_t)(pid) << 3) | (which))
#define THREAD_CLOCK(tid, which) (PROCESS_CLOCK(tid, which) | 4)

static inline long long read_ns(clockid_t c)
{
	struct timespec ts;
	if (clock_gettime(c, &ts) != 0)
		return -errno;
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#endif
