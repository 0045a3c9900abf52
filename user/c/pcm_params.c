/* pcm_params.c - self-checking test of /dev/snd/pcmC0D0p parameter ioctls:
 * PVERSION, INFO, HW_REFINE, HW_PARAMS, SW_PARAMS, HW_FREE, and the errors
 * Linux gives for bad parameters (EINVAL), calls in the wrong state (EBADFD),
 * unknown ioctls (ENOTTY) and bad pointers (EFAULT).
 * Uses only raw ioctls and <sound/asound.h>, no alsa-lib. Runs on Sigil;
 * without the device it prints "not ok - open" and exits 1.
 * Output: "ok - what" / "not ok - what" lines, then "pcm_params: N passed, M failed". */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <sound/asound.h>

static int passed, failed;

static void check(int cond, const char *what)
{
	printf("%s - %s\n", cond ? "ok" : "not ok", what);
	if (cond)
		passed++;
	else
		failed++;
}

/* ioctl expected to fail with errno `err`. */
static void check_err(int fd, unsigned long req, void *arg, int err, const char *what)
{
	errno = 0;
	int r = ioctl(fd, req, arg);
	check(r == -1 && errno == err, what);
}

static struct snd_interval *iv(struct snd_pcm_hw_params *p, int k)
{
	return &p->intervals[k - SNDRV_PCM_HW_PARAM_FIRST_INTERVAL];
}

/* Everything allowed, everything requested: alsa-lib's _snd_pcm_hw_params_any. */
static void params_any(struct snd_pcm_hw_params *p)
{
	memset(p, 0, sizeof(*p));
	for (int k = SNDRV_PCM_HW_PARAM_FIRST_MASK; k <= SNDRV_PCM_HW_PARAM_LAST_MASK; k++)
		memset(&p->masks[k], 0xff, sizeof(p->masks[k]));
	for (int k = SNDRV_PCM_HW_PARAM_FIRST_INTERVAL; k <= SNDRV_PCM_HW_PARAM_LAST_INTERVAL; k++)
		iv(p, k)->max = ~0u;
	p->rmask = ~0u;
}

static void set_value(struct snd_pcm_hw_params *p, int k, unsigned v)
{
	iv(p, k)->min = iv(p, k)->max = v;
}

static void set_format(struct snd_pcm_hw_params *p, int fmt)
{
	memset(&p->masks[SNDRV_PCM_HW_PARAM_FORMAT], 0, sizeof(struct snd_mask));
	p->masks[SNDRV_PCM_HW_PARAM_FORMAT].bits[fmt / 32] = 1u << (fmt % 32);
}

static int mask_has(const struct snd_pcm_hw_params *p, int k, int v)
{
	return (p->masks[k].bits[v / 32] >> (v % 32)) & 1;
}

static void stereo_48k(struct snd_pcm_hw_params *p)
{
	params_any(p);
	set_format(p, SNDRV_PCM_FORMAT_S16_LE);
	set_value(p, SNDRV_PCM_HW_PARAM_CHANNELS, 2);
	set_value(p, SNDRV_PCM_HW_PARAM_RATE, 48000);
	set_value(p, SNDRV_PCM_HW_PARAM_PERIOD_SIZE, 1024);
	set_value(p, SNDRV_PCM_HW_PARAM_PERIODS, 4);
}

int main(void)
{
	int fd = open("/dev/snd/pcmC0D0p", O_RDWR);
	check(fd >= 0, "open /dev/snd/pcmC0D0p");
	if (fd < 0) {
		printf("pcm_params: %d passed, %d failed\n", passed, failed);
		return 1;
	}

	int ver = 0;
	check(ioctl(fd, SNDRV_PCM_IOCTL_PVERSION, &ver) == 0 && ver == SNDRV_PCM_VERSION, "PVERSION is 2.0.15");
	int user_ver = SNDRV_PCM_VERSION;
	check(ioctl(fd, SNDRV_PCM_IOCTL_USER_PVERSION, &user_ver) == 0, "USER_PVERSION accepted");

	struct snd_pcm_info info;
	memset(&info, 0xff, sizeof(info));
	check(ioctl(fd, SNDRV_PCM_IOCTL_INFO, &info) == 0 && info.card == 0 && info.device == 0 &&
	      info.stream == SNDRV_PCM_STREAM_PLAYBACK && info.subdevices_count == 1 && info.name[0] != 0,
	      "INFO: card 0 device 0 playback");

	struct snd_pcm_hw_params p;
	params_any(&p);
	check(ioctl(fd, SNDRV_PCM_IOCTL_HW_REFINE, &p) == 0, "HW_REFINE any");
	check(mask_has(&p, SNDRV_PCM_HW_PARAM_ACCESS, SNDRV_PCM_ACCESS_RW_INTERLEAVED) &&
	      mask_has(&p, SNDRV_PCM_HW_PARAM_FORMAT, SNDRV_PCM_FORMAT_S16_LE) &&
	      !mask_has(&p, SNDRV_PCM_HW_PARAM_FORMAT, SNDRV_PCM_FORMAT_U8),
	      "HW_REFINE: RW interleaved, S16_LE, no U8");
	check(iv(&p, SNDRV_PCM_HW_PARAM_CHANNELS)->min == 1 && iv(&p, SNDRV_PCM_HW_PARAM_CHANNELS)->max == 2,
	      "HW_REFINE: channels 1..2");
	check(iv(&p, SNDRV_PCM_HW_PARAM_RATE)->min == 8000 && iv(&p, SNDRV_PCM_HW_PARAM_RATE)->max == 48000,
	      "HW_REFINE: rate 8000..48000");
	check(p.rmask == 0 && (p.cmask & (1u << SNDRV_PCM_HW_PARAM_FORMAT)) && (p.info & SNDRV_PCM_INFO_INTERLEAVED),
	      "HW_REFINE: rmask cleared, cmask and info set");

	stereo_48k(&p);
	check(ioctl(fd, SNDRV_PCM_IOCTL_HW_REFINE, &p) == 0 &&
	      iv(&p, SNDRV_PCM_HW_PARAM_BUFFER_SIZE)->min == 4096 && iv(&p, SNDRV_PCM_HW_PARAM_BUFFER_SIZE)->max == 4096 &&
	      iv(&p, SNDRV_PCM_HW_PARAM_PERIOD_BYTES)->min == 4096 && iv(&p, SNDRV_PCM_HW_PARAM_FRAME_BITS)->min == 32,
	      "HW_REFINE derives buffer_size 4096, period_bytes 4096, frame_bits 32");

	stereo_48k(&p);
	set_value(&p, SNDRV_PCM_HW_PARAM_RATE, 96000);
	check_err(fd, SNDRV_PCM_IOCTL_HW_REFINE, &p, EINVAL, "HW_REFINE rate 96000 -> EINVAL");
	stereo_48k(&p);
	set_value(&p, SNDRV_PCM_HW_PARAM_CHANNELS, 8);
	check_err(fd, SNDRV_PCM_IOCTL_HW_PARAMS, &p, EINVAL, "HW_PARAMS 8 channels -> EINVAL");
	check_err(fd, SNDRV_PCM_IOCTL_HW_REFINE, (void *)8, EFAULT, "HW_REFINE bad pointer -> EFAULT");

	struct snd_pcm_sw_params sw;
	memset(&sw, 0, sizeof(sw));
	sw.avail_min = 1;
	check_err(fd, SNDRV_PCM_IOCTL_SW_PARAMS, &sw, EBADFD, "SW_PARAMS in OPEN -> EBADFD");
	check_err(fd, SNDRV_PCM_IOCTL_PREPARE, NULL, EBADFD, "PREPARE in OPEN -> EBADFD");
	check_err(fd, SNDRV_PCM_IOCTL_HW_FREE, NULL, EBADFD, "HW_FREE in OPEN -> EBADFD");
	check_err(fd, _IO('A', 0x7f), NULL, ENOTTY, "unknown ioctl -> ENOTTY");
	check_err(fd, _IOR('U', 0x00, int), &ver, ENOTTY, "control-device ioctl on a PCM -> ENOTTY");

	stereo_48k(&p);
	check(ioctl(fd, SNDRV_PCM_IOCTL_HW_PARAMS, &p) == 0, "HW_PARAMS S16_LE 2ch 48000 1024x4");
	check(iv(&p, SNDRV_PCM_HW_PARAM_BUFFER_SIZE)->min == 4096 && p.rate_num == 48000 && p.rate_den == 1 &&
	      p.msbits == 16, "HW_PARAMS: buffer 4096, rate 48000/1, msbits 16");
	int all_single = 1;
	for (int k = SNDRV_PCM_HW_PARAM_SAMPLE_BITS; k <= SNDRV_PCM_HW_PARAM_BUFFER_BYTES; k++) {
		struct snd_interval *i = iv(&p, k);
		if (!(i->min == i->max || (i->min + 1 == i->max && (i->openmin || i->openmax))))
			all_single = 0;
	}
	check(all_single, "HW_PARAMS: every interval fixed");

	memset(&sw, 0, sizeof(sw));
	check_err(fd, SNDRV_PCM_IOCTL_SW_PARAMS, &sw, EINVAL, "SW_PARAMS avail_min 0 -> EINVAL");
	memset(&sw, 0, sizeof(sw));
	sw.avail_min = 1024;
	sw.start_threshold = 4096;
	sw.stop_threshold = 4096;
	sw.silence_threshold = 8192;
	check_err(fd, SNDRV_PCM_IOCTL_SW_PARAMS, &sw, EINVAL, "SW_PARAMS silence_threshold > buffer -> EINVAL");
	sw.silence_threshold = 0;
	check(ioctl(fd, SNDRV_PCM_IOCTL_SW_PARAMS, &sw) == 0, "SW_PARAMS valid");
	check(sw.boundary == 0x40000000, "SW_PARAMS: boundary 0x40000000 for a 4096-frame buffer");

	check_err(fd, SNDRV_PCM_IOCTL_START, NULL, EBADFD, "START in SETUP -> EBADFD");
	check_err(fd, SNDRV_PCM_IOCTL_DELAY, &ver, EBADFD, "DELAY in SETUP -> EBADFD");
	short frames[64];
	memset(frames, 0, sizeof(frames));
	struct snd_xferi x = { .result = 0, .buf = frames, .frames = 16 };
	check_err(fd, SNDRV_PCM_IOCTL_WRITEI_FRAMES, &x, EBADFD, "WRITEI in SETUP -> EBADFD");

	check(ioctl(fd, SNDRV_PCM_IOCTL_PREPARE) == 0, "PREPARE in SETUP");
	x.buf = (void *)8;
	check_err(fd, SNDRV_PCM_IOCTL_WRITEI_FRAMES, &x, EFAULT, "WRITEI from a bad buffer -> EFAULT");
	check_err(fd, SNDRV_PCM_IOCTL_WRITEI_FRAMES, (void *)8, EFAULT, "WRITEI bad xferi pointer -> EFAULT");
	check_err(fd, SNDRV_PCM_IOCTL_SYNC_PTR, (void *)8, EFAULT, "SYNC_PTR bad pointer -> EFAULT");
	check_err(fd, SNDRV_PCM_IOCTL_START, NULL, EPIPE, "START with nothing written -> EPIPE");
	stereo_48k(&p);
	check(ioctl(fd, SNDRV_PCM_IOCTL_HW_PARAMS, &p) == 0, "HW_PARAMS again in PREPARED");

	check(ioctl(fd, SNDRV_PCM_IOCTL_HW_FREE) == 0, "HW_FREE in SETUP");
	check_err(fd, SNDRV_PCM_IOCTL_HW_FREE, NULL, EBADFD, "HW_FREE twice -> EBADFD");
	check(close(fd) == 0, "close");

	printf("pcm_params: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
