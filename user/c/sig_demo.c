/* sig_demo: one SIGUSR1 from a parent to its child, the program the signal
 * walkthrough (docs/signals.md) and the trace test (qemu/tests/trace.rs) follow.
 *
 * The child blocks SIGUSR1, installs an SA_SIGINFO handler, tells the parent
 * it is ready (a byte on a pipe) and waits in sigsuspend(), which unblocks
 * SIGUSR1 only while it sleeps: no signal can slip in between "ready" and
 * "waiting". The parent sends one kill(child, SIGUSR1) and reaps the child.
 * The handler checks what its siginfo says (signal, si_code SI_USER, si_pid
 * = the parent) and returns; the frame's trampoline calls rt_sigreturn.
 * Output holds no pid, so it is the same on Sigil and under qemu-ppc.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t got_signo, got_code, from_parent;

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_signo = sig;
	got_code = si->si_code;
	from_parent = si->si_pid == getppid();
}

static int child(int ready_fd)
{
	struct sigaction sa;
	sigset_t block, wait_mask;

	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &wait_mask);
	sigdelset(&wait_mask, SIGUSR1);

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);

	if (write(ready_fd, "r", 1) != 1)
		return 2;
	sigsuspend(&wait_mask); /* returns -1/EINTR after the handler ran */
	printf("child: handler ran for signal %d, si_code %s, sent by my parent: %s\n",
	       (int)got_signo, got_code == SI_USER ? "SI_USER" : "other",
	       from_parent ? "yes" : "no");
	return got_signo == SIGUSR1 && got_code == SI_USER && from_parent ? 0 : 1;
}

int main(void)
{
	int fds[2], status;
	char byte;
	pid_t pid;

	if (pipe(fds) != 0) {
		perror("pipe");
		return 2;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 2;
	}
	if (pid == 0) {
		close(fds[0]);
		exit(child(fds[1]));
	}
	close(fds[1]);
	if (read(fds[0], &byte, 1) != 1) {
		fprintf(stderr, "parent: child never got ready\n");
		return 2;
	}
	printf("parent: sending SIGUSR1 to my child\n");
	fflush(stdout);
	kill(pid, SIGUSR1);
	waitpid(pid, &status, 0);
	printf("parent: child exited with status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
