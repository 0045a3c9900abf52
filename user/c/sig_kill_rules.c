/* sig_kill_rules: the rules no process can bend.
 *
 * SIGKILL and SIGSTOP cannot be caught or ignored (EINVAL), though their
 * disposition can be read. Out-of-range signal numbers are EINVAL, kill() to a
 * process that is gone is ESRCH, signal 0 only checks existence. A child that
 * ignores or blocks everything it can still stops on SIGSTOP and dies of
 * SIGKILL.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void handler(int sig)
{
	(void)sig;
}

static void try_action(const char *what, int sig, void (*h)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = h;
	errno = 0;
	int r = sigaction(sig, &sa, NULL);
	printf("sigaction(%s): %d, errno %s\n", what, r, r ? strerror(errno) : "-");
}

int main(void)
{
	struct sigaction old;
	int status;

	setvbuf(stdout, NULL, _IONBF, 0);
	try_action("SIGKILL, handler", SIGKILL, handler);
	try_action("SIGKILL, SIG_IGN", SIGKILL, SIG_IGN);
	try_action("SIGSTOP, handler", SIGSTOP, handler);
	try_action("SIGSTOP, SIG_IGN", SIGSTOP, SIG_IGN);
	try_action("SIGKILL, SIG_DFL", SIGKILL, SIG_DFL);
	try_action("0", 0, handler);
	try_action("65", 65, handler);
	try_action("-1", -1, handler);
	printf("signal(SIGKILL, SIG_IGN) is SIG_ERR: %s\n", signal(SIGKILL, SIG_IGN) == SIG_ERR ? "yes" : "no");

	errno = 0;
	int r = sigaction(SIGKILL, NULL, &old);
	printf("reading SIGKILL's action: %d, SIG_DFL %s\n", r, old.sa_handler == SIG_DFL ? "yes" : "no");

	printf("kill(self, 0): %d\n", kill(getpid(), 0));
	errno = 0;
	r = kill(getpid(), 65);
	printf("kill(self, 65): %d, errno %s\n", r, strerror(errno));

	pid_t gone = fork();
	if (gone == 0)
		_exit(0);
	waitpid(gone, &status, 0);
	errno = 0;
	r = kill(gone, 0);
	printf("kill(reaped child, 0): %d, errno %s\n", r, strerror(errno));
	errno = 0;
	r = kill(gone, SIGTERM);
	printf("kill(reaped child, SIGTERM): %d, errno %s\n", r, strerror(errno));

	/* A zombie still exists for kill() until it is reaped. */
	int p[2];
	if (pipe(p) != 0)
		return 1;
	pid_t zombie = fork();
	if (zombie == 0)
		_exit(0);
	usleep(100000);
	printf("kill(zombie, 0): %d\n", kill(zombie, 0));
	waitpid(zombie, &status, 0);

	/* A child that ignores and blocks all it may, then pauses forever. */
	pid_t stubborn = fork();
	if (stubborn == 0) {
		sigset_t all;
		for (int s = 1; s < 32; s++)
			signal(s, SIG_IGN);
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
		close(p[0]);
		write(p[1], "r", 1);
		for (;;)
			pause();
	}
	char c;
	close(p[1]);
	read(p[0], &c, 1); /* wait until the child has set itself up */
	kill(stubborn, SIGSTOP);
	waitpid(stubborn, &status, WUNTRACED);
	printf("stubborn child after SIGSTOP: %s %d\n", WIFSTOPPED(status) ? "stopped by" : "not stopped",
	       WIFSTOPPED(status) ? WSTOPSIG(status) : 0);
	kill(stubborn, SIGCONT);
	kill(stubborn, SIGTERM);
	kill(stubborn, SIGKILL);
	waitpid(stubborn, &status, 0);
	printf("stubborn child after SIGTERM and SIGKILL: %s %d\n", WIFSIGNALED(status) ? "killed by" : "exited",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	return 0;
}
