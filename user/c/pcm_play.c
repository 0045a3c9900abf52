/* pcm_play.c - self-checking playback test of /dev/snd/pcmC0D0p: SYNC_PTR
 * and its flags (HWSYNC, APPL, AVAIL_MIN), START, WRITEI, the hardware
 * pointer against CLOCK_MONOTONIC (it must advance at the configured rate),
 * STATUS, DELAY, an underrun (EPIPE, state XRUN), PAUSE, DROP and DRAIN,
 * and the errors of a running stream, each followed by a state check.
 *
 * The whole run is done twice, once per SYNC_PTR layout ppc32 Linux accepts,
 * both taken from the real <sound/asound.h>: the 132-byte struct of 32-bit
 * time_t (`struct snd_pcm_sync_ptr`, ioctl 0xc0844123) and the 136-byte one
 * a -D_TIME_BITS=64 program gets (`struct __snd_pcm_sync_ptr64`, ioctl
 * 0xc0884123). Lines are prefixed "time32:" / "time64:".
 * Times are never printed, only whether they fit, so the output is the same
 * on every run. Runs on Sigil; without the device it prints "not ok - open".
 * Output: "ok - what" lines, then "pcm_play: N passed, M failed". */
#include <stdint.h>
#include <time.h>
#include "pcm_test.h"

_Static_assert(sizeof(struct snd_pcm_sync_ptr) == 132, "time32 sync_ptr is 132 bytes");
_Static_assert(sizeof(struct __snd_pcm_sync_ptr64) == 136, "time64 sync_ptr is 136 bytes");

#define RATE 48000
#define PERIOD 480 /* 10 ms */
#define PERIODS 4
#define BUFFER (PERIOD * PERIODS) /* 40 ms */
#define SLACK 2 /* frames of rounding allowed on either side */
#define MS 1000000ull

static int time64;          /* which layout this pass uses */
static const char *prefix;  /* "time32" or "time64" */
static short silence[BUFFER * 2];

/* check() with the layout's prefix. */
static void pcheck(int cond, const char *what)
{
	char line[240];
	snprintf(line, sizeof(line), "%s: %s", prefix, what);
	check(cond, line);
}

static void pfails(unsigned long req, void *arg, int err, const char *what)
{
	char line[240];
	snprintf(line, sizeof(line), "%s: %s", prefix, what);
	fails(req, arg, err, line);
}

static void pmoves(unsigned long req, void *arg, int want, const char *what)
{
	char line[240];
	snprintf(line, sizeof(line), "%s: %s", prefix, what);
	moves(req, arg, want, line);
}

/* One SYNC_PTR in this pass's layout, decoded. */
struct sp {
	int state;
	unsigned long hw_ptr, appl_ptr, avail_min;
	uint64_t tstamp_ns, audio_ns;
};

static struct snd_pcm_sync_ptr s32;
static struct __snd_pcm_sync_ptr64 s64;

static unsigned long sp_req(void)
{
	return time64 ? __SNDRV_PCM_IOCTL_SYNC_PTR64 : SNDRV_PCM_IOCTL_SYNC_PTR;
}

/* The argument struct of this layout, zeroed and filled as alsa-lib does. */
static void *sp_arg(unsigned flags, unsigned long appl_ptr, unsigned long avail_min)
{
	if (time64) {
		memset(&s64, 0, sizeof(s64));
		s64.flags = flags;
		s64.c.control.appl_ptr = appl_ptr;
		s64.c.control.avail_min = avail_min;
		return &s64;
	}
	memset(&s32, 0, sizeof(s32));
	s32.flags = flags;
	s32.c.control.appl_ptr = appl_ptr;
	s32.c.control.avail_min = avail_min;
	return &s32;
}

/* SYNC_PTR; 0 or -errno. The answer goes to *out. */
static int sync_ptr(unsigned flags, unsigned long appl_ptr, unsigned long avail_min, struct sp *out)
{
	void *arg = sp_arg(flags, appl_ptr, avail_min);
	if (ioctl(fd, sp_req(), arg) < 0)
		return -errno;
	if (time64) {
		struct __snd_pcm_mmap_status64 *st = &s64.s.status;
		*out = (struct sp){ st->state, st->hw_ptr, s64.c.control.appl_ptr, s64.c.control.avail_min,
				    st->tstamp.tv_sec * 1000000000ull + st->tstamp.tv_nsec,
				    st->audio_tstamp.tv_sec * 1000000000ull + st->audio_tstamp.tv_nsec };
	} else {
		struct snd_pcm_mmap_status *st = &s32.s.status;
		*out = (struct sp){ st->state, st->hw_ptr, s32.c.control.appl_ptr, s32.c.control.avail_min,
				    st->tstamp.tv_sec * 1000000000ull + st->tstamp.tv_nsec,
				    st->audio_tstamp.tv_sec * 1000000000ull + st->audio_tstamp.tv_nsec };
	}
	return 0;
}

/* Reads everything, changes nothing. */
static struct sp query(void)
{
	struct sp q = { -1, 0, 0, 0, 0, 0 };
	sync_ptr(SNDRV_PCM_SYNC_PTR_APPL | SNDRV_PCM_SYNC_PTR_AVAIL_MIN, 0, 0, &q);
	return q;
}

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

/* Whether `hw` frames played fits a DAC started between t0a..t0b and read
 * between t1a..t1b (rounding: SLACK frames). */
static int fits(unsigned long hw, uint64_t t0a, uint64_t t0b, uint64_t t1a, uint64_t t1b)
{
	uint64_t lo = t1a > t0b ? frames_in(t1a - t0b) : 0, hi = frames_in(t1b - t0a);
	if (hw + SLACK < lo || hw > hi + SLACK) {
		printf("# %lu frames outside [%llu, %llu]\n", hw, (unsigned long long)lo, (unsigned long long)hi);
		return 0;
	}
	return 1;
}

static long writei(unsigned frames)
{
	struct snd_xferi x = { .result = 0, .buf = silence, .frames = frames };
	if (ioctl(fd, SNDRV_PCM_IOCTL_WRITEI_FRAMES, &x) < 0)
		return -errno;
	return x.result;
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

/* OPEN: SYNC_PTR is accepted from the start, its errors change nothing. */
static void sync_ptr_in_open(void)
{
	char what[120];
	snprintf(what, sizeof(what), "SYNC_PTR struct is %u bytes, ioctl %#lx",
		 time64 ? (unsigned)sizeof(s64) : (unsigned)sizeof(s32), sp_req());
	pcheck(sp_req() == (time64 ? 0xc0884123ul : 0xc0844123ul), what);
	struct sp q;
	pcheck(sync_ptr(0, 0, 7, &q) == 0 && q.state == SNDRV_PCM_STATE_OPEN && q.hw_ptr == 0 && q.avail_min == 7,
	       "SYNC_PTR in OPEN: state OPEN, hw_ptr 0, avail_min 7 echoed");
	pcheck(query().avail_min == 7, "AVAIL_MIN clear stored 7; AVAIL_MIN set reads it back");
	pfails(sp_req(), sp_arg(SNDRV_PCM_SYNC_PTR_HWSYNC, 0, 7), EBADFD, "SYNC_PTR HWSYNC in OPEN");
	pfails(sp_req(), sp_arg(0, 5, 9), EINVAL, "SYNC_PTR appl_ptr 5 in OPEN (boundary 0)");
	pfails(sp_req(), (void *)8, EFAULT, "SYNC_PTR bad pointer");
	pfails(sp_req(), read_only_copy(sp_arg(0, 5, 9), sizeof(s64)), EINVAL,
	       "SYNC_PTR from a read-only struct with a bad appl_ptr: read, then refused");
	pfails(sp_req(), read_only_copy(sp_arg(0, 0, 9), sizeof(s64)), EFAULT,
	       "SYNC_PTR from a read-only struct: avail_min 9 not stored");
	if (time64) {
		sync_ptr(SNDRV_PCM_SYNC_PTR_APPL | SNDRV_PCM_SYNC_PTR_AVAIL_MIN, 0, 0, &q);
		pcheck(s64.flags == (SNDRV_PCM_SYNC_PTR_APPL | SNDRV_PCM_SYNC_PTR_AVAIL_MIN) && s64.pad1 == 0 &&
		       s64.s.status.pad1 == 0 && s64.s.status.pad3 == 0, "time64 flags kept, pads zero");
	}
}

static void configure(void)
{
	struct snd_pcm_hw_params p;
	int ttype = SNDRV_PCM_TSTAMP_TYPE_MONOTONIC;
	pcheck(ioctl(fd, SNDRV_PCM_IOCTL_TTSTAMP, &ttype) == 0, "TTSTAMP monotonic");
	ask(&p, 2, RATE, PERIOD, PERIODS);
	pmoves(SNDRV_PCM_IOCTL_HW_PARAMS, &p, SNDRV_PCM_STATE_SETUP, "HW_PARAMS S16_LE 2ch 48000 480x4");
	pcheck(sw_params(0x7fffffff) == 0, "SW_PARAMS tstamp on, no auto start");
	pmoves(SNDRV_PCM_IOCTL_PREPARE, NULL, SNDRV_PCM_STATE_PREPARED, "PREPARE");
	struct sp q = query();
	pcheck(q.hw_ptr == 0 && q.appl_ptr == 0 && q.avail_min == PERIOD, "PREPARED: pointers 0, avail_min = period");
}

/* RUNNING: the pointer moves with time, at 48000 frames a second. */
static void running(void)
{
	struct sp q;
	pcheck(writei(BUFFER) == BUFFER, "WRITEI a whole buffer");
	/* Linux would sleep forever (nothing drains a stream that is not
	 * running); this device answers EAGAIN rather than hang. */
	pcheck(writei(1) == -EAGAIN && query().appl_ptr == BUFFER, "WRITEI into a full stopped buffer -> EAGAIN");
	pcheck(query().state == SNDRV_PCM_STATE_PREPARED, "still PREPARED: start_threshold not reached");
	pfails(sp_req(), sp_arg(0, 3 * BUFFER, 5), EINVAL, "SYNC_PTR appl_ptr beyond hw_ptr + buffer");

	uint64_t t0a = now_ns();
	pmoves(SNDRV_PCM_IOCTL_START, NULL, SNDRV_PCM_STATE_RUNNING, "START");
	uint64_t t0b = now_ns();
	sleep_ms(15);
	const unsigned all = SNDRV_PCM_SYNC_PTR_HWSYNC | SNDRV_PCM_SYNC_PTR_APPL | SNDRV_PCM_SYNC_PTR_AVAIL_MIN;
	uint64_t t1a = now_ns();
	int r = sync_ptr(all, 0, 0, &q);
	uint64_t t1b = now_ns();
	pcheck(r == 0 && q.state == SNDRV_PCM_STATE_RUNNING && q.appl_ptr == BUFFER && q.avail_min == PERIOD,
	       "SYNC_PTR HWSYNC after 15 ms: RUNNING, appl_ptr and avail_min read back");
	pcheck(fits(q.hw_ptr, t0a, t0b, t1a, t1b), "hw_ptr = frames of 48 kHz since START (CLOCK_MONOTONIC)");
	pcheck(q.tstamp_ns >= t1a && q.tstamp_ns <= t1b, "tstamp taken from CLOCK_MONOTONIC during the call");
	uint64_t want_us = (uint64_t)q.hw_ptr * 1000000 / RATE;
	pcheck(q.audio_ns / 1000 + 1 >= want_us && q.audio_ns / 1000 <= want_us + 1, "audio_tstamp = hw_ptr / rate");

	unsigned long hw1 = q.hw_ptr;
	sleep_ms(5);
	pcheck(query().hw_ptr == hw1, "without HWSYNC the hardware pointer is not updated");
	uint64_t t2a = now_ns();
	sync_ptr(all, 0, 0, &q);
	uint64_t t2b = now_ns();
	pcheck(q.hw_ptr > hw1 && fits(q.hw_ptr - hw1, t1b, t1a, t2a, t2b), "HWSYNC 5 ms later: hw_ptr moved by 5 ms of frames");

	pcheck(sync_ptr(SNDRV_PCM_SYNC_PTR_APPL, 0, 100, &q) == 0 && q.avail_min == 100 && q.appl_ptr == BUFFER,
	       "APPL set, AVAIL_MIN clear: avail_min 100 stored, appl_ptr read");
	pcheck(sync_ptr(SNDRV_PCM_SYNC_PTR_AVAIL_MIN, BUFFER, 0, &q) == 0 && q.avail_min == 100 && q.appl_ptr == BUFFER,
	       "APPL clear, AVAIL_MIN set: appl_ptr written, avail_min read");

	long delay = -1;
	pcheck(ioctl(fd, SNDRV_PCM_IOCTL_DELAY, &delay) == 0 && delay > 0 && (unsigned long)delay == BUFFER - query().hw_ptr,
	       "DELAY = appl_ptr - hw_ptr (the DAC has no extra latency)");
	struct snd_pcm_status st;
	memset(&st, 0, sizeof(st));
	pcheck(ioctl(fd, SNDRV_PCM_IOCTL_STATUS, &st) == 0 && st.state == SNDRV_PCM_STATE_RUNNING &&
	       st.appl_ptr == BUFFER && st.hw_ptr == query().hw_ptr && st.avail + st.delay == BUFFER,
	       "STATUS: RUNNING, avail + delay = buffer, hw_ptr as SYNC_PTR sees it");

	struct snd_pcm_hw_params p;
	ask(&p, 2, RATE, PERIOD, PERIODS);
	pfails(SNDRV_PCM_IOCTL_PREPARE, NULL, EBUSY, "PREPARE while RUNNING");
	pfails(SNDRV_PCM_IOCTL_START, NULL, EBADFD, "START while RUNNING");
	pfails(SNDRV_PCM_IOCTL_HW_PARAMS, &p, EBADFD, "HW_PARAMS while RUNNING");
	pfails(SNDRV_PCM_IOCTL_HW_FREE, NULL, EBADFD, "HW_FREE while RUNNING");
	pfails(SNDRV_PCM_IOCTL_PAUSE, (void *)0, EBADFD, "PAUSE release while RUNNING");
	pfails(SNDRV_PCM_IOCTL_SW_PARAMS, (void *)8, EFAULT, "SW_PARAMS bad pointer while RUNNING");
	pfails(SNDRV_PCM_IOCTL_STATUS, (void *)8, EFAULT, "STATUS bad pointer while RUNNING");
	pfails(SNDRV_PCM_IOCTL_DELAY, (void *)8, EFAULT, "DELAY bad pointer while RUNNING");
	pfails(sp_req(), (void *)8, EFAULT, "SYNC_PTR bad pointer while RUNNING");
	pfails(sp_req(), read_only_copy(sp_arg(0, BUFFER, 33), sizeof(s64)), EFAULT,
	       "SYNC_PTR from a read-only struct while RUNNING: avail_min 33 not stored");
	pfails(sp_req(), sp_arg(SNDRV_PCM_SYNC_PTR_AVAIL_MIN, 3 * BUFFER, 0), EINVAL,
	       "SYNC_PTR appl_ptr beyond hw_ptr + buffer while RUNNING");

	/* The 40 ms buffer runs dry 40 ms after START. */
	sleep_ms(40);
	pcheck(sync_ptr(SNDRV_PCM_SYNC_PTR_HWSYNC, BUFFER, 100, &q) == -EPIPE, "underrun: SYNC_PTR HWSYNC -> EPIPE");
	q = query();
	pcheck(q.state == SNDRV_PCM_STATE_XRUN && q.hw_ptr == BUFFER, "state XRUN, hw_ptr stopped at the end of the data");
	memset(&st, 0, sizeof(st));
	pcheck(ioctl(fd, SNDRV_PCM_IOCTL_STATUS, &st) == 0 && st.state == SNDRV_PCM_STATE_XRUN && st.hw_ptr == BUFFER &&
	       st.avail == BUFFER, "STATUS reports XRUN, the whole buffer free");
	uint64_t trig = st.trigger_tstamp.tv_sec * 1000000000ull + st.trigger_tstamp.tv_nsec;
	pcheck(trig >= t0a + 40 * MS && trig <= t0b + 40 * MS + MS, "the XRUN is stamped when the data ran out, 40 ms after START");
	pcheck(writei(PERIOD) == -EPIPE, "WRITEI in XRUN -> EPIPE");
	pfails(SNDRV_PCM_IOCTL_HWSYNC, NULL, EPIPE, "HWSYNC in XRUN");
	pfails(SNDRV_PCM_IOCTL_DELAY, &delay, EPIPE, "DELAY in XRUN");
	pfails(SNDRV_PCM_IOCTL_START, NULL, EBADFD, "START in XRUN");
	pfails(sp_req(), sp_arg(SNDRV_PCM_SYNC_PTR_HWSYNC, BUFFER, 100), EPIPE, "SYNC_PTR HWSYNC in XRUN");
	pmoves(SNDRV_PCM_IOCTL_PREPARE, NULL, SNDRV_PCM_STATE_PREPARED, "PREPARE recovers from XRUN");
	q = query();
	pcheck(q.hw_ptr == 0 && q.appl_ptr == 0, "pointers back to 0");
}

/* PAUSE, the XRUN ioctl, DROP. */
static void pause_xrun_drop(void)
{
	struct sp q;
	pcheck(sw_params(1) == 0, "SW_PARAMS start_threshold 1");
	pcheck(writei(PERIOD * 2) == PERIOD * 2 && query().state == SNDRV_PCM_STATE_RUNNING, "a write auto-starts");
	sleep_ms(2);
	pmoves(SNDRV_PCM_IOCTL_PAUSE, (void *)1, SNDRV_PCM_STATE_PAUSED, "PAUSE push");
	unsigned long hw = query().hw_ptr;
	sleep_ms(5);
	pcheck(sync_ptr(SNDRV_PCM_SYNC_PTR_HWSYNC | SNDRV_PCM_SYNC_PTR_APPL | SNDRV_PCM_SYNC_PTR_AVAIL_MIN, 0, 0, &q) == 0 &&
	       q.hw_ptr == hw && hw > 0, "PAUSED: HWSYNC 5 ms later, hw_ptr has not moved");
	pfails(SNDRV_PCM_IOCTL_PAUSE, (void *)1, EBADFD, "PAUSE push while PAUSED");
	pmoves(SNDRV_PCM_IOCTL_PAUSE, (void *)0, SNDRV_PCM_STATE_RUNNING, "PAUSE release");
	pmoves(SNDRV_PCM_IOCTL_XRUN, NULL, SNDRV_PCM_STATE_XRUN, "XRUN ioctl forces XRUN");
	pmoves(SNDRV_PCM_IOCTL_DROP, NULL, SNDRV_PCM_STATE_SETUP, "DROP in XRUN");
	pmoves(SNDRV_PCM_IOCTL_PREPARE, NULL, SNDRV_PCM_STATE_PREPARED, "PREPARE");
	pcheck(writei(PERIOD * 2) == PERIOD * 2, "write 20 ms");
	pmoves(SNDRV_PCM_IOCTL_DROP, NULL, SNDRV_PCM_STATE_SETUP, "DROP while RUNNING");
	q = query();
	pcheck(q.hw_ptr < PERIOD * 2 && q.appl_ptr == PERIOD * 2, "DROP stopped the DAC before the data ran out");
	pfails(SNDRV_PCM_IOCTL_START, NULL, EBADFD, "START after DROP (SETUP)");
}

/* DRAIN: returns when the hardware pointer reaches the application pointer. */
static void drain(void)
{
	pmoves(SNDRV_PCM_IOCTL_PREPARE, NULL, SNDRV_PCM_STATE_PREPARED, "PREPARE");
	pcheck(writei(PERIOD * 2) == PERIOD * 2, "write 20 ms, auto-start");
	uint64_t start = now_ns();
	/* The queued audio ends 20 ms after START; the write started it. */
	pmoves(SNDRV_PCM_IOCTL_DRAIN, NULL, SNDRV_PCM_STATE_SETUP, "DRAIN");
	uint64_t end = now_ns();
	struct sp q = query();
	pcheck(q.hw_ptr == PERIOD * 2 && q.appl_ptr == PERIOD * 2, "drained: hw_ptr reached appl_ptr (all 960 frames played)");
	/* DRAIN sleeps until the deadline; the wake-up comes with the next timer
	 * tick at the latest (HZ 100: 10 ms). */
	pcheck(end >= start + 20 * MS - 2 * MS && end <= start + 20 * MS + 11 * MS,
	       "DRAIN returned when the audio ended (not early, at most a timer tick late)");

	pmoves(SNDRV_PCM_IOCTL_PREPARE, NULL, SNDRV_PCM_STATE_PREPARED, "PREPARE");
	pcheck(sw_params(0x7fffffff) == 0 && writei(PERIOD) == PERIOD, "queue 10 ms without starting");
	pmoves(SNDRV_PCM_IOCTL_DRAIN, NULL, SNDRV_PCM_STATE_SETUP, "DRAIN of a PREPARED stream with data plays it out");
	pcheck(query().hw_ptr == PERIOD, "all 480 frames played");
	pmoves(SNDRV_PCM_IOCTL_DRAIN, NULL, SNDRV_PCM_STATE_SETUP, "DRAIN in SETUP: nothing to do");

	pmoves(SNDRV_PCM_IOCTL_PREPARE, NULL, SNDRV_PCM_STATE_PREPARED, "PREPARE");
	pcheck(writei(PERIOD) == PERIOD, "queue 10 ms");
	int fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	errno = 0;
	pcheck(ioctl(fd, SNDRV_PCM_IOCTL_DRAIN) == -1 && errno == EAGAIN && query().state == SNDRV_PCM_STATE_DRAINING,
	       "non-blocking DRAIN -> EAGAIN, state DRAINING");
	pfails(SNDRV_PCM_IOCTL_PREPARE, NULL, EBUSY, "PREPARE while DRAINING");
	pcheck(writei(1) == -EBADFD, "WRITEI while DRAINING -> EBADFD");
	sleep_ms(15);
	struct snd_pcm_status st;
	pcheck(ioctl(fd, SNDRV_PCM_IOCTL_STATUS, &st) == 0 && st.state == SNDRV_PCM_STATE_SETUP,
	       "15 ms later STATUS finds the drain over");
	pcheck(query().state == SNDRV_PCM_STATE_SETUP && query().hw_ptr == PERIOD, "SETUP, hw_ptr = appl_ptr = 480");
	fcntl(fd, F_SETFL, fl);
}

static void pass(int layout64)
{
	time64 = layout64;
	prefix = layout64 ? "time64" : "time32";
	fd = open("/dev/snd/pcmC0D0p", O_RDWR);
	pcheck(fd >= 0, "open /dev/snd/pcmC0D0p");
	if (fd < 0)
		return;
	sync_ptr_in_open();
	configure();
	running();
	pause_xrun_drop();
	drain();
	pcheck(close(fd) == 0, "close");
}

int main(void)
{
	pass(0);
	pass(1);
	return summary("pcm_play");
}
