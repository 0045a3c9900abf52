/* pcm_test.h - shared helpers of the /dev/snd/pcmC0D0p test programs
 * (pcm_params.c, pcm_play.c): TAP-like "ok - what" / "not ok - what" lines,
 * hw_params builders the way alsa-lib fills them, a read-only page for
 * "the kernel cannot write the answer" cases, and the state check every
 * failed call is followed by: a failed ioctl must leave the stream exactly
 * as it was (state, hardware and application pointers, avail_min).
 * Only raw ioctls and the real <sound/asound.h>; no alsa-lib. Every line a
 * program prints is a fact that does not depend on timing, so the output is
 * the same on every run and under every pcm.sync_ptr= way. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <sound/asound.h>

static int passed, failed;
static int fd;

static inline void check(int cond, const char *what)
{
	printf("%s - %s\n", cond ? "ok" : "not ok", what);
	if (cond)
		passed++;
	else
		failed++;
}

static inline const char *errname(int e)
{
	switch (e) {
	case 0: return "success";
	case EFAULT: return "EFAULT";
	case EINVAL: return "EINVAL";
	case EBADFD: return "EBADFD";
	case ENOTTY: return "ENOTTY";
	case EPIPE: return "EPIPE";
	case EAGAIN: return "EAGAIN";
	case EBUSY: return "EBUSY";
	default: return "another errno";
	}
}

static inline const char *statename(int s)
{
	static const char *names[] = { "OPEN", "SETUP", "PREPARED", "RUNNING", "XRUN", "DRAINING", "PAUSED" };
	return s >= 0 && s < 7 ? names[s] : "?";
}

/* What a query sees: SYNC_PTR with APPL and AVAIL_MIN set and no HWSYNC reads
 * everything and changes nothing. */
struct snap {
	int state;
	unsigned long hw_ptr, appl_ptr, avail_min;
};

static inline struct snap snapshot(void)
{
	struct snd_pcm_sync_ptr s;
	memset(&s, 0, sizeof(s));
	s.flags = SNDRV_PCM_SYNC_PTR_APPL | SNDRV_PCM_SYNC_PTR_AVAIL_MIN;
	struct snap q = { -1, 0, 0, 0 };
	if (ioctl(fd, SNDRV_PCM_IOCTL_SYNC_PTR, &s) == 0)
		q = (struct snap){ s.s.status.state, s.s.status.hw_ptr, s.c.control.appl_ptr, s.c.control.avail_min };
	return q;
}

static inline int state_now(void)
{
	return snapshot().state;
}

/* The ioctl must fail with `err` and leave the stream as it was. The hardware
 * pointer is compared only when the DAC is stopped (it moves with time). */
static inline void fails(unsigned long req, void *arg, int err, const char *what)
{
	struct snap a = snapshot();
	errno = 0;
	int r = ioctl(fd, req, arg);
	int e = r == -1 ? errno : 0;
	struct snap b = snapshot();
	int running = a.state == SNDRV_PCM_STATE_RUNNING || a.state == SNDRV_PCM_STATE_DRAINING;
	int same = a.state == b.state && a.appl_ptr == b.appl_ptr && a.avail_min == b.avail_min &&
		   (running || a.hw_ptr == b.hw_ptr);
	char line[320];
	snprintf(line, sizeof(line), "%s -> %s, %s unchanged", what, errname(err), statename(a.state));
	if (e != err)
		printf("# got %s\n", errname(e));
	if (!same)
		printf("# state %s -> %s, appl_ptr %lu -> %lu, avail_min %lu -> %lu\n", statename(a.state),
		       statename(b.state), a.appl_ptr, b.appl_ptr, a.avail_min, b.avail_min);
	check(e == err && same, line);
}

/* A successful ioctl that must leave the stream in state `want`. */
static inline void moves(unsigned long req, void *arg, int want, const char *what)
{
	errno = 0;
	int r = ioctl(fd, req, arg);
	int s = state_now();
	char line[320];
	snprintf(line, sizeof(line), "%s -> %s", what, statename(want));
	if (r != 0 || s != want)
		printf("# result %s, state %s\n", errname(r ? errno : 0), statename(s));
	check(r == 0 && s == want, line);
}

static inline struct snd_interval *iv(struct snd_pcm_hw_params *p, int k)
{
	return &p->intervals[k - SNDRV_PCM_HW_PARAM_FIRST_INTERVAL];
}

/* Everything allowed, everything requested: alsa-lib's _snd_pcm_hw_params_any. */
static inline void params_any(struct snd_pcm_hw_params *p)
{
	memset(p, 0, sizeof(*p));
	for (int k = SNDRV_PCM_HW_PARAM_FIRST_MASK; k <= SNDRV_PCM_HW_PARAM_LAST_MASK; k++)
		memset(&p->masks[k], 0xff, sizeof(p->masks[k]));
	for (int k = SNDRV_PCM_HW_PARAM_FIRST_INTERVAL; k <= SNDRV_PCM_HW_PARAM_LAST_INTERVAL; k++)
		iv(p, k)->max = ~0u;
	p->rmask = ~0u;
}

static inline void set_value(struct snd_pcm_hw_params *p, int k, unsigned v)
{
	iv(p, k)->min = iv(p, k)->max = v;
}

static inline void set_format(struct snd_pcm_hw_params *p, int fmt)
{
	memset(&p->masks[SNDRV_PCM_HW_PARAM_FORMAT], 0, sizeof(struct snd_mask));
	p->masks[SNDRV_PCM_HW_PARAM_FORMAT].bits[fmt / 32] = 1u << (fmt % 32);
}

static inline int mask_has(const struct snd_pcm_hw_params *p, int k, int v)
{
	return (p->masks[k].bits[v / 32] >> (v % 32)) & 1;
}

/* S16_LE, `channels`, `rate`, `period` frames x `periods`. */
static inline void ask(struct snd_pcm_hw_params *p, unsigned channels, unsigned rate, unsigned period, unsigned periods)
{
	params_any(p);
	set_format(p, SNDRV_PCM_FORMAT_S16_LE);
	set_value(p, SNDRV_PCM_HW_PARAM_CHANNELS, channels);
	set_value(p, SNDRV_PCM_HW_PARAM_RATE, rate);
	set_value(p, SNDRV_PCM_HW_PARAM_PERIOD_SIZE, period);
	set_value(p, SNDRV_PCM_HW_PARAM_PERIODS, periods);
}

/* A page holding a copy of `len` bytes at `src` that user code (and the
 * kernel on its behalf) may read but not write: for calls whose input is
 * fine but whose answer cannot be stored. */
static inline void *read_only_copy(const void *src, size_t len)
{
	void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return NULL;
	memcpy(page, src, len);
	mprotect(page, 4096, PROT_READ);
	return page;
}

/* Opens the device (fd), or reports and gives up. */
static inline int open_pcm(const char *prog)
{
	fd = open("/dev/snd/pcmC0D0p", O_RDWR);
	check(fd >= 0, "open /dev/snd/pcmC0D0p");
	if (fd < 0)
		printf("%s: %d passed, %d failed\n", prog, passed, failed);
	return fd >= 0;
}

static inline int summary(const char *prog)
{
	printf("%s: %d passed, %d failed\n", prog, passed, failed);
	return failed ? 1 : 0;
}
