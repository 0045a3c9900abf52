/* sig_siginfo_bench: sig_raise_bench with sigaction(SA_SIGINFO), so every
 * delivery builds an rt frame and copies a siginfo to user space (the copy
 * the powerpc/signal and dequeue threads argue about, docs/benchmarks.md). 100000 raises, or argv[1].
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static void sigusr1(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)si;
	(void)ctx;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	int i = 100000;

	if (argc > 1)
		i = atoi(argv[1]);
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = sigusr1;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	for (; i--;)
		raise(SIGUSR1);
	exit(0);
}
