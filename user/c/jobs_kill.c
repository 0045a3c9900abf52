/* jobs_kill: whom kill() reaches.
 *
 * The program is a group leader (see jobs_groups). Children A and B stay in
 * its group, C gets a group of its own, and D is later moved into C's
 * group. Every process reports a SIGUSR1 by writing its letter into a pipe,
 * so the parent prints exactly who got each kill:
 * kill(0) reaches the caller's group (itself included), kill(-pgrp) that
 * group only, also after its leader is gone; an empty or absent group is
 * ESRCH and hurts nobody, kill(INT_MIN) is ESRCH, and signal 0 checks
 * existence for every target, sigqueue's included.
 *
 * With the argument "sigil" (Sigil only: on a host these would signal the
 * user's own processes and init): kill(-1) reaches everyone but the caller
 * and PID 1, and init survives SIGKILL, SIGSTOP and SIGTERM from user space
 * and still reaps and reports the program's status.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "on_sigil.h"

#define NO_PID 0x7ffffff0

static int report[2];
static char letter = 'P';

static void on_usr1(int sig)
{
	(void)sig;
	write(report[1], &letter, 1);
}

static const char *err(int r)
{
	return r < 0 ? strerror(errno) : "ok";
}

/* A child that reports SIGUSR1 until it is killed; returns once it is ready. */
static pid_t spawn(char name, pid_t group)
{
	int ready[2];
	pipe(ready);
	pid_t pid = fork();
	if (pid == 0) {
		letter = name;
		if (group >= 0)
			setpgid(0, group);
		write(ready[1], "r", 1);
		for (;;)
			pause();
	}
	if (group >= 0)
		setpgid(pid, group == 0 ? pid : group);
	char c;
	read(ready[0], &c, 1);
	close(ready[0]);
	close(ready[1]);
	return pid;
}

static int cmp(const void *a, const void *b)
{
	return *(const char *)a - *(const char *)b;
}

/* Who reported since the last call, sorted: give them time to run first. */
static const char *who(int expected)
{
	static char got[16];
	int n = 0;
	while (n < expected) {
		int r = read(report[0], got + n, sizeof got - 1 - n);
		if (r <= 0)
			break;
		n += r;
	}
	got[n] = 0;
	qsort(got, n, 1, cmp);
	return n ? got : "nobody";
}

/* kill(pid, sig), then who got it (waiting for `expected` reports). */
static void try_kill(const char *what, pid_t pid, int sig, int expected)
{
	const char *r = err(kill(pid, sig));
	printf("%s: %s, reached %s\n", what, r, expected ? who(expected) : "nobody");
}

static void reap(pid_t pid)
{
	int status;
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}

static int sigil_only(void)
{
	pid_t a = spawn('A', -1), c = spawn('C', 0);
	try_kill("kill(-1, SIGUSR1)", -1, SIGUSR1, 2);
	printf("kill(1, SIGKILL): %s\n", err(kill(1, SIGKILL)));
	printf("kill(1, SIGSTOP): %s\n", err(kill(1, SIGSTOP)));
	printf("kill(1, SIGTERM): %s\n", err(kill(1, SIGTERM)));
	printf("init still there: %s\n", err(kill(1, 0)));
	reap(a);
	reap(c);
	return 3; /* init is alive to pass this on */
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	pipe(report);
	signal(SIGUSR1, on_usr1);
	if (argc > 1 && strcmp(argv[1], "sigil") == 0)
		return on_sigil() ? sigil_only() : 2;

	pid_t pg = getpgrp();
	pid_t a = spawn('A', -1), b = spawn('B', -1), c = spawn('C', 0);
	try_kill("kill(0, SIGUSR1)", 0, SIGUSR1, 3);
	try_kill("kill(-C, SIGUSR1)", -c, SIGUSR1, 1);
	try_kill("kill(-ours, SIGUSR1)", -pg, SIGUSR1, 3);
	printf("kill(-C, 0): %s, kill(-ours, 0): %s\n", err(kill(-c, 0)), err(kill(-pg, 0)));
	printf("kill(-no group, SIGUSR1): %s\n", err(kill(-NO_PID, SIGUSR1)));
	printf("kill(-no group, 0): %s\n", err(kill(-NO_PID, 0)));
	printf("kill(INT_MIN, SIGKILL): %s\n", err(kill(INT_MIN, SIGKILL)));
	printf("kill(INT_MIN, 0): %s\n", err(kill(INT_MIN, 0)));
	printf("kill(-1, 0): %s\n", err(kill(-1, 0)));

	/* The group outlives its leader while it has a member. */
	pid_t d = spawn('D', c);
	reap(c);
	printf("C gone, D in its group: kill(-C, 0): %s\n", err(kill(-c, 0)));
	try_kill("kill(-C, SIGUSR1)", -c, SIGUSR1, 1);
	reap(d);
	printf("D gone too: kill(-C, 0): %s, kill(-C, SIGUSR1): %s\n", err(kill(-c, 0)), err(kill(-c, SIGUSR1)));

	union sigval v = { .sival_int = 0 };
	printf("sigqueue(self, 0): %s\n", err(sigqueue(getpid(), 0, v)));
	printf("sigqueue(reaped child, 0): %s\n", err(sigqueue(d, 0, v)));
	printf("kill(reaped child, 0): %s\n", err(kill(d, 0)));
	reap(a);
	reap(b);
	try_kill("kill(0, SIGUSR1) alone", 0, SIGUSR1, 1);
	return 0;
}
