/* sig_basic: signal() + raise(), the handler's view of the world.
 *
 * Counts deliveries, checks the handler gets its signal number, that the
 * signal is blocked while its own handler runs, that signal() returns the
 * previous disposition, that SIG_IGN and default-ignore signals do nothing,
 * and that a handler interrupted by another signal nests (recorded order).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t count1, count2, wrong_signo, blocked_inside;
static volatile char order[16];
static volatile sig_atomic_t norder;

static void note(char c)
{
	if (norder < (sig_atomic_t)sizeof order)
		order[norder++] = c;
}

static void on_usr1(int sig)
{
	sigset_t now;

	if (sig != SIGUSR1)
		wrong_signo++;
	sigprocmask(SIG_BLOCK, NULL, &now);
	if (sigismember(&now, SIGUSR1))
		blocked_inside++;
	count1++;
}

static void on_usr2(int sig)
{
	if (sig != SIGUSR2)
		wrong_signo++;
	count2++;
	note('2');
}

static void nest_outer(int sig)
{
	(void)sig;
	note('<');
	raise(SIGUSR2); /* a different signal: its handler runs right away, nested */
	note('>');
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);

	printf("first signal() returns SIG_DFL: %s\n", signal(SIGUSR1, on_usr1) == SIG_DFL ? "yes" : "no");
	for (int i = 0; i < 5; i++)
		raise(SIGUSR1);
	printf("after 5 raises: count %d\n", (int)count1);
	printf("SIGUSR1 blocked inside its handler: %d of %d\n", (int)blocked_inside, (int)count1);
	sigset_t now;
	sigprocmask(SIG_BLOCK, NULL, &now);
	printf("SIGUSR1 unblocked again after the handler: %s\n", sigismember(&now, SIGUSR1) ? "no" : "yes");

	signal(SIGUSR2, on_usr2);
	kill(getpid(), SIGUSR2);
	printf("kill(getpid()) delivered before kill returned: %s\n", count2 == 1 ? "yes" : "no");

	printf("signal(SIG_IGN) returns the old handler: %s\n", signal(SIGUSR1, SIG_IGN) == on_usr1 ? "yes" : "no");
	raise(SIGUSR1);
	printf("ignored raise: count still %d\n", (int)count1);
	signal(SIGUSR1, on_usr1);
	raise(SIGUSR1);
	printf("handler again: count %d\n", (int)count1);

	/* Signals whose default action is to ignore them. */
	raise(SIGCHLD);
	raise(SIGURG);
	raise(SIGWINCH);
	printf("SIGCHLD, SIGURG, SIGWINCH at default: still running\n");

	norder = 0;
	signal(SIGHUP, nest_outer);
	raise(SIGHUP);
	printf("nested order: %.*s\n", (int)norder, (const char *)order);
	printf("wrong signal numbers seen: %d\n", (int)wrong_signo);

	/* SIG_DFL restores the default: a SIGUSR1 with no handler would kill. */
	printf("signal(SIG_DFL) returns the handler: %s\n", signal(SIGUSR1, SIG_DFL) == on_usr1 ? "yes" : "no");
	printf("bad signal number: %s\n", signal(0, on_usr1) == SIG_ERR ? "SIG_ERR" : "accepted");
	printf("signal 65: %s\n", signal(65, on_usr1) == SIG_ERR ? "SIG_ERR" : "accepted");
	return 0;
}
