/* sig_pingpong: two processes bounce SIGUSR1/SIGUSR2 with sigsuspend.
 *
 * The parent sends SIGUSR1, the child answers SIGUSR2, N round trips
 * (default 1000, or argv[1]). Both signals are blocked outside sigsuspend,
 * so none is lost between the check and the sleep. Prints the counts.
 */
#include <signal.h>
#include <stdio.h>
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
	int rounds = argc > 1 ? atoi(argv[1]) : 1000;
	sigset_t block, old;
	int status;

	setvbuf(stdout, NULL, _IONBF, 0);
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
	waitpid(child, &status, 0);
	printf("round trips: %d, parent got %d, child %s\n", rounds, (int)got,
	       WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "got all" : "FAILED");
	return 0;
}
