/* on_sigil.h: is this program running on Sigil? For the programs that must
 * never run on a host (fork bombs, kill(-1) fuzzing): Sigil's uname release
 * ends in "-sigil", Linux's (and qemu-ppc's, which reports the host's) does not.
 */
#ifndef ON_SIGIL_H
#define ON_SIGIL_H

#include <string.h>
#include <sys/utsname.h>

static int on_sigil(void)
{
	struct utsname u;
	return uname(&u) == 0 && strstr(u.release, "-sigil") != NULL;
}

#endif
