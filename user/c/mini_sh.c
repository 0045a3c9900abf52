/* A tiny /bin/sh for the initramfs, enough for system() and popen():
 * `sh -c "command words..."` where the command is `echo ...`, `exit N`,
 * or a program path followed by its arguments (split on spaces, no
 * quoting). Exits 127 if the program cannot be run, as sh does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 3 || strcmp(argv[1], "-c") != 0) {
		fprintf(stderr, "mini_sh: only sh -c \"command\"\n");
		return 2;
	}
	char *words[64];
	int n = 0;
	for (char *w = strtok(argv[2], " "); w && n < 63; w = strtok(NULL, " "))
		words[n++] = w;
	words[n] = NULL;
	if (n == 0)
		return 0;
	if (strcmp(words[0], "echo") == 0) {
		for (int i = 1; i < n; i++)
			printf("%s%s", words[i], i + 1 < n ? " " : "");
		printf("\n");
		return 0;
	}
	if (strcmp(words[0], "exit") == 0)
		return n > 1 ? atoi(words[1]) : 0;
	execv(words[0], words);
	fprintf(stderr, "mini_sh: %s: not found\n", words[0]);
	return 127;
}
