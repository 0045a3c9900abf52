/* fp_math: floating point as a program sees it - the FP emulator's test.
 *
 * Run with the boot option fpu=emulate (or on an FPU-less 8xx), every FP
 * instruction below traps and the kernel computes it; the output must match
 * qemu-ppc's FPU bit for bit. Values are printed with %a too, so a one-ulp
 * difference shows. Sections: printf of doubles and floats; arithmetic and
 * specials; sqrt; conversions; comparisons; fma (fmadd); rounding modes;
 * exception flags; FP registers and FPSCR across a signal handler (which
 * clobbers them behind the compiler's back: only the kernel's signal frame
 * can bring them back); FP registers and rounding mode across fork; and
 * FP loads and stores that fault (SIGSEGV with the data address).
 */
#include <fenv.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* volatile: computed at run time, not folded by the compiler. */
static volatile double one = 1.0, three = 3.0, tenth = 0.1, big = 1e308, tiny = 2.2250738585072014e-308;
static volatile double zero = 0.0, minus = -2.75;
static volatile float fthird = 1.0f / 3.0f, fbig = 3e38f;

static void show(const char *what, double d)
{
	printf("%-14s %.17g %a\n", what, d, d);
}

static void print_section(void)
{
	printf("printf: %f %e %g %.3f %10.4f|\n", 3.14159265358979, 6.02214076e23, 1e-5, -2.0005, 0.5);
	printf("float: %f %g %a\n", (double)fthird, (double)fbig, (double)fthird);
	printf("specials: %f %f %f %f %g\n", one / zero, -one / zero, zero / zero, -zero, -zero);
}

static void arith_section(void)
{
	show("1/3", one / three);
	show("0.1*3", tenth * three);
	show("0.1+0.2", tenth + 0.2);
	show("1-0.9", one - 0.9);
	show("big*10", big * 10);
	show("tiny/3", tiny / 3);
	show("tiny*tiny", tiny * tiny);
	show("-2.75/0", minus / zero);
	show("fadds", (double)(fthird + (float)tenth));
	show("fmuls", (double)(fthird * fbig));
	show("fdivs", (double)((float)one / (float)three));
	show("frsp", (double)(float)(one / three));
	show("fabs", fabs(minus));
	show("-x", -minus);
}

static void sqrt_section(void)
{
	show("sqrt(2)", sqrt(2 * one));
	show("sqrt(1e-310)", sqrt(tiny / 1e2));
	show("sqrt(-1)", sqrt(-one));
	show("sqrtf(2)", (double)sqrtf(2.0f * (float)one));
	show("hypot(3,4)", hypot(three, 4 * one));
}

static void convert_section(void)
{
	volatile double vals[] = { 2.5, -2.5, 3.7, -3.7, 2147483647.9, -2147483648.9, 3e9, -3e9, 0.0 / 0.0 };
	for (unsigned i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		double v = vals[i];
		int n = (int)v;                 /* fctiwz */
		unsigned u = v > 0 && v < 4.3e9 ? (unsigned)v : 0;
		long long ll = isnan(v) ? 0 : (long long)v;
		printf("conv %-13.1f int %d uint %u ll %lld lrint %ld\n", v, n, u, ll, isnan(v) ? 0L : lrint(v));
	}
	volatile int k = -123456789;
	volatile unsigned uk = 4000000000u;
	volatile long long big_ll = 9007199254740993LL;
	show("(double)int", (double)k);
	show("(double)uint", (double)uk);
	show("(double)ll", (double)big_ll);
	show("(float)int", (double)(float)k);
}

static void compare_section(void)
{
	volatile double n = zero / zero, a = one, b = three;
	printf("cmp: %d %d %d %d | nan: %d %d %d %d | -0==0: %d\n", a < b, a > b, a == a, a != b, n == n, n < a, n > a,
	       n != n, -zero == zero);
	printf("classify: %d %d %d %d %d\n", fpclassify(one), fpclassify(zero), fpclassify(tiny / 4), fpclassify(n),
	       fpclassify(one / zero));
	printf("isgreater(nan): %d, isless: %d, signbit(-0): %d\n", isgreater(n, a), isless(a, b), signbit(-zero) != 0);
	show("fmax", fmax(a, b));
	show("fmin(nan,1)", fmin(n, a));
}

static void fma_section(void)
{
	/* The product 0.1 * 10 rounded alone is 1; fused, the error shows. */
	show("fma(.1,10,-1)", fma(tenth, 10 * one, -one));
	volatile double product = tenth * (10 * one);
	show("0.1*10 - 1", product - one);
	show("fmaf", (double)fmaf((float)tenth, 10.0f * (float)one, -(float)one));
	show("fma(inf,0,1)", fma(one / zero, zero, one));
}

static void rounding_section(void)
{
	static const struct { int mode; const char *name; } modes[] = {
		{ FE_TONEAREST, "nearest" }, { FE_TOWARDZERO, "zero" }, { FE_UPWARD, "up" }, { FE_DOWNWARD, "down" },
	};
	for (unsigned i = 0; i < 4; i++) {
		fesetround(modes[i].mode);
		printf("round %-7s get %d: 1/3 %a -1/3 %a rint(2.5) %g rint(-2.5) %g lrint(-3.5) %ld nearbyint(0.5) %g\n",
		       modes[i].name, fegetround() == modes[i].mode, one / three, -one / three, rint(2.5 * one),
		       rint(-2.5 * one), lrint(-3.5 * one), nearbyint(0.5 * one));
		printf("round %-7s float 1/3 %a, big*10 %g, 1+2^-60 %a\n", modes[i].name, (double)((float)one / (float)three),
		       big * 10, one + 0x1p-60);
	}
	fesetround(FE_TONEAREST);
}

static void print_flags(const char *what)
{
	static const struct { int flag; const char *name; } flags[] = {
		{ FE_INEXACT, "inexact" }, { FE_DIVBYZERO, "divbyzero" }, { FE_UNDERFLOW, "underflow" },
		{ FE_OVERFLOW, "overflow" }, { FE_INVALID, "invalid" },
	};
	printf("flags %-10s:", what);
	for (unsigned j = 0; j < 5; j++)
		if (fetestexcept(flags[j].flag))
			printf(" %s", flags[j].name);
	printf("\n");
}

static void flag_section(void)
{
	static const char *const what[] = { "1/3", "1/0", "tiny/3e10", "big*10", "0/0", "1+1" };
	for (unsigned i = 0; i < 6; i++) {
		volatile double r;
		feclearexcept(FE_ALL_EXCEPT);
		switch (i) {
		case 0: r = one / three; break;
		case 1: r = one / zero; break;
		case 2: r = tiny / 3e10; break;
		case 3: r = big * 10; break;
		case 4: r = zero / zero; break;
		default: r = one + one; break;
		}
		(void)r;
		print_flags(what[i]);
	}
	feclearexcept(FE_ALL_EXCEPT);
	feraiseexcept(FE_OVERFLOW | FE_INVALID);
	print_flags("raised");
	feclearexcept(FE_ALL_EXCEPT);
}

/* The handler overwrites f13 and f31 without telling the compiler (no
 * clobber, so no save/restore in its prologue) and changes the rounding
 * mode: the interrupted code must see neither once sigreturn has run. */
static volatile int handled, handler_round;

static void handler(int sig)
{
	double junk = -1.0;
	(void)sig;
	handler_round = fegetround(); /* Linux starts handlers with FPSCR = 0 */
	__asm__ volatile("fmr 13,%0\n\tfmr 31,%0" : : "f"(junk));
	fesetround(FE_TOWARDZERO);
	handled++;
}

static void signal_section(void)
{
	double before13 = 1.25, before31 = 3.5, after13, after31;
	long pid = getpid();
	signal(SIGUSR1, handler);
	fesetround(FE_UPWARD);
	/* kill(getpid(), SIGUSR1) as a raw system call, inside one asm block, so
	 * that f13 and f31 hold our values while the signal is delivered. */
	register long r0 __asm__("r0") = 37; /* __NR_kill */
	register long r3 __asm__("r3") = pid;
	register long r4 __asm__("r4") = SIGUSR1;
	__asm__ volatile("fmr 13,%4\n\tfmr 31,%5\n\tsc\n\tfmr %0,13\n\tfmr %1,31"
			 : "=&f"(after13), "=&f"(after31), "+r"(r3), "+r"(r0)
			 : "f"(before13), "f"(before31), "r"(r4)
			 : "fr13", "fr31", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "cr0", "ctr", "memory");
	printf("signal: handled %d, f13 %g, f31 %g, rounding still up: %d, handler's was nearest: %d\n", handled,
	       after13, after31, fegetround() == FE_UPWARD, handler_round == FE_TONEAREST);
	fesetround(FE_TONEAREST);
}

/* fork as a raw system call between writing f20 and reading it back: the
 * child must get the parent's FP registers and FPSCR. */
static void fork_section(void)
{
	double in = 2.71828, out;
	fesetround(FE_DOWNWARD);
	register long r0 __asm__("r0") = 2; /* __NR_fork */
	register long r3 __asm__("r3");
	__asm__ volatile("fmr 20,%3\n\tsc\n\tfmr %0,20"
			 : "=&f"(out), "=r"(r3), "+r"(r0)
			 : "f"(in)
			 : "fr20", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "cr0", "ctr", "memory");
	if (r3 == 0) {
		printf("fork child: f20 %g, rounding down: %d, 1/3 %a\n", out, fegetround() == FE_DOWNWARD, one / three);
		_exit(0);
	}
	int status;
	waitpid(r3, &status, 0);
	printf("fork parent: f20 %g, child status %d\n", out, status);
	fesetround(FE_TONEAREST);
}

static sigjmp_buf fault_jmp;
static void *volatile fault_page;
static volatile double *volatile low_address = (volatile double *)0x10;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	/* No si_code for the read-only page: qemu-ppc says SEGV_MAPERR there,
	 * Linux and Sigil SEGV_ACCERR. */
	if (si->si_addr == fault_page)
		printf("fault: signal %d, addr the read-only page\n", sig);
	else
		printf("fault: signal %d, code %d, addr %s\n", sig, si->si_code, si->si_addr == (void *)0x10 ? "0x10" : "other");
	siglongjmp(fault_jmp, 1);
}

static void fault_section(void)
{
	struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO };
	sigaction(SIGSEGV, &sa, NULL);
	fault_page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!sigsetjmp(fault_jmp, 1))
		show("lfd from 0x10", *low_address);
	if (!sigsetjmp(fault_jmp, 1))
		*(volatile double *)fault_page = one; /* stfd */
	if (!sigsetjmp(fault_jmp, 1))
		*(volatile float *)fault_page = (float)one; /* stfs */
	signal(SIGSEGV, SIG_DFL);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	print_section();
	arith_section();
	sqrt_section();
	convert_section();
	compare_section();
	fma_section();
	rounding_section();
	flag_section();
	signal_section();
	fork_section();
	fault_section();
	printf("done\n");
	return 0;
}
