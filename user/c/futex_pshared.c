/* futex_pshared: process-shared (pshared = 1) pthread mutex, condition
 * variable and semaphores in MAP_SHARED memory between a parent and a
 * forked child, compared with qemu-ppc. glibc's pshared objects use
 * futexes without FUTEX_PRIVATE_FLAG, so each wait in one process is
 * woken from the other only if the kernel keys the futex by the shared
 * page, not by the process. Anonymous shared memory first (a semaphore
 * ping-pong, a mutex both processes hammer, a condition variable the child
 * waits on), then a file's: the child maps the file itself, at an address
 * of its own, and the two still meet in one semaphore.
 */
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define ROUNDS 200
#define ADDS 2000

struct shared {
	sem_t ping, pong;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int ready;
	int count;
	int rounds;
};

/* Both processes run this at once: the count is exact only if the lock
 * excludes across processes. */
static void hammer(struct shared *s)
{
	for (int i = 0; i < ADDS; i++) {
		pthread_mutex_lock(&s->lock);
		s->count++;
		pthread_mutex_unlock(&s->lock);
		if (i % 256 == 0)
			sched_yield();
	}
}

static void child(struct shared *s)
{
	for (int i = 0; i < ROUNDS; i++) {
		sem_wait(&s->ping);
		s->rounds++;
		sem_post(&s->pong);
	}
	hammer(s);
	pthread_mutex_lock(&s->lock);
	while (!s->ready)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	_exit(0);
}

int main(void)
{
	struct shared *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				-1, 0);
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&s->lock, &ma);
	pthread_condattr_init(&ca);
	pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	pthread_cond_init(&s->cond, &ca);
	sem_init(&s->ping, 1, 0);
	sem_init(&s->pong, 1, 0);

	pid_t pid = fork();
	if (pid == 0)
		child(s);
	for (int i = 0; i < ROUNDS; i++) {
		sem_post(&s->ping);
		sem_wait(&s->pong);
	}
	printf("semaphore ping-pong: %d rounds\n", s->rounds);
	hammer(s);
	/* Let the child reach its wait, then wake it through the condvar. */
	for (int i = 0; i < 100; i++)
		sched_yield();
	pthread_mutex_lock(&s->lock);
	s->ready = 1;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	int status;
	waitpid(pid, &status, 0);
	printf("mutex: count %d of %d\n", s->count, 2 * ADDS);
	printf("condvar: child exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);

	/* A semaphore in a file, mapped by each process on its own. */
	unlink("fps");
	int fd = open("fps", O_RDWR | O_CREAT | O_TRUNC, 0644);
	ftruncate(fd, 4096);
	sem_t *fs = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	sem_init(fs, 1, 0);
	pid = fork();
	if (pid == 0) {
		/* Another mapping first, so this one lands elsewhere. */
		mmap(NULL, 3 * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		int cfd = open("fps", O_RDWR);
		sem_t *c = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
		for (int i = 0; i < ROUNDS; i++)
			sem_post(c);
		_exit(c != fs ? 0 : 1);
	}
	for (int i = 0; i < ROUNDS; i++)
		sem_wait(fs);
	waitpid(pid, &status, 0);
	printf("file semaphore: %d posts taken, child at another address %d\n", ROUNDS,
	       WIFEXITED(status) && WEXITSTATUS(status) == 0);
	unlink("fps");
	return 0;
}
