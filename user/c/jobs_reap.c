/* jobs_reap: children nobody waits for, and waiting by process group.
 *
 * SIGCHLD set to SIG_IGN, or SA_NOCLDWAIT, means no zombies: the children
 * are reaped as they exit, a wait blocks until all of them are gone and
 * then fails with ECHILD, and an exited child no longer exists for kill().
 * With SA_NOCLDWAIT and a handler, SIGCHLD still comes. Zombies made
 * before SIG_IGN was set stay waitable. wait4(0) waits for children in the
 * caller's group, wait4(-pgrp) for those in group pgrp.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NO_PID 0x7ffffff0

static volatile sig_atomic_t chld;

static void on_chld(int sig)
{
	(void)sig;
	chld++;
}

static pid_t child(int code)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(code);
	return pid;
}

static void show_wait(const char *what, pid_t r, pid_t expect, int status)
{
	if (r < 0)
		printf("%s: -1, %s\n", what, strerror(errno));
	else
		printf("%s: %s, exit %d\n", what, r == expect ? "the child" : "another pid", WEXITSTATUS(status));
}

/* A child in a group of its own that exits with `code`. */
static pid_t grouped_child(int code)
{
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		_exit(code);
	}
	setpgid(pid, pid);
	return pid;
}

int main(void)
{
	int status;
	setvbuf(stdout, NULL, _IONBF, 0);

	signal(SIGCHLD, SIG_IGN);
	pid_t a = child(1);
	child(2);
	child(3);
	errno = 0;
	pid_t r = wait(&status);
	printf("SIG_IGN: wait for three children: %d, %s\n", (int)r, strerror(errno));
	printf("SIG_IGN: kill(exited child, 0): %s\n", kill(a, 0) < 0 ? strerror(errno) : "ok (a zombie)");
	a = child(4);
	r = waitpid(a, &status, 0);
	show_wait("SIG_IGN: waitpid(child)", r, a, status);

	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_chld;
	sa.sa_flags = SA_NOCLDWAIT;
	sigaction(SIGCHLD, &sa, NULL);
	a = child(5);
	r = waitpid(-1, &status, 0);
	show_wait("SA_NOCLDWAIT: waitpid(-1)", r, a, status);
	printf("SA_NOCLDWAIT: SIGCHLD handler ran: %d time(s)\n", (int)chld);

	signal(SIGCHLD, SIG_DFL);
	a = child(6);
	usleep(100000);
	printf("SIG_DFL: kill(exited child, 0): %s\n", kill(a, 0) < 0 ? strerror(errno) : "ok (a zombie)");
	signal(SIGCHLD, SIG_IGN);
	r = waitpid(a, &status, 0);
	show_wait("zombie from before SIG_IGN: waitpid", r, a, status);
	signal(SIGCHLD, SIG_DFL);

	pid_t g = grouped_child(7);
	pid_t b = child(8);
	r = waitpid(0, &status, 0);
	show_wait("waitpid(0): our group's child", r, b, status);
	r = waitpid(0, &status, 0);
	show_wait("waitpid(0) again (the other child is in its own group)", r, 0, status);
	r = waitpid(-NO_PID, &status, 0);
	show_wait("waitpid(-no such group)", r, 0, status);
	r = waitpid(-g, &status, 0);
	show_wait("waitpid(-its group)", r, g, status);
	r = waitpid(-1, &status, WNOWAIT);
	show_wait("waitpid(-1, WNOWAIT)", r, 0, status);
	return 0;
}
