/* poll_pcm: poll(2) on /dev/snd/pcmC0D0p (Sigil only: qemu-ppc has no such
 * device). A stream that is not set up polls writable with an error (a
 * write would fail at once); a prepared, empty one writable; a running one
 * with a full buffer not writable, until the pseudo DAC has played a
 * period (avail_min) and poll wakes - by the clock, with no busy loop.
 * Output: "ok - what" lines, then "poll_pcm: N passed, M failed". */
#include <poll.h>
#include <time.h>
#include "pcm_test.h"

#define RATE 48000
#define PERIOD 480 /* 10 ms */
#define PERIODS 4

static long long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

static short poll_out(int timeout)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	return poll(&p, 1, timeout) == 1 ? p.revents : 0;
}

int main(void)
{
	static short frames[PERIOD * PERIODS * 2];
	struct snd_pcm_hw_params p;
	setvbuf(stdout, NULL, _IONBF, 0);
	if (!open_pcm("poll_pcm"))
		return 1;
	check(poll_out(0) == (POLLOUT | POLLERR), "OPEN: POLLOUT|POLLERR");
	ask(&p, 2, RATE, PERIOD, PERIODS);
	check(ioctl(fd, SNDRV_PCM_IOCTL_HW_PARAMS, &p) == 0, "HW_PARAMS S16_LE 2ch 48000 480x4");
	check(ioctl(fd, SNDRV_PCM_IOCTL_PREPARE) == 0, "PREPARE");
	check(poll_out(0) == POLLOUT, "PREPARED and empty: POLLOUT");
	check(write(fd, frames, sizeof frames) == sizeof frames, "a whole buffer written (the stream starts)");
	check(poll_out(0) == 0, "RUNNING with a full buffer: not writable");
	long long t0 = now_ms();
	short ev = poll_out(1000);
	long long waited = now_ms() - t0;
	check(ev == POLLOUT, "poll(1000) wakes with POLLOUT");
	check(waited >= 5 && waited < 100, "after about one period (10 ms), not the timeout");
	check(ioctl(fd, SNDRV_PCM_IOCTL_DROP) == 0, "DROP");
	return summary("poll_pcm");
}
