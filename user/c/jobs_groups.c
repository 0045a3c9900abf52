/* jobs_groups: process groups and sessions, as a shell uses them.
 *
 * The program starts as a group leader that is not a session leader (on
 * Sigil, init puts it in a group of its own; the test runner starts
 * qemu-ppc the same way). Checks, printing only what is the same on both:
 * getpgrp/getpgid/getsid agree; fork inherits the group and session; a
 * parent moves its child into a new group and back (setpgid), not into a
 * group that does not exist or a process it does not own (EPERM, ESRCH),
 * a group leader cannot start a session (EPERM) but its child can, becoming
 * leader of a new session and group, which it cannot leave.
 *
 * With the argument "exec" (Sigil only: qemu-ppc cannot execve a ppc32
 * binary without binfmt_misc): exec keeps the group and session, and the
 * parent can no longer move its exec'd child (EACCES).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Above Sigil's pids (at most 32767) and Linux's pid_max (at most 2^22). */
#define NO_PID 0x7ffffff0

static const char *err(int r)
{
	return r < 0 ? strerror(errno) : "ok";
}

static const char *yes(int c)
{
	return c ? "yes" : "no";
}

/* After exec: report our ids through the pipe, then wait for the parent. */
static int execed(int fd, int sync)
{
	char line[64];
	int n = snprintf(line, sizeof line, "%d %d\n", (int)getpgrp(), (int)getsid(0));
	write(fd, line, n);
	read(sync, line, 1);
	return 0;
}

int main(int argc, char **argv)
{
	int status, p[2], q[2];
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc == 4 && strcmp(argv[1], "execed") == 0)
		return execed(atoi(argv[2]), atoi(argv[3]));

	pid_t me = getpid(), pg = getpgrp(), sid = getsid(0);
	printf("group leader: %s, session leader: %s\n", yes(pg == me), yes(sid == me));
	printf("getpgid(0) == getpgrp(): %s, getpgid(self) too: %s\n", yes(getpgid(0) == pg), yes(getpgid(me) == pg));
	printf("getsid(self) == getsid(0): %s\n", yes(getsid(me) == sid));
	errno = 0;
	printf("setsid as a group leader: %s\n", err(setsid()));
	printf("setpgid(0, -1): %s\n", err(setpgid(0, -1)));
	printf("setpgid(-5, 0): %s\n", err(setpgid(-5, 0)));
	printf("setpgid(0, 0) again: %s\n", err(setpgid(0, 0)));

	pipe(p);
	pid_t child = fork();
	if (child == 0) {
		char c;
		read(p[0], &c, 1);
		_exit(0);
	}
	printf("child inherits group: %s, session: %s\n", yes(getpgid(child) == pg), yes(getsid(child) == sid));
	printf("setpgid(child, child): %s, now its own group: %s\n", err(setpgid(child, child)),
	       yes(getpgid(child) == child));
	printf("setpgid(child, child) again: %s\n", err(setpgid(child, 0)));
	printf("setpgid(child, back to ours): %s, back: %s\n", err(setpgid(child, pg)), yes(getpgid(child) == pg));
	/* A pid far above any pid either side hands out: no such group. */
	printf("setpgid(child, no such group): %s\n", err(setpgid(child, NO_PID)));
	printf("setpgid(no such process, 0): %s\n", err(setpgid(NO_PID, 0)));
	printf("getpgid(no such process): %s, getsid: %s\n", err(getpgid(NO_PID)), err(getsid(NO_PID)));
	printf("setpgid(our parent, ...): %s\n", err(setpgid(getppid(), getppid())));
	write(p[1], "x", 1);
	waitpid(child, &status, 0);
	printf("setpgid(reaped child, 0): %s\n", err(setpgid(child, 0)));

	/* A child starts a session: leader of a new session and group. */
	pipe(q);
	child = fork();
	if (child == 0) {
		pid_t s = setsid(), self = getpid();
		int ok = s == self && getsid(0) == self && getpgrp() == self;
		errno = 0;
		int again = setsid();
		int e1 = errno;
		errno = 0;
		int move = setpgid(0, 0);
		int e2 = errno;
		errno = 0;
		int join = setpgid(0, pg);
		int e3 = errno;
		dprintf(q[1], "setsid in the child: %s; again: %s; setpgid as session leader: %s; "
			      "into the old group: %s\n",
			yes(ok), again < 0 ? strerror(e1) : "ok", move < 0 ? strerror(e2) : "ok",
			join < 0 ? strerror(e3) : "ok");
		_exit(0);
	}
	waitpid(child, &status, 0);
	char buf[256];
	int n = read(q[0], buf, sizeof buf - 1);
	buf[n > 0 ? n : 0] = 0;
	printf("%s", buf);

	/* A child in another session cannot be moved by its parent. */
	pipe(p);
	child = fork();
	if (child == 0) {
		char c;
		setsid();
		write(q[1], "s", 1);
		read(p[0], &c, 1);
		_exit(0);
	}
	read(q[0], buf, 1);
	printf("setpgid(child in its own session, ours): %s\n", err(setpgid(child, pg)));
	printf("getsid(that child) is its pid: %s\n", yes(getsid(child) == child));
	write(p[1], "x", 1);
	waitpid(child, &status, 0);

	if (argc < 2 || strcmp(argv[1], "exec") != 0)
		return 0;

	/* After the child's exec: EACCES; exec keeps the group and session. */
	int r[2], s[2];
	pipe(r);
	pipe(s);
	child = fork();
	if (child == 0) {
		char a[16], b[16];
		snprintf(a, sizeof a, "%d", r[1]);
		snprintf(b, sizeof b, "%d", s[0]);
		setpgid(0, 0);
		execl(argv[0], argv[0], "execed", a, b, (char *)NULL);
		_exit(127);
	}
	setpgid(child, child);
	int cpg = 0, csid = 0;
	n = read(r[0], buf, sizeof buf - 1);
	buf[n > 0 ? n : 0] = 0;
	sscanf(buf, "%d %d", &cpg, &csid);
	printf("after exec: group kept: %s, session kept: %s\n", yes(cpg == child), yes(csid == sid));
	printf("setpgid(exec'd child, ours): %s\n", err(setpgid(child, pg)));
	write(s[1], "x", 1);
	waitpid(child, &status, 0);
	printf("exec'd child exited: %d\n", WEXITSTATUS(status));
	return 0;
}
