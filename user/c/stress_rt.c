/* stress_rt: 32 processes exchange 100000 real-time signals; none may be
 * lost, duplicated or reordered. Then standard signals must coalesce.
 *
 * Usage: stress_rt [total]   (default 100000)
 *
 * Worker i sends total/32 signals with sigqueue(), the k-th to worker
 * (i + 1 + k % 31) % 32, carrying the value (i << 24) | n, where n counts
 * what i has sent to that worker so far. A receiver's handler checks that,
 * per sender, n runs 0, 1, 2... (a gap is a loss, a repeat a duplicate, a
 * step back a reordering) and that si_pid is the sender's. Workers keep the
 * signal blocked while they send, so queues fill up: when a target's queue is
 * full, sigqueue fails with EAGAIN (the RT queue limit) and the sender
 * unblocks for a moment (draining its own queue, so no one waits for ever),
 * yields and retries. Each worker then waits (at most
 * 30 s) until it has what the plan says it gets, and reports its counts to
 * the parent through a pipe.
 *
 * Coalescing (Linux's rule): a blocked standard signal sent 1000 times by
 * kill() and sigqueue() from 4 processes is delivered once on unblocking;
 * an RT signal sent alongside it 5 times is delivered 5 times.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WORKERS 32

static pid_t pids[WORKERS];
static int self;
static volatile int next_seq[WORKERS];
static volatile int received, bad_order, bad_pid, bad_code;

struct report {
	int index, sent, received, expected, bad_order, bad_pid, bad_code, eagain;
};

static void on_rt(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	int from = (unsigned)si->si_value.sival_int >> 24, n = si->si_value.sival_int & 0xffffff;
	if (from >= WORKERS || n != next_seq[from])
		bad_order++;
	else
		next_seq[from]++;
	if (from < WORKERS && si->si_pid != pids[from])
		bad_pid++;
	if (si->si_code != SI_QUEUE)
		bad_code++;
	received++;
}

/* How many signals worker `to` gets from worker `from` under the plan. */
static int planned(int from, int to, int per_worker)
{
	if (from == to)
		return 0;
	int d = ((to - from - 1) % WORKERS + WORKERS) % WORKERS;
	return per_worker / (WORKERS - 1) + (d < per_worker % (WORKERS - 1));
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void worker(int table_fd, int report_fd, int per_worker)
{
	struct report r = { .index = self };
	int sent_to[WORKERS] = { 0 };
	sigset_t rt;

	for (size_t got = 0; got < sizeof pids;) {
		ssize_t n = read(table_fd, (char *)pids + got, sizeof pids - got);
		if (n <= 0)
			_exit(10);
		got += n;
	}
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN + 1);
	for (int i = 0; i < WORKERS; i++)
		r.expected += planned(i, self, per_worker);
	for (int k = 0; k < per_worker; k++) {
		int to = (self + 1 + k % (WORKERS - 1)) % WORKERS;
		union sigval v = { .sival_int = (self << 24) | sent_to[to] };
		while (sigqueue(pids[to], SIGRTMIN + 1, v) < 0) {
			if (errno != EAGAIN)
				_exit(11);
			r.eagain++;
			sigprocmask(SIG_UNBLOCK, &rt, NULL);
			sigprocmask(SIG_BLOCK, &rt, NULL);
			sched_yield();
		}
		sent_to[to]++;
		r.sent++;
	}
	sigprocmask(SIG_UNBLOCK, &rt, NULL);
	double deadline = now() + 30;
	while (received < r.expected && now() < deadline) {
		struct timespec t = { 0, 1000000 };
		nanosleep(&t, NULL);
	}
	r.received = received;
	r.bad_order = bad_order;
	r.bad_pid = bad_pid;
	r.bad_code = bad_code;
	/* Anything arriving late would be a duplicate or a stray: look once more. */
	struct timespec t = { 0, 20000000 };
	nanosleep(&t, NULL);
	if (received != r.received)
		r.bad_order += received - r.received;
	write(report_fd, &r, sizeof r);
	_exit(0);
}

static int stress(int total)
{
	int table[2], reports[2], per_worker = total / WORKERS;
	struct sigaction sa;
	sigset_t rt;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_rt;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGRTMIN + 1, &sa, NULL);
	/* Blocked while workers send (see worker()). */
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN + 1);
	sigprocmask(SIG_BLOCK, &rt, NULL);
	if (pipe(table) < 0 || pipe(reports) < 0)
		return 1;
	for (self = 0; self < WORKERS; self++) {
		pids[self] = fork();
		if (pids[self] < 0) {
			perror("stress_rt: fork");
			return 1;
		}
		if (pids[self] == 0) {
			close(table[1]);
			close(reports[0]);
			worker(table[0], reports[1], per_worker);
		}
	}
	close(table[0]);
	close(reports[1]);
	for (int i = 0; i < WORKERS; i++)
		write(table[1], pids, sizeof pids);
	close(table[1]);

	long sent = 0, got = 0, expected = 0, bad = 0, eagain = 0, reported = 0;
	struct report r;
	while (read(reports[0], &r, sizeof r) == sizeof r) {
		sent += r.sent;
		got += r.received;
		expected += r.expected;
		bad += r.bad_order + r.bad_pid + r.bad_code;
		eagain += r.eagain;
		reported++;
		if (r.received != r.expected || r.bad_order || r.bad_pid || r.bad_code)
			printf("worker %d: received %d of %d, out of order %d, wrong si_pid %d, wrong si_code %d\n",
			       r.index, r.received, r.expected, r.bad_order, r.bad_pid, r.bad_code);
	}
	int clean = 0, status;
	for (int i = 0; i < WORKERS; i++)
		if (waitpid(pids[i], &status, 0) == pids[i] && WIFEXITED(status) && WEXITSTATUS(status) == 0)
			clean++;
	printf("stress_rt: %d processes, %ld RT signals sent, %ld received, %ld planned\n", WORKERS, sent, got, expected);
	printf("stress_rt: lost %ld, duplicated or out of order %ld, workers reporting %ld, clean exits %d\n",
	       expected - got > 0 ? expected - got : 0, bad, reported, clean);
	printf("stress_rt: queue-full retries (EAGAIN): %s\n", eagain ? "seen" : "none");
	fprintf(stderr, "stress_rt: %ld EAGAIN retries\n", eagain);
	sigprocmask(SIG_UNBLOCK, &rt, NULL);
	return !(sent == expected && got == expected && sent == per_worker * WORKERS && bad == 0 && clean == WORKERS);
}

static volatile int usr1, rt_seen;

static void on_usr1(int sig)
{
	(void)sig;
	usr1++;
}

static void on_rt_count(int sig)
{
	(void)sig;
	rt_seen++;
}

/* A blocked standard signal sent many times is pending once. */
static int coalescing(void)
{
	sigset_t set;
	signal(SIGUSR1, on_usr1);
	signal(SIGRTMIN + 2, on_rt_count);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGRTMIN + 2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	pid_t me = getpid(), kids[4];
	for (int c = 0; c < 4; c++) {
		kids[c] = fork();
		if (kids[c] == 0) {
			for (int i = 0; i < 250; i++) {
				if (i % 2)
					kill(me, SIGUSR1);
				else
					sigqueue(me, SIGUSR1, (union sigval){ .sival_int = i });
			}
			_exit(0);
		}
	}
	for (int c = 0; c < 4; c++)
		waitpid(kids[c], NULL, 0);
	for (int i = 0; i < 5; i++)
		sigqueue(me, SIGRTMIN + 2, (union sigval){ .sival_int = i });
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	printf("coalescing: SIGUSR1 sent 1000 times while blocked: %d delivery; SIGRTMIN+2 sent 5 times: %d deliveries\n",
	       usr1, rt_seen);
	return !(usr1 == 1 && rt_seen == 5);
}

int main(int argc, char **argv)
{
	int total = argc > 1 ? atoi(argv[1]) : 100000;
	setvbuf(stdout, NULL, _IONBF, 0);
	int bad = stress(total);
	bad |= coalescing() << 1;
	printf("stress_rt: %s\n", bad ? "FAILED" : "ok");
	return bad;
}
