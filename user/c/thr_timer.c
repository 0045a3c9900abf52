/* timer_create(SIGEV_THREAD): glibc runs the notification function in a
 * new thread, started by its helper thread, which waits for the timer's
 * signal (SIGEV_THREAD_ID aimed at the helper). Also SIGEV_THREAD_ID from
 * the program itself, aimed at a worker thread. */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static sem_t fired;
static int value_seen;
static int other_thread;

static void notify(union sigval v)
{
	value_seen = v.sival_int;
	other_thread = syscall(SYS_gettid) != getpid();
	sem_post(&fired);
}

static volatile pid_t worker_tid, got_by;
static void on_rt(int sig)
{
	(void)sig;
	got_by = syscall(SYS_gettid);
}

static void *worker(void *arg)
{
	(void)arg;
	worker_tid = syscall(SYS_gettid);
	while (!got_by)
		usleep(1000);
	return NULL;
}

int main(void)
{
	sem_init(&fired, 0, 0);
	struct sigevent sev;
	memset(&sev, 0, sizeof sev);
	sev.sigev_notify = SIGEV_THREAD;
	sev.sigev_notify_function = notify;
	sev.sigev_value.sival_int = 77;
	timer_t t;
	printf("timer_create(SIGEV_THREAD): %d\n", timer_create(CLOCK_MONOTONIC, &sev, &t));
	struct itimerspec its = { .it_value = { 0, 5000000 } };
	timer_settime(t, 0, &its, NULL);
	while (sem_wait(&fired) != 0)
		;
	printf("notified: value %d, in another thread: %s\n", value_seen, other_thread ? "yes" : "no");
	timer_delete(t);

	/* SIGEV_THREAD_ID: the signal goes to the named thread only; main
	 * does not block it, but must not take it. */
	signal(SIGRTMIN + 1, on_rt);
	pthread_t w;
	pthread_create(&w, NULL, worker, NULL);
	while (!worker_tid)
		sched_yield();
	memset(&sev, 0, sizeof sev);
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SIGRTMIN + 1;
	sev._sigev_un._tid = worker_tid;
	printf("timer_create(SIGEV_THREAD_ID, worker): %d\n", timer_create(CLOCK_MONOTONIC, &sev, &t));
	timer_settime(t, 0, &its, NULL);
	pthread_join(w, NULL);
	printf("SIGEV_THREAD_ID signal taken by the worker: %s\n", got_by == worker_tid ? "yes" : "no");
	sev._sigev_un._tid = 99999;
	timer_t bad;
	printf("SIGEV_THREAD_ID, not our thread: %d (%s)\n", timer_create(CLOCK_MONOTONIC, &sev, &bad), strerror(errno));
	return 0;
}
