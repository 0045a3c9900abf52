/* 16 threads hammer one mutex and a condition variable: each adds to a
 * shared counter 2000 times under the mutex, then waits on the condvar
 * until all have finished (a hand-made barrier), and the main thread joins
 * them. Prints only after the joins, so the output is deterministic. */
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#define THREADS 16
#define ROUNDS 2000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t all_done = PTHREAD_COND_INITIALIZER;
static long counter;
static int finished;
static int distinct_tid[THREADS];

static void *worker(void *arg)
{
	int i = (int)(long)arg;
	distinct_tid[i] = syscall(SYS_gettid) != getpid();
	for (int r = 0; r < ROUNDS; r++) {
		pthread_mutex_lock(&lock);
		counter++;
		pthread_mutex_unlock(&lock);
		if (r % 256 == 0)
			sched_yield();
	}
	pthread_mutex_lock(&lock);
	if (++finished == THREADS)
		pthread_cond_broadcast(&all_done);
	while (finished < THREADS)
		pthread_cond_wait(&all_done, &lock);
	pthread_mutex_unlock(&lock);
	return (void *)(long)(i * 3);
}

int main(void)
{
	pthread_t t[THREADS];
	long sum = 0;
	int tids_ok = 1;
	for (int i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(long)i) != 0) {
			printf("pthread_create %d failed\n", i);
			return 1;
		}
	for (int i = 0; i < THREADS; i++) {
		void *ret;
		pthread_join(t[i], &ret);
		sum += (long)ret;
		tids_ok &= distinct_tid[i];
	}
	printf("threads: %d, counter: %ld (expected %d)\n", THREADS, counter, THREADS * ROUNDS);
	printf("return values summed: %ld\n", sum);
	printf("gettid != getpid in every thread: %s\n", tids_ok ? "yes" : "no");
	printf("main thread: gettid == getpid: %s\n", syscall(SYS_gettid) == getpid() ? "yes" : "no");
	return 0;
}
