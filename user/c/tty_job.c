/* tty_job: a job for the console tests to stop, continue and hang up, that
 * says what happened to it (on stderr, the console, so it works in a
 * pipeline too).
 *   tty_job        prints "job ready", then after each SIGCONT "job continued
 *                  in the foreground" or "... background" (tcgetpgrp), and
 *                  on SIGHUP "job hung up" and exits 1; runs until killed.
 *   tty_job read   reads stdin once and prints what it got or the error
 *                  (a background read is stopped by SIGTTIN first).
 *   tty_job ids    prints its pid, process group and session, and exits.
 * The messages are written with write(2), so they are safe in handlers.
 *
 * SIGCONT and SIGHUP stay blocked except inside sigsuspend: with a plain
 * pause() loop, a stop taken before the job reaches pause (Ctrl-Z typed
 * while it still returns from the write of "job ready") runs the SIGCONT
 * handler before pause, which then sleeps with the news unsaid (the classic
 * lost wake-up; Linux behaves the same). */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t continued, hung_up;

static void on_cont(int sig)
{
	(void)sig;
	continued = 1;
}

static void on_hup(int sig)
{
	(void)sig;
	hung_up = 1;
}

static void say(const char *s)
{
	write(2, s, strlen(s));
}

int main(int argc, char **argv)
{
	char line[128];

	if (argc > 1 && strcmp(argv[1], "ids") == 0) {
		int n = snprintf(line, sizeof line, "job pid %d pgrp %d sid %d\n",
				 (int)getpid(), (int)getpgrp(), (int)getsid(0));
		write(2, line, n);
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "read") == 0) {
		ssize_t n = read(0, line, sizeof line - 1);
		if (n < 0)
			perror("job read");
		else
			fprintf(stderr, "job read %zd bytes\n", n);
		return 0;
	}
	sigset_t news, old;
	sigemptyset(&news);
	sigaddset(&news, SIGCONT);
	sigaddset(&news, SIGHUP);
	sigprocmask(SIG_BLOCK, &news, &old);
	signal(SIGCONT, on_cont);
	signal(SIGHUP, on_hup);
	say("job ready\n");
	for (;;) {
		sigsuspend(&old);
		if (hung_up) {
			say("job hung up\n");
			return 1;
		}
		if (continued) {
			continued = 0;
			say(tcgetpgrp(2) == getpgrp() ? "job continued in the foreground\n"
						      : "job continued in the background\n");
		}
	}
}
