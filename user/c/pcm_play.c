/* pcm_play.c - self-checking playback test of /dev/snd/pcmC0D0p through raw
 * ioctls: PREPARE/START, WRITEI_FRAMES, SYNC_PTR in both layouts (the default
 * time32 struct and a hand-declared 136-byte time64 one with its own ioctl
 * number), the hardware pointer against CLOCK_MONOTONIC, the APPL and
 * AVAIL_MIN flags, an underrun (EPIPE, state XRUN), DROP and DRAIN.
 * Runs on Sigil; without the device it prints "not ok - open" and exits 1.
 * Output: "ok - what" / "not ok - what" lines, then "pcm_play: N passed, M failed". */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <sound/asound.h>

#define RATE 48000
#define PERIOD 480 /* 10 ms */
#define PERIODS 4
#define BUFFER (PERIOD * PERIODS)
#define SLACK 2 /* frames of rounding allowed on either side */

static int passed, failed;

static void check(int cond, const char *what)
{
	printf("%s - %s\n", cond ? "ok" : "not ok", what);
	if (cond)
		passed++;
	else
		failed++;
}

/* The time64 layout as a program built with -D_TIME_BITS=64 sees it (136 bytes,
 * facts 7.1): every field in an 8-byte slot, 32-bit values in the low half. */
struct sync_ptr64 {
	uint32_t flags, pad1;
	uint32_t state, pad2;
	uint32_t hw_ptr_hi, hw_ptr;
	int64_t tstamp_sec, tstamp_nsec;
	uint32_t suspended_state, pad3;
	int64_t audio_tstamp_sec, audio_tstamp_nsec;
	uint8_t s_rest[64 - 56];
	uint32_t pad4, appl_ptr, pad5, pad6, avail_min;
	uint8_t c_rest[64 - 20];
} __attribute__((aligned(8)));
_Static_assert(sizeof(struct sync_ptr64) == 136, "time64 sync_ptr is 136 bytes");
_Static_assert(__builtin_offsetof(struct sync_ptr64, appl_ptr) == 76, "appl_ptr at 76");
_Static_assert(__builtin_offsetof(struct sync_ptr64, avail_min) == 88, "avail_min at 88");
#define SYNC_PTR64 _IOWR('A', 0x23, struct sync_ptr64)

static int fd;
static short silence[BUFFER * 2];

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static uint64_t frames_in(uint64_t ns)
{
	return ns * RATE / 1000000000u;
}

/* SYNC_PTR (time32) with `flags`; returns the ioctl result. */
static int sync_ptr(struct snd_pcm_sync_ptr *s, unsigned flags, unsigned long appl, unsigned long avail_min)
{
	memset(s, 0, sizeof(*s));
	s->flags = flags;
	s->c.control.appl_ptr = appl;
	s->c.control.avail_min = avail_min;
	return ioctl(fd, SNDRV_PCM_IOCTL_SYNC_PTR, s);
}

/* Reads state and pointers without changing anything. */
static struct snd_pcm_sync_ptr query(void)
{
	struct snd_pcm_sync_ptr s;
	sync_ptr(&s, SNDRV_PCM_SYNC_PTR_APPL | SNDRV_PCM_SYNC_PTR_AVAIL_MIN, 0, 0);
	return s;
}

static long writei(unsigned frames)
{
	struct snd_xferi x = { .result = 0, .buf = silence, .frames = frames };
	if (ioctl(fd, SNDRV_PCM_IOCTL_WRITEI_FRAMES, &x) < 0)
		return -errno;
	return x.result;
}

static int setup(void)
{
	struct snd_pcm_hw_params p;
	memset(&p, 0, sizeof(p));
	for (int k = SNDRV_PCM_HW_PARAM_FIRST_MASK; k <= SNDRV_PCM_HW_PARAM_LAST_MASK; k++)
		memset(&p.masks[k], 0xff, sizeof(p.masks[k]));
	for (int k = SNDRV_PCM_HW_PARAM_FIRST_INTERVAL; k <= SNDRV_PCM_HW_PARAM_LAST_INTERVAL; k++)
		p.intervals[k - SNDRV_PCM_HW_PARAM_FIRST_INTERVAL].max = ~0u;
	memset(&p.masks[SNDRV_PCM_HW_PARAM_FORMAT], 0, sizeof(struct snd_mask));
	p.masks[SNDRV_PCM_HW_PARAM_FORMAT].bits[0] = 1u << SNDRV_PCM_FORMAT_S16_LE;
	struct { int k; unsigned v; } fix[] = {
		{ SNDRV_PCM_HW_PARAM_CHANNELS, 2 }, { SNDRV_PCM_HW_PARAM_RATE, RATE },
		{ SNDRV_PCM_HW_PARAM_PERIOD_SIZE, PERIOD }, { SNDRV_PCM_HW_PARAM_PERIODS, PERIODS },
	};
	for (unsigned i = 0; i < sizeof(fix) / sizeof(fix[0]); i++) {
		struct snd_interval *iv = &p.intervals[fix[i].k - SNDRV_PCM_HW_PARAM_FIRST_INTERVAL];
		iv->min = iv->max = fix[i].v;
	}
	p.rmask = ~0u;
	return ioctl(fd, SNDRV_PCM_IOCTL_HW_PARAMS, &p);
}

static int sw_params(unsigned long start_threshold)
{
	struct snd_pcm_sw_params sw;
	memset(&sw, 0, sizeof(sw));
	sw.tstamp_mode = SNDRV_PCM_TSTAMP_ENABLE;
	sw.tstamp_type = SNDRV_PCM_TSTAMP_TYPE_MONOTONIC;
	sw.proto = SNDRV_PCM_VERSION;
	sw.avail_min = PERIOD;
	sw.start_threshold = start_threshold;
	sw.stop_threshold = BUFFER;
	return ioctl(fd, SNDRV_PCM_IOCTL_SW_PARAMS, &sw);
}

/* hw_ptr seen after starting between t0a..t0b and syncing between t1a..t1b. */
static int hw_ptr_fits(unsigned long hw, uint64_t t0a, uint64_t t0b, uint64_t t1a, uint64_t t1b)
{
	uint64_t lo = t1a > t0b ? frames_in(t1a - t0b) : 0, hi = frames_in(t1b - t0a);
	if (hw + SLACK < lo || hw > hi + SLACK) {
		printf("# hw_ptr %lu outside [%llu, %llu]\n", hw, (unsigned long long)lo, (unsigned long long)hi);
		return 0;
	}
	return 1;
}

int main(void)
{
	struct snd_pcm_sync_ptr s;
	fd = open("/dev/snd/pcmC0D0p", O_RDWR);
	check(fd >= 0, "open /dev/snd/pcmC0D0p");
	if (fd < 0) {
		printf("pcm_play: %d passed, %d failed\n", passed, failed);
		return 1;
	}
	check(sync_ptr(&s, 0, 0, 0) == 0 && s.s.status.state == SNDRV_PCM_STATE_OPEN && s.s.status.hw_ptr == 0,
	      "SYNC_PTR in OPEN: state OPEN, hw_ptr 0");
	check(sync_ptr(&s, SNDRV_PCM_SYNC_PTR_HWSYNC, 0, 0) == -1 && errno == EBADFD, "SYNC_PTR HWSYNC in OPEN -> EBADFD");
	int ttype = SNDRV_PCM_TSTAMP_TYPE_MONOTONIC;
	check(ioctl(fd, SNDRV_PCM_IOCTL_TTSTAMP, &ttype) == 0, "TTSTAMP monotonic");
	check(setup() == 0, "HW_PARAMS S16_LE 2ch 48000 480x4");
	check(sw_params(0x7fffffff) == 0, "SW_PARAMS tstamp on, no auto start");
	check(ioctl(fd, SNDRV_PCM_IOCTL_PREPARE) == 0, "PREPARE");
	s = query();
	check(s.s.status.state == SNDRV_PCM_STATE_PREPARED && s.s.status.hw_ptr == 0 && s.c.control.appl_ptr == 0 &&
	      s.c.control.avail_min == PERIOD, "SYNC_PTR query: PREPARED, pointers 0, avail_min = period");

	check(writei(BUFFER) == BUFFER, "WRITEI a whole buffer");
	/* Linux would sleep forever here (nothing can drain a stream that is not
	 * running); Sigil's device answers EAGAIN instead of hanging the test. */
	check(writei(1) == -EAGAIN, "WRITEI into a full buffer of a stopped stream -> EAGAIN");
	s = query();
	check(s.s.status.state == SNDRV_PCM_STATE_PREPARED && s.c.control.appl_ptr == BUFFER,
	      "still PREPARED (start_threshold not reached), appl_ptr = buffer");

	uint64_t t0a = now_ns();
	check(ioctl(fd, SNDRV_PCM_IOCTL_START) == 0, "START");
	uint64_t t0b = now_ns();
	sleep_ms(15);
	uint64_t t1a = now_ns();
	int r = sync_ptr(&s, SNDRV_PCM_SYNC_PTR_HWSYNC | SNDRV_PCM_SYNC_PTR_APPL | SNDRV_PCM_SYNC_PTR_AVAIL_MIN, 0, 0);
	uint64_t t1b = now_ns();
	check(r == 0 && s.s.status.state == SNDRV_PCM_STATE_RUNNING, "SYNC_PTR HWSYNC: RUNNING");
	check(hw_ptr_fits(s.s.status.hw_ptr, t0a, t0b, t1a, t1b), "time32 hw_ptr matches CLOCK_MONOTONIC at 48 kHz");
	uint64_t ts = (uint64_t)s.s.status.tstamp.tv_sec * 1000000000u + s.s.status.tstamp.tv_nsec;
	check(ts >= t0a && ts <= t1b, "tstamp taken from CLOCK_MONOTONIC during the call");
	uint64_t audio = (uint64_t)s.s.status.audio_tstamp.tv_sec * 1000000000u + s.s.status.audio_tstamp.tv_nsec;
	uint64_t want_us = (uint64_t)s.s.status.hw_ptr * 1000000 / RATE;
	check(audio / 1000 + 1 >= want_us && audio / 1000 <= want_us + 1, "audio_tstamp = hw_ptr / rate");
	unsigned long hw32 = s.s.status.hw_ptr;

	struct sync_ptr64 s64;
	memset(&s64, 0xee, sizeof(s64));
	s64.flags = SNDRV_PCM_SYNC_PTR_HWSYNC | SNDRV_PCM_SYNC_PTR_APPL | SNDRV_PCM_SYNC_PTR_AVAIL_MIN;
	t1a = now_ns();
	r = ioctl(fd, SYNC_PTR64, &s64);
	t1b = now_ns();
	check(r == 0 && s64.state == SNDRV_PCM_STATE_RUNNING && s64.hw_ptr_hi == 0 && s64.hw_ptr >= hw32,
	      "time64 SYNC_PTR (0xc0884123): RUNNING, hw_ptr did not go back");
	check(hw_ptr_fits(s64.hw_ptr, t0a, t0b, t1a, t1b), "time64 hw_ptr matches CLOCK_MONOTONIC");
	check(s64.appl_ptr == BUFFER && s64.avail_min == PERIOD && s64.pad4 == 0,
	      "time64 control read back at offsets 76/88");
	uint64_t ts64 = (uint64_t)s64.tstamp_sec * 1000000000u + (uint64_t)s64.tstamp_nsec;
	check(s64.tstamp_nsec >= 0 && s64.tstamp_nsec < 1000000000 && ts64 >= ts && ts64 <= t1b,
	      "time64 tstamp is a 64-bit timespec from the same clock");

	check(sync_ptr(&s, SNDRV_PCM_SYNC_PTR_APPL, 0, 100) == 0 && s.c.control.avail_min == 100,
	      "SYNC_PTR writes avail_min when AVAIL_MIN is clear");
	s = query();
	check(s.c.control.avail_min == 100 && s.c.control.appl_ptr == BUFFER, "AVAIL_MIN/APPL flags read back");
	unsigned long bad = s.s.status.hw_ptr + 3 * BUFFER;
	check(sync_ptr(&s, 0, bad, 7) == -1 && errno == EINVAL, "appl_ptr beyond hw_ptr + buffer -> EINVAL");
	s = query();
	check(s.c.control.appl_ptr == BUFFER && s.c.control.avail_min == 100 &&
	      s.s.status.state == SNDRV_PCM_STATE_RUNNING, "failed SYNC_PTR left everything as it was");
	long delay = -1;
	check(ioctl(fd, SNDRV_PCM_IOCTL_DELAY, &delay) == 0 && delay > 0 && delay <= BUFFER, "DELAY while running");

	sleep_ms(40); /* the 40 ms buffer runs dry */
	check(sync_ptr(&s, SNDRV_PCM_SYNC_PTR_HWSYNC, BUFFER, 100) == -1 && errno == EPIPE, "underrun: SYNC_PTR HWSYNC -> EPIPE");
	s = query();
	check(s.s.status.state == SNDRV_PCM_STATE_XRUN && s.s.status.hw_ptr == BUFFER,
	      "state XRUN, hw_ptr stopped at the end of the data");
	check(writei(PERIOD) == -EPIPE, "WRITEI in XRUN -> EPIPE");
	struct snd_pcm_status st;
	memset(&st, 0, sizeof(st));
	check(ioctl(fd, SNDRV_PCM_IOCTL_STATUS, &st) == 0 && st.state == SNDRV_PCM_STATE_XRUN && st.hw_ptr == BUFFER,
	      "STATUS reports XRUN");

	check(ioctl(fd, SNDRV_PCM_IOCTL_PREPARE) == 0 && query().s.status.state == SNDRV_PCM_STATE_PREPARED,
	      "PREPARE recovers from XRUN");
	check(sw_params(1) == 0, "SW_PARAMS start_threshold 1");
	check(writei(PERIOD) == PERIOD && query().s.status.state == SNDRV_PCM_STATE_RUNNING, "a write auto-starts");
	check(ioctl(fd, SNDRV_PCM_IOCTL_DROP) == 0 && query().s.status.state == SNDRV_PCM_STATE_SETUP, "DROP -> SETUP");

	check(ioctl(fd, SNDRV_PCM_IOCTL_PREPARE) == 0 && writei(PERIOD) == PERIOD, "PREPARE and write 10 ms");
	uint64_t d0 = now_ns();
	check(ioctl(fd, SNDRV_PCM_IOCTL_DRAIN) == 0, "DRAIN");
	uint64_t d1 = now_ns();
	s = query();
	check(s.s.status.state == SNDRV_PCM_STATE_SETUP && s.s.status.hw_ptr == PERIOD, "drained: SETUP, all frames played");
	check(d1 - d0 <= 10000000u + 5000000u, "DRAIN waited no longer than the queued audio (+5 ms)");
	check(close(fd) == 0, "close");

	printf("pcm_play: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
