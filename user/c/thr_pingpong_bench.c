/* thr_pingpong_bench: two threads of one process bounce a signal, as
 * sig_pingpong_bench does between two processes: the main thread sends
 * SIGUSR1 to the other with pthread_kill (tgkill: the thread's own pending
 * set) and waits in sigwait for SIGUSR2, which the other sends back the same
 * way after its own sigwait. Both signals stay blocked in both threads, so
 * sigwait takes them straight off the queue (no handler frame). argv[1]
 * signals in total (default 65536). Prints nothing; exits 0 when every
 * signal arrived. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

static pthread_t main_thread;
static int rounds;

static void *partner(void *arg)
{
	sigset_t *usr1 = arg;
	int sig, got = 0;
	for (int i = 0; i < rounds; i++) {
		if (sigwait(usr1, &sig) == 0 && sig == SIGUSR1)
			got++;
		pthread_kill(main_thread, SIGUSR2);
	}
	return (void *)(long)(got == rounds);
}

int main(int argc, char **argv)
{
	rounds = (argc > 1 ? atoi(argv[1]) : 65536) / 2;
	sigset_t both, usr1, usr2;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigemptyset(&both);
	sigaddset(&both, SIGUSR1);
	sigaddset(&both, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &both, NULL);
	main_thread = pthread_self();
	pthread_t t;
	pthread_create(&t, NULL, partner, &usr1);
	int sig, got = 0;
	for (int i = 0; i < rounds; i++) {
		pthread_kill(t, SIGUSR1);
		if (sigwait(&usr2, &sig) == 0 && sig == SIGUSR2)
			got++;
	}
	void *ok;
	pthread_join(t, &ok);
	return got == rounds && ok ? 0 : 1;
}
