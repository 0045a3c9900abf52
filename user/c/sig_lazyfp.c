/* sig_lazyfp: signal frames of a process that has not used FP. Its FP state
 * is still the initial one (every register and FPSCR zero; glibc's setjmp
 * only stores the registers), so Sigil's frames skip mc_fregs and sigreturn
 * puts the initial state back instead of reading them (lazy FP). A handler
 * that changes f14 and the rounding mode behind the compiler's back must
 * not leak either into the interrupted code, also when that code is itself
 * a handler (a frame without FP inside a frame without FP). The same output
 * as Linux, which carries the FP registers in every frame.
 */
#include <fenv.h>
#include <signal.h>
#include <stdio.h>

static volatile int handler_round = -1;
static volatile double inner_f14 = -2.0;
static volatile int inner_nearest = -1;

static double f14(void)
{
	double v;
	__asm__ volatile("fmr %0,14" : "=f"(v));
	return v;
}

/* Changes f14 (no clobber: no save in its prologue) and the rounding mode. */
static void fp_handler(int sig)
{
	double junk = -1.0;
	(void)sig;
	handler_round = fegetround();
	__asm__ volatile("fmr 14,%0" : : "f"(junk));
	fesetround(FE_TOWARDZERO);
}

/* Uses no FP until the nested handler has returned. */
static void outer_handler(int sig)
{
	(void)sig;
	raise(SIGUSR2);
	inner_f14 = f14();
	inner_nearest = fegetround() == FE_TONEAREST;
}

int main(void)
{
	signal(SIGUSR1, fp_handler);
	signal(SIGUSR2, fp_handler);
	raise(SIGUSR1);
	double after = f14();
	int nearest = fegetround() == FE_TONEAREST;
	signal(SIGUSR1, outer_handler);
	raise(SIGUSR1);
	/* printf last: its FP use would make the state a used one. */
	printf("plain: f14 %g, rounding nearest %d, handler saw nearest %d\n", after, nearest,
	       handler_round == FE_TONEAREST);
	printf("nested: f14 %g in the outer handler, rounding nearest %d; main: f14 %g, nearest %d\n",
	       inner_f14, inner_nearest, f14(), fegetround() == FE_TONEAREST);
	return 0;
}
