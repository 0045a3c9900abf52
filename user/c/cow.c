/* cow: fork isolation. After fork, parent and child share read-only pages
 * (the kernel's choice); whatever either does to its own mappings - mprotect
 * to read/write, then write - the other's memory must not change. That holds
 * for an anonymous read-only page, for read-only data of the program and for
 * the program's own text, and for the kernel's CLONE_CHILD_SETTID store
 * aimed at read-only data. MAP_SHARED | MAP_ANONYMOUS memory is the opposite:
 * one memory for parent and child, touched before the fork or not.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096

static const char rodata[] = "read-only data of the program";

/* Page-aligned in the text segment, so the child can rewrite it. */
__attribute__((noinline, aligned(4096))) static int text_answer(void)
{
	return 7;
}

static void *page_of(const void *p)
{
	return (void *)((uintptr_t)p & ~(uintptr_t)(PAGE - 1));
}

/* Runs child() in a child and waits; returns its exit status. */
static int in_child(int (*child)(void *), void *arg)
{
	int status;
	pid_t pid = fork();
	if (pid == 0)
		_exit(child(arg));
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* mprotect RW the page holding p, then overwrite it with 'X'. */
static int scribble(void *p)
{
	char *page = page_of(p);
	if (mprotect(page, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC))
		return 1;
	memset((char *)p, 'X', 8);
	return ((char *)p)[0] == 'X' ? 0 : 2;
}

/* As scribble, then change text_answer to "li r3, 42; blr". */
static int patch_text(void *p)
{
	uint32_t *insn = p;
	if (mprotect(page_of(p), PAGE, PROT_READ | PROT_WRITE | PROT_EXEC))
		return 1;
	insn[0] = 0x3860002a; /* li r3, 42 */
	insn[1] = 0x4e800020; /* blr */
	__asm__ volatile("dcbst 0,%0; sync; icbi 0,%0; sync; isync" : : "r"(insn) : "memory");
	return text_answer() == 42 ? 0 : 2;
}

static int write_word(void *p)
{
	*(volatile int *)p = 1234;
	return 0;
}

int main(void)
{
	/* An anonymous page, written, then read-only: fork shares it. */
	char *ro = mmap(0, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	strcpy(ro, "parent's page");
	mprotect(ro, PAGE, PROT_READ);
	int st = in_child(scribble, ro);
	printf("child mprotect RW + write of a shared read-only page: child status %d, parent sees \"%s\"\n", st, ro);

	/* The same, the other way round: the parent writes, the child looks. */
	int pipefd[2], back[2];
	pipe(pipefd);
	pipe(back);
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		read(pipefd[0], &c, 1);
		char copy[16];
		memcpy(copy, ro, sizeof copy);
		write(back[1], copy, sizeof copy);
		_exit(0);
	}
	scribble(ro);
	write(pipefd[1], "go", 1);
	char seen[17] = { 0 };
	read(back[0], seen, 16);
	waitpid(pid, &st, 0);
	printf("parent mprotect RW + write after fork: child sees \"%.13s\"\n", seen);

	st = in_child(scribble, (void *)rodata);
	printf("child rewrites the program's read-only data: child status %d, parent sees \"%s\"\n", st, rodata);

	st = in_child(patch_text, (void *)text_answer);
	printf("child rewrites the program's text: child status %d, parent's function returns %d\n", st, text_answer());

	/* Two forks deep: neither the child nor the grandparent sees the grandchild's write. */
	char *ro2 = mmap(0, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	strcpy(ro2, "grandparent's page");
	mprotect(ro2, PAGE, PROT_READ);
	pid = fork();
	if (pid == 0) {
		int s2 = in_child(scribble, ro2);
		_exit(s2 == 0 && ro2[0] == 'g' ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	printf("grandchild rewrites a page shared three ways: child status %d, grandparent sees \"%s\"\n",
	       WEXITSTATUS(st), ro2);

	/* CLONE_CHILD_SETTID aimed at read-only data fork shares: Linux's
	 * child stores its id as the child (a put_user that faults, and is
	 * dropped), so the parent's page keeps its bytes. */
	long id = syscall(SYS_clone, CLONE_CHILD_SETTID | SIGCHLD, 0, 0, 0, rodata);
	if (id == 0)
		_exit(0);
	waitpid(id, &st, 0);
	printf("CLONE_CHILD_SETTID into the program's read-only data: parent sees \"%s\"\n", rodata);

	/* MAP_SHARED | MAP_ANONYMOUS: written by the child, seen by the parent,
	 * whether the parent touched the page before the fork or not. */
	int *touched = mmap(0, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int *untouched = mmap(0, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	*touched = 1;
	in_child(write_word, touched);
	in_child(write_word, untouched + PAGE / sizeof(int));
	printf("MAP_SHARED anonymous, written by a child: touched page %d, untouched page %d\n", *touched,
	       untouched[PAGE / sizeof(int)]);

	/* A shared page the child makes read-only then read/write again is still shared. */
	mprotect(touched, PAGE, PROT_READ);
	st = in_child(scribble, touched);
	printf("MAP_SHARED read-only page, child mprotect RW + write: child status %d, parent sees %s\n", st,
	       *(char *)touched == 'X' ? "the write" : "no change");
	return 0;
}
