/* sig_pingpong_bench: the user->user signal benchmark of Vegard Nossum's
 * "[RFC][PATCH] signals: don't copy siginfo_t on dequeue" (LKML, Feb 2009):
 * two processes ping-pong SIGUSR1/SIGUSR2, waiting in sigsuspend, 65536
 * signals in total (argv[1] may give another total). Both signals stay
 * blocked outside sigsuspend, so none is lost between the check and the
 * sleep. Prints nothing; exits 0 when each side got every signal (the
 * integration tests rely on that).
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void handler(int sig)
{
	(void)sig;
	got++;
}

int main(int argc, char **argv)
{
	int rounds = (argc > 1 ? atoi(argv[1]) : 65536) / 2;
	sigset_t block, old;
	int status;

	signal(SIGUSR1, handler);
	signal(SIGUSR2, handler);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGUSR2);
	sigprocmask(SIG_BLOCK, &block, &old);

	pid_t child = fork();
	if (child == 0) {
		pid_t parent = getppid();
		for (int i = 0; i < rounds; i++) {
			while (got <= i)
				sigsuspend(&old);
			kill(parent, SIGUSR2);
		}
		_exit(got == rounds ? 0 : 1);
	}
	for (int i = 0; i < rounds; i++) {
		kill(child, SIGUSR1);
		while (got <= i)
			sigsuspend(&old);
	}
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return 1;
	return got == rounds ? 0 : 1;
}
