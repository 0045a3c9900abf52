/* jobs_subreaper: prctl(PR_SET_CHILD_SUBREAPER), and the orphaned-group
 * rule with a subreaper as the new parent.
 *
 * The program S makes itself a child subreaper and forks M, which forks a
 * job J in a group of its own; J stops itself, M sees it stop and exits.
 * J then goes to S, not to init, and whether J's group is orphaned now
 * depends on S:
 * - M in a session of its own (as a shell is): S is in another session,
 *   so it links nothing; the group is orphaned with a stopped member, and
 *   J gets SIGHUP then SIGCONT. This is a console session's logout.
 * - M in S's session: S, in another group of that session, still links J's
 *   group; nobody is hung up, and S continues J itself.
 * J exits with what it saw, which S (its parent now) reaps.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t hup;
static pid_t reaper;

static void on_hup(int sig)
{
	(void)sig;
	hup = 1;
}

/* J: stops; once continued, exits with bit 0 = hung up, bit 1 = adopted by S. */
static void job(void)
{
	signal(SIGHUP, on_hup);
	setpgid(0, 0);
	raise(SIGSTOP);
	_exit(hup | (getppid() == reaper) << 1);
}

/* M: J's parent until J has stopped; tells S J's pid. */
static void middle(int new_session, int fd)
{
	int status;
	pid_t j;

	if (new_session)
		setsid();
	else
		setpgid(0, 0);
	j = fork();
	if (j == 0)
		job();
	setpgid(j, j);
	if (waitpid(j, &status, WUNTRACED) != j || !WIFSTOPPED(status))
		_exit(1);
	write(fd, &j, sizeof j);
	_exit(0);
}

static void scenario(const char *what, int new_session)
{
	int fds[2], status;
	pid_t m, j = 0;

	pipe(fds);
	m = fork();
	if (m == 0)
		middle(new_session, fds[1]);
	waitpid(m, &status, 0);
	read(fds[0], &j, sizeof j);
	close(fds[0]);
	close(fds[1]);
	if (!new_session)
		kill(j, SIGCONT);
	if (waitpid(j, &status, 0) != j) {
		printf("%s: J not ours: %s\n", what, strerror(errno));
		return;
	}
	printf("%s: J adopted by the subreaper: %s, hung up: %s\n", what,
	       WEXITSTATUS(status) & 2 ? "yes" : "no", WEXITSTATUS(status) & 1 ? "yes" : "no");
}

int main(void)
{
	int before = -1, after = -1, status;
	pid_t c;

	setvbuf(stdout, NULL, _IONBF, 0);
	reaper = getpid();
	prctl(PR_GET_CHILD_SUBREAPER, &before);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		perror("prctl(PR_SET_CHILD_SUBREAPER)");
	prctl(PR_GET_CHILD_SUBREAPER, &after);
	c = fork();
	if (c == 0) {
		int v = -1;
		prctl(PR_GET_CHILD_SUBREAPER, &v);
		_exit(v);
	}
	waitpid(c, &status, 0);
	printf("subreaper: before %d, after %d, in a child %d\n", before, after,
	       WEXITSTATUS(status));
	scenario("M in a session of its own", 1);
	scenario("M in our session", 0);
	errno = 0;
	printf("prctl(unknown option): %s\n", prctl(0x5155, 0) < 0 ? strerror(errno) : "ok");
	return 0;
}
