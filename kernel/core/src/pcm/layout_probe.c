/* layout_probe.c - prints the ppc32 ALSA uapi layout as "NAME VALUE" lines.
 * Built twice by pcm/layout_tests.rs (default time32 and -D_TIME_BITS=64) with
 * powerpc-linux-gnu-gcc -static and run under qemu-ppc; the Rust test compares
 * every line with the constants in pcm/uapi.rs. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sound/asound.h>

#define P(name, v) printf("%s %lu\n", name, (unsigned long)(v))
#define OFF(s, f) P(#s "." #f, offsetof(struct s, f))

int main(void)
{
	struct snd_interval iv;
	unsigned int w;

	P("sizeof.info", sizeof(struct snd_pcm_info));
	OFF(snd_pcm_info, id); OFF(snd_pcm_info, name); OFF(snd_pcm_info, subname);
	OFF(snd_pcm_info, dev_class); OFF(snd_pcm_info, subdevices_count);
	OFF(snd_pcm_info, subdevices_avail); OFF(snd_pcm_info, sync);

	P("sizeof.hw_params", sizeof(struct snd_pcm_hw_params));
	OFF(snd_pcm_hw_params, masks); OFF(snd_pcm_hw_params, intervals);
	OFF(snd_pcm_hw_params, rmask); OFF(snd_pcm_hw_params, cmask);
	OFF(snd_pcm_hw_params, info); OFF(snd_pcm_hw_params, msbits);
	OFF(snd_pcm_hw_params, rate_num); OFF(snd_pcm_hw_params, rate_den);
	OFF(snd_pcm_hw_params, fifo_size);
	P("sizeof.interval", sizeof(struct snd_interval));
	P("sizeof.mask", sizeof(struct snd_mask));
	/* bit-field placement: big-endian GCC allocates from the top bit */
	memset(&iv, 0, sizeof(iv)); iv.openmin = 1; memcpy(&w, (char *)&iv + 8, 4); P("interval.openmin", w);
	memset(&iv, 0, sizeof(iv)); iv.openmax = 1; memcpy(&w, (char *)&iv + 8, 4); P("interval.openmax", w);
	memset(&iv, 0, sizeof(iv)); iv.integer = 1; memcpy(&w, (char *)&iv + 8, 4); P("interval.integer", w);
	memset(&iv, 0, sizeof(iv)); iv.empty = 1; memcpy(&w, (char *)&iv + 8, 4); P("interval.empty", w);

	P("sizeof.sw_params", sizeof(struct snd_pcm_sw_params));
	OFF(snd_pcm_sw_params, tstamp_mode); OFF(snd_pcm_sw_params, period_step);
	OFF(snd_pcm_sw_params, sleep_min); OFF(snd_pcm_sw_params, avail_min);
	OFF(snd_pcm_sw_params, xfer_align); OFF(snd_pcm_sw_params, start_threshold);
	OFF(snd_pcm_sw_params, stop_threshold); OFF(snd_pcm_sw_params, silence_threshold);
	OFF(snd_pcm_sw_params, silence_size); OFF(snd_pcm_sw_params, boundary);
	OFF(snd_pcm_sw_params, proto); OFF(snd_pcm_sw_params, tstamp_type);

	P("sizeof.status", sizeof(struct snd_pcm_status));
	OFF(snd_pcm_status, state); OFF(snd_pcm_status, trigger_tstamp);
	OFF(snd_pcm_status, tstamp); OFF(snd_pcm_status, appl_ptr);
	OFF(snd_pcm_status, hw_ptr); OFF(snd_pcm_status, delay);
	OFF(snd_pcm_status, avail); OFF(snd_pcm_status, avail_max);
	OFF(snd_pcm_status, overrange); OFF(snd_pcm_status, suspended_state);
	OFF(snd_pcm_status, audio_tstamp_data); OFF(snd_pcm_status, audio_tstamp);
	OFF(snd_pcm_status, driver_tstamp); OFF(snd_pcm_status, audio_tstamp_accuracy);
	P("sizeof.timespec", sizeof(struct timespec));
	P("offsetof.timespec.tv_nsec", offsetof(struct timespec, tv_nsec));

	P("sizeof.sync_ptr", sizeof(struct snd_pcm_sync_ptr));
	OFF(snd_pcm_sync_ptr, flags);
	OFF(snd_pcm_sync_ptr, s.status.state); OFF(snd_pcm_sync_ptr, s.status.hw_ptr);
	OFF(snd_pcm_sync_ptr, s.status.tstamp.tv_sec); OFF(snd_pcm_sync_ptr, s.status.tstamp.tv_nsec);
	OFF(snd_pcm_sync_ptr, s.status.suspended_state);
	OFF(snd_pcm_sync_ptr, s.status.audio_tstamp.tv_sec);
	OFF(snd_pcm_sync_ptr, s.status.audio_tstamp.tv_nsec);
	OFF(snd_pcm_sync_ptr, c.control.appl_ptr); OFF(snd_pcm_sync_ptr, c.control.avail_min);

	P("sizeof.xferi", sizeof(struct snd_xferi));
	OFF(snd_xferi, result); OFF(snd_xferi, buf); OFF(snd_xferi, frames);

	P("PVERSION", SNDRV_PCM_IOCTL_PVERSION); P("INFO", SNDRV_PCM_IOCTL_INFO);
	P("TSTAMP", SNDRV_PCM_IOCTL_TSTAMP); P("TTSTAMP", SNDRV_PCM_IOCTL_TTSTAMP);
	P("USER_PVERSION", SNDRV_PCM_IOCTL_USER_PVERSION);
	P("HW_REFINE", SNDRV_PCM_IOCTL_HW_REFINE); P("HW_PARAMS", SNDRV_PCM_IOCTL_HW_PARAMS);
	P("HW_FREE", SNDRV_PCM_IOCTL_HW_FREE); P("SW_PARAMS", SNDRV_PCM_IOCTL_SW_PARAMS);
	P("STATUS", SNDRV_PCM_IOCTL_STATUS); P("STATUS_EXT", SNDRV_PCM_IOCTL_STATUS_EXT);
	P("DELAY", SNDRV_PCM_IOCTL_DELAY); P("HWSYNC", SNDRV_PCM_IOCTL_HWSYNC);
	P("SYNC_PTR", SNDRV_PCM_IOCTL_SYNC_PTR);
	P("PREPARE", SNDRV_PCM_IOCTL_PREPARE); P("RESET", SNDRV_PCM_IOCTL_RESET);
	P("START", SNDRV_PCM_IOCTL_START); P("DROP", SNDRV_PCM_IOCTL_DROP);
	P("DRAIN", SNDRV_PCM_IOCTL_DRAIN); P("PAUSE", SNDRV_PCM_IOCTL_PAUSE);
	P("XRUN", SNDRV_PCM_IOCTL_XRUN);
	P("WRITEI_FRAMES", SNDRV_PCM_IOCTL_WRITEI_FRAMES);
	P("VERSION", SNDRV_PCM_VERSION);
	return 0;
}
