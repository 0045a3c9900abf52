/* pcm_syncptr_bench.c - the SYNC_PTR hot path for `make bench`: sets up
 * /dev/snd/pcmC0D0p (48 kHz stereo S16_LE, prepared with one period queued)
 * and issues N SNDRV_PCM_IOCTL_SYNC_PTR ioctls (default 100000; argv[1]
 * overrides) of the time32 layout, each reading 3 words and writing 9, as
 * alsa-lib does. Prints only
 *   "pcm_syncptr_bench: N SYNC_PTR ioctls, T ns each, W windows each"
 * (T: CLOCK_MONOTONIC time per ioctl; under QEMU's -icount shift=0 one guest
 * instruction is one nanosecond, so T is instructions per ioctl. W: user-
 * access windows the kernel opened per ioctl, with two decimals, from Sigil's
 * /dev/sigil/uaccess counters; 12.00 for pcm.sync_ptr=field, 2.00 for copy
 * and window) and exits 0 when all of them succeeded. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <sound/asound.h>

/* Windows opened since boot, from /dev/sigil/uaccess ("windows W bytes B"). */
static long windows_now(int fd)
{
	char line[64];
	long w = -1;
	ssize_t n = read(fd, line, sizeof(line) - 1);
	if (n > 0) {
		line[n] = 0;
		sscanf(line, "windows %ld", &w);
	}
	return w;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	int fd = open("/dev/snd/pcmC0D0p", O_RDWR);
	if (fd < 0) {
		printf("pcm_syncptr_bench: 0 SYNC_PTR ioctls (open failed)\n");
		return 1;
	}
	struct snd_pcm_hw_params p;
	memset(&p, 0, sizeof(p));
	for (int k = SNDRV_PCM_HW_PARAM_FIRST_MASK; k <= SNDRV_PCM_HW_PARAM_LAST_MASK; k++)
		memset(&p.masks[k], 0xff, sizeof(p.masks[k]));
	for (int k = SNDRV_PCM_HW_PARAM_FIRST_INTERVAL; k <= SNDRV_PCM_HW_PARAM_LAST_INTERVAL; k++)
		p.intervals[k - SNDRV_PCM_HW_PARAM_FIRST_INTERVAL].max = ~0u;
	memset(&p.masks[SNDRV_PCM_HW_PARAM_FORMAT], 0, sizeof(struct snd_mask));
	p.masks[SNDRV_PCM_HW_PARAM_FORMAT].bits[0] = 1u << SNDRV_PCM_FORMAT_S16_LE;
	struct snd_interval *ch = &p.intervals[SNDRV_PCM_HW_PARAM_CHANNELS - SNDRV_PCM_HW_PARAM_FIRST_INTERVAL];
	struct snd_interval *rate = &p.intervals[SNDRV_PCM_HW_PARAM_RATE - SNDRV_PCM_HW_PARAM_FIRST_INTERVAL];
	ch->min = ch->max = 2;
	rate->min = rate->max = 48000;
	p.rmask = ~0u;
	if (ioctl(fd, SNDRV_PCM_IOCTL_HW_PARAMS, &p) < 0 || ioctl(fd, SNDRV_PCM_IOCTL_PREPARE) < 0) {
		printf("pcm_syncptr_bench: 0 SYNC_PTR ioctls (setup failed)\n");
		return 1;
	}
	/* A prepared stream keeps its pointers still, so every call does the same
	 * work: write appl_ptr (unchanged) and avail_min, read the status back. */
	struct snd_pcm_sync_ptr s;
	memset(&s, 0, sizeof(s));
	s.c.control.avail_min = 1;
	int counters = open("/dev/sigil/uaccess", O_RDONLY);
	long done = 0;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	long w0 = windows_now(counters);
	for (; done < n; done++) {
		s.flags = 0;
		if (ioctl(fd, SNDRV_PCM_IOCTL_SYNC_PTR, &s) < 0)
			break;
	}
	/* The first read's own copy-out opened one window after its snapshot. */
	long w = windows_now(counters) - w0 - 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	close(fd);
	long long ns = (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
	long per100 = done && w0 >= 0 ? w * 100 / done : 0;
	printf("pcm_syncptr_bench: %ld SYNC_PTR ioctls, %lld ns each, %ld.%02ld windows each\n", done,
	       done ? ns / done : 0, per100 / 100, per100 % 100);
	return done == n ? 0 : 1;
}
