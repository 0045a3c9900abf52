/* Linux's thread-group signal rules, seen from user space:
 * 1. pthread_kill to each of 4 threads: each handler runs in its target.
 * 2. kill() of the process while every thread but one blocks the signal:
 *    that one takes it.
 * 3. raise() then kill() of the same blocked standard signal: one is on the
 *    thread's set, one on the process's, so unblocking delivers it twice;
 *    sigpending shows the union.
 * 4. The classic signal thread: every thread blocks SIGUSR1 and SIGTERM,
 *    one thread takes them with sigwait.
 * Threads only record; main prints after joining, so output is fixed. */
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define N 4

static pid_t tids[N];
static volatile pid_t handled_by[N];
static volatile int hits;
static volatile pid_t usr2_tid;
static sem_t ready, go, done;

static pid_t gettid_(void) { return syscall(SYS_gettid); }

static int index_of(pid_t tid)
{
	for (int i = 0; i < N; i++)
		if (tids[i] == tid)
			return i;
	return -1;
}

static void on_usr1(int sig)
{
	(void)sig;
	int i = index_of(gettid_());
	if (i >= 0)
		handled_by[i] = gettid_();
	hits++;
}

static void on_usr2(int sig)
{
	(void)sig;
	usr2_tid = gettid_();
}

/* Part 1 and 2: thread i waits until told to finish; all but thread 2
 * block SIGUSR2. */
static void *worker(void *arg)
{
	int i = (int)(long)arg;
	tids[i] = gettid_();
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	/* Created with main's mask, which blocks SIGUSR2: only 2 unblocks it. */
	if (i == 2)
		pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	sem_post(&ready);
	while (sem_wait(&go) != 0)
		; /* EINTR from the handlers */
	return NULL;
}

static int sigwait_count;
static void *signal_thread(void *arg)
{
	sigset_t *set = arg;
	for (;;) {
		int sig;
		sigwait(set, &sig);
		if (sig == SIGTERM)
			return NULL;
		sigwait_count++;
		sem_post(&done);
	}
}

/* Each SIGUSR1 waits for its acknowledgement: standard signals coalesce. */
static void *sender(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
		kill(getpid(), SIGUSR1);
		while (sem_wait(&done) != 0)
			;
	}
	kill(getpid(), SIGTERM);
	return NULL;
}

int main(void)
{
	pthread_t t[N];
	sigset_t s, old;
	sem_init(&ready, 0, 0);
	sem_init(&go, 0, 0);
	sem_init(&done, 0, 0);
	signal(SIGUSR1, on_usr1);
	signal(SIGUSR2, on_usr2);

	/* main blocks SIGUSR2 itself, so only thread 2 takes it. */
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &s, &old);
	for (int i = 0; i < N; i++)
		pthread_create(&t[i], NULL, worker, (void *)(long)i);
	for (int i = 0; i < N; i++)
		sem_wait(&ready);
	for (int i = 0; i < N; i++) {
		pthread_kill(t[i], SIGUSR1);
		while (handled_by[i] == 0)
			sched_yield();
	}
	/* Bounded, so a wrong target shows as "no" instead of a hang. */
	kill(getpid(), SIGUSR2);
	for (int i = 0; i < 200 && usr2_tid == 0; i++)
		usleep(10000);
	for (int i = 0; i < N; i++)
		sem_post(&go);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	int each = 1;
	for (int i = 0; i < N; i++)
		each &= handled_by[i] == tids[i];
	printf("pthread_kill to each of %d threads: handled by its target: %s\n", N, each ? "yes" : "no");
	printf("kill() with all threads but one blocking SIGUSR2: taken by that one: %s\n",
	       usr2_tid == tids[2] ? "yes" : "no");

	/* Part 3: raise (thread-directed) + kill (process-directed). */
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	hits = 0;
	raise(SIGUSR1);
	kill(getpid(), SIGUSR1);
	sigset_t p;
	sigpending(&p);
	printf("sigpending after raise+kill: SIGUSR1 %s\n", sigismember(&p, SIGUSR1) ? "pending" : "not pending");
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	printf("raise then kill of a blocked SIGUSR1: %d deliveries\n", hits);

	/* Part 4: a dedicated signal thread. */
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigaddset(&s, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	pthread_t st, sd;
	pthread_create(&st, NULL, signal_thread, &s);
	pthread_create(&sd, NULL, sender, NULL);
	pthread_join(sd, NULL);
	pthread_join(st, NULL);
	printf("signal thread: sigwait took %d SIGUSR1 and then SIGTERM\n", sigwait_count);
	return 0;
}
