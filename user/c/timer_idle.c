/* timer_idle: sleeps 2 s with nothing else to run. On Sigil the decrementer
 * is programmed for the next deadline, so the machine takes a handful of
 * timer interrupts in those 2 s rather than the 200 of a 100 Hz tick (the
 * test reads the count from the shutdown line).
 */
#include <stdio.h>
#include <time.h>

int main(void)
{
	struct timespec two = { 2, 0 };
	int r = nanosleep(&two, NULL);
	printf("slept 2 s: %d\n", r);
	return 0;
}
