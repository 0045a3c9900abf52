/* cpu_clockids: the CPU-time clocks of other processes and threads, by the
 * ids glibc makes for them. clock_getcpuclockid(pid) builds Linux's
 * MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED) and checks it with
 * clock_getres (EINVAL there is its ESRCH); pthread_getcpuclockid builds
 * MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED). The kernel resolves them as
 * Linux's pid_for_clock: a thread clock only inside the caller's process.
 * Each line is a fact that holds on Linux whatever the machine's speed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpuclock.h"

static void spin_ms(clockid_t c, long long ms)
{
	long long end = read_ns(c) + ms * 1000000;
	while (read_ns(c) < end)
		;
}

static volatile int stop_spinning;
static volatile pid_t worker_tid;
/* What the worker, not the leader, got for its own process's clock: by
 * pid 0, by its thread id (ESRCH: a thread id names no process there),
 * and read by its thread id (allowed: Linux lets clock_gettime name the
 * caller's process by the caller's tid). */
static int by_zero, by_tid;
static long long read_by_tid;

static void *worker(void *arg)
{
	(void)arg;
	clockid_t c;
	pid_t tid = syscall(SYS_gettid);
	by_zero = clock_getcpuclockid(0, &c);
	by_tid = clock_getcpuclockid(tid, &c);
	read_by_tid = read_ns(PROCESS_CLOCK(tid, CPUCLOCK_SCHED));
	worker_tid = tid;
	spin_ms(CLOCK_THREAD_CPUTIME_ID, 30);
	while (!stop_spinning)
		;
	return NULL;
}

int main(void)
{
	clockid_t c;
	int r = clock_getcpuclockid(0, &c);
	printf("clock_getcpuclockid(0): %d, id %d\n", r, (int)c);
	r = clock_getcpuclockid(getpid(), &c);
	printf("clock_getcpuclockid(getpid()): %d, reads %d\n", r, read_ns(c) > 0);
	/* PROF and VIRT are sampled at ticks on Linux (SCHED is exact), so
	 * 20 ms of SCHED time may show less on PROF: spin on each. */
	spin_ms(CLOCK_PROCESS_CPUTIME_ID, 20);
	spin_ms(PROCESS_CLOCK(0, CPUCLOCK_PROF), 20);
	long long sched = read_ns(PROCESS_CLOCK(0, CPUCLOCK_SCHED));
	long long prof = read_ns(PROCESS_CLOCK(0, CPUCLOCK_PROF));
	long long virt = read_ns(PROCESS_CLOCK(0, CPUCLOCK_VIRT));
	printf("own SCHED, PROF, VIRT clocks after 20 ms: %d %d %d\n", sched >= 20000000,
	       prof >= 20000000, virt > 0);
	printf("no fourth kind: %lld\n", read_ns(PROCESS_CLOCK(0, 3)));

	/* A child that spins 50 ms of CPU time, then waits to be killed. */
	int ready[2];
	if (pipe(ready) != 0)
		return 1;
	pid_t child = fork();
	if (child == 0) {
		spin_ms(CLOCK_PROCESS_CPUTIME_ID, 50);
		write(ready[1], "x", 1);
		pause();
		_exit(0);
	}
	char x;
	read(ready[0], &x, 1);
	r = clock_getcpuclockid(child, &c);
	printf("clock_getcpuclockid(child): %d\n", r);
	printf("child's clock read by the parent: >= 50 ms %d\n", read_ns(c) >= 50000000);
	printf("child's VIRT clock: > 0 %d\n", read_ns(PROCESS_CLOCK(child, CPUCLOCK_VIRT)) > 0);
	printf("a thread clock of another process: %lld\n",
	       read_ns(THREAD_CLOCK(child, CPUCLOCK_SCHED)));
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	r = clock_getcpuclockid(child, &c);
	printf("clock_getcpuclockid(reaped child): %s\n", r == ESRCH ? "ESRCH" : "other");

	/* A thread of ours: its clock counts its time only. */
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	while (!worker_tid)
		;
	r = pthread_getcpuclockid(t, &c);
	long long theirs;
	while ((theirs = read_ns(c)) < 30000000)
		sched_yield();
	printf("pthread_getcpuclockid: %d, the thread's clock reached 30 ms: %d\n", r, theirs >= 30000000);
	printf("by tid: %d\n", read_ns(THREAD_CLOCK(worker_tid, CPUCLOCK_SCHED)) >= 30000000);
	printf("in the thread: clock_getcpuclockid(0) %d, (gettid()) %s, read by tid %d\n", by_zero,
	       by_tid == ESRCH ? "ESRCH" : "other", read_by_tid > 0);
	stop_spinning = 1;
	pthread_join(t, NULL);
	/* join returns once the thread has cleared its tid, which on Linux is
	 * before the thread is released: wait until its id names nobody. */
	for (int i = 0; i < 100000 && syscall(SYS_tgkill, getpid(), worker_tid, 0) == 0; i++)
		sched_yield();
	printf("the ended thread's clock: %lld\n", read_ns(THREAD_CLOCK(worker_tid, CPUCLOCK_SCHED)));
	return 0;
}
