/* A robust mutex whose owner thread dies holding it: the kernel's walk of
 * the dead thread's robust list marks it FUTEX_OWNER_DIED, so the next
 * locker gets EOWNERDEAD, makes it consistent, and carries on. Also a
 * waiter already blocked on it when the owner dies is woken. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t m;
static volatile int locked;

static void *owner(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	locked = 1;
	usleep(20000); /* the main thread blocks on the mutex meanwhile */
	return NULL;   /* dies holding it */
}

static void *owner_quick(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	return NULL;
}

int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&m, &a);

	pthread_t t;
	pthread_create(&t, NULL, owner_quick, NULL);
	pthread_join(t, NULL);
	int r = pthread_mutex_lock(&m);
	printf("lock after the owner died: %s\n", r == EOWNERDEAD ? "EOWNERDEAD" : strerror(r));
	printf("pthread_mutex_consistent: %d\n", pthread_mutex_consistent(&m));
	printf("unlock: %d\n", pthread_mutex_unlock(&m));
	r = pthread_mutex_lock(&m);
	printf("lock again: %d\n", r);
	pthread_mutex_unlock(&m);

	pthread_create(&t, NULL, owner, NULL);
	while (!locked)
		sched_yield();
	r = pthread_mutex_lock(&m); /* blocks until the owner dies */
	printf("waiter blocked when the owner died: %s\n", r == EOWNERDEAD ? "EOWNERDEAD" : strerror(r));
	pthread_mutex_consistent(&m);
	pthread_mutex_unlock(&m);
	pthread_join(t, NULL);
	return 0;
}
