/* futex_pingpong_bench: two threads hand a token back and forth through one
 * futex word, FUTEX_WAIT while it is not their turn and FUTEX_WAKE after
 * passing it: each round trip is two waits, two wakes and two switches.
 * argv[1] round trips (default 65536). Prints nothing; exits 0 when every
 * round trip completed. */
#include <linux/futex.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile int turn; /* 0: main's turn, 1: the partner's */
static int rounds;

static void pass(int to)
{
	turn = to;
	syscall(SYS_futex, &turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void wait_for(int me)
{
	while (turn != me)
		syscall(SYS_futex, &turn, FUTEX_WAIT_PRIVATE, !me, NULL, NULL, 0);
}

static void *partner(void *arg)
{
	(void)arg;
	for (int i = 0; i < rounds; i++) {
		wait_for(1);
		pass(0);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	rounds = argc > 1 ? atoi(argv[1]) : 65536;
	pthread_t t;
	pthread_create(&t, NULL, partner, NULL);
	for (int i = 0; i < rounds; i++) {
		pass(1);
		wait_for(0);
	}
	pthread_join(t, NULL);
	return 0;
}
