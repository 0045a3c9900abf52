/* pcm_params.c - self-checking test of /dev/snd/pcmC0D0p before any audio
 * plays: PVERSION, INFO, HW_REFINE and HW_PARAMS (refined as ALSA's
 * snd_pcm_hw_refine does), SW_PARAMS, HW_FREE, PREPARE, and every error a
 * stream in OPEN, SETUP or PREPARED gives: bad parameters EINVAL, calls in
 * the wrong state EBADFD, unknown ioctls ENOTTY, bad pointers EFAULT - each
 * followed by a check that the stream is exactly as it was (pcm_test.h).
 * Runs on Sigil; without the device it prints "not ok - open" and exits 1.
 * Output: "ok - what" lines (deterministic), then "pcm_params: N passed, M failed". */
#include "pcm_test.h"

#define BAD ((void *)8) /* an unmapped user address */
void *bad_buffer = BAD;  /* the same, where the compiler cannot see it */

/* OPEN: the ioctls that need no configuration, and everything refused. */
static void in_open(void)
{
	int ver = 0;
	check(ioctl(fd, SNDRV_PCM_IOCTL_PVERSION, &ver) == 0 && ver == SNDRV_PCM_VERSION, "PVERSION is 2.0.15");
	fails(SNDRV_PCM_IOCTL_PVERSION, BAD, EFAULT, "PVERSION to a bad pointer");
	int user_ver = SNDRV_PCM_VERSION;
	check(ioctl(fd, SNDRV_PCM_IOCTL_USER_PVERSION, &user_ver) == 0, "USER_PVERSION accepted");
	fails(SNDRV_PCM_IOCTL_USER_PVERSION, BAD, EFAULT, "USER_PVERSION from a bad pointer");
	int ttype = 7;
	fails(SNDRV_PCM_IOCTL_TTSTAMP, &ttype, EINVAL, "TTSTAMP type 7");
	fails(SNDRV_PCM_IOCTL_TTSTAMP, BAD, EFAULT, "TTSTAMP from a bad pointer");

	struct snd_pcm_info info;
	memset(&info, 0xff, sizeof(info));
	check(ioctl(fd, SNDRV_PCM_IOCTL_INFO, &info) == 0 && info.card == 0 && info.device == 0 &&
	      info.stream == SNDRV_PCM_STREAM_PLAYBACK && info.subdevices_count == 1 && info.name[0] != 0,
	      "INFO: card 0 device 0 playback, one subdevice");
	fails(SNDRV_PCM_IOCTL_INFO, BAD, EFAULT, "INFO to a bad pointer");

	struct snd_pcm_status st;
	memset(&st, 0xff, sizeof(st));
	check(ioctl(fd, SNDRV_PCM_IOCTL_STATUS, &st) == 0 && st.state == SNDRV_PCM_STATE_OPEN && st.hw_ptr == 0 &&
	      st.appl_ptr == 0 && st.avail == 0, "STATUS in OPEN: state OPEN, all zero");
	fails(SNDRV_PCM_IOCTL_STATUS, BAD, EFAULT, "STATUS to a bad pointer");

	struct snd_pcm_sw_params sw;
	memset(&sw, 0, sizeof(sw));
	sw.avail_min = 1;
	fails(SNDRV_PCM_IOCTL_SW_PARAMS, &sw, EBADFD, "SW_PARAMS in OPEN");
	static const struct { unsigned long req; const char *name; } need_setup[] = {
		{ SNDRV_PCM_IOCTL_PREPARE, "PREPARE" }, { SNDRV_PCM_IOCTL_START, "START" },
		{ SNDRV_PCM_IOCTL_DROP, "DROP" }, { SNDRV_PCM_IOCTL_DRAIN, "DRAIN" },
		{ SNDRV_PCM_IOCTL_HW_FREE, "HW_FREE" }, { SNDRV_PCM_IOCTL_HWSYNC, "HWSYNC" },
		{ SNDRV_PCM_IOCTL_RESET, "RESET" }, { SNDRV_PCM_IOCTL_XRUN, "XRUN" },
	};
	char what[80];
	for (unsigned i = 0; i < sizeof(need_setup) / sizeof(need_setup[0]); i++) {
		snprintf(what, sizeof(what), "%s in OPEN", need_setup[i].name);
		fails(need_setup[i].req, NULL, EBADFD, what);
	}
	long delay;
	fails(SNDRV_PCM_IOCTL_DELAY, &delay, EBADFD, "DELAY in OPEN");
	fails(SNDRV_PCM_IOCTL_PAUSE, (void *)1, EBADFD, "PAUSE in OPEN");
	short frames[64] = { 0 };
	struct snd_xferi x = { .result = 0, .buf = frames, .frames = 16 };
	fails(SNDRV_PCM_IOCTL_WRITEI_FRAMES, &x, EBADFD, "WRITEI in OPEN");
	fails(SNDRV_PCM_IOCTL_WRITEI_FRAMES, BAD, EBADFD, "WRITEI in OPEN, bad pointer: the state is checked first");
	errno = 0;
	check(write(fd, frames, 4) == -1 && errno == EBADFD && state_now() == SNDRV_PCM_STATE_OPEN,
	      "write() in OPEN -> EBADFD, OPEN unchanged");

	fails(_IO('A', 0x7f), NULL, ENOTTY, "unknown PCM ioctl");
	fails(_IOR('U', 0x00, int), &ver, ENOTTY, "control-device ioctl on a PCM");
	fails(_IOWR('A', 0x23, char[100]), NULL, ENOTTY, "SYNC_PTR number with a 100-byte size");
	fails(SNDRV_PCM_IOCTL_CHANNEL_INFO, NULL, ENOTTY, "CHANNEL_INFO (mmap only, not offered)");
}

/* HW_REFINE: allowed in every state, never changes the stream. */
static void refine(void)
{
	struct snd_pcm_hw_params p;
	params_any(&p);
	check(ioctl(fd, SNDRV_PCM_IOCTL_HW_REFINE, &p) == 0, "HW_REFINE any");
	check(mask_has(&p, SNDRV_PCM_HW_PARAM_ACCESS, SNDRV_PCM_ACCESS_RW_INTERLEAVED) &&
	      !mask_has(&p, SNDRV_PCM_HW_PARAM_ACCESS, SNDRV_PCM_ACCESS_MMAP_INTERLEAVED),
	      "HW_REFINE: access RW interleaved only");
	check(mask_has(&p, SNDRV_PCM_HW_PARAM_FORMAT, SNDRV_PCM_FORMAT_S16_LE) &&
	      mask_has(&p, SNDRV_PCM_HW_PARAM_FORMAT, SNDRV_PCM_FORMAT_S16_BE) &&
	      mask_has(&p, SNDRV_PCM_HW_PARAM_FORMAT, SNDRV_PCM_FORMAT_S32_BE) &&
	      !mask_has(&p, SNDRV_PCM_HW_PARAM_FORMAT, SNDRV_PCM_FORMAT_U8),
	      "HW_REFINE: formats S16_LE, S16_BE, S32_BE, no U8");
	check(iv(&p, SNDRV_PCM_HW_PARAM_SAMPLE_BITS)->min == 16 && iv(&p, SNDRV_PCM_HW_PARAM_SAMPLE_BITS)->max == 32,
	      "HW_REFINE: sample_bits 16..32 derived from the formats");
	check(iv(&p, SNDRV_PCM_HW_PARAM_CHANNELS)->min == 1 && iv(&p, SNDRV_PCM_HW_PARAM_CHANNELS)->max == 2,
	      "HW_REFINE: channels 1..2");
	check(iv(&p, SNDRV_PCM_HW_PARAM_RATE)->min == 8000 && iv(&p, SNDRV_PCM_HW_PARAM_RATE)->max == 48000,
	      "HW_REFINE: rate 8000..48000");
	check(iv(&p, SNDRV_PCM_HW_PARAM_PERIODS)->min == 2 && iv(&p, SNDRV_PCM_HW_PARAM_PERIODS)->max == 256 &&
	      iv(&p, SNDRV_PCM_HW_PARAM_PERIODS)->integer, "HW_REFINE: periods 2..256, integer");
	check(p.rmask == 0 && (p.cmask & (1u << SNDRV_PCM_HW_PARAM_FORMAT)) && (p.info & SNDRV_PCM_INFO_INTERLEAVED) &&
	      p.rate_den == 0, "HW_REFINE: rmask cleared, cmask and info set, no single rate yet");

	ask(&p, 2, 48000, 1024, 4);
	check(ioctl(fd, SNDRV_PCM_IOCTL_HW_REFINE, &p) == 0 &&
	      iv(&p, SNDRV_PCM_HW_PARAM_BUFFER_SIZE)->min == 4096 && iv(&p, SNDRV_PCM_HW_PARAM_BUFFER_SIZE)->max == 4096 &&
	      iv(&p, SNDRV_PCM_HW_PARAM_PERIOD_BYTES)->min == 4096 && iv(&p, SNDRV_PCM_HW_PARAM_FRAME_BITS)->min == 32 &&
	      iv(&p, SNDRV_PCM_HW_PARAM_BUFFER_BYTES)->min == 16384,
	      "HW_REFINE 2ch 48000 1024x4: buffer_size 4096, period_bytes 4096, frame_bits 32, buffer_bytes 16384");
	struct snd_interval *pt = iv(&p, SNDRV_PCM_HW_PARAM_PERIOD_TIME);
	check(pt->min == 21333 && pt->max == 21334 && pt->openmin && pt->openmax && !pt->integer,
	      "HW_REFINE: period_time (21333, 21334) us, both ends open (1024 / 48000 s is not whole)");
	check(p.rate_num == 48000 && p.rate_den == 1 && p.msbits == 16, "HW_REFINE: rate 48000/1, msbits 16");

	params_any(&p);
	set_value(&p, SNDRV_PCM_HW_PARAM_PERIOD_TIME, 10000);
	set_value(&p, SNDRV_PCM_HW_PARAM_RATE, 44100);
	check(ioctl(fd, SNDRV_PCM_IOCTL_HW_REFINE, &p) == 0 && iv(&p, SNDRV_PCM_HW_PARAM_PERIOD_SIZE)->min == 441 &&
	      iv(&p, SNDRV_PCM_HW_PARAM_PERIOD_SIZE)->max == 441, "HW_REFINE: 10 ms at 44100 Hz is 441 frames");

	ask(&p, 2, 96000, 1024, 4);
	fails(SNDRV_PCM_IOCTL_HW_REFINE, &p, EINVAL, "HW_REFINE rate 96000");
	ask(&p, 2, 48000, 1024, 4);
	set_format(&p, SNDRV_PCM_FORMAT_U8);
	fails(SNDRV_PCM_IOCTL_HW_REFINE, &p, EINVAL, "HW_REFINE format U8");
	ask(&p, 2, 48000, 65536, 4);
	fails(SNDRV_PCM_IOCTL_HW_REFINE, &p, EINVAL, "HW_REFINE 256 KiB periods");
	fails(SNDRV_PCM_IOCTL_HW_REFINE, BAD, EFAULT, "HW_REFINE bad pointer");
	ask(&p, 2, 48000, 1024, 4);
	void *ro = read_only_copy(&p, sizeof(p));
	check(ro && memcmp(ro, &p, sizeof(p)) == 0, "a read-only copy of the struct is readable");
	fails(SNDRV_PCM_IOCTL_HW_REFINE, ro, EFAULT, "HW_REFINE into a read-only struct");
}

/* HW_PARAMS from OPEN, the failures that must not configure anything, and a
 * refused set in SETUP, which Linux answers by going back to OPEN. */
static void hw_params(void)
{
	struct snd_pcm_hw_params p;
	ask(&p, 8, 48000, 1024, 4);
	fails(SNDRV_PCM_IOCTL_HW_PARAMS, &p, EINVAL, "HW_PARAMS 8 channels");
	fails(SNDRV_PCM_IOCTL_HW_PARAMS, BAD, EFAULT, "HW_PARAMS bad pointer");
	ask(&p, 2, 48000, 1024, 4);
	fails(SNDRV_PCM_IOCTL_HW_PARAMS, read_only_copy(&p, sizeof(p)), EFAULT,
	      "HW_PARAMS from a read-only struct (good values, answer not storable)");

	ask(&p, 2, 48000, 1024, 4);
	moves(SNDRV_PCM_IOCTL_HW_PARAMS, &p, SNDRV_PCM_STATE_SETUP, "HW_PARAMS S16_LE 2ch 48000 1024x4");
	check(iv(&p, SNDRV_PCM_HW_PARAM_BUFFER_SIZE)->min == 4096 && p.rate_num == 48000 && p.rate_den == 1 &&
	      p.msbits == 16, "HW_PARAMS: buffer 4096, rate 48000/1, msbits 16");
	int all_single = 1;
	for (int k = SNDRV_PCM_HW_PARAM_SAMPLE_BITS; k <= SNDRV_PCM_HW_PARAM_BUFFER_BYTES; k++) {
		struct snd_interval *i = iv(&p, k);
		if (!(i->min == i->max || (i->min + 1 == i->max && (i->openmin || i->openmax))))
			all_single = 0;
	}
	check(all_single, "HW_PARAMS: every interval fixed");
	struct snap s = snapshot();
	check(s.avail_min == 1024 && s.appl_ptr == 0 && s.hw_ptr == 0, "SETUP: avail_min defaults to the period");

	params_any(&p);
	set_value(&p, SNDRV_PCM_HW_PARAM_CHANNELS, 1);
	check(ioctl(fd, SNDRV_PCM_IOCTL_HW_PARAMS, &p) == 0 && mask_has(&p, SNDRV_PCM_HW_PARAM_FORMAT, SNDRV_PCM_FORMAT_S16_LE) &&
	      iv(&p, SNDRV_PCM_HW_PARAM_RATE)->min == 8000 && iv(&p, SNDRV_PCM_HW_PARAM_PERIOD_SIZE)->min == 32 &&
	      iv(&p, SNDRV_PCM_HW_PARAM_BUFFER_SIZE)->min == 8192,
	      "HW_PARAMS mono, rest open, chooses as ALSA: S16_LE, 8000 Hz, shortest period (64 B = 32 frames), "
	      "then the largest buffer (256 periods = 8192 frames)");
	check(snapshot().avail_min == iv(&p, SNDRV_PCM_HW_PARAM_PERIOD_SIZE)->min, "re-configured: avail_min is the new period");

	ask(&p, 2, 48000, 1024, 4);
	moves(SNDRV_PCM_IOCTL_HW_PARAMS, &p, SNDRV_PCM_STATE_SETUP, "HW_PARAMS again from SETUP");
	ask(&p, 1, 8000, 256, 2);
	fails(SNDRV_PCM_IOCTL_HW_PARAMS, read_only_copy(&p, sizeof(p)), EFAULT,
	      "HW_PARAMS from a read-only struct in SETUP keeps the old configuration");
	ask(&p, 2, 96000, 1024, 4);
	errno = 0;
	check(ioctl(fd, SNDRV_PCM_IOCTL_HW_PARAMS, &p) == -1 && errno == EINVAL && state_now() == SNDRV_PCM_STATE_OPEN,
	      "HW_PARAMS rate 96000 in SETUP -> EINVAL and back to OPEN, as Linux");
	ask(&p, 2, 48000, 1024, 4);
	moves(SNDRV_PCM_IOCTL_HW_PARAMS, &p, SNDRV_PCM_STATE_SETUP, "HW_PARAMS after the refusal");
}

/* SW_PARAMS in SETUP: Linux's checks, and a copy-back that cannot be stored. */
static void sw_params(void)
{
	struct snd_pcm_sw_params sw;
	memset(&sw, 0, sizeof(sw));
	fails(SNDRV_PCM_IOCTL_SW_PARAMS, &sw, EINVAL, "SW_PARAMS avail_min 0");
	memset(&sw, 0, sizeof(sw));
	sw.avail_min = 100;
	sw.tstamp_mode = 2;
	fails(SNDRV_PCM_IOCTL_SW_PARAMS, &sw, EINVAL, "SW_PARAMS tstamp_mode 2");
	sw.tstamp_mode = 0;
	sw.proto = SNDRV_PCM_VERSION;
	sw.tstamp_type = 3;
	fails(SNDRV_PCM_IOCTL_SW_PARAMS, &sw, EINVAL, "SW_PARAMS tstamp_type 3");
	sw.tstamp_type = 0;
	sw.silence_threshold = 8192;
	fails(SNDRV_PCM_IOCTL_SW_PARAMS, &sw, EINVAL, "SW_PARAMS silence_threshold > buffer");
	sw.silence_threshold = 0;
	fails(SNDRV_PCM_IOCTL_SW_PARAMS, BAD, EFAULT, "SW_PARAMS bad pointer");
	fails(SNDRV_PCM_IOCTL_SW_PARAMS, read_only_copy(&sw, sizeof(sw)), EFAULT,
	      "SW_PARAMS avail_min 100 from a read-only struct: not applied");
	sw.start_threshold = 4096;
	sw.stop_threshold = 4096;
	check(ioctl(fd, SNDRV_PCM_IOCTL_SW_PARAMS, &sw) == 0 && sw.boundary == 0x40000000,
	      "SW_PARAMS valid: boundary 0x40000000 for a 4096-frame buffer");
	check(snapshot().avail_min == 100, "SW_PARAMS applied: avail_min 100");
}

/* SETUP and PREPARED: what needs a running stream or data. */
static void before_start(void)
{
	long delay;
	fails(SNDRV_PCM_IOCTL_START, NULL, EBADFD, "START in SETUP");
	fails(SNDRV_PCM_IOCTL_DELAY, &delay, EBADFD, "DELAY in SETUP");
	fails(SNDRV_PCM_IOCTL_HWSYNC, NULL, EBADFD, "HWSYNC in SETUP");
	fails(SNDRV_PCM_IOCTL_RESET, NULL, EBADFD, "RESET in SETUP");
	fails(SNDRV_PCM_IOCTL_PAUSE, (void *)1, EBADFD, "PAUSE in SETUP");
	short frames[64] = { 0 };
	struct snd_xferi x = { .result = 0, .buf = frames, .frames = 16 };
	fails(SNDRV_PCM_IOCTL_WRITEI_FRAMES, &x, EBADFD, "WRITEI in SETUP");

	moves(SNDRV_PCM_IOCTL_PREPARE, NULL, SNDRV_PCM_STATE_PREPARED, "PREPARE in SETUP");
	fails(SNDRV_PCM_IOCTL_START, NULL, EPIPE, "START with nothing written");
	fails(SNDRV_PCM_IOCTL_XRUN, NULL, EBADFD, "XRUN in PREPARED");
	fails(SNDRV_PCM_IOCTL_PAUSE, (void *)0, EBADFD, "PAUSE release in PREPARED");
	x.buf = BAD;
	fails(SNDRV_PCM_IOCTL_WRITEI_FRAMES, &x, EFAULT, "WRITEI from a bad buffer");
	fails(SNDRV_PCM_IOCTL_WRITEI_FRAMES, BAD, EFAULT, "WRITEI bad xferi pointer");
	x.buf = frames;
	fails(SNDRV_PCM_IOCTL_WRITEI_FRAMES, read_only_copy(&x, sizeof(x)), EFAULT,
	      "WRITEI with a read-only xferi: no frame taken");
	errno = 0;
	check(write(fd, frames, 6) == -1 && errno == EINVAL && snapshot().appl_ptr == 0,
	      "write() of a partial frame -> EINVAL, nothing queued");
	errno = 0;
	check(write(fd, bad_buffer, 64) == -1 && errno == EFAULT && snapshot().appl_ptr == 0,
	      "write() from a bad buffer -> EFAULT, nothing queued");
	check(write(fd, frames, 64) == 64 && snapshot().appl_ptr == 16, "write() of 16 frames queues 16 frames");
	check(ioctl(fd, SNDRV_PCM_IOCTL_WRITEI_FRAMES, &x) == 0 && x.result == 16 && snapshot().appl_ptr == 32,
	      "WRITEI of 16 frames: result 16, appl_ptr 32");
	check(state_now() == SNDRV_PCM_STATE_PREPARED, "still PREPARED: start_threshold 4096 not reached");

	struct snd_pcm_hw_params p;
	ask(&p, 2, 48000, 1024, 4);
	moves(SNDRV_PCM_IOCTL_HW_PARAMS, &p, SNDRV_PCM_STATE_SETUP, "HW_PARAMS again in PREPARED");
	moves(SNDRV_PCM_IOCTL_HW_FREE, NULL, SNDRV_PCM_STATE_OPEN, "HW_FREE in SETUP");
	fails(SNDRV_PCM_IOCTL_HW_FREE, NULL, EBADFD, "HW_FREE twice");
}

int main(void)
{
	if (!open_pcm("pcm_params"))
		return 1;
	in_open();
	refine();
	hw_params();
	sw_params();
	before_start();
	check(close(fd) == 0, "close");
	return summary("pcm_params");
}
