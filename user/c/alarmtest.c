/* alarmtest: xv6's alarm lab, the Linux way (docs/labs/6/README.md).
 *
 * xv6 adds sigalarm(n, handler): call handler after every n ticks of CPU
 * time the process uses, and sigreturn to resume the interrupted code. On
 * Linux the same pieces already exist: ITIMER_VIRTUAL counts user CPU time
 * down and sends SIGVTALRM, sigaction installs the handler (blocked while
 * it runs), and the handler's return goes through rt_sigreturn, which puts
 * back every register from the frame on the user stack. The four tests
 * follow xv6's alarmtest:
 *   test0  the handler runs, again and again, while the process computes;
 *   test1  the interrupted code carries on with its registers intact
 *          (integer and floating point);
 *   test2  a handler that runs longer than the period is not re-entered:
 *          the next alarm waits, then is delivered after the handler;
 *   test3  r3 and CR0[SO], where a syscall returns its result, survive
 *          rt_sigreturn (itself a syscall).
 * Every wait is bounded by CPU time, so a kernel without the feature makes
 * the program fail, never hang. The output is the same under qemu-ppc.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

/* The period: one 10 ms sampling interval (Linux's tick at HZ=100). */
#define PERIOD_US 10000

static volatile sig_atomic_t alarms, depth, reentered;
static volatile double handler_fp;
/* test2 sets this: the next call of the handler burns this much user time. */
static volatile long long burn_ns;

static long long cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void on_alarm(int sig)
{
	(void)sig;
	if (++depth > 1)
		reentered = 1;
	/* Clobber registers the interrupted code may be using, FP included:
	 * rt_sigreturn must put them all back. */
	handler_fp = handler_fp * 1.5 + 1.0;
	long long burn = burn_ns;
	burn_ns = 0;
	if (burn) {
		long long until = cpu_ns() + burn;
		while (cpu_ns() < until)
			;
	}
	alarms++;
	depth--;
}

static void set_alarm(long us)
{
	struct itimerval it = { { 0, us }, { 0, us } };
	if (setitimer(ITIMER_VIRTUAL, &it, NULL) != 0) {
		perror("setitimer");
		exit(1);
	}
}

/* Computes until `want` more alarms have come or 2 s of CPU time pass. */
static int wait_alarms(int want)
{
	int target = alarms + want;
	long long until = cpu_ns() + 2000000000LL;
	while (alarms < target && cpu_ns() < until)
		;
	return alarms >= target;
}

static int test0(void)
{
	if (!wait_alarms(5)) {
		printf("test0 FAILED: %d alarms in 2 s of user time, want 5\n", (int)alarms);
		return 0;
	}
	printf("test0 passed: the handler ran 5 times\n");
	return 1;
}

/* Opaque to the optimiser, so the loop keeps i, j and x in registers across a call. */
__attribute__((noipa)) static void step(int i, int *j, double *x)
{
	*j = i + 1;
	*x += 0.5;
}

static int test1(void)
{
	int target = alarms + 10, j = 0;
	double x = 0;
	for (int i = 0; alarms < target; i++) {
		if (i != j || x != 0.5 * i) {
			printf("test1 FAILED: after %d alarms i=%d j=%d x=%g\n", (int)alarms, i, j, x);
			return 0;
		}
		if (i == 200000000) {
			printf("test1 FAILED: the alarms stopped\n");
			return 0;
		}
		step(i, &j, &x);
	}
	printf("test1 passed: 10 alarms, the loop's registers intact\n");
	return 1;
}

/* One slow call: three periods pass inside it, with SIGVTALRM blocked, so
 * the alarm waits (as one pending signal: a standard signal does not queue
 * twice) and comes as soon as the handler returns. (A handler slow every
 * time would never let the program run again, on Linux too.) */
static int test2(void)
{
	burn_ns = 3LL * PERIOD_US * 1000;
	int ok = wait_alarms(2);
	if (!ok || reentered) {
		printf("test2 FAILED: %s\n", reentered ? "the handler was re-entered" : "too few alarms");
		return 0;
	}
	printf("test2 passed: a slow handler is not re-entered\n");
	return 1;
}

/* Spins with r3 = -5 and CR0[SO] set (the two halves of a failed
 * syscall's result on ppc32) until an alarm has come, then reads them back.
 * rt_sigreturn is itself a syscall: its exit must leave the restored r3 and
 * CR alone, not write a result over them. */
static int test3(void)
{
	int target = alarms + 1;
	long r3;
	unsigned long cr;
	__asm__ volatile("li 3,-5\n"
			 "	creqv 3,3,3\n" /* CR0[SO] := 1 */
			 "1:	lwz 4,0(%2)\n"
			 "	cmpw 7,4,%3\n"
			 "	blt 7,1b\n"
			 "	mr %0,3\n"
			 "	mfcr %1\n"
			 : "=r"(r3), "=r"(cr)
			 : "b"(&alarms), "r"(target)
			 : "r3", "r4", "cr0", "cr7", "memory");
	if (r3 != -5 || !(cr & 0x10000000)) {
		printf("test3 FAILED: after the alarm r3 is %ld (was -5), CR0[SO] %d (was 1)\n", r3,
		       !!(cr & 0x10000000));
		return 0;
	}
	printf("test3 passed: r3 and CR0[SO] survive rt_sigreturn\n");
	return 1;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm; /* no SA_NODEFER: blocked while it runs */
	sigaction(SIGVTALRM, &sa, NULL);
	set_alarm(PERIOD_US);
	setvbuf(stdout, NULL, _IONBF, 0);
	int ok = test0() && test1() && test2() && test3();
	set_alarm(0);
	printf("alarmtest: %s\n", ok ? "all passed" : "FAILED");
	return ok ? 0 : 1;
}
