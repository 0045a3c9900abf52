/* jobs_waitid: waitid and the siginfo it fills in.
 *
 * P_PID, P_PGID (0 = the caller's group) and P_ALL; WEXITED, WSTOPPED,
 * WCONTINUED, WNOHANG (nothing to report: 0 and a zeroed siginfo) and
 * WNOWAIT (the event stays to be reported again); CLD_EXITED, CLD_KILLED,
 * CLD_STOPPED, CLD_CONTINUED with si_status; EINVAL for no event flag or a
 * bad idtype, ECHILD when nothing matches.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NO_PID 0x7ffffff0

static pid_t expect;

static const char *code(int c)
{
	switch (c) {
	case CLD_EXITED: return "CLD_EXITED";
	case CLD_KILLED: return "CLD_KILLED";
	case CLD_DUMPED: return "CLD_DUMPED";
	case CLD_STOPPED: return "CLD_STOPPED";
	case CLD_CONTINUED: return "CLD_CONTINUED";
	case 0: return "0";
	}
	return "?";
}

static void show(const char *what, idtype_t type, id_t id, int options)
{
	siginfo_t si;
	memset(&si, 0x55, sizeof si);
	errno = 0;
	int r = waitid(type, id, &si, options);
	if (r < 0) {
		printf("%s: -1, %s\n", what, strerror(errno));
		return;
	}
	/* Nothing to report (WNOHANG): POSIX says si_signo and si_pid are 0.
	 * Linux zeroes si_status too; qemu-ppc leaves it as it was, so it is
	 * not printed then (Sigil zeroes all six fields, as Linux). */
	if (si.si_pid == 0) {
		printf("%s: %d, signo %d, pid 0\n", what, r, si.si_signo);
		return;
	}
	printf("%s: %d, signo %d, code %s, pid %s, uid %d, status %d\n", what, r, si.si_signo, code(si.si_code),
	       si.si_pid == expect ? "the child" : "another", (int)si.si_uid, si.si_status);
}

static pid_t child(int code)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(code);
	return pid;
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	show("no children", P_ALL, 0, WEXITED);
	expect = child(5);
	show("P_PID, WEXITED", P_PID, expect, WEXITED);
	expect = child(6);
	show("P_PID, WEXITED|WNOWAIT", P_PID, expect, WEXITED | WNOWAIT);
	show("P_ALL, WEXITED|WNOWAIT again", P_ALL, 0, WEXITED | WNOWAIT);
	show("P_ALL, WEXITED (reaps)", P_ALL, 0, WEXITED);
	show("P_ALL after the reap", P_ALL, 0, WEXITED);

	int p[2];
	pipe(p);
	expect = fork();
	if (expect == 0) {
		char c;
		raise(SIGSTOP);
		read(p[0], &c, 1);
		_exit(0);
	}
	show("WEXITED|WNOHANG while it runs or stops", P_PID, expect, WEXITED | WNOHANG);
	show("WSTOPPED|WNOWAIT", P_PID, expect, WSTOPPED | WNOWAIT);
	show("WSTOPPED", P_PID, expect, WSTOPPED);
	show("WSTOPPED|WNOHANG (already reported)", P_PID, expect, WSTOPPED | WNOHANG);
	kill(expect, SIGCONT);
	show("WCONTINUED", P_PID, expect, WCONTINUED);
	kill(expect, SIGKILL);
	show("WEXITED after SIGKILL", P_PID, expect, WEXITED);

	expect = fork();
	if (expect == 0) {
		setpgid(0, 0);
		_exit(7);
	}
	setpgid(expect, expect);
	show("P_PGID its group", P_PGID, expect, WEXITED);
	expect = child(8);
	show("P_PGID 0 (our group)", P_PGID, 0, WEXITED);

	show("options 0", P_ALL, 0, 0);
	show("WNOHANG alone", P_ALL, 0, WNOHANG);
	show("idtype 7", 7, 0, WEXITED);
	expect = child(9);
	show("P_PID no such child", P_PID, NO_PID, WEXITED);
	show("P_PGID no such group", P_PGID, NO_PID, WEXITED);
	show("P_ALL, WSTOPPED|WCONTINUED|WEXITED", P_ALL, 0, WSTOPPED | WCONTINUED | WEXITED);
	return 0;
}
