/* futex and futex_time64 called directly, one rule per line: EAGAIN when
 * the word changed, ETIMEDOUT for relative (WAIT) and absolute
 * (WAIT_BITSET) timeouts, EINVAL for a zero bitset, a misaligned word or a
 * bad timespec, EFAULT for a bad address, ENOSYS for CLOCK_REALTIME on a
 * wake (the PI operations, ENOSYS on Sigil, are not here: Linux implements
 * them, and host-tests cover the decoding); WAKE counts, bitsets, REQUEUE,
 * CMP_REQUEUE (and its EAGAIN), WAKE_OP, and EINTR from a signal. Waiters
 * are threads parked on the word; main checks how many each call woke. */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long fx(void *addr, int op, uint32_t val, void *ts, void *addr2, uint32_t val3)
{
	return syscall(SYS_futex, addr, op, val, ts, addr2, val3);
}

static void show(const char *what, long r)
{
	printf("%s: %ld%s%s\n", what, r, r < 0 ? " " : "", r < 0 ? strerror(errno) : "");
}

static uint32_t word, word2;
static volatile int parked, done;

/* A waiter parked on `word` (value 0) with bitset `arg`, until woken. */
static void *waiter(void *arg)
{
	uint32_t bits = (uint32_t)(uintptr_t)arg;
	__atomic_add_fetch(&parked, 1, __ATOMIC_SEQ_CST);
	while (fx(&word, FUTEX_WAIT_BITSET_PRIVATE, 0, NULL, NULL, bits) != 0 && errno == EINTR)
		;
	__atomic_add_fetch(&done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static pthread_t park(int n, uint32_t bits)
{
	pthread_t t = 0;
	int before = parked;
	for (int i = 0; i < n; i++)
		pthread_create(&t, NULL, waiter, (void *)(uintptr_t)bits);
	while (parked < before + n)
		usleep(1000);
	usleep(20000); /* each is inside FUTEX_WAIT by now */
	return t;
}

static void settle(int want)
{
	for (int i = 0; i < 500 && done < want; i++)
		usleep(1000);
}

static void on_usr1(int s) { (void)s; }

static void *interrupt_me(void *arg)
{
	usleep(20000);
	pthread_kill(*(pthread_t *)arg, SIGUSR1);
	return NULL;
}

int main(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 }, abs, bad = { 0, 1000000000 };
	uint32_t w1 = 1;
	show("WAIT, word changed", fx(&w1, FUTEX_WAIT, 0, NULL, NULL, 0));
	show("WAIT, 10 ms relative timeout", fx(&w1, FUTEX_WAIT, 1, &ts, NULL, 0));
	clock_gettime(CLOCK_MONOTONIC, &abs);
	abs.tv_nsec += 10000000;
	if (abs.tv_nsec >= 1000000000) {
		abs.tv_sec++;
		abs.tv_nsec -= 1000000000;
	}
	show("WAIT_BITSET, absolute MONOTONIC deadline", fx(&w1, FUTEX_WAIT_BITSET, 1, &abs, NULL, ~0u));
	/* Long past on any clock (Sigil's CLOCK_REALTIME starts at boot). */
	abs.tv_sec = 0;
	abs.tv_nsec = 1;
	show("WAIT_BITSET|CLOCK_REALTIME, deadline passed", fx(&w1, FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, 1, &abs, NULL, ~0u));
	show("WAIT, tv_nsec 1e9", fx(&w1, FUTEX_WAIT, 1, &bad, NULL, 0));
	show("WAIT_BITSET, bitset 0", fx(&w1, FUTEX_WAIT_BITSET, 1, NULL, NULL, 0));
	show("WAIT, misaligned word", fx((char *)&w1 + 1, FUTEX_WAIT, 1, &ts, NULL, 0));
	show("WAIT, bad address", fx((void *)0xc0000000, FUTEX_WAIT, 1, &ts, NULL, 0));
	show("WAIT, timespec at a bad address", fx(&w1, FUTEX_WAIT, 1, (void *)0xc0000000, NULL, 0));
	show("WAKE|CLOCK_REALTIME", fx(&w1, FUTEX_WAKE | FUTEX_CLOCK_REALTIME, 1, NULL, NULL, 0));
	show("WAKE, nobody waiting", fx(&w1, FUTEX_WAKE, 1, NULL, NULL, 0));
	show("futex_time64 WAIT, 10 ms", syscall(422, &w1, FUTEX_WAIT, 1, (int64_t[]){ 0, 10000000 }, NULL, 0));

	/* EINTR: a handler runs while we wait. */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	pthread_t self = pthread_self(), k;
	pthread_create(&k, NULL, interrupt_me, &self);
	struct timespec long_ts = { 5, 0 };
	show("WAIT, a handler runs", fx(&w1, FUTEX_WAIT, 1, &long_ts, NULL, 0));
	pthread_join(k, NULL);

	/* WAKE counts and bitsets: 3 waiters with bitset 1, 2 with bitset 2. */
	park(3, 1);
	park(2, 2);
	show("WAKE_BITSET 2, up to 10", fx(&word, FUTEX_WAKE_BITSET_PRIVATE, 10, NULL, NULL, 2));
	settle(2);
	show("WAKE 2", fx(&word, FUTEX_WAKE_PRIVATE, 2, NULL, NULL, 0));
	settle(4);
	show("WAKE 10", fx(&word, FUTEX_WAKE_PRIVATE, 10, NULL, NULL, 0));
	settle(5);

	/* REQUEUE: 4 waiters, wake 1, move 2 to word2, 1 stays. */
	park(4, ~0u);
	show("CMP_REQUEUE, word changed", fx(&word, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)2, &word2, 7));
	show("CMP_REQUEUE wake 1, move 2", fx(&word, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)2, &word2, 0));
	settle(6);
	show("WAKE on the second word", fx(&word2, FUTEX_WAKE_PRIVATE, 10, NULL, NULL, 0));
	settle(8);
	show("REQUEUE wake 0, move 1", fx(&word, FUTEX_REQUEUE_PRIVATE, 0, (void *)1, &word2, 0));
	show("WAKE the moved one", fx(&word2, FUTEX_WAKE_PRIVATE, 10, NULL, NULL, 0));
	settle(9);

	/* WAKE_OP: word2 += 5 (old 0); wake 1 on word, and on word2 if old == 0. */
	park(2, ~0u);
	uint32_t op = FUTEX_OP(FUTEX_OP_ADD, 5, FUTEX_OP_CMP_EQ, 0);
	show("WAKE_OP ADD 5, CMP_EQ 0", fx(&word, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1, &word2, op));
	printf("word2 after WAKE_OP: %u\n", word2);
	settle(10);
	show("WAKE_OP, bad op", fx(&word, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1, &word2, 0x70000000));
	show("WAKE the last", fx(&word, FUTEX_WAKE_PRIVATE, 10, NULL, NULL, 0));
	settle(11);
	printf("waiters woken in all: %d of %d\n", done, parked);
	return 0;
}
