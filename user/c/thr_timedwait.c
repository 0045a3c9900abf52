/* thr_timedwait: absolute CLOCK_REALTIME timeouts, as glibc passes them.
 *
 * sem_timedwait and pthread_cond_timedwait (default clock) give the kernel
 * an absolute CLOCK_REALTIME deadline (FUTEX_WAIT_BITSET with
 * FUTEX_CLOCK_REALTIME). With the wall clock read from the RTC at boot,
 * that deadline is ~1.7e9 s; the kernel must compare it with the wall
 * clock, not with the time since boot, or the wait never times out. A
 * CLOCK_MONOTONIC condvar is checked too. Prints no times, only outcomes.
 */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static struct timespec in_100ms(clockid_t clock)
{
	struct timespec t;
	clock_gettime(clock, &t);
	t.tv_nsec += 100 * 1000 * 1000;
	if (t.tv_nsec >= 1000000000) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000;
	}
	return t;
}

static double waited(struct timespec a, struct timespec b)
{
	return (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
}

int main(void)
{
	struct timespec t0, t1, dl;
	sem_t sem;
	sem_init(&sem, 0, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	dl = in_100ms(CLOCK_REALTIME);
	int r = sem_timedwait(&sem, &dl);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("sem_timedwait: %s, waited >= 0.1 s: %d, < 5 s: %d\n", r ? strerror(errno) : "ok",
	       waited(t0, t1) >= 0.099, waited(t0, t1) < 5);

	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	pthread_mutex_lock(&m);
	dl = in_100ms(CLOCK_REALTIME);
	r = pthread_cond_timedwait(&c, &m, &dl);
	printf("pthread_cond_timedwait (realtime): %s\n", strerror(r));

	pthread_condattr_t a;
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_t cm;
	pthread_cond_init(&cm, &a);
	dl = in_100ms(CLOCK_MONOTONIC);
	r = pthread_cond_timedwait(&cm, &m, &dl);
	printf("pthread_cond_timedwait (monotonic): %s\n", strerror(r));
	pthread_mutex_unlock(&m);
	return 0;
}
