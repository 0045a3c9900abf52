/* cpu_nanosleep: clock_nanosleep on CPU-time clocks, as Linux's
 * posix_cpu_nsleep has it. The sleeper waits for CPU time, not wall time:
 * its own process's (another thread spins meanwhile), a child's (the child
 * spins), relative and TIMER_ABSTIME. glibc turns CLOCK_PROCESS_CPUTIME_ID
 * into the encoded clock of process 0 and refuses CLOCK_THREAD_CPUTIME_ID
 * itself; the kernel refuses the caller's own thread clock by any other
 * name, and the clock of a process that does not exist (EINVAL). A signal
 * with a handler ends the sleep with EINTR (SA_RESTART or not: Linux
 * restarts neither ERESTART_RESTARTBLOCK nor ERESTARTNOHAND into a
 * handler), a relative one writing the CPU time left to rem; a stop and
 * SIGCONT run no handler, so the sleep carries on to the same target.
 * Last, sleepers that never wake (killed, or their process exits) must
 * leave nothing behind: Sigil's shutdown line says so.
 * Each line is a fact that holds on Linux whatever the machine's speed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpuclock.h"

#define MS 1000000LL

static struct timespec ts_of(long long ns)
{
	struct timespec ts = { ns / 1000000000LL, ns % 1000000000LL };
	return ts;
}

static const char *err(int r)
{
	return r == 0 ? "0" : r == EINVAL ? "EINVAL" : r == EINTR ? "EINTR" : strerror(r);
}

/* A thread that spins until told to stop, with SIGALRM blocked so the
 * process's alarms go to the sleeping main thread. */
static volatile int stop_spinning;

static void *spinner(void *arg)
{
	(void)arg;
	while (!stop_spinning)
		;
	return NULL;
}

static pthread_t start_spinner(void)
{
	sigset_t s, old;
	sigemptyset(&s);
	sigaddset(&s, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &s, &old);
	pthread_t t;
	stop_spinning = 0;
	pthread_create(&t, NULL, spinner, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return t;
}

static void stop_spinner(pthread_t t)
{
	stop_spinning = 1;
	pthread_join(t, NULL);
}

static volatile int alarms;
static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static void handle_alarm(int flags)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sa.sa_flags = flags;
	sigaction(SIGALRM, &sa, NULL);
}

static void alarm_in_ms(long ms)
{
	struct itimerval it = { { 0, 0 }, { ms / 1000, (ms % 1000) * 1000 } };
	setitimer(ITIMER_REAL, &it, NULL);
}

/* Waits 50 ms of wall time, then ends the whole process (exit_group). */
static void *exit_soon(void *arg)
{
	(void)arg;
	struct timespec q = { 0, 50 * MS };
	nanosleep(&q, NULL);
	_exit(4);
}

/* A child that spins for ever (until killed). */
static pid_t spinning_child(void)
{
	fflush(stdout);
	pid_t child = fork();
	if (child == 0) {
		for (;;)
			;
	}
	return child;
}

int main(void)
{
	/* Relative, on the own process's clock, while another thread spins. */
	pthread_t t = start_spinner();
	long long start = read_ns(CLOCK_PROCESS_CPUTIME_ID);
	struct timespec req = ts_of(100 * MS);
	int r = clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, 0, &req, NULL);
	printf("process clock, 100 ms with a thread spinning: %s, clock moved >= 100 ms %d\n",
	       err(r), read_ns(CLOCK_PROCESS_CPUTIME_ID) >= start + 100 * MS);

	/* Absolute: until the clock reads now + 50 ms; and one in the past. */
	long long target = read_ns(CLOCK_PROCESS_CPUTIME_ID) + 50 * MS;
	req = ts_of(target);
	r = clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, TIMER_ABSTIME, &req, NULL);
	printf("TIMER_ABSTIME now + 50 ms: %s, clock reached the target %d\n", err(r),
	       read_ns(CLOCK_PROCESS_CPUTIME_ID) >= target);
	req = ts_of(1 * MS);
	r = clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, TIMER_ABSTIME, &req, NULL);
	printf("TIMER_ABSTIME in the past: %s\n", err(r));

	/* The same process clock by its encoded id, pid 0 and own pid. */
	req = ts_of(20 * MS);
	r = clock_nanosleep(PROCESS_CLOCK(0, CPUCLOCK_SCHED), 0, &req, NULL);
	printf("encoded clock of process 0, 20 ms: %s\n", err(r));
	clockid_t own;
	clock_getcpuclockid(getpid(), &own);
	r = clock_nanosleep(own, 0, &req, NULL);
	printf("clock_getcpuclockid(getpid()), 20 ms: %s\n", err(r));

	/* The calling thread's own clock, by every name, and a bad timespec. */
	r = clock_nanosleep(CLOCK_THREAD_CPUTIME_ID, 0, &req, NULL);
	printf("CLOCK_THREAD_CPUTIME_ID: %s\n", err(r));
	r = clock_nanosleep(THREAD_CLOCK(0, CPUCLOCK_SCHED), 0, &req, NULL);
	printf("encoded own thread clock (tid 0): %s\n", err(r));
	clockid_t mine;
	pthread_getcpuclockid(pthread_self(), &mine);
	r = clock_nanosleep(mine, 0, &req, NULL);
	printf("pthread_getcpuclockid(self): %s\n", err(r));
	struct timespec bad = { 0, 1000000000 };
	r = clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, 0, &bad, NULL);
	printf("tv_nsec 1e9: %s\n", err(r));

	/* Interrupted by SIGALRM with a handler, without and with SA_RESTART:
	 * EINTR both times, rem the CPU time left. */
	handle_alarm(0);
	req = ts_of(1000 * MS);
	struct timespec rem = { 0, 0 };
	alarm_in_ms(50);
	r = clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, 0, &req, &rem);
	long long left = rem.tv_sec * 1000000000LL + rem.tv_nsec;
	printf("SIGALRM, handler: %s, alarms %d, rem in (0, 1 s] %d\n", err(r), alarms,
	       left > 0 && left <= 1000 * MS);
	handle_alarm(SA_RESTART);
	alarm_in_ms(50);
	r = clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, 0, &req, &rem);
	printf("SIGALRM, SA_RESTART handler: %s, alarms %d\n", err(r), alarms);
	target = read_ns(CLOCK_PROCESS_CPUTIME_ID) + 1000 * MS;
	req = ts_of(target);
	rem.tv_sec = 7;
	alarm_in_ms(50);
	r = clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, TIMER_ABSTIME, &req, &rem);
	printf("TIMER_ABSTIME, SA_RESTART handler: %s, alarms %d, rem untouched %d\n", err(r),
	       alarms, rem.tv_sec == 7);
	stop_spinner(t);

	/* A child's clock: the parent sleeps while the child spins. */
	pid_t child = spinning_child();
	clockid_t theirs;
	r = clock_getcpuclockid(child, &theirs);
	long long parent_start = read_ns(CLOCK_PROCESS_CPUTIME_ID);
	start = read_ns(theirs);
	req = ts_of(80 * MS);
	int slept = clock_nanosleep(theirs, 0, &req, NULL);
	printf("child's clock, 80 ms: %s, child's clock moved >= 80 ms %d, parent's own < 40 ms %d\n",
	       err(slept), read_ns(theirs) >= start + 80 * MS,
	       read_ns(CLOCK_PROCESS_CPUTIME_ID) < parent_start + 40 * MS);
	target = read_ns(theirs) + 30 * MS;
	req = ts_of(target);
	r = clock_nanosleep(theirs, TIMER_ABSTIME, &req, NULL);
	printf("child's clock, TIMER_ABSTIME + 30 ms: %s, reached %d\n", err(r),
	       read_ns(theirs) >= target);
	/* Another process's thread clock is no clock (pid_for_clock). */
	r = clock_nanosleep(THREAD_CLOCK(child, CPUCLOCK_SCHED), 0, &req, NULL);
	printf("a thread clock of the child: %s\n", err(r));
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	req = ts_of(10 * MS);
	r = clock_nanosleep(theirs, 0, &req, NULL);
	printf("the reaped child's clock: %s\n", err(r));

	/* A stop and SIGCONT run no handler: the sleep goes on to its target.
	 * The child sleeps on its own process clock while its thread spins. */
	fflush(stdout);
	child = fork();
	if (child == 0) {
		pthread_t s = start_spinner();
		long long from = read_ns(CLOCK_PROCESS_CPUTIME_ID);
		struct timespec q = ts_of(300 * MS);
		int cr = clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, 0, &q, NULL);
		printf("child: 300 ms across SIGSTOP/SIGCONT: %s, clock moved >= 300 ms %d\n", err(cr),
		       read_ns(CLOCK_PROCESS_CPUTIME_ID) >= from + 300 * MS);
		stop_spinner(s);
		fflush(stdout);
		_exit(0);
	}
	struct timespec wall = ts_of(50 * MS);
	nanosleep(&wall, NULL);
	kill(child, SIGSTOP);
	nanosleep(&wall, NULL);
	kill(child, SIGCONT);
	waitpid(child, NULL, 0);

	/* Sleepers that never wake: a child sleeping on our clock, killed; a
	 * child whose thread sleeps on its process's clock when it exits. */
	fflush(stdout);
	child = fork();
	if (child == 0) {
		struct timespec q = ts_of(10000 * MS);
		clock_nanosleep(PROCESS_CLOCK(getppid(), CPUCLOCK_SCHED), 0, &q, NULL);
		_exit(1);
	}
	nanosleep(&wall, NULL);
	kill(child, SIGKILL);
	int status;
	waitpid(child, &status, 0);
	printf("a sleeper on the parent's clock, killed: %d\n",
	       WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	fflush(stdout);
	child = fork();
	if (child == 0) {
		pthread_t s;
		pthread_create(&s, NULL, exit_soon, NULL);
		struct timespec q = ts_of(10000 * MS);
		clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, 0, &q, NULL);
		_exit(1);
	}
	waitpid(child, &status, 0);
	printf("a process exiting while its main thread sleeps on its clock: %d\n",
	       WIFEXITED(status) && WEXITSTATUS(status) == 4);
	return 0;
}
