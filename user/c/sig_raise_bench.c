/* sig_raise_bench: the signal benchmark from the powerpc/signal mailing-list
 * thread "[PATCH RESEND v3 6/6] powerpc/signal: Use unsafe_copy_siginfo_to_user()"
 * (C. Leroy, Sep 2021): a process raising SIGUSR1 at itself 100000
 * times through signal(), i.e. non-RT frames. Timed from outside ('perf stat'
 * there, the guest timebase here). The only change: argv[1] may give a smaller
 * count, so the tests can run it quickly.
 */
#include <stdlib.h>
#include <signal.h>

void sigusr1(int sig) { }

int main(int argc, char **argv)
{
	int i = 100000;

	if (argc > 1)
		i = atoi(argv[1]);
	signal(SIGUSR1, sigusr1);
	for (;i--;)
	raise(SIGUSR1);
	exit(0);
}
