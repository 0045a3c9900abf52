/* tty_count: reads stdin to its end and reports what came, for the console
 * tests. Prints whether stdin is a terminal, then "bytes B lines L sum S"
 * (S: a byte sum, so reordered or lost bytes show). With "raw", it first
 * turns canonical mode and echo off, as an editor would. */
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[4096];
	unsigned long bytes = 0, lines = 0, sum = 0;
	ssize_t n;

	if (argc > 1 && strcmp(argv[1], "raw") == 0) {
		struct termios t;
		if (tcgetattr(0, &t) != 0) {
			perror("tcgetattr");
			return 1;
		}
		t.c_lflag &= ~(ICANON | ECHO);
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		if (tcsetattr(0, TCSANOW, &t) != 0) {
			perror("tcsetattr");
			return 1;
		}
	}
	printf("stdin is %sa terminal\n", isatty(0) ? "" : "not ");
	fflush(stdout);
	while ((n = read(0, buf, sizeof buf)) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			bytes++;
			sum += (unsigned char)buf[i];
			lines += buf[i] == '\n';
		}
	}
	if (n < 0) {
		perror("read");
		return 1;
	}
	printf("bytes %lu lines %lu sum %lu\n", bytes, lines, sum);
	return 0;
}
