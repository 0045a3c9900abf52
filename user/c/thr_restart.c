/* thr_restart: interrupted waits in several threads at once, the Linux way.
 *
 * 1. A handler (tgkill to each thread, SA_RESTART): a relative nanosleep
 *    fails with EINTR and the time left in rem, a timed futex wait and a
 *    poll with a timeout fail with EINTR (SA_RESTART or not), an untimed
 *    futex wait is restarted (SA_RESTART) and later woken. Each thread then
 *    carries on with its own time left.
 * 2. No handler: a 3-thread child is stopped and continued while its
 *    threads sleep (nanosleep 400 and 600 ms, a futex wait timing out at
 *    500 ms, poll 700 ms). Each call resumes through restart_syscall from
 *    its own thread's restart block, so each ends at its own deadline, not
 *    at another thread's and not after a fresh full timeout.
 * 3. restart_syscall called after a handler's sigreturn has nothing to
 *    resume: EINTR.
 * Times are printed as facts, never raw.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "timing.h"

#define MS 1000000L

static volatile sig_atomic_t hits;
static void on_usr1(int sig)
{
	(void)sig;
	hits++;
}

static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * MS };
	while (nanosleep(&t, &t) != 0)
		;
}

static long futex_wait(int *word, int val, long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * MS };
	return syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, ms >= 0 ? &t : NULL, NULL, 0);
}

/* What each thread saw: return, errno, elapsed ms; set before it ends. */
struct seen {
	long r, err, ms, extra;
};

static int word, untimed_word;
static pid_t tids[4];
static volatile int ready;

static void *sleeper(void *arg)
{
	struct seen *s = arg;
	struct timespec req = { 0, 400 * MS }, rem = { 0, 0 };
	tids[0] = gettid();
	__atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
	long t0 = now_ms();
	s->r = nanosleep(&req, &rem);
	s->err = errno;
	s->extra = rem.tv_sec == 0 && rem.tv_nsec >= 200 * MS && rem.tv_nsec <= 380 * MS;
	nanosleep(&rem, NULL);
	s->ms = now_ms() - t0;
	return NULL;
}

static void *futex_timed(void *arg)
{
	struct seen *s = arg;
	tids[1] = gettid();
	__atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
	s->r = futex_wait(&word, 0, 400);
	s->err = errno;
	return NULL;
}

static void *poller(void *arg)
{
	struct seen *s = arg;
	tids[2] = gettid();
	__atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
	s->r = poll(NULL, 0, 400);
	s->err = errno;
	return NULL;
}

static void *futex_untimed(void *arg)
{
	struct seen *s = arg;
	tids[3] = gettid();
	__atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
	s->r = futex_wait(&untimed_word, 0, -1);
	s->err = s->r ? errno : 0;
	return NULL;
}

static void with_handlers(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);

	static struct seen s[4];
	void *(*fn[4])(void *) = { sleeper, futex_timed, poller, futex_untimed };
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, fn[i], &s[i]);
	while (ready < 4)
		sched_yield();
	sleep_ms(50);
	for (int i = 0; i < 4; i++)
		syscall(SYS_tgkill, getpid(), tids[i], SIGUSR1);
	sleep_ms(50);
	__atomic_store_n(&untimed_word, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &untimed_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("handler ran %d times\n", hits);
	printf("nanosleep 400 ms: %ld %s, rem in [200, 380] ms %s; slept on to >= 400 ms %s, < 500 %s\n", s[0].r,
	       strerror(s[0].err), yes(s[0].extra), yes(s[0].ms >= 400), yes(s[0].ms < 500));
	printf("futex wait 400 ms, SA_RESTART: %ld %s\n", s[1].r, strerror(s[1].err));
	printf("poll 400 ms, SA_RESTART: %ld %s\n", s[2].r, strerror(s[2].err));
	printf("futex wait untimed, SA_RESTART: restarted, then woken: %ld %s\n", s[3].r,
	       s[3].r ? strerror(s[3].err) : "ok");
}

/* Part 2: the child's threads, each sleeping on its own deadline. */
struct timed {
	long want, r, err, ms;
};

static void *stop_nanosleep(void *arg)
{
	struct timed *s = arg;
	struct timespec req = { 0, s->want * MS };
	long t0 = now_ms();
	s->r = nanosleep(&req, NULL);
	s->err = errno;
	s->ms = now_ms() - t0;
	return NULL;
}

static void *stop_futex(void *arg)
{
	struct timed *s = arg;
	long t0 = now_ms();
	s->r = futex_wait(&word, 0, s->want);
	s->err = errno;
	s->ms = now_ms() - t0;
	return NULL;
}

static void report(const char *what, struct timed *s)
{
	printf("  %s %ld ms: %ld %s, ended at its own deadline (in [%ld, %ld) ms) %s\n", what, s->want, s->r,
	       s->r ? strerror(s->err) : "ok", s->want, s->want + 100, yes(s->ms >= s->want && s->ms < s->want + 100));
}

static void stopped_child(int fd)
{
	static struct timed a = { 400 }, b = { 600 }, f = { 500 }, p = { 700 };
	pthread_t t[3];
	pthread_create(&t[0], NULL, stop_nanosleep, &a);
	pthread_create(&t[1], NULL, stop_nanosleep, &b);
	pthread_create(&t[2], NULL, stop_futex, &f);
	char c = 'r';
	write(fd, &c, 1);
	long t0 = now_ms();
	p.r = poll(NULL, 0, p.want);
	p.err = errno;
	p.ms = now_ms() - t0;
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("after SIGSTOP at ~100 ms and SIGCONT at ~200 ms:\n");
	report("nanosleep", &a);
	report("nanosleep", &b);
	report("futex wait", &f);
	report("poll", &p);
	_exit(0);
}

static void stop_and_continue(void)
{
	int pfd[2];
	pipe(pfd);
	pid_t pid = fork();
	if (pid == 0)
		stopped_child(pfd[1]);
	char c;
	read(pfd[0], &c, 1);
	sleep_ms(100);
	kill(pid, SIGSTOP);
	int st;
	waitpid(pid, &st, WUNTRACED);
	sleep_ms(100);
	kill(pid, SIGCONT);
	waitpid(pid, &st, 0);
	printf("child exited %d\n", WEXITSTATUS(st));
}

static void restart_after_handler(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigaction(SIGALRM, &sa, NULL);
	struct timespec req = { 0, 300 * MS }, rem;
	alarm(0);
	timer_t tm;
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGALRM };
	timer_create(CLOCK_MONOTONIC, &ev, &tm);
	struct itimerspec its = { { 0, 0 }, { 0, 50 * MS } };
	timer_settime(tm, 0, &its, NULL);
	long r = nanosleep(&req, &rem);
	printf("nanosleep interrupted by a handler: %ld %s\n", r, strerror(errno));
	long t0 = now_ms();
	r = syscall(SYS_restart_syscall);
	printf("restart_syscall after the handler: %ld %s, returned at once %s\n", r, strerror(errno),
	       yes(now_ms() - t0 < 100));
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	with_handlers();
	stop_and_continue();
	restart_after_handler();
	return 0;
}
