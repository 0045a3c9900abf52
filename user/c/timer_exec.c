/* timer_exec: what execve does to timers (Sigil only: qemu-ppc cannot
 * execve a ppc32 binary without binfmt_misc, so there is no reference run).
 *
 * Linux keeps ITIMER_REAL (the alarm) across execve and deletes the POSIX
 * timers: the new image sees the alarm's time left, and the old timer id
 * is gone (EINVAL). Run with no argument; it re-executes itself with
 * "after <id>".
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc > 2 && strcmp(argv[1], "after") == 0) {
		struct itimerspec cur;
		timer_t old = (timer_t)(intptr_t)atoi(argv[2]);
		printf("after exec: timer_gettime(old timer): %s\n",
		       timer_gettime(old, &cur) == 0 ? "still there" : strerror(errno));
		printf("after exec: alarm left %u\n", alarm(0));
		return 0;
	}
	struct sigevent ev;
	timer_t t;
	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGUSR1;
	timer_create(CLOCK_MONOTONIC, &ev, &t);
	struct itimerspec its = { { 1, 0 }, { 5, 0 } };
	timer_settime(t, 0, &its, NULL);
	alarm(10);
	char id[16];
	snprintf(id, sizeof id, "%d", (int)(intptr_t)t);
	printf("before exec: timer %s armed, alarm(10) set\n", id);
	char *args[] = { argv[0], "after", id, NULL };
	execv(argv[0], args);
	printf("execv: %s\n", strerror(errno));
	return 1;
}
