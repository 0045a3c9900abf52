/* cred_kill: users, and who may signal whom.
 *
 * Starts as root, makes a few root-owned victims (one in the caller's
 * session, one in a session of its own, one whose effective uid only is
 * 1000), then a worker that drops to uid 1000 ("student" in /etc/passwd)
 * for good and tries to signal them: kill, kill to a process group, tgkill,
 * sigqueue and pidfd_send_signal are refused with EPERM (Linux's rule: the sender's real or
 * effective uid must be the target's real or saved uid), except SIGCONT
 * within the session; its own process and its own child can be signalled.
 * A temporary drop (seteuid) shows that the real uid still counts, and that
 * the saved uid lets root take its privilege back. Root, at last, may
 * signal anyone. No pid is printed, so the output is the same on any run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *err(int r)
{
	return r == 0 ? "ok" : strerror(errno);
}

static void ids(const char *who)
{
	uid_t r, e, s;
	gid_t gr, ge, gs, list[8];

	getresuid(&r, &e, &s);
	getresgid(&gr, &ge, &gs);
	int n = getgroups(8, list);
	printf("%s: uid %u/%u/%u gid %u/%u/%u, %d groups", who, r, e, s, gr, ge, gs, n);
	for (int i = 0; i < n; i++)
		printf(" %u", list[i]);
	printf("\n");
}

/* A root-owned process that sets itself up with `setup`, says so on the
 * pipe, and waits for its end. */
static pid_t victim(void (*setup)(void))
{
	int p[2];
	char c;

	pipe(p);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		setup();
		write(p[1], "x", 1);
		for (;;)
			pause();
	}
	close(p[1]);
	read(p[0], &c, 1);
	close(p[0]);
	return pid;
}

static void own_group(void) { setpgid(0, 0); }
static void own_session(void) { setsid(); }
static void effective_only(void) { setresuid(0, 1000, 0); }

static void try_kill(const char *what, pid_t pid, int sig)
{
	errno = 0;
	int r = kill(pid, sig);
	printf("kill(%s, %d): %s\n", what, sig, err(r));
}

static void worker(pid_t root, pid_t loner, pid_t daemon)
{
	gid_t g = 1000;
	int r;

	printf("setgroups: %s\n", err(setgroups(1, &g)));
	printf("setresgid(1000): %s\n", err(setresgid(1000, 1000, 1000)));
	printf("setresuid(1000): %s\n", err(setresuid(1000, 1000, 1000)));
	ids("worker");
	errno = 0;
	printf("setuid(0): %s\n", err(setuid(0)));
	printf("seteuid(0): %s\n", err(seteuid(0)));
	printf("setgroups as user: %s\n", err(setgroups(1, &g)));
	int old = setfsuid(0);
	printf("setfsuid(0) returns %d, fsuid stays %d\n", old, setfsuid(-1));

	try_kill("root victim", root, SIGTERM);
	try_kill("root victim", root, 0);
	try_kill("root victim's group", -root, SIGTERM);
	errno = 0;
	r = syscall(SYS_tgkill, root, root, SIGTERM);
	printf("tgkill(root victim): %s\n", err(r));
	errno = 0;
	r = sigqueue(root, SIGUSR1, (union sigval){ .sival_int = 7 });
	printf("sigqueue(root victim): %s\n", err(r));
	int pfd = syscall(SYS_pidfd_open, root, 0);
	errno = 0;
	r = syscall(SYS_pidfd_send_signal, pfd, SIGTERM, NULL, 0);
	printf("pidfd_send_signal(root victim): %s\n", err(r));
	try_kill("root victim", root, SIGCONT);
	try_kill("root in another session", loner, SIGCONT);
	try_kill("root with euid 1000", daemon, SIGTERM);
	try_kill("itself", getpid(), 0);

	pid_t mine = fork();
	if (mine == 0) {
		for (;;)
			pause();
	}
	pfd = syscall(SYS_pidfd_open, mine, 0);
	errno = 0;
	r = syscall(SYS_pidfd_send_signal, pfd, 0, NULL, 0);
	printf("pidfd_send_signal(own child, 0): %s\n", err(r));
	try_kill("own child", mine, SIGTERM);
	int status;
	waitpid(mine, &status, 0);
	printf("own child: killed by %d\n", WIFSIGNALED(status) ? WTERMSIG(status) : -1);
	errno = 0;
	r = sigqueue(getpid(), SIGUSR1, (union sigval){ .sival_int = 7 });
	printf("sigqueue(itself, SIGUSR1 blocked): %s\n", err(r));
	exit(0);
}

int main(void)
{
	int status;
	sigset_t usr1;

	setvbuf(stdout, NULL, _IONBF, 0);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	setgroups(0, NULL);
	ids("start");

	pid_t root = victim(own_group);
	pid_t loner = victim(own_session);
	pid_t daemon = victim(effective_only);

	pid_t w = fork();
	if (w == 0)
		worker(root, loner, daemon);
	waitpid(w, &status, 0);
	printf("worker exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);

	/* A temporary drop: the real uid 0 still matches root's processes. */
	printf("seteuid(1000): %s\n", err(seteuid(1000)));
	ids("dropped");
	try_kill("root victim, real uid 0", root, 0);
	printf("setuid(0) with saved uid 0: %s\n", err(setuid(0)));
	printf("seteuid(0): %s\n", err(seteuid(0)));
	ids("back");

	pid_t all[] = { root, loner, daemon };
	for (int i = 0; i < 3; i++) {
		try_kill("a victim, as root", all[i], SIGKILL);
		waitpid(all[i], &status, 0);
		printf("victim %d: killed by %d\n", i, WIFSIGNALED(status) ? WTERMSIG(status) : -1);
	}
	return 0;
}
