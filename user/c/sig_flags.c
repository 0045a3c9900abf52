/* sig_flags: SA_RESETHAND, SA_NODEFER, SA_RESTART.
 *
 * SA_RESETHAND runs the handler once and restores SIG_DFL. SA_NODEFER lets a
 * handler be interrupted by its own signal (nesting depth 3), without it the
 * re-raise waits (depth 1). A read() on an empty pipe interrupted by a handled
 * signal restarts with SA_RESTART and fails with EINTR without it;
 * nanosleep() and pause() return EINTR either way. A child sends the signal
 * after a short sleep, so the parent is already blocked when it arrives.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t hits, depth, max_depth;

static void counting(int sig)
{
	(void)sig;
	hits++;
}

static void recursive(int sig)
{
	depth++;
	if (depth > max_depth)
		max_depth = depth;
	hits++;
	if (hits < 3)
		raise(sig);
	depth--;
}

static void install(int sig, void (*h)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = h;
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

/* Fork a child that signals us after 100 ms, then (if fd >= 0) writes "z" to fd after 200 ms more. */
static pid_t poke_later(int sig, int fd)
{
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		usleep(100000);
		kill(parent, sig);
		if (fd >= 0) {
			usleep(200000);
			write(fd, "z", 1);
		}
		_exit(0);
	}
	return pid;
}

static void read_test(const char *what, int flags)
{
	int p[2];
	char c = '-';

	if (pipe(p) != 0)
		return;
	install(SIGUSR1, counting, flags);
	hits = 0;
	pid_t child = poke_later(SIGUSR1, p[1]);
	errno = 0;
	ssize_t n = read(p[0], &c, 1);
	printf("read on a pipe, %s: returned %d, errno %s, data %c, handler ran %d\n", what, (int)n,
	       n < 0 ? strerror(errno) : "-", n > 0 ? c : '-', (int)hits);
	waitpid(child, NULL, 0);
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	struct sigaction now;

	setvbuf(stdout, NULL, _IONBF, 0);

	install(SIGUSR1, counting, SA_RESETHAND);
	raise(SIGUSR1);
	sigaction(SIGUSR1, NULL, &now);
	printf("SA_RESETHAND: handler ran %d, disposition now SIG_DFL: %s\n", (int)hits,
	       now.sa_handler == SIG_DFL ? "yes" : "no");

	hits = 0;
	max_depth = 0;
	install(SIGUSR2, recursive, SA_NODEFER);
	raise(SIGUSR2);
	printf("SA_NODEFER: handler ran %d, max nesting %d\n", (int)hits, (int)max_depth);
	hits = 0;
	max_depth = 0;
	install(SIGUSR2, recursive, 0);
	raise(SIGUSR2);
	printf("without SA_NODEFER: handler ran %d, max nesting %d\n", (int)hits, (int)max_depth);

	read_test("SA_RESTART", SA_RESTART);
	read_test("no SA_RESTART", 0);

	install(SIGUSR1, counting, SA_RESTART);
	hits = 0;
	pid_t child = poke_later(SIGUSR1, -1);
	struct timespec req = { 5, 0 }, rem = { 0, 0 };
	errno = 0;
	int r = nanosleep(&req, &rem);
	printf("nanosleep(5 s) with SA_RESTART: %d, errno %s, remaining > 3 s: %s, handler ran %d\n", r,
	       strerror(errno), rem.tv_sec >= 3 ? "yes" : "no", (int)hits);
	waitpid(child, NULL, 0);

	hits = 0;
	child = poke_later(SIGUSR1, -1);
	errno = 0;
	r = pause();
	printf("pause with SA_RESTART: %d, errno %s, handler ran %d\n", r, strerror(errno), (int)hits);
	waitpid(child, NULL, 0);
	return 0;
}
