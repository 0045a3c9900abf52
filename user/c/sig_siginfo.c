/* sig_siginfo: what an SA_SIGINFO handler is told.
 *
 * si_signo, si_code, si_pid, si_uid and si_value for raise() (SI_TKILL),
 * kill() (SI_USER), sigqueue() (SI_QUEUE, with its value), a signal sent by a
 * child (si_pid is the child's) and SIGCHLD (CLD_EXITED with the status).
 * Also the ucontext: present, and its uc_sigmask is the mask from before the
 * handler. Never prints a pid: only whether it matched.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static siginfo_t last;
static volatile sig_atomic_t hits, had_uc, old_mask_had_sig;

static void handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	last = *si;
	had_uc = uc != NULL;
	old_mask_had_sig = uc != NULL && sigismember(&uc->uc_sigmask, sig);
	hits++;
}

static void show(const char *what, pid_t want_pid)
{
	printf("%s: signo %d, code %d, pid %s, uid %s\n", what, last.si_signo, last.si_code,
	       last.si_pid == want_pid ? "ok" : "WRONG", last.si_uid == getuid() ? "ok" : "WRONG");
}

static void install(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO;
	sigaction(sig, &sa, NULL);
}

int main(void)
{
	sigset_t block, old;
	union sigval v;

	setvbuf(stdout, NULL, _IONBF, 0);
	install(SIGUSR1);

	raise(SIGUSR1);
	show("raise", getpid());
	printf("ucontext passed: %s, old mask had the signal: %s\n", had_uc ? "yes" : "no", old_mask_had_sig ? "yes" : "no");

	kill(getpid(), SIGUSR1);
	show("kill", getpid());

	v.sival_int = 1234;
	sigqueue(getpid(), SIGUSR1, v);
	show("sigqueue", getpid());
	printf("sigqueue value: %d\n", last.si_value.sival_int);

	install(SIGRTMIN + 1);
	v.sival_int = -77;
	sigqueue(getpid(), SIGRTMIN + 1, v);
	printf("rt sigqueue: signo is SIGRTMIN+%d, code %d, value %d\n", last.si_signo - SIGRTMIN, last.si_code,
	       last.si_value.sival_int);

	/* From a child: si_pid is the sender's pid. Block first so it cannot be lost. */
	install(SIGUSR2);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR2);
	sigprocmask(SIG_BLOCK, &block, &old);
	pid_t child = fork();
	if (child == 0) {
		kill(getppid(), SIGUSR2);
		_exit(0);
	}
	hits = 0;
	while (hits == 0)
		sigsuspend(&old);
	show("kill from child", child);
	waitpid(child, NULL, 0);

	/* SIGCHLD with SA_SIGINFO: who exited and how. */
	install(SIGCHLD);
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, NULL);
	child = fork();
	if (child == 0)
		_exit(3);
	hits = 0;
	while (hits == 0)
		sigsuspend(&old);
	printf("SIGCHLD: signo %d, code %d (CLD_EXITED=%d), status %d, pid %s\n", last.si_signo, last.si_code,
	       CLD_EXITED, last.si_status, last.si_pid == child ? "ok" : "WRONG");
	waitpid(child, NULL, 0);

	child = fork();
	if (child == 0) {
		raise(SIGTERM);
		_exit(0);
	}
	hits = 0;
	while (hits == 0)
		sigsuspend(&old);
	printf("SIGCHLD: code %d (CLD_KILLED=%d), status %d, pid %s\n", last.si_code, CLD_KILLED,
	       last.si_status, last.si_pid == child ? "ok" : "WRONG");
	waitpid(child, NULL, 0);
	return 0;
}
