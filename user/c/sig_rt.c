/* sig_rt: real-time signals queue, in order, with their values.
 *
 * Ten sigqueue()s of one blocked RT signal give ten deliveries in sending
 * order when unblocked (standard signals would coalesce into one); two
 * different RT signals pending together are delivered lowest number first.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile int seen_sig[32], seen_val[32];
static volatile sig_atomic_t nseen;

static void handler(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if (nseen < 32) {
		seen_sig[nseen] = sig;
		seen_val[nseen] = si->si_value.sival_int;
		nseen++;
	}
}

static void install(int sig, const sigset_t *mask)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO;
	sa.sa_mask = *mask;
	sigaction(sig, &sa, NULL);
}

static void print_seen(const char *what)
{
	printf("%s: %d deliveries:", what, (int)nseen);
	for (int i = 0; i < nseen; i++)
		printf(" RTMIN+%d=%d", seen_sig[i] - SIGRTMIN, seen_val[i]);
	printf("\n");
	nseen = 0;
}

int main(void)
{
	sigset_t set, none, rt;
	union sigval v;

	setvbuf(stdout, NULL, _IONBF, 0);
	printf("SIGRTMIN %d, SIGRTMAX %d\n", SIGRTMIN, SIGRTMAX);
	sigemptyset(&none);
	sigemptyset(&rt);
	for (int s = SIGRTMIN; s <= SIGRTMAX; s++)
		sigaddset(&rt, s);

	install(SIGRTMIN + 2, &none);
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN + 2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	for (int i = 0; i < 10; i++) {
		v.sival_int = 100 + i;
		sigqueue(getpid(), SIGRTMIN + 2, v);
	}
	printf("queued 10 while blocked: %d delivered so far\n", (int)nseen);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	print_seen("unblocked");

	/* Standard signals coalesce even when sent with sigqueue. */
	install(SIGUSR1, &none);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	for (int i = 0; i < 5; i++) {
		v.sival_int = i;
		sigqueue(getpid(), SIGUSR1, v);
	}
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	printf("SIGUSR1 queued 5 times: %d delivery, value %d\n", (int)nseen, seen_val[0]);
	nseen = 0;

	/* Two RT signals pending: the lower number goes first. */
	install(SIGRTMIN + 1, &rt);
	install(SIGRTMIN + 3, &rt);
	sigprocmask(SIG_BLOCK, &rt, NULL);
	v.sival_int = 30;
	sigqueue(getpid(), SIGRTMIN + 3, v);
	v.sival_int = 10;
	sigqueue(getpid(), SIGRTMIN + 1, v);
	v.sival_int = 31;
	sigqueue(getpid(), SIGRTMIN + 3, v);
	v.sival_int = 11;
	sigqueue(getpid(), SIGRTMIN + 1, v);
	sigprocmask(SIG_UNBLOCK, &rt, NULL);
	print_seen("two RT signals");

	/* Unblocked RT signal: delivered before sigqueue returns. (Not SIGRTMAX:
	 * qemu-ppc 7.2 cannot map the top RT signals onto host signals.) */
	v.sival_int = 7;
	install(SIGRTMIN + 5, &none);
	sigqueue(getpid(), SIGRTMIN + 5, v);
	print_seen("SIGRTMIN+5 unblocked");
	return 0;
}
